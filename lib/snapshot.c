// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The process snapshot: one record per thread-group leader, read with one
 * directory fd per PID and one reused buffer, then indexed by PID and by
 * parent so that children lookups are a binary search, never a rescan.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

static unsigned long kb_to_pages(unsigned long long kb, unsigned long page_size)
{
	return (unsigned long)(kb * 1024 / page_size);
}

void oom_task_apply_status(struct oom_task *t, const struct oom_status_fields *st, unsigned long page_size)
{
	t->tgid = st->tgid;
	t->ppid = st->ppid;
	t->uid = st->uid;
	t->cap_eff = st->cap_eff;
	t->sig_pending = st->sig_pnd | st->shd_pnd;
	if (st->state && !t->state)
		t->state = st->state;
	if (st->kthread)
		t->flags |= OOM_PF_KTHREAD;
	t->total_vm_pages = kb_to_pages(st->vm_size_kb, page_size);
	t->rss_anon_pages = kb_to_pages(st->rss_anon_kb, page_size);
	t->rss_file_pages = kb_to_pages(st->rss_file_kb, page_size);
	t->rss_shmem_pages = kb_to_pages(st->rss_shmem_kb, page_size);
	t->swap_pages = kb_to_pages(st->vm_swap_kb, page_size);
	t->pgtables_bytes = (unsigned long)(st->vm_pte_kb * 1024);
	if (st->has_mm)
		t->have |= OOM_HAVE_MM;
	t->have |= OOM_HAVE_STATUS;
}

void oom_task_apply_stat(struct oom_task *t, const struct oom_stat_fields *st, unsigned long page_size)
{
	(void)page_size;
	memcpy(t->comm, st->comm, sizeof(t->comm));
	t->state = st->state;
	t->ppid = st->ppid;
	t->flags |= st->flags;
	t->cpu = st->processor;
	t->nice = st->nice;
	t->utime_ticks = st->utime;
	t->stime_ticks = st->stime;
	t->start_ticks = st->starttime;
	t->have |= OOM_HAVE_STAT;
}

/*
 * One process's directory and files: opened for one read, or, under a
 * watch, kept open from one scan to the next in the watch's record.
 */
struct pid_files {
	int parent; /* the directory that lists the PIDs */
	pid_t pid;
	int dir; /* the PID's directory once opened, else -1 (or the error) */
	struct oom_watch *watch;
	struct oom_watch_rec *rec; /* NULL: nothing is kept */
};

static const char *const kept_names[OOM_KEPT_COUNT] = {
	[OOM_KEPT_STATUS] = "status",
	[OOM_KEPT_STAT] = "stat",
	[OOM_KEPT_OOM_SCORE_ADJ] = "oom_score_adj",
	[OOM_KEPT_OOM_SCORE] = "oom_score",
	[OOM_KEPT_CGROUP] = "cgroup",
	[OOM_KEPT_STATM] = "statm",
};

static int pid_dir(struct pid_files *pf)
{
	char name[16];

	if (pf->dir < 0) {
		snprintf(name, sizeof(name), "%d", (int)pf->pid);
		pf->dir = oom_openat(pf->parent, name, O_RDONLY | O_DIRECTORY);
	}
	return pf->dir;
}

static void pid_dir_close(struct pid_files *pf)
{
	if (pf->dir >= 0)
		close(pf->dir);
	pf->dir = -1;
}

/* Reads one of the process's own files, through its kept fd when it has one. */
static int pid_read(struct pid_files *pf, enum oom_kept_file k, struct oom_buf *buf)
{
	int dir, fd;

	if (pf->rec && pf->rec->fd[k] >= 0)
		return oom_reread_whole(pf->rec->fd[k], buf);
	dir = pid_dir(pf);
	if (dir < 0)
		return dir;
	if (!pf->rec || !oom_watch_reserve_fd(pf->watch))
		return oom_read_whole_at(dir, kept_names[k], buf);
	fd = oom_openat(dir, kept_names[k], O_RDONLY);
	if (fd < 0) {
		oom_watch_release_fds(pf->watch, 1);
		return fd;
	}
	pf->rec->fd[k] = fd;
	return oom_reread_whole(fd, buf);
}

/*
 * Reads status (and stat) of the thread @pf names into @t. With
 * @memory_only, the thread lends a zombie leader what dump_tasks takes from
 * find_lock_task_mm(): its mm, pid and cpu, and its name as mm_comm; the
 * group keeps its leader's tgid, parent, state and name.
 */
static int read_thread(struct pid_files *pf, unsigned int what, struct oom_buf *buf, unsigned long page_size,
		       struct oom_task *t, bool memory_only)
{
	struct oom_status_fields st;
	struct oom_task keep = *t;
	char comm[OOM_COMM_MAX];
	int err;

	err = pid_read(pf, OOM_KEPT_STATUS, buf);
	if (err < 0)
		return err;
	err = oom_parse_status_upto(buf->data, buf->len, what & OOM_READ_MEMS, &st);
	if (err < 0)
		return err;
	if (memory_only && !st.has_mm)
		return -ESRCH;
	/* stat's comm is raw; status's Name is escaped: use it only without stat. */
	if (!(what & OOM_READ_STAT) && oom_parse_status_name(buf->data, buf->len, comm, sizeof(comm)) < 0)
		return -EINVAL;
	oom_task_apply_status(t, &st, page_size);
	if (memory_only) {
		t->tgid = keep.tgid;
		t->ppid = keep.ppid;
		t->state = keep.state;
	} else {
		if (!(what & OOM_READ_STAT))
			memcpy(t->comm, comm, sizeof(t->comm));
		if ((what & OOM_READ_MEMS) && st.mems_list) {
			t->mems_allowed = malloc(OOM_MAX_NODES / 8);
			if (!t->mems_allowed)
				return -ENOMEM;
			if (oom_parse_node_list(st.mems_list, st.mems_list_len, t->mems_allowed) < 0)
				return -EINVAL;
			t->have |= OOM_HAVE_MEMS;
		}
	}
	if (what & OOM_READ_STAT) {
		struct oom_stat_fields sf;

		err = pid_read(pf, OOM_KEPT_STAT, buf);
		if (err < 0)
			return err;
		err = oom_parse_stat(buf->data, buf->len, &sf);
		if (err < 0)
			return err;
		if (memory_only) {
			t->cpu = sf.processor;
			memcpy(comm, sf.comm, sizeof(comm));
		} else {
			oom_task_apply_stat(t, &sf, page_size);
		}
	}
	if (memory_only) {
		/* Last, so that a failure above leaves nothing to free. */
		t->mm_comm = strdup(comm);
		if (!t->mm_comm)
			return -ENOMEM;
	}
	return 0;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

int oom_list_threads(int taskfd, pid_t tgid, pid_t **tids, size_t *count)
{
	int fd = oom_openat(taskfd, ".", O_RDONLY | O_DIRECTORY);
	size_t n = 0, cap = 0;
	pid_t *v = NULL;
	struct dirent *de;
	DIR *d;

	if (fd < 0)
		return fd;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	while ((de = readdir(d))) {
		long long tid;

		if (oom_parse_ll(de->d_name, 10, &tid) < 0 || tid <= 0 || tid > INT32_MAX || tid == tgid)
			continue;
		if (n == cap) {
			pid_t *nv = realloc(v, (cap = cap ? cap * 2 : 16) * sizeof(*v));

			if (!nv) {
				free(v);
				closedir(d);
				return -ENOMEM;
			}
			v = nv;
		}
		v[n++] = (pid_t)tid;
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), cmp_pid);
	*tids = v;
	*count = n;
	return 0;
}

/* A zombie leader whose threads live on: take the mm figures from the first live thread. */
static int read_live_thread(struct pid_files *pf, unsigned int what, struct oom_buf *buf, unsigned long page_size,
			    struct oom_task *t)
{
	int piddir = pid_dir(pf), taskfd;
	pid_t *tids = NULL;
	size_t n = 0;
	int err;

	if (piddir < 0)
		return piddir;
	taskfd = oom_openat(piddir, "task", O_RDONLY | O_DIRECTORY);
	if (taskfd < 0)
		return taskfd;
	err = oom_list_threads(taskfd, t->tgid, &tids, &n);
	if (err == 0)
		err = -ESRCH;
	for (size_t i = 0; i < n; i++) {
		struct pid_files thread = { .parent = taskfd, .pid = tids[i], .dir = -1 };
		struct oom_task tmp;

		if (pid_dir(&thread) < 0)
			continue; /* gone since the listing */
		/* On a copy: a thread that fails half-way must leave nothing behind. */
		tmp = *t;
		err = read_thread(&thread, what, buf, page_size, &tmp, true);
		pid_dir_close(&thread);
		if (err == 0) {
			tmp.pid = tids[i];
			*t = tmp;
			break;
		}
	}
	free(tids);
	close(taskfd);
	return err;
}

static int read_value_file(struct pid_files *pf, enum oom_kept_file k, struct oom_buf *buf, long long *v)
{
	int err = pid_read(pf, k, buf);

	if (err < 0)
		return err;
	return oom_parse_value_line(buf->data, buf->len, v);
}

static int read_oom_score_adj(struct pid_files *pf, struct oom_buf *buf, int *adj)
{
	long long v;
	int err = read_value_file(pf, OOM_KEPT_OOM_SCORE_ADJ, buf, &v);

	if (err < 0)
		return err;
	if (v < OOM_SCORE_ADJ_MIN || v > OOM_SCORE_ADJ_MAX)
		return -EINVAL;
	*adj = (int)v;
	return 0;
}

/* Reads the process @pf names. */
static int read_task(struct pid_files *pf, pid_t tgid, unsigned int what, struct oom_buf *buf, unsigned long page_size,
		     struct oom_task *t)
{
	long long v;
	int err;

	memset(t, 0, sizeof(*t));
	t->pid = t->tgid = tgid;
	t->oom_score = -1;
	err = read_thread(pf, what, buf, page_size, t, false);
	if (err < 0)
		return err;
	if (t->tgid != tgid)
		return -ESRCH; /* not a thread-group leader (a fixture listing a thread) */
	if (!(t->have & OOM_HAVE_MM) && !oom_task_is_kthread(t) && t->state == 'Z') {
		err = read_live_thread(pf, what, buf, page_size, t);
		if (err < 0 && err != -ESRCH && err != -ENOENT)
			return err;
	}
	err = read_oom_score_adj(pf, buf, &t->oom_score_adj);
	if (err < 0)
		return err;
	/*
	 * The extras are optional: a tree saved for another output may lack
	 * them (ENOENT), and the task is then read without them.
	 */
	if (what & OOM_READ_OOM_SCORE) {
		err = read_value_file(pf, OOM_KEPT_OOM_SCORE, buf, &v);
		if (err == 0) {
			t->oom_score = (long)v;
			t->have |= OOM_HAVE_OOM_SCORE;
		} else if (err != -ENOENT) {
			return err;
		}
	}
	if (what & OOM_READ_CGROUP) {
		err = pid_read(pf, OOM_KEPT_CGROUP, buf);
		if (err == 0) {
			err = oom_parse_cgroup(buf->data, buf->len, &t->cgroup_v2, &t->cgroup_memory);
			if (err < 0)
				return err;
			t->have |= OOM_HAVE_CGROUP;
		} else if (err != -ENOENT) {
			return err;
		}
	}
	if (what & OOM_READ_NUMA_MAPS) {
		err = pid_dir(pf);
		if (err >= 0)
			err = oom_read_numa_policy(pf->dir, buf, t);
		if (err < 0)
			return err;
	}
	return 0;
}

OOM_EXPORT void oom_task_clear(struct oom_task *t)
{
	if (!t)
		return;
	free(t->cgroup_v2);
	free(t->cgroup_memory);
	free(t->mems_allowed);
	free(t->policy_nodes);
	free(t->mm_comm);
	t->cgroup_v2 = t->cgroup_memory = NULL;
	t->mems_allowed = t->policy_nodes = NULL;
	t->mm_comm = NULL;
}

OOM_EXPORT int oom_task_read(struct oom_ctx *ctx, pid_t tgid, unsigned int what, struct oom_task *t)
{
	struct oom_buf buf = { 0 };
	struct pid_files pf = { .pid = tgid };
	int err;

	if (!ctx || !t || tgid <= 0)
		return -EINVAL;
	pf.dir = oom_open_pid_dir(ctx, tgid);
	if (pf.dir < 0)
		return pf.dir;
	err = read_task(&pf, tgid, what, &buf, ctx->page_size, t);
	pid_dir_close(&pf);
	oom_buf_free(&buf);
	if (err < 0) {
		oom_task_clear(t);
		if (err == -ENOENT)
			err = -ESRCH;
	}
	return err;
}

/* ---- the snapshot ----------------------------------------------------- */

static int cmp_tgid(const void *a, const void *b)
{
	const struct oom_task *x = a, *y = b;

	return (x->tgid > y->tgid) - (x->tgid < y->tgid);
}

static int cmp_ppid(const void *a, const void *b, void *base)
{
	const struct oom_task *tasks = base;
	const struct oom_task *x = &tasks[*(const size_t *)a];
	const struct oom_task *y = &tasks[*(const size_t *)b];

	if (x->ppid != y->ppid)
		return (x->ppid > y->ppid) - (x->ppid < y->ppid);
	return (x->tgid > y->tgid) - (x->tgid < y->tgid);
}

/* Sorts tasks by PID and builds the parent index; takes ownership of @tasks. */
int oom_snapshot_from_tasks(struct oom_task *tasks, size_t count, const struct oom_meminfo *mi,
			    unsigned long page_size, unsigned long long uptime, struct oom_snapshot **snapp)
{
	size_t *by_ppid = malloc((count ? count : 1) * sizeof(*by_ppid));
	struct oom_snapshot *snap = calloc(1, sizeof(*snap));

	/* Both before taking @tasks: on failure they stay the caller's. */
	if (!by_ppid || !snap) {
		free(by_ppid);
		free(snap);
		return -ENOMEM;
	}
	snap->tasks = tasks;
	snap->by_ppid = by_ppid;
	snap->count = count;
	snap->meminfo = *mi;
	snap->page_size = page_size;
	snap->uptime = uptime;
	/* An empty /proc gives tasks == NULL, which qsort() must never see. */
	if (count) {
		size_t sorted = 1;

		/* The live /proc lists PIDs in order already: check before sorting. */
		while (sorted < count && tasks[sorted - 1].tgid < tasks[sorted].tgid)
			sorted++;
		if (sorted < count)
			qsort(tasks, count, sizeof(*tasks), cmp_tgid);
		for (size_t i = 0; i < count; i++)
			snap->by_ppid[i] = i;
		qsort_r(snap->by_ppid, count, sizeof(*snap->by_ppid), cmp_ppid, tasks);
	}
	*snapp = snap;
	return 0;
}

OOM_EXPORT int oom_read_meminfo(struct oom_ctx *ctx, struct oom_meminfo *mi)
{
	struct oom_buf buf = { 0 };
	int err = oom_read_file_at(ctx->proc_fd, "meminfo", &buf);

	if (err == 0)
		err = oom_parse_meminfo(buf.data, buf.len, mi);
	oom_buf_free(&buf);
	return err;
}

OOM_EXPORT int oom_read_uptime(struct oom_ctx *ctx, unsigned long long *seconds)
{
	struct oom_buf buf = { 0 };
	int err = oom_read_file_at(ctx->proc_fd, "uptime", &buf);

	if (err == 0) {
		/* "12345.67 23456.78\n": the whole seconds of the first figure. */
		size_t n = strspn(buf.data, "0123456789");

		buf.data[n] = '\0';
		err = oom_parse_ull(buf.data, 10, seconds);
	}
	oom_buf_free(&buf);
	return err;
}

/*
 * A watched process whose statm is what it was at its last full read: that
 * read's figures, with oom_score_adj read again. Returns 0, or 1 when the
 * process must be read in full.
 */
static int reuse_unchanged(struct pid_files *pf, struct oom_buf *buf, struct oom_task *t)
{
	const struct oom_watch_rec *r = pf->rec;
	int adj;

	if (pid_read(pf, OOM_KEPT_STATM, buf) < 0 || buf->len != r->statm_len ||
	    memcmp(buf->data, r->statm, buf->len) != 0)
		return 1;
	if (read_oom_score_adj(pf, buf, &adj) < 0)
		return 1;
	*t = r->last;
	t->oom_score_adj = adj;
	return 0;
}

/* Reads the process in full; under a watch, a status-only read is remembered with its statm. */
static int full_read(struct pid_files *pf, unsigned int what, struct oom_buf *buf, unsigned long page_size,
		     struct oom_task *t)
{
	struct oom_watch_rec *r = pf->rec;
	bool remember = r && oom_watch_statm_gated(what);
	int err;

	if (r)
		r->have_last = false;
	/* statm first: a change made after it shows at the next scan, never hides. */
	if (remember) {
		bool kept = r->fd[OOM_KEPT_STATM] >= 0;

		remember = pid_read(pf, OOM_KEPT_STATM, buf) == 0 && buf->len < sizeof(r->statm);
		/* A kept file that fails belongs to a process gone: none of the record's may stay. */
		if (!remember && kept)
			oom_watch_rec_close(pf->watch, r);
		if (remember) {
			memcpy(r->statm, buf->data, buf->len);
			r->statm_len = (unsigned char)buf->len;
		}
	}
	err = read_task(pf, pf->pid, what, buf, page_size, t);
	if (err == 0 && r) {
		r->dirty = false;
		/*
		 * A zombie leader's borrowed name is allocated: read it in full each
		 * time; a task with a signal pending too, so that a kill under way
		 * keeps showing whatever its statm does.
		 */
		if (remember && !t->mm_comm && !t->sig_pending) {
			r->last = *t;
			r->have_last = true;
		}
	}
	return err;
}

/*
 * Reads the process @pf names. Under a watch, a process whose files were
 * kept from an earlier scan may have died since, and its PID gone to a new
 * process: on any failure through kept files, the record is emptied and the
 * process read afresh.
 */
static int read_listed_task(struct pid_files *pf, unsigned int what, struct oom_buf *buf, unsigned long page_size,
			    struct oom_task *t)
{
	bool carried = pf->rec && oom_watch_rec_open(pf->rec);
	int err;

	if (carried && oom_watch_may_reuse(pf->watch, pf->rec, what) && reuse_unchanged(pf, buf, t) == 0) {
		pid_dir_close(pf);
		return 0;
	}
	err = full_read(pf, what, buf, page_size, t);
	if (err < 0 && err != -ENOMEM && carried) {
		oom_task_clear(t);
		oom_watch_rec_close(pf->watch, pf->rec);
		err = full_read(pf, what, buf, page_size, t);
	}
	pid_dir_close(pf);
	return err;
}

int oom_scan_proc(struct oom_ctx *ctx, struct oom_watch *w, unsigned int what, struct oom_snapshot **snapp)
{
	struct oom_task *tasks = NULL;
	size_t count = 0, cap = 0;
	struct oom_buf buf = { 0 };
	struct oom_meminfo mi;
	unsigned long long uptime = 0;
	struct dirent *de;
	DIR *d;
	int fd, err;

	if (!ctx || !snapp)
		return -EINVAL;
	err = oom_read_meminfo(ctx, &mi);
	if (err < 0)
		return err;
	/* Only the legacy heuristic needs it; a tree without one still reads. */
	if (oom_read_uptime(ctx, &uptime) < 0)
		uptime = 0;
	fd = oom_openat(ctx->proc_fd, ".", O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return fd;
	d = fdopendir(fd);
	if (!d) {
		err = -errno;
		close(fd);
		return err;
	}
	while ((de = readdir(d))) {
		struct pid_files pf = { .parent = fd, .dir = -1, .watch = w };
		long long pid;

		if (de->d_name[0] < '1' || de->d_name[0] > '9' || oom_parse_ll(de->d_name, 10, &pid) < 0 ||
		    pid > INT32_MAX)
			continue;
		if (count == cap) {
			size_t ncap = cap ? cap * 2 : 256;
			struct oom_task *n = realloc(tasks, ncap * sizeof(*tasks));

			if (!n) {
				err = -ENOMEM;
				break;
			}
			tasks = n;
			cap = ncap;
		}
		pf.pid = (pid_t)pid;
		if (w && w->keep)
			pf.rec = oom_watch_carry(w, pf.pid);
		err = read_listed_task(&pf, what, &buf, ctx->page_size, &tasks[count]);
		if (err < 0) {
			/* Vanished, unreadable or garbled: this process is skipped, never the report. */
			oom_task_clear(&tasks[count]);
			if (pf.rec)
				oom_watch_drop_last(w);
			if (err == -ENOMEM)
				break;
			err = 0;
			continue;
		}
		count++;
	}
	closedir(d);
	if (w)
		oom_watch_end_scan(w);
	oom_buf_free(&buf);
	if (err >= 0)
		err = oom_snapshot_from_tasks(tasks, count, &mi, ctx->page_size, uptime, snapp);
	if (err != 0) {
		for (size_t i = 0; i < count; i++)
			oom_task_clear(&tasks[i]);
		free(tasks);
	}
	return err;
}

OOM_EXPORT int oom_snapshot_new(struct oom_ctx *ctx, unsigned int what, struct oom_snapshot **snapp)
{
	return oom_scan_proc(ctx, NULL, what, snapp);
}

OOM_EXPORT void oom_snapshot_free(struct oom_snapshot *snap)
{
	if (!snap)
		return;
	for (size_t i = 0; i < snap->count; i++)
		oom_task_clear(&snap->tasks[i]);
	free(snap->tasks);
	free(snap->by_ppid);
	free(snap);
}

OOM_EXPORT size_t oom_snapshot_count(const struct oom_snapshot *snap)
{
	return snap ? snap->count : 0;
}

OOM_EXPORT const struct oom_task *oom_snapshot_task(const struct oom_snapshot *snap, size_t i)
{
	return snap && i < snap->count ? &snap->tasks[i] : NULL;
}

OOM_EXPORT const struct oom_task *oom_snapshot_find(const struct oom_snapshot *snap, pid_t tgid)
{
	struct oom_task key = { .tgid = tgid };

	if (!snap || !snap->count)
		return NULL;
	return bsearch(&key, snap->tasks, snap->count, sizeof(key), cmp_tgid);
}

OOM_EXPORT const struct oom_meminfo *oom_snapshot_meminfo(const struct oom_snapshot *snap)
{
	return &snap->meminfo;
}

OOM_EXPORT unsigned long long oom_snapshot_uptime(const struct oom_snapshot *snap)
{
	return snap->uptime;
}

OOM_EXPORT unsigned long oom_snapshot_page_size(const struct oom_snapshot *snap)
{
	return snap->page_size;
}

OOM_EXPORT size_t oom_snapshot_children(const struct oom_snapshot *snap, pid_t tgid, const size_t **first)
{
	size_t lo = 0, hi = snap->count, start;

	/* The first index whose ppid is >= tgid, then the run of equal ppids. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (snap->tasks[snap->by_ppid[mid]].ppid < tgid)
			lo = mid + 1;
		else
			hi = mid;
	}
	start = lo;
	while (lo < snap->count && snap->tasks[snap->by_ppid[lo]].ppid == tgid)
		lo++;
	*first = snap->by_ppid + start;
	return lo - start;
}

OOM_EXPORT int oom_snapshot_read_children_stat(struct oom_ctx *ctx, struct oom_snapshot *snap, pid_t parent)
{
	struct oom_buf buf = { 0 };
	const size_t *kids;
	size_t n;
	int err = 0;

	if (!ctx || !snap)
		return -EINVAL;
	n = oom_snapshot_children(snap, parent, &kids);
	for (size_t i = 0; i < n && err != -ENOMEM; i++) {
		struct oom_task *t = &snap->tasks[kids[i]];
		struct oom_stat_fields sf;
		char path[32];
		pid_t ppid = t->ppid;

		if (t->have & OOM_HAVE_STAT)
			continue;
		snprintf(path, sizeof(path), "%d/stat", (int)t->tgid);
		err = oom_read_whole_at(ctx->proc_fd, path, &buf);
		if (err == 0)
			err = oom_parse_stat(buf.data, buf.len, &sf);
		if (err < 0)
			continue; /* gone since the scan: it keeps what it had */
		oom_task_apply_stat(t, &sf, snap->page_size);
		/* The parent index is sorted by the scan's ppid: a reparented child keeps it. */
		t->ppid = ppid;
	}
	oom_buf_free(&buf);
	return err == -ENOMEM ? err : 0;
}
