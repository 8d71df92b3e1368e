// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Victim selection (SPEC 7, seeds 003, 005, 008): what out_of_memory()
 * would decide on a snapshot, per heuristic as the kernel that used it:
 * rewrite as 2.6.36, kernel as current mainline, legacy as 2.6.35.
 * Pure: no file is read, nothing is killed.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "constraint.h"

#define SIGKILL_BIT 8 /* signal 9 is bit 8 of SigPnd/ShdPnd */

static const char *const outcome_names[] = {
	[OOM_OUTCOME_KILL] = "kill",
	[OOM_OUTCOME_PANIC] = "panic",
	[OOM_OUTCOME_IN_PROGRESS] = "in-progress",
	[OOM_OUTCOME_NO_KILLABLE] = "no-killable",
};

OOM_EXPORT const char *oom_outcome_name(enum oom_outcome o)
{
	return (unsigned int)o < ARRAY_SIZE(outcome_names) ? outcome_names[o] : NULL;
}

OOM_EXPORT int oom_snapshot_set_score_adj(struct oom_snapshot *snap, pid_t tgid, int value)
{
	struct oom_task *t;

	if (!snap || value < OOM_SCORE_ADJ_MIN || value > OOM_SCORE_ADJ_MAX)
		return -EINVAL;
	/* The snapshot's own array: the lookup returns a const view of it. */
	t = (struct oom_task *)oom_snapshot_find(snap, tgid);
	if (!t)
		return -ESRCH;
	t->oom_score_adj = value;
	return 0;
}

/* A task being killed or exiting with its memory still held: its memory is about to come back. */
static bool kill_under_way(const struct oom_task *t)
{
	if (!(t->have & OOM_HAVE_MM))
		return false;
	/*
	 * PF_EXITING counts only with the leader's own mm: a zombie leader
	 * (its mm lent by a live thread) is exiting for good and must not
	 * stall the OOM killer (2.6.36 tested p->mm on the leader itself).
	 */
	return ((t->sig_pending >> SIGKILL_BIT) & 1) || ((t->flags & OOM_PF_EXITING) && t->pid == t->tgid);
}

struct run {
	const struct oom_snapshot *snap;
	const struct oom_constraint *c;
	const struct oom_select_params *p;
	struct oom_score_params sp;
};

/* The heuristic's score, or false when the task can never be chosen (-1000, unkillable). */
static bool score_of(const struct run *r, const struct oom_task *t, long *score)
{
	struct oom_score_terms terms;

	if (oom_score_task(r->snap, t, &r->sp, &terms) < 0 || !terms.eligible)
		return false;
	*score = terms.score;
	return true;
}

/*
 * Whether a task scoring @s displaces the current pick (@have, @cur):
 * 2.6.36 needs strictly more than the best so far, starting from 0;
 * mainline takes any eligible task and the later of equals; 2.6.35 takes
 * the first eligible task whatever its badness, then strictly more.
 */
static bool beats(enum oom_heuristic h, long s, bool have, long cur)
{
	switch (h) {
	case OOM_HEURISTIC_KERNEL:
		return !have || s >= cur;
	case OOM_HEURISTIC_LEGACY:
		return !have || s > cur;
	default:
		return s > (have ? cur : 0);
	}
}

static unsigned long kb(unsigned long pages, unsigned long page_size)
{
	return (unsigned long)((unsigned long long)pages * page_size / 1024);
}

static void name_of(const struct run *r, const char *comm, char *buf, size_t size)
{
	oom_escape_name(buf, size, comm, r->p->escape);
}

static void add_line(struct oom_selection *sel, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add_line(struct oom_selection *sel, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(sel->lines[sel->nlines], sizeof(sel->lines[0]), fmt, ap);
	va_end(ap);
	sel->nlines++;
}

/* Picks the child killed instead of @sel->chosen (rewrite, legacy; 2.6.36 oom_kill_process()). */
static void sacrifice(const struct run *r, struct oom_selection *sel)
{
	const size_t *kids;
	size_t n = oom_snapshot_children(r->snap, sel->chosen->tgid, &kids);
	long best = 0;

	sel->victim = sel->chosen;
	sel->victim_score = sel->chosen_score;
	for (size_t i = 0; i < n; i++) {
		const struct oom_task *c = oom_snapshot_task(r->snap, kids[i]);
		long s;

		/* Outside the constraint (another memcg, disjoint nodes) or -1000: never. */
		if (!oom_constraint_is_candidate(r->c, c) || !score_of(r, c, &s))
			continue;
		if (r->sp.heuristic == OOM_HEURISTIC_LEGACY) {
			/* 2.6.35 killed the first child it could. */
			sel->victim = c;
			sel->victim_score = s;
			sel->sacrificed = true;
			return;
		}
		/* Seed 005: the worst child, if any scores above 0; the first of equals. */
		if (s > best) {
			best = s;
			sel->victim = c;
			sel->victim_score = s;
			sel->sacrificed = true;
		}
	}
}

static void kill_lines(const struct run *r, struct oom_selection *sel, long printed_score)
{
	unsigned long ps = r->snap->page_size;
	const struct oom_task *v = sel->victim;
	char cname[OOM_COMM_MAX * 4], vname[OOM_COMM_MAX * 4];

	/* "Kill process" names the group's leader; "Killed process" the task holding the mm. */
	name_of(r, sel->chosen->comm, cname, sizeof(cname));
	name_of(r, oom_task_mm_comm(v), vname, sizeof(vname));
	if (r->sp.heuristic == OOM_HEURISTIC_KERNEL) {
		add_line(sel,
			 "%s: Killed process %d (%s) total-vm:%lukB, anon-rss:%lukB, file-rss:%lukB, "
			 "shmem-rss:%lukB, UID:%u pgtables:%lukB oom_score_adj:%hd",
			 sel->message, (int)v->pid, vname, kb(v->total_vm_pages, ps), kb(v->rss_anon_pages, ps),
			 kb(v->rss_file_pages, ps), kb(v->rss_shmem_pages, ps), (unsigned int)v->uid,
			 v->pgtables_bytes / 1024, (short)v->oom_score_adj);
		return;
	}
	add_line(sel, "%s: Kill process %d (%s) score %ld or sacrifice child", sel->message, (int)sel->chosen->tgid,
		 cname, printed_score);
	/* 2.6.36 counted shmem among the file pages. */
	add_line(sel, "Killed process %d (%s) total-vm:%lukB, anon-rss:%lukB, file-rss:%lukB", (int)v->pid, vname,
		 kb(v->total_vm_pages, ps), kb(v->rss_anon_pages, ps),
		 kb(v->rss_file_pages + v->rss_shmem_pages, ps));
}

static void count_candidates(const struct run *r, struct oom_selection *sel)
{
	for (size_t i = 0; i < r->snap->count; i++)
		if (oom_constraint_is_candidate(r->c, &r->snap->tasks[i]))
			sel->candidates++;
}

OOM_EXPORT int oom_select(const struct oom_snapshot *snap, const struct oom_constraint *c,
			  const struct oom_select_params *p, struct oom_selection *sel)
{
	enum oom_constraint_type type = oom_constraint_get_type(c);
	const struct oom_task *cur = NULL, *best = NULL, *second = NULL;
	long best_score = 0, second_score = 0, s;
	struct run r = { .snap = snap, .c = c, .p = p };

	if (!snap || !p || !sel || !oom_heuristic_name(p->heuristic) || p->panic_on_oom < 0 || p->panic_on_oom > 2)
		return -EINVAL;
	if (p->task) {
		cur = oom_snapshot_find(snap, p->task);
		if (!cur)
			return -ESRCH;
	}
	memset(sel, 0, sizeof(*sel));
	r.sp.heuristic = p->heuristic;
	r.sp.forkbomb_thres = p->forkbomb_thres;
	if (c)
		r.sp.totalpages = oom_constraint_totalpages(c, p->heuristic, &sel->total_source);
	else
		r.sp.totalpages = oom_system_totalpages(&snap->meminfo, snap->page_size, p->heuristic,
							&sel->total_source);
	sel->totalpages = r.sp.totalpages;
	sel->message = type == OOM_CONSTRAINT_MEMCG ? "Memory cgroup out of memory" : "Out of memory";
	count_candidates(&r, sel);

	/* Seed 003: an allocating task already being killed just gets to exit. */
	if (cur && kill_under_way(cur)) {
		sel->outcome = OOM_OUTCOME_IN_PROGRESS;
		sel->in_progress = cur;
		return 0;
	}
	/* Seed 008: 2 panics on every OOM, 1 only on a system-wide one. */
	if (p->panic_on_oom == 2 || (p->panic_on_oom == 1 && type == OOM_CONSTRAINT_NONE)) {
		sel->outcome = OOM_OUTCOME_PANIC;
		sel->would_panic = true;
		add_line(sel, "Out of memory: %s panic_on_oom is enabled",
			 p->panic_on_oom == 2 ? "compulsory" : "system-wide");
		return 0;
	}
	/* vm.oom_kill_allocating_task: never for a memcg's OOM, never an unkillable task. */
	if (p->kill_allocating_task && cur && type != OOM_CONSTRAINT_MEMCG && oom_constraint_is_candidate(c, cur) &&
	    score_of(&r, cur, &s)) {
		sel->outcome = OOM_OUTCOME_KILL;
		sel->allocating_task = true;
		sel->message = "Out of memory (oom_kill_allocating_task)";
		sel->chosen = cur;
		sel->chosen_score = s;
		if (p->heuristic == OOM_HEURISTIC_KERNEL) {
			sel->victim = cur;
			sel->victim_score = s;
		} else {
			sacrifice(&r, sel);
		}
		/* 2.6.35 and 2.6.36 passed 0 points for the allocating task. */
		kill_lines(&r, sel, 0);
		return 0;
	}

	for (size_t i = 0; i < snap->count; i++) {
		const struct oom_task *t = &snap->tasks[i];

		if (!oom_constraint_is_candidate(c, t))
			continue;
		if (kill_under_way(t)) {
			sel->outcome = OOM_OUTCOME_IN_PROGRESS;
			sel->in_progress = t;
			return 0;
		}
		if (!score_of(&r, t, &s))
			continue;
		if (beats(p->heuristic, s, best != NULL, best_score)) {
			second = best;
			second_score = best_score;
			best = t;
			best_score = s;
		} else if (beats(p->heuristic, s, second != NULL, second_score)) {
			second = t;
			second_score = s;
		}
	}
	if (!best) {
		sel->outcome = OOM_OUTCOME_NO_KILLABLE;
		/* Only a memcg's OOM survives having nobody to kill. */
		sel->would_panic = type != OOM_CONSTRAINT_MEMCG;
		add_line(sel, "Out of memory and no killable processes...");
		return 0;
	}
	sel->outcome = OOM_OUTCOME_KILL;
	sel->chosen = best;
	sel->chosen_score = best_score;
	sel->runner_up = second;
	sel->runner_up_score = second ? second_score : 0;
	if (p->heuristic == OOM_HEURISTIC_KERNEL) {
		/* Mainline removed the child sacrifice in 5.1. */
		sel->victim = best;
		sel->victim_score = best_score;
	} else {
		sacrifice(&r, sel);
	}
	kill_lines(&r, sel, best_score);
	return 0;
}
