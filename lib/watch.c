// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The watch: each process's /proc files kept open between scans. A kept
 * fd belongs to the process it was opened for (procfs pins the struct pid),
 * so a PID reused meanwhile reads as ESRCH and is opened afresh; the
 * records of one scan are matched to the last scan's by PID.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "internal.h"

#ifndef PROC_SUPER_MAGIC
#define PROC_SUPER_MAGIC 0x9fa0
#endif

static size_t fd_budget(void)
{
	struct rlimit rl;
	size_t max = OOM_WATCH_MAX_FILES;

	/* Half of what the process may open: the rest stays the caller's. */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur / 2 < max)
		max = (size_t)(rl.rlim_cur / 2);
	return max;
}

OOM_EXPORT int oom_watch_new(struct oom_ctx *ctx, struct oom_watch **wp)
{
	struct oom_watch *w;
	struct statfs sfs;

	if (!ctx || !wp)
		return -EINVAL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->ctx = oom_ctx_ref(ctx);
	/* Only procfs renders a file anew at each read; a saved tree's files may be replaced. */
	w->keep = fstatfs(ctx->proc_fd, &sfs) == 0 && sfs.f_type == PROC_SUPER_MAGIC;
	w->max_open = fd_budget();
	*wp = w;
	return 0;
}

void oom_watch_set_keep(struct oom_watch *w, bool keep, size_t max_open)
{
	w->keep = keep;
	w->max_open = max_open;
}

bool oom_watch_reserve_fd(struct oom_watch *w)
{
	if (w->open >= w->max_open)
		return false;
	w->open++;
	return true;
}

void oom_watch_release_fds(struct oom_watch *w, size_t n)
{
	w->open -= n;
}

bool oom_watch_rec_open(const struct oom_watch_rec *r)
{
	for (int k = 0; k < OOM_KEPT_COUNT; k++)
		if (r->fd[k] >= 0)
			return true;
	return false;
}

void oom_watch_rec_close(struct oom_watch *w, struct oom_watch_rec *r)
{
	r->have_last = false;
	for (int k = 0; k < OOM_KEPT_COUNT; k++) {
		if (r->fd[k] >= 0) {
			close(r->fd[k]);
			r->fd[k] = -1;
			oom_watch_release_fds(w, 1);
		}
	}
}

static int cmp_rec(const void *a, const void *b)
{
	pid_t x = ((const struct oom_watch_rec *)a)->pid, y = ((const struct oom_watch_rec *)b)->pid;

	return (x > y) - (x < y);
}

/* The last scan's record of @pid, or NULL. */
static struct oom_watch_rec *find_rec(const struct oom_watch *w, pid_t pid)
{
	struct oom_watch_rec key = { .pid = pid };

	return w->n_recs ? bsearch(&key, w->recs, w->n_recs, sizeof(key), cmp_rec) : NULL;
}

struct oom_watch_rec *oom_watch_carry(struct oom_watch *w, pid_t pid)
{
	struct oom_watch_rec *old = find_rec(w, pid), *r;

	/* A record is worth its memory only with files to keep. */
	if (!old && w->open >= w->max_open)
		return NULL;
	if (w->n_next == w->cap_next) {
		size_t cap = w->cap_next ? w->cap_next * 2 : 256;
		struct oom_watch_rec *n = realloc(w->next, cap * sizeof(*n));

		if (!n)
			return NULL; /* read as a snapshot would */
		w->next = n;
		w->cap_next = cap;
	}
	r = &w->next[w->n_next++];
	if (old) {
		*r = *old;
		/* Moved: end_scan closes what is left in the last scan's records. */
		for (int k = 0; k < OOM_KEPT_COUNT; k++)
			old->fd[k] = -1;
	} else {
		memset(r, 0, sizeof(*r));
		r->pid = pid;
		for (int k = 0; k < OOM_KEPT_COUNT; k++)
			r->fd[k] = -1;
	}
	return r;
}

bool oom_watch_may_reuse(const struct oom_watch *w, const struct oom_watch_rec *r, unsigned int what)
{
	/*
	 * Each process's full read comes round in turn, so a change statm does
	 * not show (a new uid or name, caps dropped) is seen within
	 * OOM_WATCH_FULL_EVERY scans.
	 */
	return oom_watch_statm_gated(what) && r->have_last && !r->dirty &&
	       (w->scans + (unsigned long)r->pid) % OOM_WATCH_FULL_EVERY != 0;
}

void oom_watch_drop_last(struct oom_watch *w)
{
	oom_watch_rec_close(w, &w->next[--w->n_next]);
}

void oom_watch_end_scan(struct oom_watch *w)
{
	struct oom_watch_rec *swap = w->recs;
	size_t cap = w->cap_next;

	/* Processes no longer listed: their files go. */
	for (size_t i = 0; i < w->n_recs; i++)
		oom_watch_rec_close(w, &w->recs[i]);
	/* /proc lists PIDs in order; a saved tree may not. */
	for (size_t i = 1; i < w->n_next; i++) {
		if (w->next[i - 1].pid > w->next[i].pid) {
			qsort(w->next, w->n_next, sizeof(*w->next), cmp_rec);
			break;
		}
	}
	w->recs = w->next;
	w->n_recs = w->n_next;
	/* The old array is the next scan's: it had room for the last scan's count. */
	w->next = swap;
	w->cap_next = swap ? w->cap_recs : 0;
	w->cap_recs = cap;
	w->n_next = 0;
	w->scans++;
}

OOM_EXPORT void oom_watch_invalidate(struct oom_watch *w, pid_t pid)
{
	struct oom_watch_rec *r = w ? find_rec(w, pid) : NULL;

	if (r)
		r->dirty = true;
}

OOM_EXPORT int oom_watch_scan(struct oom_watch *w, unsigned int what, struct oom_snapshot **snap)
{
	if (!w || !snap)
		return -EINVAL;
	return oom_scan_proc(w->ctx, w, what, snap);
}

OOM_EXPORT size_t oom_watch_open_files(const struct oom_watch *w)
{
	return w ? w->open : 0;
}

OOM_EXPORT void oom_watch_free(struct oom_watch *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->n_recs; i++)
		oom_watch_rec_close(w, &w->recs[i]);
	for (size_t i = 0; i < w->n_next; i++)
		oom_watch_rec_close(w, &w->next[i]);
	free(w->recs);
	free(w->next);
	oom_ctx_unref(w->ctx);
	free(w);
}
