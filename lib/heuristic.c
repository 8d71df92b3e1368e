// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The three badness heuristics, as pure functions of a snapshot: the 2010
 * rewrite as posted (seeds 009, 010), the running mainline kernel's, and
 * the pre-2010 one it replaced.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#define USER_HZ 100 /* /proc reports CPU times in these ticks on every arch */

/*
 * Hostile /proc figures can make any product overflow a long: work in a
 * wider type and saturate. 32-bit longs have long long for that.
 */
#ifdef __SIZEOF_INT128__
typedef __int128 wide_t;
#else
typedef long long wide_t;
#endif

static long sat_long(wide_t v)
{
	return v > LONG_MAX ? LONG_MAX : v < LONG_MIN ? LONG_MIN : (long)v;
}

static const char *const heuristic_names[] = {
	[OOM_HEURISTIC_REWRITE] = "rewrite",
	[OOM_HEURISTIC_KERNEL] = "kernel",
	[OOM_HEURISTIC_LEGACY] = "legacy",
};

OOM_EXPORT int oom_heuristic_from_name(const char *name, enum oom_heuristic *h)
{
	for (size_t i = 0; name && i < ARRAY_SIZE(heuristic_names); i++) {
		if (strcmp(name, heuristic_names[i]) == 0) {
			*h = (enum oom_heuristic)i;
			return 0;
		}
	}
	return -EINVAL;
}

OOM_EXPORT const char *oom_heuristic_name(enum oom_heuristic h)
{
	return (unsigned int)h < ARRAY_SIZE(heuristic_names) ? heuristic_names[h] : NULL;
}

static unsigned long kb_pages(unsigned long long kb, unsigned long page_size)
{
	return (unsigned long)(kb * 1024 / page_size);
}

OOM_EXPORT unsigned long oom_system_totalpages(const struct oom_meminfo *mi, unsigned long page_size,
					       enum oom_heuristic h, enum oom_total_source *source)
{
	enum oom_total_source src;
	unsigned long long kb;

	if (h == OOM_HEURISTIC_REWRITE) {
		/* Seed 009: every LRU page plus swap, not MemTotal. */
		kb = mi->active_anon_kb + mi->inactive_anon_kb + mi->active_file_kb + mi->inactive_file_kb +
		     mi->swap_total_kb;
		src = OOM_TOTAL_LRU_SWAP;
	} else {
		kb = mi->mem_total_kb + mi->swap_total_kb;
		src = OOM_TOTAL_RAM_SWAP;
	}
	if (source)
		*source = src;
	return kb_pages(kb, page_size);
}

unsigned long oom_int_sqrt(unsigned long x)
{
	unsigned long r = 0, bit = 1ul << (sizeof(x) * 8 - 2);

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

OOM_EXPORT long oom_kernel_display_score(long points, unsigned long totalpages, bool eligible)
{
	wide_t total = totalpages ? (wide_t)totalpages : 1;

	/* fs/proc/base.c: scaled into 0..2000, then 2/3 of it; unkillable shows 0. */
	if (!eligible)
		return 0;
	return sat_long((1000 + (wide_t)points * 1000 / total) * 2 / 3);
}

/* Init, kernel threads and tasks without an mm are never OOM candidates. */
static bool killable(const struct oom_task *t)
{
	return t->tgid != 1 && !oom_task_is_kthread(t) && (t->have & OOM_HAVE_MM);
}

/* Seed 010: children that used under a second of CPU, when there are too many. */
static void forkbomb_penalty(const struct oom_snapshot *snap, const struct oom_task *t,
			     unsigned long thres, struct oom_score_terms *terms)
{
	const size_t *kids;
	size_t n;

	if (!thres || !snap)
		return;
	n = oom_snapshot_children(snap, t->tgid, &kids);
	for (size_t i = 0; i < n; i++) {
		const struct oom_task *c = &snap->tasks[kids[i]];

		if (!(c->have & OOM_HAVE_MM) || !(c->have & OOM_HAVE_STAT))
			continue;
		if (c->utime_ticks + c->stime_ticks < USER_HZ) {
			terms->forkbomb_children++;
			terms->forkbomb_children_rss_pages += oom_task_rss_pages(c);
		}
	}
	if (terms->forkbomb_children > thres)
		terms->forkbomb_penalty = sat_long(terms->forkbomb_children_rss_pages / thres);
}

static void score_rewrite(const struct oom_snapshot *snap, const struct oom_task *t,
			  const struct oom_score_params *p, struct oom_score_terms *terms)
{
	unsigned long total = p->totalpages ? p->totalpages : 1;
	wide_t points;

	terms->base = sat_long(((wide_t)terms->rss_pages + terms->swap_pages) * 1000 / total);
	forkbomb_penalty(snap, t, p->forkbomb_thres, terms);
	if (oom_task_has_cap(t, OOM_CAP_SYS_ADMIN))
		terms->root_bonus = -30;
	terms->adj_term = t->oom_score_adj;
	points = (wide_t)terms->base + terms->forkbomb_penalty + terms->root_bonus + terms->adj_term;
	terms->unclamped = sat_long(points);
	if (points < 0)
		points = 0;
	else if (points > 1000)
		points = 1000;
	terms->clamped = points != terms->unclamped;
	terms->score = (long)points;
}

static void score_kernel(const struct oom_task *t, const struct oom_score_params *p, unsigned long page_size,
			 struct oom_score_terms *terms)
{
	terms->pgtables_pages = t->pgtables_bytes / page_size;
	terms->base = sat_long((wide_t)terms->rss_pages + terms->swap_pages + terms->pgtables_pages);
	/* mm/oom_kill.c: the adjustment is in units of 0.1% of totalpages. */
	terms->adj_term = sat_long((wide_t)t->oom_score_adj * (wide_t)(p->totalpages / 1000));
	terms->score = sat_long((wide_t)terms->base + terms->adj_term);
	terms->unclamped = terms->score;
	terms->oom_score = oom_kernel_display_score(terms->score, p->totalpages, true);
}

static void score_legacy(const struct oom_snapshot *snap, const struct oom_task *t, struct oom_score_terms *terms)
{
	unsigned long points = t->total_vm_pages;
	unsigned long long uptime = snap ? snap->uptime : 0, start = t->start_ticks / USER_HZ;
	const size_t *kids;
	size_t n = snap ? oom_snapshot_children(snap, t->tgid, &kids) : 0;
	int adj;

	terms->total_vm_pages = points;
	/* Children with their own mm add half their size: forking servers looked big. */
	for (size_t i = 0; i < n; i++) {
		const struct oom_task *c = &snap->tasks[kids[i]];

		if (c->have & OOM_HAVE_MM)
			terms->children_vm_pages += c->total_vm_pages / 2 + 1;
	}
	points += terms->children_vm_pages;
	terms->cpu_time = (unsigned long)((t->utime_ticks + t->stime_ticks) >> 10);
	terms->run_time = uptime >= start ? (unsigned long)((uptime - start) >> 10) : 0;
	terms->cpu_divisor = terms->run_divisor = 1;
	if (terms->cpu_time) {
		terms->cpu_divisor = oom_int_sqrt(terms->cpu_time);
		points /= terms->cpu_divisor;
	}
	if (terms->run_time) {
		terms->run_divisor = oom_int_sqrt(oom_int_sqrt(terms->run_time));
		points /= terms->run_divisor;
	}
	if (t->nice > 0) {
		points *= 2;
		terms->nice_doubled = true;
	}
	if (oom_task_has_cap(t, OOM_CAP_SYS_ADMIN) || oom_task_has_cap(t, OOM_CAP_SYS_RESOURCE)) {
		points /= 4;
		terms->cap_quarters++;
	}
	if (oom_task_has_cap(t, OOM_CAP_SYS_RAWIO)) {
		points /= 4;
		terms->cap_quarters++;
	}
	oom_score_adj_to_adj_kernel(t->oom_score_adj, &adj);
	terms->oom_adj = adj;
	if (adj > 0) {
		if (!points)
			points = 1;
		points <<= adj;
	} else if (adj < 0) {
		points >>= -adj;
	}
	terms->unclamped = terms->score = sat_long(points);
}

OOM_EXPORT int oom_score_task(const struct oom_snapshot *snap, const struct oom_task *t,
			      const struct oom_score_params *p, struct oom_score_terms *terms)
{
	/* Without a snapshot, the page size is the running system's. */
	unsigned long page_size = snap ? snap->page_size : (unsigned long)sysconf(_SC_PAGESIZE);

	if (!t || !p || !terms || (unsigned int)p->heuristic >= ARRAY_SIZE(heuristic_names))
		return -EINVAL;
	memset(terms, 0, sizeof(*terms));
	terms->rss_pages = oom_task_rss_pages(t);
	terms->swap_pages = t->swap_pages;
	terms->adj_term = t->oom_score_adj;
	terms->eligible = killable(t) && t->oom_score_adj != OOM_SCORE_ADJ_MIN;
	if (!terms->eligible)
		return 0;
	switch (p->heuristic) {
	case OOM_HEURISTIC_REWRITE:
		score_rewrite(snap, t, p, terms);
		break;
	case OOM_HEURISTIC_KERNEL:
		score_kernel(t, p, page_size, terms);
		break;
	case OOM_HEURISTIC_LEGACY:
		score_legacy(snap, t, terms);
		break;
	}
	return 0;
}
