// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Victim selection: every branch on hand-made snapshots, then decisions on
 * the fixture trees, then the live system (the kernel heuristic against
 * /proc/PID/oom_score, and a memcg made for the test).
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit.h"
#include "fixture.h"
#include "constraint.h"

#define SIGKILL_PENDING (1ull << 8) /* signal 9 */

/* 4000 kB of LRU and of MemTotal: totalpages 1000 for every heuristic, so a rewrite score is rss + adj. */
static const struct oom_meminfo mi_1000 = { .mem_total_kb = 4000, .active_anon_kb = 4000 };

struct spec {
	pid_t pid, ppid;
	const char *comm;
	unsigned long rss; /* anon pages */
	int adj;
	const char *cgroup; /* v2 path, or NULL */
	unsigned long mems; /* node bits, 0: not read */
};

static struct oom_snapshot *snap_of(const struct spec *s, size_t n)
{
	struct oom_task *ts = calloc(n ? n : 1, sizeof(*ts));
	struct oom_snapshot *snap;

	assert_non_null(ts);
	for (size_t i = 0; i < n; i++) {
		struct oom_task *t = &ts[i];

		t->pid = t->tgid = s[i].pid;
		t->ppid = s[i].ppid;
		snprintf(t->comm, sizeof(t->comm), "%s", s[i].comm);
		t->state = 'S';
		t->rss_anon_pages = s[i].rss;
		t->total_vm_pages = 2 * s[i].rss + 100;
		t->oom_score_adj = s[i].adj;
		t->oom_score = -1;
		t->have = OOM_HAVE_STATUS | OOM_HAVE_STAT | OOM_HAVE_MM;
		if (s[i].cgroup) {
			t->cgroup_v2 = strdup(s[i].cgroup);
			t->have |= OOM_HAVE_CGROUP;
		}
		if (s[i].mems) {
			t->mems_allowed = calloc(OOM_MAX_NODES / 64, sizeof(uint64_t));
			t->mems_allowed[0] = s[i].mems;
			t->have |= OOM_HAVE_MEMS;
		}
	}
	assert_int_equal(oom_snapshot_from_tasks(ts, n, &mi_1000, 4096, 100000, &snap), 0);
	return snap;
}

/* Direct access to a task of a hand-made snapshot, to set flags and signals. */
static struct oom_task *task_of(struct oom_snapshot *snap, pid_t pid)
{
	struct oom_task *t = (struct oom_task *)oom_snapshot_find(snap, pid);

	assert_non_null(t);
	return t;
}

static struct oom_constraint *memcg(const char *path, unsigned long pages)
{
	struct oom_constraint *c;

	assert_int_equal(constraint_alloc(OOM_CONSTRAINT_MEMCG, &mi_1000, 4096, &c), 0);
	c->memcg_path = strdup(path);
	c->memcg_version = 2;
	c->memcg_limited = true;
	c->memcg_pages = pages;
	return c;
}

static struct oom_constraint *nodes(enum oom_constraint_type type, uint64_t bits, unsigned long pages)
{
	struct oom_constraint *c;

	assert_int_equal(constraint_alloc(type, &mi_1000, 4096, &c), 0);
	c->nodes[0] = bits;
	c->nodes_pages = pages;
	return c;
}

static int sel(const struct oom_snapshot *snap, const struct oom_constraint *c, enum oom_heuristic h,
	       struct oom_selection *out)
{
	struct oom_select_params p = { .heuristic = h };

	return oom_select(snap, c, &p, out);
}

/* A small family: init, a kernel thread, a parent with children, others. */
static const struct spec family[] = {
	{ 1, 0, "init", 900, 0, "/init.scope", 1 },
	{ 2, 0, "kthreadd", 0, 0, NULL, 1 },
	{ 10, 1, "big", 400, 0, "/a", 1 },
	{ 11, 10, "kid-small", 100, 0, "/a", 1 },
	{ 12, 10, "kid-worst", 300, 0, "/a", 1 },
	{ 13, 10, "kid-guard", 390, -1000, "/a", 1 },
	{ 14, 10, "kid-other-cg", 350, 0, "/b", 1 },
	{ 15, 10, "kid-mid", 200, 0, "/a/sub", 1 },
	{ 20, 1, "medium", 250, 0, "/b", 1 },
};

static struct oom_snapshot *family_snap(void)
{
	struct oom_snapshot *s = snap_of(family, ARRAY_SIZE(family));

	task_of(s, 2)->flags |= OOM_PF_KTHREAD;
	task_of(s, 2)->have &= ~(unsigned int)OOM_HAVE_MM;
	return s;
}

/* ---- panic_on_oom (seed 008) ------------------------------------------ */

static void panic_2_always(void **state)
{
	struct oom_snapshot *s = family_snap();
	struct oom_constraint *cs[] = { NULL, memcg("/a", 1000), nodes(OOM_CONSTRAINT_CPUSET, 1, 1000),
					nodes(OOM_CONSTRAINT_MEMPOLICY, 1, 1000) };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cs); i++) {
		struct oom_select_params p = { .heuristic = OOM_HEURISTIC_REWRITE, .panic_on_oom = 2 };
		struct oom_selection out;

		assert_int_equal(oom_select(s, cs[i], &p, &out), 0);
		assert_int_equal(out.outcome, OOM_OUTCOME_PANIC);
		assert_true(out.would_panic);
		assert_null(out.chosen);
		assert_int_equal(out.nlines, 1);
		assert_string_equal(out.lines[0], "Out of memory: compulsory panic_on_oom is enabled");
		oom_constraint_free(cs[i]);
	}
	oom_snapshot_free(s);
}

static void panic_1_only_system_wide(void **state)
{
	struct oom_snapshot *s = family_snap();
	struct oom_constraint *none, *cs[] = { memcg("/a", 1000), nodes(OOM_CONSTRAINT_CPUSET, 1, 1000),
					       nodes(OOM_CONSTRAINT_MEMPOLICY, 1, 1000) };
	struct oom_select_params p = { .heuristic = OOM_HEURISTIC_KERNEL, .panic_on_oom = 1 };
	struct oom_selection out;

	(void)state;
	assert_int_equal(oom_select(s, NULL, &p, &out), 0);
	assert_int_equal(out.outcome, OOM_OUTCOME_PANIC);
	assert_string_equal(out.lines[0], "Out of memory: system-wide panic_on_oom is enabled");
	/* A real "none" constraint object behaves as NULL. */
	assert_int_equal(constraint_alloc(OOM_CONSTRAINT_NONE, &mi_1000, 4096, &none), 0);
	assert_int_equal(oom_select(s, none, &p, &out), 0);
	assert_int_equal(out.outcome, OOM_OUTCOME_PANIC);
	oom_constraint_free(none);
	for (size_t i = 0; i < ARRAY_SIZE(cs); i++) {
		assert_int_equal(oom_select(s, cs[i], &p, &out), 0);
		assert_int_equal(out.outcome, OOM_OUTCOME_KILL);
		assert_false(out.would_panic);
		oom_constraint_free(cs[i]);
	}
	p.panic_on_oom = 3;
	assert_int_equal(oom_select(s, NULL, &p, &out), -EINVAL);
	p.panic_on_oom = -1;
	assert_int_equal(oom_select(s, NULL, &p, &out), -EINVAL);
	oom_snapshot_free(s);
}

/* ---- the scan ------------------------------------------------------------ */

static void highest_wins_never_init_or_kthread(void **state)
{
	struct oom_snapshot *s = family_snap();
	struct oom_selection out;

	(void)state;
	for (int h = OOM_HEURISTIC_REWRITE; h <= OOM_HEURISTIC_LEGACY; h++) {
		assert_int_equal(sel(s, NULL, (enum oom_heuristic)h, &out), 0);
		assert_int_equal(out.outcome, OOM_OUTCOME_KILL);
		/* init has the most memory but is never a candidate. */
		assert_int_equal(out.chosen->tgid, 10);
		assert_int_equal(out.candidates, 7);
		assert_string_equal(out.message, "Out of memory");
	}
	/* rewrite: totalpages 1000, so scores are the page counts. */
	assert_int_equal(sel(s, NULL, OOM_HEURISTIC_REWRITE, &out), 0);
	assert_int_equal(out.totalpages, 1000);
	assert_int_equal(out.total_source, OOM_TOTAL_LRU_SWAP);
	assert_int_equal(out.chosen_score, 400);
	assert_int_equal(out.runner_up->tgid, 14);
	assert_int_equal(out.runner_up_score, 350);
	oom_snapshot_free(s);
}

static void ties(void **state)
{
	static const struct spec twins[] = {
		{ 30, 1, "first", 200, 0, NULL, 0 },
		{ 31, 1, "second", 200, 0, NULL, 0 },
		{ 32, 1, "third", 200, 0, NULL, 0 },
		{ 33, 1, "small", 100, 0, NULL, 0 },
	};
	struct oom_snapshot *s = snap_of(twins, ARRAY_SIZE(twins));
	struct oom_selection out;

	(void)state;
	/* 2.6.36 and 2.6.35: strictly greater, so the first of equals. */
	assert_int_equal(sel(s, NULL, OOM_HEURISTIC_REWRITE, &out), 0);
	assert_int_equal(out.chosen->tgid, 30);
	assert_int_equal(out.runner_up->tgid, 31);
	assert_int_equal(sel(s, NULL, OOM_HEURISTIC_LEGACY, &out), 0);
	assert_int_equal(out.chosen->tgid, 30);
	assert_int_equal(out.runner_up->tgid, 31);
	/* Mainline: "points < chosen_points" skips, so the last of equals. */
	assert_int_equal(sel(s, NULL, OOM_HEURISTIC_KERNEL, &out), 0);
	assert_int_equal(out.chosen->tgid, 32);
	assert_int_equal(out.runner_up->tgid, 31);
	oom_snapshot_free(s);
}

static void nothing_killable(void **state)
{
	static const struct spec none_left[] = {
		{ 1, 0, "init", 900, 0, NULL, 0 },
		{ 40, 1, "guarded", 500, -1000, NULL, 0 },
		{ 41, 1, "empty", 0, 0, NULL, 0 },
		{ 42, 1, "lowered", 300, -301, NULL, 0 },
	};
	struct oom_snapshot *s = snap_of(none_left, ARRAY_SIZE(none_left));
	struct oom_constraint *c = memcg("/", 1000);
	struct oom_selection out;

	(void)state;
	/* rewrite: nobody scores above 0. */
	assert_int_equal(sel(s, NULL, OOM_HEURISTIC_REWRITE, &out), 0);
	assert_int_equal(out.outcome, OOM_OUTCOME_NO_KILLABLE);
	assert_null(out.chosen);
	assert_true(out.would_panic);
	assert_int_equal(out.nlines, 1);
	assert_string_equal(out.lines[0], "Out of memory and no killable processes...");
	/* In a memcg the kernel does not panic for it. */
	task_of(s, 40)->cgroup_v2 = strdup("/");
	task_of(s, 41)->cgroup_v2 = strdup("/");
	task_of(s, 42)->cgroup_v2 = strdup("/");
	assert_int_equal(sel(s, c, OOM_HEURISTIC_REWRITE, &out), 0);
	assert_int_equal(out.outcome, OOM_OUTCOME_NO_KILLABLE);
	assert_false(out.would_panic);
	/* Mainline takes any eligible task, even at 0 or negative points: 41 (0) over 42 (300 - 301). */
	assert_int_equal(sel(s, NULL, OOM_HEURISTIC_KERNEL, &out), 0);
	assert_int_equal(out.outcome, OOM_OUTCOME_KILL);
	assert_int_equal(out.chosen->tgid, 41);
	assert_int_equal(out.chosen_score, 0);
	assert_int_equal(out.runner_up->tgid, 42);
	/* 2.6.35 took the first eligible task whatever its badness. */
	assert_int_equal(sel(s, NULL, OOM_HEURISTIC_LEGACY, &out), 0);
	assert_int_equal(out.outcome, OOM_OUTCOME_KILL);
	/* total_vm / int_sqrt(int_sqrt(100000 >> 10)): 41 has 100 / 3; 42 has 700 / 3 >> 5 (oom_adj -5) = 7. */
	assert_int_equal(out.chosen->tgid, 41);
	assert_int_equal(out.chosen_score, 100 / 3);
	assert_int_equal(out.runner_up->tgid, 42);
	/* ...even at badness 0, where the rewrite finds nobody. */
	task_of(s, 41)->total_vm_pages = 0;
	task_of(s, 42)->oom_score_adj = -1000;
	assert_int_equal(sel(s, NULL, OOM_HEURISTIC_LEGACY, &out), 0);
	assert_int_equal(out.outcome, OOM_OUTCOME_KILL);
	assert_int_equal(out.chosen->tgid, 41);
	assert_int_equal(out.chosen_score, 0);
	assert_int_equal(sel(s, NULL, OOM_HEURISTIC_REWRITE, &out), 0);
	assert_int_equal(out.outcome, OOM_OUTCOME_NO_KILLABLE);
	/* With everyone at -1000, no heuristic finds anybody. */
	task_of(s, 41)->oom_score_adj = -1000;
	for (int h = OOM_HEURISTIC_REWRITE; h <= OOM_HEURISTIC_LEGACY; h++) {
		assert_int_equal(sel(s, NULL, (enum oom_heuristic)h, &out), 0);
		assert_int_equal(out.outcome, OOM_OUTCOME_NO_KILLABLE);
	}
	oom_constraint_free(c);
	oom_snapshot_free(s);
}

/* ---- a kill in progress --------------------------------------------------- */

static void in_progress(void **state)
{
	struct oom_snapshot *s = family_snap();
	struct oom_constraint *c = memcg("/a", 1000);
	struct oom_selection out;

	(void)state;
	/* SIGKILL pending (bit 8) stops the scan, even on a -1000 task. */
	task_of(s, 13)->sig_pending = SIGKILL_PENDING;
	for (int h = OOM_HEURISTIC_REWRITE; h <= OOM_HEURISTIC_LEGACY; h++) {
		assert_int_equal(sel(s, NULL, (enum oom_heuristic)h, &out), 0);
		assert_int_equal(out.outcome, OOM_OUTCOME_IN_PROGRESS);
		assert_int_equal(out.in_progress->tgid, 13);
		assert_null(out.chosen);
		assert_null(out.victim);
		assert_int_equal(out.nlines, 0);
	}
	/* Another signal (SIGTERM, bit 14) is nothing. */
	task_of(s, 13)->sig_pending = 1ull << 14;
	assert_int_equal(sel(s, NULL, OOM_HEURISTIC_REWRITE, &out), 0);
	assert_int_equal(out.outcome, OOM_OUTCOME_KILL);
	/* Exiting with an mm: in progress; exiting without one (memory gone): skipped. */
	task_of(s, 20)->flags |= OOM_PF_EXITING;
	assert_int_equal(sel(s, NULL, OOM_HEURISTIC_KERNEL, &out), 0);
	assert_int_equal(out.outcome, OOM_OUTCOME_IN_PROGRESS);
	assert_int_equal(out.in_progress->tgid, 20);
	/* Outside the constraint it does not matter (20 is in /b). */
	assert_int_equal(sel(s, c, OOM_HEURISTIC_KERNEL, &out), 0);
	assert_int_equal(out.outcome, OOM_OUTCOME_KILL);
	assert_int_equal(out.chosen->tgid, 10);
	/* A zombie leader whose mm a live thread lends (pid != tgid) is not waited for. */
	task_of(s, 20)->pid = 21;
	assert_int_equal(sel(s, NULL, OOM_HEURISTIC_KERNEL, &out), 0);
	assert_int_equal(out.outcome, OOM_OUTCOME_KILL);
	task_of(s, 20)->pid = 20;
	task_of(s, 20)->have &= ~(unsigned int)OOM_HAVE_MM;
	assert_int_equal(sel(s, NULL, OOM_HEURISTIC_KERNEL, &out), 0);
	assert_int_equal(out.outcome, OOM_OUTCOME_KILL);
	oom_constraint_free(c);
	oom_snapshot_free(s);
}

static void allocating_task_being_killed(void **state)
{
	struct oom_snapshot *s = family_snap();
	struct oom_select_params p = { .heuristic = OOM_HEURISTIC_REWRITE, .panic_on_oom = 2, .task = 20 };
	struct oom_selection out;

	(void)state;
	/* Seed 003: current with SIGKILL pending just gets to exit, before panic_on_oom is looked at. */
	task_of(s, 20)->sig_pending = SIGKILL_PENDING;
	assert_int_equal(oom_select(s, NULL, &p, &out), 0);
	assert_int_equal(out.outcome, OOM_OUTCOME_IN_PROGRESS);
	assert_int_equal(out.in_progress->tgid, 20);
	/* An unknown allocating task is an error. */
	p.task = 999;
	assert_int_equal(oom_select(s, NULL, &p, &out), -ESRCH);
	oom_snapshot_free(s);
}

/* ---- oom_kill_allocating_task --------------------------------------------- */

static void allocating_task(void **state)
{
	struct oom_snapshot *s = family_snap();
	struct oom_select_params p = { .heuristic = OOM_HEURISTIC_REWRITE, .kill_allocating_task = true, .task = 20 };
	struct oom_constraint *c = memcg("/", 1000);
	struct oom_selection out;

	(void)state;
	assert_int_equal(oom_select(s, NULL, &p, &out), 0);
	assert_int_equal(out.outcome, OOM_OUTCOME_KILL);
	assert_true(out.allocating_task);
	assert_int_equal(out.chosen->tgid, 20);
	assert_int_equal(out.victim->tgid, 20);
	assert_string_equal(out.message, "Out of memory (oom_kill_allocating_task)");
	/* 2.6.36 passed 0 points for it; 250 pages anon, total_vm 2*250+100 pages. */
	assert_string_equal(out.lines[0], "Out of memory (oom_kill_allocating_task): Kill process 20 (medium) score 0 "
					  "or sacrifice child");
	assert_string_equal(out.lines[1], "Killed process 20 (medium) total-vm:2400kB, anon-rss:1000kB, file-rss:0kB");
	/* Its children are still sacrificed first (rewrite). */
	p.task = 10;
	assert_int_equal(oom_select(s, NULL, &p, &out), 0);
	assert_true(out.allocating_task);
	assert_int_equal(out.chosen->tgid, 10);
	assert_int_equal(out.victim->tgid, 14);
	/* Mainline: one line, that task. */
	p.heuristic = OOM_HEURISTIC_KERNEL;
	assert_int_equal(oom_select(s, NULL, &p, &out), 0);
	assert_int_equal(out.victim->tgid, 10);
	assert_int_equal(out.nlines, 1);
	assert_string_equal(out.lines[0], "Out of memory (oom_kill_allocating_task): Killed process 10 (big) "
					  "total-vm:3600kB, anon-rss:1600kB, file-rss:0kB, shmem-rss:0kB, UID:0 "
					  "pgtables:0kB oom_score_adj:0");
	/* Not for a memcg's OOM: the scan decides. */
	p.heuristic = OOM_HEURISTIC_REWRITE;
	p.task = 20;
	task_of(s, 2)->cgroup_v2 = strdup("/");
	assert_int_equal(oom_select(s, c, &p, &out), 0);
	assert_false(out.allocating_task);
	assert_int_equal(out.chosen->tgid, 10);
	assert_string_equal(out.message, "Memory cgroup out of memory");
	/* Not an unkillable task (-1000), nor init: the scan decides. */
	p.task = 13;
	assert_int_equal(oom_select(s, NULL, &p, &out), 0);
	assert_false(out.allocating_task);
	assert_int_equal(out.chosen->tgid, 10);
	p.task = 1;
	assert_int_equal(oom_select(s, NULL, &p, &out), 0);
	assert_false(out.allocating_task);
	/* The sysctl off: --task alone changes nothing. */
	p.kill_allocating_task = false;
	p.task = 20;
	assert_int_equal(oom_select(s, NULL, &p, &out), 0);
	assert_false(out.allocating_task);
	assert_int_equal(out.chosen->tgid, 10);
	oom_constraint_free(c);
	oom_snapshot_free(s);
}

static void allocating_task_outside_cpuset(void **state)
{
	struct oom_snapshot *s = family_snap();
	struct oom_select_params p = { .heuristic = OOM_HEURISTIC_KERNEL, .kill_allocating_task = true, .task = 20 };
	struct oom_constraint *c = nodes(OOM_CONSTRAINT_CPUSET, 2, 1000);
	struct oom_selection out;

	(void)state;
	/* Mainline requires the allocating task to be cpuset-eligible; 20 is on node 0 only. */
	task_of(s, 11)->mems_allowed[0] = 3;
	assert_int_equal(oom_select(s, c, &p, &out), 0);
	assert_false(out.allocating_task);
	assert_int_equal(out.chosen->tgid, 11);
	assert_int_equal(out.candidates, 1);
	oom_constraint_free(c);
	oom_snapshot_free(s);
}

/* ---- sacrifice (seed 005) -------------------------------------------------- */

static void sacrifice_worst_child(void **state)
{
	struct oom_snapshot *s = family_snap();
	struct oom_selection out;

	(void)state;
	/* Children of 10: 11 (100), 12 (300), 13 (-1000, 390 pages), 14 (350, /b), 15 (200). */
	assert_int_equal(sel(s, NULL, OOM_HEURISTIC_REWRITE, &out), 0);
	assert_int_equal(out.chosen->tgid, 10);
	assert_true(out.sacrificed);
	assert_int_equal(out.victim->tgid, 14);
	assert_int_equal(out.victim_score, 350);
	assert_int_equal(out.nlines, 2);
	assert_string_equal(out.lines[0], "Out of memory: Kill process 10 (big) score 400 or sacrifice child");
	assert_string_equal(out.lines[1],
			    "Killed process 14 (kid-other-cg) total-vm:3200kB, anon-rss:1400kB, file-rss:0kB");
	/* The -1000 child is never picked, however big. */
	task_of(s, 13)->rss_anon_pages = 900;
	assert_int_equal(sel(s, NULL, OOM_HEURISTIC_REWRITE, &out), 0);
	assert_int_equal(out.victim->tgid, 14);
	oom_snapshot_free(s);
}

static void sacrifice_skips_other_memcg(void **state)
{
	struct oom_snapshot *s = family_snap();
	struct oom_constraint *c = memcg("/a", 1000);
	struct oom_selection out;

	(void)state;
	/* In memcg /a, 14 (in /b) is not a candidate: 12 (300) is the worst child; 15 in /a/sub counts. */
	assert_int_equal(sel(s, c, OOM_HEURISTIC_REWRITE, &out), 0);
	assert_int_equal(out.outcome, OOM_OUTCOME_KILL);
	assert_int_equal(out.candidates, 5);
	assert_int_equal(out.total_source, OOM_TOTAL_MEMCG);
	assert_int_equal(out.chosen->tgid, 10);
	assert_int_equal(out.victim->tgid, 12);
	assert_string_equal(out.lines[0], "Memory cgroup out of memory: Kill process 10 (big) score 400 or "
					  "sacrifice child");
	task_of(s, 12)->rss_anon_pages = 10;
	assert_int_equal(sel(s, c, OOM_HEURISTIC_REWRITE, &out), 0);
	assert_int_equal(out.victim->tgid, 15);
	/* legacy: the first child it can kill, in the group: 11. */
	assert_int_equal(sel(s, c, OOM_HEURISTIC_LEGACY, &out), 0);
	assert_int_equal(out.victim->tgid, 11);
	oom_constraint_free(c);
	oom_snapshot_free(s);
}

static void sacrifice_none_scores(void **state)
{
	static const struct spec fam[] = {
		{ 50, 1, "parent", 500, 0, NULL, 0 },
		{ 51, 50, "zero", 0, 0, NULL, 0 },
		{ 52, 50, "lowered", 400, -500, NULL, 0 },
		{ 53, 50, "disabled", 400, -1000, NULL, 0 },
	};
	struct oom_snapshot *s = snap_of(fam, ARRAY_SIZE(fam));
	struct oom_selection out;

	(void)state;
	/* No child scores above 0: the parent itself. */
	assert_int_equal(sel(s, NULL, OOM_HEURISTIC_REWRITE, &out), 0);
	assert_int_equal(out.chosen->tgid, 50);
	assert_false(out.sacrificed);
	assert_int_equal(out.victim->tgid, 50);
	assert_string_equal(out.lines[1], "Killed process 50 (parent) total-vm:4400kB, anon-rss:2000kB, file-rss:0kB");
	/* legacy: the first child with an mm and not OOM_DISABLE: 51, even at badness 0... */
	assert_int_equal(sel(s, NULL, OOM_HEURISTIC_LEGACY, &out), 0);
	assert_int_equal(out.victim->tgid, 51);
	/* ...but not one without an mm; 50's badness is then (1100 + 451 + 451) / 3. */
	task_of(s, 51)->have &= ~(unsigned int)OOM_HAVE_MM;
	assert_int_equal(sel(s, NULL, OOM_HEURISTIC_LEGACY, &out), 0);
	assert_int_equal(out.victim->tgid, 52);
	assert_string_equal(out.lines[0], "Out of memory: Kill process 50 (parent) score 667 or sacrifice child");
	/* mainline: no sacrifice. */
	assert_int_equal(sel(s, NULL, OOM_HEURISTIC_KERNEL, &out), 0);
	assert_int_equal(out.victim->tgid, 50);
	assert_false(out.sacrificed);
	oom_snapshot_free(s);
}

/* ---- lines ------------------------------------------------------------------ */

static void kernel_line_and_escaping(void **state)
{
	static const struct spec one[] = { { 60, 1, "x", 0, 0, NULL, 0 } };
	struct oom_snapshot *s = snap_of(one, ARRAY_SIZE(one));
	struct oom_task *t = task_of(s, 60);
	struct oom_select_params p = { .heuristic = OOM_HEURISTIC_KERNEL };
	struct oom_selection out;

	(void)state;
	strcpy(t->comm, "evil\x1b[31m");
	t->pid = 61; /* a zombie leader: the thread with the mm is named */
	t->uid = 1000;
	t->total_vm_pages = 1000;
	t->rss_anon_pages = 10;
	t->rss_file_pages = 20;
	t->rss_shmem_pages = 30;
	t->pgtables_bytes = 8192;
	t->oom_score_adj = -7;
	assert_int_equal(oom_select(s, NULL, &p, &out), 0);
	assert_string_equal(out.lines[0], "Out of memory: Killed process 61 (evil\x1b[31m) total-vm:4000kB, "
					  "anon-rss:40kB, file-rss:80kB, shmem-rss:120kB, UID:1000 pgtables:8kB "
					  "oom_score_adj:-7");
	p.escape = OOM_ESCAPE_CONTROL;
	assert_int_equal(oom_select(s, NULL, &p, &out), 0);
	assert_non_null(strstr(out.lines[0], "(evil\\x1b[31m)"));
	/* 2.6.36: the chosen's tgid, the victim's thread, and shmem inside file-rss. */
	p.heuristic = OOM_HEURISTIC_REWRITE;
	p.escape = OOM_ESCAPE_NONE;
	assert_int_equal(oom_select(s, NULL, &p, &out), 0);
	assert_string_equal(out.lines[0], "Out of memory: Kill process 60 (evil\x1b[31m) score 53 or sacrifice child");
	assert_string_equal(out.lines[1], "Killed process 61 (evil\x1b[31m) total-vm:4000kB, anon-rss:40kB, "
					  "file-rss:200kB");
	oom_snapshot_free(s);
}

/* ---- what if -------------------------------------------------------------- */

static void what_if(void **state)
{
	struct oom_snapshot *s = family_snap();
	struct oom_selection out;

	(void)state;
	assert_int_equal(oom_snapshot_set_score_adj(s, 20, 1000), 0);
	assert_int_equal(sel(s, NULL, OOM_HEURISTIC_REWRITE, &out), 0);
	assert_int_equal(out.chosen->tgid, 20);
	assert_int_equal(out.chosen_score, 1000);
	assert_int_equal(out.chosen->oom_score_adj, 1000);
	assert_int_equal(oom_snapshot_set_score_adj(s, 20, -1000), 0);
	assert_int_equal(oom_snapshot_set_score_adj(s, 10, -1000), 0);
	assert_int_equal(sel(s, NULL, OOM_HEURISTIC_REWRITE, &out), 0);
	assert_int_equal(out.chosen->tgid, 14);
	assert_int_equal(oom_snapshot_set_score_adj(s, 20, 1001), -EINVAL);
	assert_int_equal(oom_snapshot_set_score_adj(s, 20, -1001), -EINVAL);
	assert_int_equal(oom_snapshot_set_score_adj(s, 4242, 0), -ESRCH);
	assert_int_equal(oom_snapshot_set_score_adj(NULL, 20, 0), -EINVAL);
	oom_snapshot_free(s);
}

static void bad_arguments(void **state)
{
	struct oom_snapshot *s = family_snap();
	struct oom_select_params p = { .heuristic = (enum oom_heuristic)7 };
	struct oom_selection out;

	(void)state;
	assert_int_equal(oom_select(s, NULL, &p, &out), -EINVAL);
	p.heuristic = OOM_HEURISTIC_REWRITE;
	assert_int_equal(oom_select(NULL, NULL, &p, &out), -EINVAL);
	assert_int_equal(oom_select(s, NULL, NULL, &out), -EINVAL);
	assert_int_equal(oom_select(s, NULL, &p, NULL), -EINVAL);
	assert_string_equal(oom_outcome_name(OOM_OUTCOME_KILL), "kill");
	assert_string_equal(oom_outcome_name(OOM_OUTCOME_NO_KILLABLE), "no-killable");
	assert_null(oom_outcome_name((enum oom_outcome)9));
	oom_snapshot_free(s);
}

static void empty_snapshot(void **state)
{
	struct oom_snapshot *s = snap_of(NULL, 0);
	struct oom_selection out;

	(void)state;
	assert_int_equal(sel(s, NULL, OOM_HEURISTIC_KERNEL, &out), 0);
	assert_int_equal(out.outcome, OOM_OUTCOME_NO_KILLABLE);
	assert_int_equal(out.candidates, 0);
	oom_snapshot_free(s);
}

/* ---- fixture trees (fixture.h: struct fixture_tree and its open/close) ---- */

static void tree_numa_2node(void **state)
{
	struct oom_constraint *c;
	struct oom_selection out;
	struct fixture_tree t;

	(void)state;
	fixture_open_tree(&t, "numa-2node");
	/* System-wide, totalpages (2621440 + 1048576) / 4 = 917504; batch has (614400 + 102400) / 4 pages. */
	assert_int_equal(sel(t.snap, NULL, OOM_HEURISTIC_REWRITE, &out), 0);
	assert_int_equal(out.chosen->tgid, 400);
	assert_int_equal(out.chosen_score, 179200L * 1000 / 917504);
	assert_int_equal(out.runner_up->tgid, 300); /* redis: 128000 pages */
	assert_int_equal(out.runner_up_score, 128000L * 1000 / 917504);
	assert_int_equal(out.victim->tgid, 400);
	/* cpuset of postgres (node 0): (1703936 + 1048576) / 4 = 688128; redis beats postgres (112640 pages). */
	assert_int_equal(oom_constraint_new_cpuset(t.ctx, 100, &c), 0);
	assert_int_equal(oom_select(t.snap, c, &(struct oom_select_params){ .heuristic = OOM_HEURISTIC_REWRITE }, &out),
			 0);
	assert_int_equal(out.totalpages, 688128);
	assert_int_equal(out.chosen->tgid, 300);
	assert_int_equal(out.runner_up->tgid, 100);
	/* Its children: redis-child (25600 pages) is sacrificed; redis-guard is -1000. */
	assert_int_equal(out.victim->tgid, 301);
	assert_string_equal(out.lines[0], "Out of memory: Kill process 300 (redis) score 186 or sacrifice child");
	assert_int_equal(128000L * 1000 / 688128, 186);
	/* total_vm 2 * 102400 + 8192 kB (the fixture's VmSize rule). */
	assert_string_equal(out.lines[1],
			    "Killed process 301 (redis-child) total-vm:212992kB, anon-rss:102400kB, file-rss:0kB");
	oom_constraint_free(c);
	/* mempolicy node 1: postgres (bind:0) is out, batch is in. */
	assert_int_equal(oom_constraint_new_mempolicy(t.ctx, "1", &c), 0);
	assert_int_equal(sel(t.snap, c, OOM_HEURISTIC_KERNEL, &out), 0);
	assert_int_equal(out.chosen->tgid, 400);
	assert_int_equal(out.candidates, 6);
	assert_string_equal(out.lines[0], "Out of memory: Killed process 400 (batch) total-vm:1236992kB, "
					  "anon-rss:614400kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:64kB "
					  "oom_score_adj:0");
	oom_constraint_free(c);
	fixture_close_tree(&t);
}

static void tree_numa_4node(void **state)
{
	struct oom_constraint *c;
	struct oom_selection out;
	struct fixture_tree t;

	(void)state;
	fixture_open_tree(&t, "numa-4node");
	/* System-wide, the dying task on node 3 means a kill is under way. */
	assert_int_equal(sel(t.snap, NULL, OOM_HEURISTIC_REWRITE, &out), 0);
	assert_int_equal(out.outcome, OOM_OUTCOME_IN_PROGRESS);
	assert_int_equal(out.in_progress->tgid, 900);
	/* alpha's cpuset (node 0) does not include it: gamma (interleave 0-1) wins over alpha. */
	assert_int_equal(oom_constraint_new_cpuset(t.ctx, 100, &c), 0);
	assert_int_equal(sel(t.snap, c, OOM_HEURISTIC_REWRITE, &out), 0);
	assert_int_equal(out.outcome, OOM_OUTCOME_KILL);
	assert_int_equal(out.totalpages, 524288 / 4);
	assert_int_equal(out.chosen->tgid, 300);
	assert_int_equal(out.chosen_score, 76800L * 1000 / 131072);
	assert_int_equal(out.runner_up->tgid, 100);
	oom_constraint_free(c);
	/* Nodes 2-3 include the dying task again. */
	assert_int_equal(oom_constraint_new_mempolicy(t.ctx, "2-3", &c), 0);
	assert_int_equal(sel(t.snap, c, OOM_HEURISTIC_LEGACY, &out), 0);
	assert_int_equal(out.outcome, OOM_OUTCOME_IN_PROGRESS);
	oom_constraint_free(c);
	/* Node 2 alone: delta (25600 pages of 65536) over epsilon-b (20480). */
	assert_int_equal(oom_constraint_new_mempolicy(t.ctx, "2", &c), 0);
	assert_int_equal(sel(t.snap, c, OOM_HEURISTIC_REWRITE, &out), 0);
	assert_int_equal(out.chosen->tgid, 400);
	assert_int_equal(out.chosen_score, 25600L * 1000 / 65536);
	assert_int_equal(out.runner_up->tgid, 502);
	oom_constraint_free(c);
	fixture_close_tree(&t);
}

static void tree_memcg_v2(void **state)
{
	struct oom_select_params p = { .heuristic = OOM_HEURISTIC_REWRITE, .panic_on_oom = 1 };
	struct oom_constraint *c;
	struct oom_selection out;
	struct fixture_tree t;

	(void)state;
	fixture_open_tree(&t, "memcg-v2");
	/* /work/job1: 256 MiB, no swap = 65536 pages. runner (38400 pages) is chosen; of its children
	 * uploader (another memcg) and guard (-1000) are skipped: step-small (10240 pages) is killed. */
	assert_int_equal(oom_constraint_new_memcg(t.ctx, "/work/job1", &c), 0);
	assert_int_equal(oom_select(t.snap, c, &p, &out), 0); /* panic_on_oom 1 does not apply to a memcg */
	assert_int_equal(out.outcome, OOM_OUTCOME_KILL);
	assert_int_equal(out.chosen->tgid, 300);
	assert_int_equal(out.chosen_score, 38400L * 1000 / 65536);
	assert_int_equal(out.victim->tgid, 301);
	assert_int_equal(out.victim_score, 10240L * 1000 / 65536);
	assert_string_equal(out.lines[0], "Memory cgroup out of memory: Kill process 300 (runner) score 585 or "
					  "sacrifice child");
	assert_string_equal(out.lines[1],
			    "Killed process 301 (step-small) total-vm:90112kB, anon-rss:40960kB, file-rss:0kB");
	/* Mainline: the runner itself, one line. */
	p.heuristic = OOM_HEURISTIC_KERNEL;
	assert_int_equal(oom_select(t.snap, c, &p, &out), 0);
	assert_int_equal(out.victim->tgid, 300);
	assert_string_equal(out.lines[0], "Memory cgroup out of memory: Killed process 300 (runner) total-vm:315392kB, "
					  "anon-rss:153600kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:64kB "
					  "oom_score_adj:0");
	/* panic_on_oom 2 panics even here. */
	p.panic_on_oom = 2;
	assert_int_equal(oom_select(t.snap, c, &p, &out), 0);
	assert_int_equal(out.outcome, OOM_OUTCOME_PANIC);
	oom_constraint_free(c);
	/* /work: 786432 pages; builder (204800) then its child cc1 (51200, nested group) is sacrificed. */
	p.heuristic = OOM_HEURISTIC_REWRITE;
	p.panic_on_oom = 0;
	assert_int_equal(oom_constraint_new_memcg(t.ctx, "/work", &c), 0);
	assert_int_equal(oom_select(t.snap, c, &p, &out), 0);
	assert_int_equal(out.chosen->tgid, 400);
	assert_int_equal(out.chosen_score, 204800L * 1000 / 786432);
	assert_int_equal(out.victim->tgid, 401);
	oom_constraint_free(c);
	/* /batch: its exiting task is a kill in progress; elsewhere it is not (above). */
	assert_int_equal(oom_constraint_new_memcg(t.ctx, "/batch", &c), 0);
	assert_int_equal(oom_select(t.snap, c, &p, &out), 0);
	assert_int_equal(out.outcome, OOM_OUTCOME_IN_PROGRESS);
	assert_int_equal(out.in_progress->tgid, 700);
	oom_constraint_free(c);
	assert_int_equal(oom_select(t.snap, NULL, &p, &out), 0);
	assert_int_equal(out.outcome, OOM_OUTCOME_IN_PROGRESS);
	fixture_close_tree(&t);
}

static void tree_memcg_v1(void **state)
{
	struct oom_constraint *c;
	struct oom_selection out;
	struct fixture_tree t;

	(void)state;
	fixture_open_tree(&t, "memcg-v1");
	/* /docker/app3: memory+swap 384 MiB = 98304 pages; 400 and 401 tie at 25600 pages. */
	assert_int_equal(oom_constraint_new_memcg(t.ctx, "/docker/app3", &c), 0);
	assert_int_equal(sel(t.snap, c, OOM_HEURISTIC_REWRITE, &out), 0);
	assert_int_equal(out.chosen->tgid, 400);
	assert_int_equal(out.chosen_score, 25600L * 1000 / 98304);
	assert_int_equal(out.runner_up->tgid, 401);
	assert_int_equal(sel(t.snap, c, OOM_HEURISTIC_LEGACY, &out), 0);
	assert_int_equal(out.chosen->tgid, 400);
	assert_int_equal(sel(t.snap, c, OOM_HEURISTIC_KERNEL, &out), 0);
	assert_int_equal(out.chosen->tgid, 401);
	oom_constraint_free(c);
	/* /docker/app1 (512 MiB, no swap): app1-main, then the first of its two equal workers. */
	assert_int_equal(oom_constraint_new_memcg(t.ctx, "/docker/app1", &c), 0);
	assert_int_equal(sel(t.snap, c, OOM_HEURISTIC_REWRITE, &out), 0);
	assert_int_equal(out.totalpages, 131072);
	assert_int_equal(out.chosen->tgid, 200);
	assert_int_equal(out.chosen_score, 500);
	assert_int_equal(out.victim->tgid, 201);
	assert_int_equal(out.victim_score, 250);
	oom_constraint_free(c);
	/* System-wide: dockerd's children are in other groups, which is fine outside a memcg. */
	assert_int_equal(sel(t.snap, NULL, OOM_HEURISTIC_REWRITE, &out), 0);
	assert_int_equal(out.totalpages, 1048576 / 4);
	assert_int_equal(out.chosen->tgid, 200);
	assert_int_equal(out.victim->tgid, 201);
	fixture_close_tree(&t);
}

/* ---- the live system ------------------------------------------------------- */

static void live_kernel_matches_oom_score(void **state)
{
	struct oom_ctx *ctx;

	(void)state;
	assert_int_equal(oom_ctx_new("/", &ctx), 0);
	/* Processes come and go and grow between two reads: retry a few times. */
	for (int attempt = 0; attempt < 10; attempt++) {
		struct oom_select_params p = { .heuristic = OOM_HEURISTIC_KERNEL };
		struct oom_snapshot *snap;
		struct oom_selection out;
		long max = -1;

		assert_int_equal(oom_snapshot_new(ctx, OOM_READ_STATUS | OOM_READ_OOM_SCORE, &snap), 0);
		assert_int_equal(oom_select(snap, NULL, &p, &out), 0);
		for (size_t i = 0; i < oom_snapshot_count(snap); i++) {
			const struct oom_task *t = oom_snapshot_task(snap, i);

			if (oom_task_dumpable(t) && t->oom_score > max)
				max = t->oom_score;
		}
		if (out.outcome == OOM_OUTCOME_KILL && out.chosen->oom_score == max) {
			assert_true(max > 0);
			oom_snapshot_free(snap);
			oom_ctx_unref(ctx);
			return;
		}
		oom_snapshot_free(snap);
		usleep(50000);
	}
	oom_ctx_unref(ctx);
	fail_msg("the kernel heuristic's choice never had the highest /proc/PID/oom_score");
}

static char *slurp(const char *path)
{
	static char buf[65536];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n, len = 0;

	if (fd < 0)
		return NULL;
	while ((n = read(fd, buf + len, sizeof(buf) - 1 - (size_t)len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	return buf;
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	close(fd);
	return n < 0 ? -errno : 0;
}

/* What live_memcg made, undone by its teardown even when an assertion fails. */
static struct {
	pid_t child;
	char dir[520];
} live;

static int live_memcg_teardown(void **state)
{
	int status;

	(void)state;
	if (live.child > 0) {
		kill(live.child, SIGKILL);
		waitpid(live.child, &status, 0);
		live.child = 0;
	}
	/* The group empties asynchronously after the exit. */
	for (int i = 0; live.dir[0] && i < 100 && rmdir(live.dir) < 0 && errno == EBUSY; i++)
		usleep(10000);
	live.dir[0] = '\0';
	return 0;
}

static void live_memcg(void **state)
{
	char group[512], rel[512], path[600], pidbuf[32], *dir = live.dir, ready;
	struct cg_mounts mounts;
	char *v2 = NULL, *mem = NULL, *text;
	const struct cg_mount *m;
	const char *own;
	struct oom_ctx *ctx;
	struct oom_constraint *c;
	struct oom_snapshot *snap;
	struct oom_selection out;
	struct oom_select_params p = { .heuristic = OOM_HEURISTIC_REWRITE };
	bool limited, v1;
	size_t n = 0;
	pid_t child;
	int pipefd[2];

	(void)state;
	text = slurp("/proc/self/mountinfo");
	assert_non_null(text);
	assert_int_equal(cg_parse_mountinfo(text, strlen(text), &mounts), 0);
	text = slurp("/proc/self/cgroup");
	assert_non_null(text);
	assert_int_equal(oom_parse_cgroup(text, strlen(text), &v2, &mem), 0);
	/* The library's own choice of hierarchy: v1 memory when mounted. */
	v1 = mounts.v1_memory.point != NULL;
	m = v1 ? &mounts.v1_memory : &mounts.v2;
	own = v1 ? mem : v2;
	if (!m->point || !own) {
		cg_mounts_free(&mounts);
		oom_parse_cgroup_free(&v2, &mem);
		print_message("skipped: no memory cgroup hierarchy mounted\n");
		skip();
	}
	snprintf(group, sizeof(group), "%s/liboom-test-%d", strcmp(own, "/") ? own : "", (int)getpid());
	assert_int_equal(cg_dir_path(m, group, rel, sizeof(rel)), 0);
	snprintf(dir, sizeof(live.dir), "/%s", rel);
	cg_mounts_free(&mounts);
	oom_parse_cgroup_free(&v2, &mem);
	if (mkdir(dir, 0755) < 0) {
		print_message("skipped: cannot create a cgroup (%s: %s)\n", dir, strerror(errno));
		dir[0] = '\0';
		skip();
	}
	assert_int_equal(pipe(pipefd), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		/* 8 MiB of its own (above root's 30-point bonus at a 64 MiB limit); gone with the test. */
		char *mem8 = malloc(8 << 20);

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (!mem8)
			_exit(1);
		memset(mem8, 'r', 8 << 20);
		/* Sending a byte of it keeps the compiler from dropping the memset. */
		if (write(pipefd[1], mem8 + (4 << 20), 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	live.child = child;
	close(pipefd[1]);
	assert_int_equal(read(pipefd[0], &ready, 1), 1);
	close(pipefd[0]);
	snprintf(pidbuf, sizeof(pidbuf), "%d\n", (int)child);
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	if (write_str(path, pidbuf) < 0) {
		print_message("skipped: cannot move a process into %s\n", dir);
		skip();
	}
	/* 64 MiB if the group takes a limit (v2 needs the controller enabled above it). */
	snprintf(path, sizeof(path), "%s/%s", dir, v1 ? "memory.limit_in_bytes" : "memory.max");
	limited = write_str(path, "67108864\n") == 0;

	assert_int_equal(oom_ctx_new("/", &ctx), 0);
	assert_int_equal(oom_constraint_new_memcg(ctx, group, &c), 0);
	assert_int_equal(oom_snapshot_new(ctx, OOM_READ_STATUS | oom_constraint_read_flags(c), &snap), 0);
	for (size_t i = 0; i < oom_snapshot_count(snap); i++) {
		const struct oom_task *t = oom_snapshot_task(snap, i);

		if (oom_constraint_is_candidate(c, t)) {
			assert_int_equal(t->tgid, child);
			n++;
		}
	}
	assert_int_equal(n, 1);
	if (limited) {
		const struct oom_meminfo *mi = oom_snapshot_meminfo(snap);

		assert_true(oom_constraint_memcg_limited(c));
		/* 16384 pages of 4 KiB; with swap, the limit plus (at most) SwapTotal. */
		if (mi->swap_total_kb == 0 && oom_snapshot_page_size(snap) == 4096)
			assert_int_equal(oom_constraint_totalpages(c, OOM_HEURISTIC_REWRITE, NULL), 16384);
	}
	assert_int_equal(oom_select(snap, c, &p, &out), 0);
	assert_int_equal(out.outcome, OOM_OUTCOME_KILL);
	assert_int_equal(out.chosen->tgid, child);
	assert_int_equal(out.candidates, 1);
	oom_snapshot_free(snap);
	oom_constraint_free(c);
	oom_ctx_unref(ctx);
	snprintf(group, sizeof(group), "%s", dir);
	live_memcg_teardown(NULL);
	assert_int_equal(access(group, F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(panic_2_always),
		cmocka_unit_test(panic_1_only_system_wide),
		cmocka_unit_test(highest_wins_never_init_or_kthread),
		cmocka_unit_test(ties),
		cmocka_unit_test(nothing_killable),
		cmocka_unit_test(in_progress),
		cmocka_unit_test(allocating_task_being_killed),
		cmocka_unit_test(allocating_task),
		cmocka_unit_test(allocating_task_outside_cpuset),
		cmocka_unit_test(sacrifice_worst_child),
		cmocka_unit_test(sacrifice_skips_other_memcg),
		cmocka_unit_test(sacrifice_none_scores),
		cmocka_unit_test(kernel_line_and_escaping),
		cmocka_unit_test(what_if),
		cmocka_unit_test(bad_arguments),
		cmocka_unit_test(empty_snapshot),
		cmocka_unit_test(tree_numa_2node),
		cmocka_unit_test(tree_numa_4node),
		cmocka_unit_test(tree_memcg_v2),
		cmocka_unit_test(tree_memcg_v1),
		cmocka_unit_test(live_kernel_matches_oom_score),
		cmocka_unit_test_teardown(live_memcg, live_memcg_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
