// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The three heuristics on snapshots built from structs. Every expected
 * number is worked out by hand in the comment beside it, from SPEC section
 * 5 and the seeds, never by calling the code under test.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "unit.h"

#define PAGE 4096ul

static const struct oom_meminfo mi0 = { .mem_total_kb = 8000, .swap_total_kb = 4000 };

/* A user process with an mm, read with status and stat. */
static struct oom_task mk(pid_t pid, pid_t ppid, unsigned long rss, unsigned long swap, int adj)
{
	struct oom_task t = {
		.pid = pid,
		.tgid = pid,
		.ppid = ppid,
		.state = 'S',
		.rss_anon_pages = rss,
		.swap_pages = swap,
		.oom_score_adj = adj,
		.oom_score = -1,
		.have = OOM_HAVE_STATUS | OOM_HAVE_STAT | OOM_HAVE_MM,
	};

	snprintf(t.comm, sizeof(t.comm), "task%d", (int)pid);
	return t;
}

/* Takes a copy of @tasks into a new snapshot. */
static struct oom_snapshot *snap_of(const struct oom_task *tasks, size_t n, unsigned long long uptime)
{
	struct oom_task *copy = calloc(n ? n : 1, sizeof(*copy));
	struct oom_snapshot *snap = NULL;

	assert_non_null(copy);
	memcpy(copy, tasks, n * sizeof(*copy));
	assert_int_equal(oom_snapshot_from_tasks(copy, n, &mi0, PAGE, uptime, &snap), 0);
	return snap;
}

static struct oom_score_terms score(const struct oom_snapshot *snap, pid_t pid, enum oom_heuristic h,
				    unsigned long totalpages, unsigned long thres)
{
	struct oom_score_params p = { .heuristic = h, .totalpages = totalpages, .forkbomb_thres = thres };
	struct oom_score_terms terms;
	const struct oom_task *t = oom_snapshot_find(snap, pid);

	assert_non_null(t);
	assert_int_equal(oom_score_task(snap, t, &p, &terms), 0);
	return terms;
}

/* ---- rewrite ---------------------------------------------------------- */

static void rewrite_terms(void **state)
{
	struct oom_task ts[] = {
		mk(10, 1, 0, 500, 0), /* rss filled below */
		mk(11, 1, 1000, 500, 0),
		mk(12, 1, 1000, 500, 100),
		mk(13, 1, 1000, 500, -200),
		mk(14, 1, 9000, 1000, 500),
		mk(15, 1, 1000, 500, 0),
	};
	struct oom_snapshot *snap;
	struct oom_score_terms r;

	(void)state;
	/* 600 anon + 300 file + 100 shmem: all three count as rss. */
	ts[0].rss_anon_pages = 600;
	ts[0].rss_file_pages = 300;
	ts[0].rss_shmem_pages = 100;
	ts[5].cap_eff = 1ull << OOM_CAP_SYS_ADMIN;
	snap = snap_of(ts, ARRAY_SIZE(ts), 0);

	/* (1000 + 500) * 1000 / 10000 = 150 */
	r = score(snap, 10, OOM_HEURISTIC_REWRITE, 10000, 0);
	assert_true(r.eligible);
	assert_int_equal(r.rss_pages, 1000);
	assert_int_equal(r.swap_pages, 500);
	assert_int_equal(r.base, 150);
	assert_int_equal(r.root_bonus, 0);
	assert_int_equal(r.adj_term, 0);
	assert_int_equal(r.forkbomb_penalty, 0);
	assert_int_equal(r.score, 150);
	assert_false(r.clamped);

	/* 150 + 100 = 250 */
	r = score(snap, 12, OOM_HEURISTIC_REWRITE, 10000, 0);
	assert_int_equal(r.adj_term, 100);
	assert_int_equal(r.score, 250);

	/* 150 - 200 = -50, clamped to 0 */
	r = score(snap, 13, OOM_HEURISTIC_REWRITE, 10000, 0);
	assert_int_equal(r.unclamped, -50);
	assert_true(r.clamped);
	assert_int_equal(r.score, 0);

	/* (9000 + 1000) * 1000 / 10000 = 1000, + 500 = 1500, clamped to 1000 */
	r = score(snap, 14, OOM_HEURISTIC_REWRITE, 10000, 0);
	assert_int_equal(r.base, 1000);
	assert_int_equal(r.unclamped, 1500);
	assert_true(r.clamped);
	assert_int_equal(r.score, 1000);

	/* CAP_SYS_ADMIN: 150 - 30 = 120 */
	r = score(snap, 15, OOM_HEURISTIC_REWRITE, 10000, 0);
	assert_int_equal(r.root_bonus, -30);
	assert_int_equal(r.score, 120);

	/* totalpages 3000: 1500 * 1000 / 3000 = 500 */
	r = score(snap, 11, OOM_HEURISTIC_REWRITE, 3000, 0);
	assert_int_equal(r.score, 500);
	/* Truncation: 1500 * 1000 / 7000 = 214.28 -> 214 */
	r = score(snap, 11, OOM_HEURISTIC_REWRITE, 7000, 0);
	assert_int_equal(r.score, 214);
	oom_snapshot_free(snap);
}

static void rewrite_totalpages_zero(void **state)
{
	struct oom_task ts[] = { mk(20, 1, 1, 0, -600), mk(21, 1, 0, 0, 0) };
	struct oom_snapshot *snap = snap_of(ts, ARRAY_SIZE(ts), 0);
	struct oom_score_terms r;

	(void)state;
	/* totalpages 0 is taken as 1: 1 * 1000 / 1 = 1000, - 600 = 400 */
	r = score(snap, 20, OOM_HEURISTIC_REWRITE, 0, 0);
	assert_int_equal(r.base, 1000);
	assert_int_equal(r.score, 400);
	/* Nothing in memory: 0, still eligible */
	r = score(snap, 21, OOM_HEURISTIC_REWRITE, 0, 0);
	assert_true(r.eligible);
	assert_int_equal(r.score, 0);
	oom_snapshot_free(snap);
}

static void rewrite_ineligible(void **state)
{
	struct oom_task ts[] = {
		mk(1, 0, 5000, 0, 0), /* init */
		mk(2, 0, 0, 0, 0), /* kthreadd */
		mk(30, 1, 5000, 0, -1000),
		mk(31, 1, 5000, 0, 0), /* no mm left */
		mk(32, 1, 5000, 0, -999),
	};
	struct oom_snapshot *snap;
	struct oom_score_terms r;

	(void)state;
	ts[1].flags = OOM_PF_KTHREAD;
	ts[1].have &= ~OOM_HAVE_MM;
	ts[3].have &= ~OOM_HAVE_MM;
	snap = snap_of(ts, ARRAY_SIZE(ts), 0);
	for (enum oom_heuristic h = OOM_HEURISTIC_REWRITE; h <= OOM_HEURISTIC_LEGACY; h++) {
		static const pid_t never[] = { 1, 2, 30, 31 };

		for (size_t i = 0; i < ARRAY_SIZE(never); i++) {
			r = score(snap, never[i], h, 10000, 0);
			assert_false(r.eligible);
			assert_int_equal(r.score, 0);
		}
	}
	/* -999 is not -1000: 5000 * 1000 / 10000 = 500, - 999 -> 0, but a candidate */
	r = score(snap, 32, OOM_HEURISTIC_REWRITE, 10000, 0);
	assert_true(r.eligible);
	assert_int_equal(r.score, 0);
	oom_snapshot_free(snap);
}

/* ---- forkbomb penalty (seed 010) -------------------------------------- */

/* Parent 100 (1000 pages of 10000 -> base 100) with @n children of 40 pages each, 0.99 s of CPU. */
static struct oom_snapshot *forkbomb_snap(size_t n, void (*edit)(struct oom_task *kids, size_t n))
{
	struct oom_task ts[16];

	assert_true(n + 1 <= ARRAY_SIZE(ts));
	ts[0] = mk(100, 1, 1000, 0, 0);
	for (size_t i = 0; i < n; i++) {
		ts[i + 1] = mk((pid_t)(101 + i), 100, 40, 0, 0);
		ts[i + 1].utime_ticks = 50;
		ts[i + 1].stime_ticks = 49;
	}
	if (edit)
		edit(ts + 1, n);
	return snap_of(ts, n + 1, 0);
}

static void forkbomb_threshold(void **state)
{
	struct oom_snapshot *snap;
	struct oom_score_terms r;

	(void)state;
	/* Below the threshold: 2 children, threshold 3: no penalty. */
	snap = forkbomb_snap(2, NULL);
	r = score(snap, 100, OOM_HEURISTIC_REWRITE, 10000, 3);
	assert_int_equal(r.forkbomb_children, 2);
	assert_int_equal(r.forkbomb_penalty, 0);
	assert_int_equal(r.score, 100);
	oom_snapshot_free(snap);

	/* At it: 3 children is not more than 3: no penalty. */
	snap = forkbomb_snap(3, NULL);
	r = score(snap, 100, OOM_HEURISTIC_REWRITE, 10000, 3);
	assert_int_equal(r.forkbomb_children, 3);
	assert_int_equal(r.forkbomb_children_rss_pages, 120);
	assert_int_equal(r.forkbomb_penalty, 0);
	assert_int_equal(r.score, 100);
	oom_snapshot_free(snap);

	/* Above: 4 children of 40 pages: 160 / 3 = 53 pages onto the score: 100 + 53 = 153 */
	snap = forkbomb_snap(4, NULL);
	r = score(snap, 100, OOM_HEURISTIC_REWRITE, 10000, 3);
	assert_int_equal(r.forkbomb_children, 4);
	assert_int_equal(r.forkbomb_children_rss_pages, 160);
	assert_int_equal(r.forkbomb_penalty, 53);
	assert_int_equal(r.base, 100);
	assert_int_equal(r.score, 153);
	/* Threshold 0 disables it. */
	r = score(snap, 100, OOM_HEURISTIC_REWRITE, 10000, 0);
	assert_int_equal(r.forkbomb_penalty, 0);
	assert_int_equal(r.score, 100);
	/* Threshold 1: 4 > 1, 160 / 1 = 160: 260 */
	r = score(snap, 100, OOM_HEURISTIC_REWRITE, 10000, 1);
	assert_int_equal(r.forkbomb_penalty, 160);
	assert_int_equal(r.score, 260);
	/* The children themselves have none: 40 * 1000 / 10000 = 4 */
	r = score(snap, 101, OOM_HEURISTIC_REWRITE, 10000, 1);
	assert_int_equal(r.forkbomb_penalty, 0);
	assert_int_equal(r.score, 4);
	/* The penalty is a rewrite term only: kernel points are 1000 pages. */
	r = score(snap, 100, OOM_HEURISTIC_KERNEL, 10000, 1);
	assert_int_equal(r.forkbomb_penalty, 0);
	assert_int_equal(r.score, 1000);
	oom_snapshot_free(snap);
}

static void kids_one_second(struct oom_task *kids, size_t n)
{
	(void)n;
	/* 60 + 40 = 100 ticks = 1 s: not "under one second" */
	kids[0].utime_ticks = 60;
	kids[0].stime_ticks = 40;
	kids[1].utime_ticks = 0;
	kids[1].stime_ticks = 5000;
}

static void kids_without_mm(struct oom_task *kids, size_t n)
{
	(void)n;
	kids[0].have &= ~OOM_HAVE_MM; /* exited: a zombie child */
	kids[1].have &= ~OOM_HAVE_MM;
}

static void forkbomb_children_not_counted(void **state)
{
	struct oom_snapshot *snap;
	struct oom_score_terms r;

	(void)state;
	/* 5 children, 2 with >= 1 s of CPU: 3 count, 3 is not > 3: no penalty */
	snap = forkbomb_snap(5, kids_one_second);
	r = score(snap, 100, OOM_HEURISTIC_REWRITE, 10000, 3);
	assert_int_equal(r.forkbomb_children, 3);
	assert_int_equal(r.forkbomb_children_rss_pages, 120);
	assert_int_equal(r.forkbomb_penalty, 0);
	/* threshold 2: 3 > 2, 120 / 2 = 60: 160 */
	r = score(snap, 100, OOM_HEURISTIC_REWRITE, 10000, 2);
	assert_int_equal(r.forkbomb_penalty, 60);
	assert_int_equal(r.score, 160);
	oom_snapshot_free(snap);

	/* 5 children, 2 without an mm: likewise 3 */
	snap = forkbomb_snap(5, kids_without_mm);
	r = score(snap, 100, OOM_HEURISTIC_REWRITE, 10000, 2);
	assert_int_equal(r.forkbomb_children, 3);
	assert_int_equal(r.forkbomb_penalty, 60);
	oom_snapshot_free(snap);
}

/* ---- kernel ----------------------------------------------------------- */

static void kernel_points(void **state)
{
	struct oom_task ts[] = {
		mk(40, 1, 0, 200, 0), mk(41, 1, 3000, 200, 300), mk(42, 1, 3000, 200, -500), mk(43, 1, 3000, 200, -1000),
		mk(44, 1, 3000, 200, 1000),
	};
	struct oom_snapshot *snap;
	struct oom_score_terms r;

	(void)state;
	/* rss 3000 anon + 1500 file + 500 shmem = 5000, swap 200, 65536 B of page tables = 16 pages */
	for (size_t i = 0; i < ARRAY_SIZE(ts); i++) {
		ts[i].rss_anon_pages = 3000;
		ts[i].rss_file_pages = 1500;
		ts[i].rss_shmem_pages = 500;
		ts[i].pgtables_bytes = 65536 + 4095; /* a partial page does not count */
	}
	snap = snap_of(ts, ARRAY_SIZE(ts), 0);

	/* 5000 + 200 + 16 = 5216; shown as (1000 + 5216 * 1000 / 1000000) * 2 / 3 = 1005 * 2 / 3 = 670 */
	r = score(snap, 40, OOM_HEURISTIC_KERNEL, 1000000, 0);
	assert_true(r.eligible);
	assert_int_equal(r.pgtables_pages, 16);
	assert_int_equal(r.base, 5216);
	assert_int_equal(r.adj_term, 0);
	assert_int_equal(r.score, 5216);
	assert_int_equal(r.oom_score, 670);

	/* adj 300 in units of totalpages / 1000 = 1000: 5216 + 300000 = 305216; (1000 + 305) * 2 / 3 = 870 */
	r = score(snap, 41, OOM_HEURISTIC_KERNEL, 1000000, 0);
	assert_int_equal(r.adj_term, 300000);
	assert_int_equal(r.score, 305216);
	assert_int_equal(r.oom_score, 870);

	/* adj -500: 5216 - 500000 = -494784 (negative points are kept);
	 * -494784000 / 1000000 = -494 (toward zero); (1000 - 494) * 2 / 3 = 1012 / 3 = 337 */
	r = score(snap, 42, OOM_HEURISTIC_KERNEL, 1000000, 0);
	assert_int_equal(r.score, -494784);
	assert_int_equal(r.oom_score, 337);

	/* totalpages 2999: the unit is 2999 / 1000 = 2 pages: 5216 + 600 = 5816 */
	r = score(snap, 41, OOM_HEURISTIC_KERNEL, 2999, 0);
	assert_int_equal(r.score, 5816);
	/* (1000 + 5816000 / 2999) * 2 / 3 = (1000 + 1939) * 2 / 3 = 5878 / 3 = 1959 */
	assert_int_equal(r.oom_score, 1959);

	/* totalpages 999: the unit is 0, adj is ignored: 5216 */
	r = score(snap, 44, OOM_HEURISTIC_KERNEL, 999, 0);
	assert_int_equal(r.adj_term, 0);
	assert_int_equal(r.score, 5216);

	/* -1000: never a candidate, shown as 0 */
	r = score(snap, 43, OOM_HEURISTIC_KERNEL, 1000000, 0);
	assert_false(r.eligible);
	assert_int_equal(r.oom_score, 0);
	oom_snapshot_free(snap);
}

static void kernel_display_score(void **state)
{
	(void)state;
	/* (1000 + 0) * 2 / 3 = 666 */
	assert_int_equal(oom_kernel_display_score(0, 6433039, true), 666);
	/* (1000 + 1000) * 2 / 3 = 1333 */
	assert_int_equal(oom_kernel_display_score(6433039, 6433039, true), 1333);
	/* hog of the basic fixture: 16409 anon + 324 file + 44 page-table pages + 1000 * 6433
	 * = 6449777; 6449777000 / 6433039 = 1002; (1000 + 1002) * 2 / 3 = 1334 */
	assert_int_equal(oom_kernel_display_score(6449777, 6433039, true), 1334);
	/* -2000 * 1000 / 1000 = -2000: (1000 - 2000) * 2 / 3 = -666 */
	assert_int_equal(oom_kernel_display_score(-2000, 1000, true), -666);
	/* -1500 / 1000 * ...: -1500000 / 1000 = -1500 -> (-500) * 2 / 3 = -333 */
	assert_int_equal(oom_kernel_display_score(-1500, 1000, true), -333);
	/* ineligible (init, kthread, -1000) shows 0 whatever the points */
	assert_int_equal(oom_kernel_display_score(5000, 1000, false), 0);
	assert_int_equal(oom_kernel_display_score(0, 1000, false), 0);
}

/* ---- legacy ----------------------------------------------------------- */

/*
 * Task 50: total_vm 10000; children 51 (total_vm 1001) and 52 (3000) with an
 * mm, 53 without one. CPU 9216 ticks: >> 10 = 9, int_sqrt 3. Started at
 * 100 s (10000 ticks); uptime 100 + 16 * 1024 = 16484 s: run time >> 10 =
 * 16, int_sqrt(int_sqrt(16)) = 2.
 * children: 1001 / 2 + 1 = 501, 3000 / 2 + 1 = 1501: 2002.
 * points = 12002 / 3 = 4000 (4000.67), / 2 = 2000.
 */
static struct oom_snapshot *legacy_snap(void (*edit)(struct oom_task *t))
{
	struct oom_task ts[] = { mk(50, 1, 0, 0, 0), mk(51, 50, 0, 0, 0), mk(52, 50, 0, 0, 0), mk(53, 50, 0, 0, 0) };

	ts[0].total_vm_pages = 10000;
	ts[0].utime_ticks = 9000;
	ts[0].stime_ticks = 216;
	ts[0].start_ticks = 10000;
	ts[1].total_vm_pages = 1001;
	ts[2].total_vm_pages = 3000;
	ts[3].total_vm_pages = 7777;
	ts[3].have &= ~OOM_HAVE_MM;
	if (edit)
		edit(&ts[0]);
	return snap_of(ts, ARRAY_SIZE(ts), 16484);
}

static long legacy(void (*edit)(struct oom_task *t), struct oom_score_terms *out)
{
	struct oom_snapshot *snap = legacy_snap(edit);
	struct oom_score_terms r = score(snap, 50, OOM_HEURISTIC_LEGACY, 3000, 1000);

	oom_snapshot_free(snap);
	if (out)
		*out = r;
	return r.score;
}

static void ed_nice(struct oom_task *t) { t->nice = 5; }
static void ed_nice_neg(struct oom_task *t) { t->nice = -5; }
static void ed_resource(struct oom_task *t) { t->cap_eff = 1ull << OOM_CAP_SYS_RESOURCE; }
static void ed_admin_resource(struct oom_task *t)
{
	t->cap_eff = (1ull << OOM_CAP_SYS_ADMIN) | (1ull << OOM_CAP_SYS_RESOURCE);
}
static void ed_admin_rawio(struct oom_task *t)
{
	t->cap_eff = (1ull << OOM_CAP_SYS_ADMIN) | (1ull << OOM_CAP_SYS_RAWIO);
}
static void ed_adj500(struct oom_task *t) { t->oom_score_adj = 500; }
static void ed_adj_m300(struct oom_task *t) { t->oom_score_adj = -300; }
static void ed_adj1000(struct oom_task *t) { t->oom_score_adj = 1000; }
static void ed_young(struct oom_task *t)
{
	t->utime_ticks = 1023; /* >> 10 = 0: no divisor */
	t->stime_ticks = 0;
	t->start_ticks = 100 * (16484 - 1023); /* 1023 s ago: >> 10 = 0 */
}

static void legacy_terms(void **state)
{
	struct oom_score_terms r;

	(void)state;
	assert_int_equal(legacy(NULL, &r), 2000);
	assert_int_equal(r.total_vm_pages, 10000);
	assert_int_equal(r.children_vm_pages, 2002);
	assert_int_equal(r.cpu_time, 9);
	assert_int_equal(r.cpu_divisor, 3);
	assert_int_equal(r.run_time, 16);
	assert_int_equal(r.run_divisor, 2);
	assert_false(r.nice_doubled);
	assert_int_equal(r.cap_quarters, 0);
	assert_int_equal(r.oom_adj, 0);

	/* nice > 0 doubles: 4000; nice < 0 does nothing */
	assert_int_equal(legacy(ed_nice, &r), 4000);
	assert_true(r.nice_doubled);
	assert_int_equal(legacy(ed_nice_neg, NULL), 2000);

	/* CAP_SYS_RESOURCE: 2000 / 4 = 500; ADMIN and RESOURCE together still one quarter */
	assert_int_equal(legacy(ed_resource, &r), 500);
	assert_int_equal(r.cap_quarters, 1);
	assert_int_equal(legacy(ed_admin_resource, NULL), 500);
	/* ADMIN and RAWIO: 2000 / 4 / 4 = 125 */
	assert_int_equal(legacy(ed_admin_rawio, &r), 125);
	assert_int_equal(r.cap_quarters, 2);

	/* oom_score_adj 500 reads as oom_adj 500 * 17 / 1000 = 8: 2000 << 8 = 512000 */
	assert_int_equal(legacy(ed_adj500, &r), 512000);
	assert_int_equal(r.oom_adj, 8);
	/* -300 reads as -5100 / 1000 = -5: 2000 >> 5 = 62 */
	assert_int_equal(legacy(ed_adj_m300, &r), 62);
	assert_int_equal(r.oom_adj, -5);
	/* 1000 reads as 15: 2000 << 15 = 65536000 */
	assert_int_equal(legacy(ed_adj1000, &r), 65536000);

	/* Under 1024 ticks and 1024 s: no divisors: 10000 + 2002 = 12002 */
	assert_int_equal(legacy(ed_young, &r), 12002);
	assert_int_equal(r.cpu_time, 0);
	assert_int_equal(r.run_time, 0);
	assert_int_equal(r.cpu_divisor, 1);
	assert_int_equal(r.run_divisor, 1);
}

static void legacy_zero_raised(void **state)
{
	struct oom_task ts[] = { mk(60, 1, 0, 0, 59), mk(61, 1, 0, 0, 0) };
	struct oom_snapshot *snap;
	struct oom_score_terms r;

	(void)state;
	snap = snap_of(ts, ARRAY_SIZE(ts), 10);
	/* total_vm 0, no children: 0; adj 59 reads as 1003 / 1000 = 1: 0 raised to 1, << 1 = 2 */
	r = score(snap, 60, OOM_HEURISTIC_LEGACY, 3000, 0);
	assert_int_equal(r.oom_adj, 1);
	assert_int_equal(r.score, 2);
	/* adj 0 leaves 0 at 0 */
	r = score(snap, 61, OOM_HEURISTIC_LEGACY, 3000, 0);
	assert_int_equal(r.score, 0);
	oom_snapshot_free(snap);
}

static void int_sqrt(void **state)
{
	static const unsigned long cases[][2] = {
		{ 0, 0 }, { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 2 }, { 8, 2 }, { 9, 3 }, { 15, 3 }, { 16, 4 },
		{ 1000000000000ul, 1000000 }, { 999999999999ul, 999999 }, { ~0ul, 4294967295ul },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		assert_int_equal(oom_int_sqrt(cases[i][0]), cases[i][1]);
}

/* ---- system totalpages, names, bad input ------------------------------ */

static void system_totalpages(void **state)
{
	const struct oom_meminfo mi = {
		.mem_total_kb = 8000,
		.mem_free_kb = 5000,
		.active_anon_kb = 400,
		.inactive_anon_kb = 800,
		.active_file_kb = 1200,
		.inactive_file_kb = 1600,
		.swap_total_kb = 4000,
	};
	enum oom_total_source src;

	(void)state;
	/* rewrite: LRU 400 + 800 + 1200 + 1600 + swap 4000 = 8000 kB = 2000 pages */
	assert_int_equal(oom_system_totalpages(&mi, 4096, OOM_HEURISTIC_REWRITE, &src), 2000);
	assert_int_equal(src, OOM_TOTAL_LRU_SWAP);
	/* kernel: 8000 + 4000 = 12000 kB = 3000 pages; legacy likewise */
	assert_int_equal(oom_system_totalpages(&mi, 4096, OOM_HEURISTIC_KERNEL, &src), 3000);
	assert_int_equal(src, OOM_TOTAL_RAM_SWAP);
	assert_int_equal(oom_system_totalpages(&mi, 4096, OOM_HEURISTIC_LEGACY, &src), 3000);
	assert_int_equal(src, OOM_TOTAL_RAM_SWAP);
	/* 64 KiB pages: 8000 kB = 125 pages; 12000 kB = 187.5 -> 187 */
	assert_int_equal(oom_system_totalpages(&mi, 65536, OOM_HEURISTIC_REWRITE, NULL), 125);
	assert_int_equal(oom_system_totalpages(&mi, 65536, OOM_HEURISTIC_KERNEL, NULL), 187);
	/* The basic fixture: (24683584 + 1048572) / 4 = 6433039 */
	{
		const struct oom_meminfo big = { .mem_total_kb = 24683584, .swap_total_kb = 1048572 };

		assert_int_equal(oom_system_totalpages(&big, 4096, OOM_HEURISTIC_KERNEL, NULL), 6433039);
	}
}

/* Hostile figures saturate instead of overflowing (the fuzzer's inputs). */
static void huge_values(void **state)
{
	struct oom_task ts[] = { mk(80, 1, ~0ul / 2, ~0ul / 2, 1000), mk(81, 1, 0, 0, -999) };
	struct oom_snapshot *snap = snap_of(ts, ARRAY_SIZE(ts), 0);
	struct oom_snapshot *empty = NULL;
	struct oom_score_terms r;
	const size_t *idx;

	(void)state;
	/* (1000 + 0) * 2 / 3 = 666 whatever the size of totalpages */
	assert_int_equal(oom_kernel_display_score(1000, ~0ul, true), 666);
	assert_int_equal(oom_kernel_display_score(LONG_MAX, 1, true), LONG_MAX);
	assert_int_equal(oom_kernel_display_score(LONG_MIN, 1, true), LONG_MIN);
	/* rewrite: clamped to 1000 */
	r = score(snap, 80, OOM_HEURISTIC_REWRITE, 1, 0);
	assert_int_equal(r.score, 1000);
	assert_int_equal(r.base, LONG_MAX);
	/* kernel: points and the adj term saturate at LONG_MAX */
	r = score(snap, 80, OOM_HEURISTIC_KERNEL, ~0ul, 0);
	assert_int_equal(r.score, LONG_MAX);
	r = score(snap, 81, OOM_HEURISTIC_KERNEL, ~0ul, 0);
	assert_true(r.score < 0);
	oom_snapshot_free(snap);

	/* An empty /proc: no tasks at all */
	assert_int_equal(oom_snapshot_from_tasks(NULL, 0, &mi0, PAGE, 0, &empty), 0);
	assert_int_equal(oom_snapshot_count(empty), 0);
	assert_null(oom_snapshot_task(empty, 0));
	assert_null(oom_snapshot_find(empty, 1));
	assert_int_equal(oom_snapshot_children(empty, 1, &idx), 0);
	oom_snapshot_free(empty);
}

static void names_and_bad_input(void **state)
{
	struct oom_task t = mk(70, 1, 10, 0, 0);
	struct oom_score_params p = { .heuristic = OOM_HEURISTIC_REWRITE, .totalpages = 100 };
	struct oom_score_terms r;
	enum oom_heuristic h;

	(void)state;
	assert_int_equal(oom_heuristic_from_name("rewrite", &h), 0);
	assert_int_equal(h, OOM_HEURISTIC_REWRITE);
	assert_int_equal(oom_heuristic_from_name("kernel", &h), 0);
	assert_int_equal(h, OOM_HEURISTIC_KERNEL);
	assert_int_equal(oom_heuristic_from_name("legacy", &h), 0);
	assert_int_equal(h, OOM_HEURISTIC_LEGACY);
	assert_int_equal(oom_heuristic_from_name("Kernel", &h), -EINVAL);
	assert_int_equal(oom_heuristic_from_name("", &h), -EINVAL);
	assert_int_equal(oom_heuristic_from_name(NULL, &h), -EINVAL);
	assert_string_equal(oom_heuristic_name(OOM_HEURISTIC_LEGACY), "legacy");
	assert_null(oom_heuristic_name((enum oom_heuristic)3));

	/* Without a snapshot (no children): 10 * 1000 / 100 = 100 */
	assert_int_equal(oom_score_task(NULL, &t, &p, &r), 0);
	assert_int_equal(r.score, 100);
	p.heuristic = (enum oom_heuristic)7;
	assert_int_equal(oom_score_task(NULL, &t, &p, &r), -EINVAL);
	p.heuristic = OOM_HEURISTIC_REWRITE;
	assert_int_equal(oom_score_task(NULL, NULL, &p, &r), -EINVAL);
	assert_int_equal(oom_score_task(NULL, &t, NULL, &r), -EINVAL);
	assert_int_equal(oom_score_task(NULL, &t, &p, NULL), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rewrite_terms),
		cmocka_unit_test(rewrite_totalpages_zero),
		cmocka_unit_test(rewrite_ineligible),
		cmocka_unit_test(forkbomb_threshold),
		cmocka_unit_test(forkbomb_children_not_counted),
		cmocka_unit_test(kernel_points),
		cmocka_unit_test(kernel_display_score),
		cmocka_unit_test(legacy_terms),
		cmocka_unit_test(legacy_zero_raised),
		cmocka_unit_test(int_sqrt),
		cmocka_unit_test(system_totalpages),
		cmocka_unit_test(huge_values),
		cmocka_unit_test(names_and_bad_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
