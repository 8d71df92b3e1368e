// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The watch: scans that keep each process's files open must read exactly
 * what a fresh snapshot reads, see every change made in between, and let
 * go of the files of processes that are gone, garbled or past the budget.
 */
#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "fixture.h"

#define ALL_FILES (OOM_READ_STATUS | OOM_READ_STAT | OOM_READ_OOM_SCORE | OOM_READ_CGROUP)

static size_t count_own_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	size_t n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1; /* the directory stream's own */
}

/* Every field the reader fills, compared task by task. */
static void assert_same_snapshot(const struct oom_snapshot *a, const struct oom_snapshot *b)
{
	assert_int_equal(oom_snapshot_count(a), oom_snapshot_count(b));
	for (size_t i = 0; i < oom_snapshot_count(a); i++) {
		const struct oom_task *x = oom_snapshot_task(a, i), *y = oom_snapshot_task(b, i);

		assert_int_equal(x->tgid, y->tgid);
		assert_int_equal(x->pid, y->pid);
		assert_int_equal(x->ppid, y->ppid);
		assert_int_equal(x->uid, y->uid);
		assert_string_equal(x->comm, y->comm);
		assert_int_equal(x->state, y->state);
		assert_int_equal(x->have, y->have);
		assert_int_equal(x->flags, y->flags);
		assert_int_equal(x->rss_anon_pages, y->rss_anon_pages);
		assert_int_equal(x->rss_file_pages, y->rss_file_pages);
		assert_int_equal(x->swap_pages, y->swap_pages);
		assert_int_equal(x->pgtables_bytes, y->pgtables_bytes);
		assert_int_equal(x->oom_score_adj, y->oom_score_adj);
		assert_int_equal(x->oom_score, y->oom_score);
		assert_int_equal(x->utime_ticks, y->utime_ticks);
		assert_int_equal(x->start_ticks, y->start_ticks);
		assert_int_equal(x->cap_eff, y->cap_eff);
		assert_true((x->cgroup_v2 == NULL) == (y->cgroup_v2 == NULL));
		if (x->cgroup_v2)
			assert_string_equal(x->cgroup_v2, y->cgroup_v2);
	}
}

static void scan_and_compare(struct oom_ctx *ctx, struct oom_watch *w)
{
	struct oom_snapshot *fresh, *watched;

	assert_int_equal(oom_snapshot_new(ctx, ALL_FILES, &fresh), 0);
	assert_int_equal(oom_watch_scan(w, ALL_FILES, &watched), 0);
	assert_same_snapshot(fresh, watched);
	oom_snapshot_free(fresh);
	oom_snapshot_free(watched);
}

/* On a saved tree the watch keeps nothing by default: its files may be replaced. */
static void saved_tree_keeps_nothing(void **state)
{
	struct oom_ctx *ctx;
	struct oom_watch *w;

	(void)state;
	assert_int_equal(oom_ctx_new(FIXTURES "/basic", &ctx), 0);
	assert_int_equal(oom_watch_new(ctx, &w), 0);
	scan_and_compare(ctx, w);
	assert_int_equal(oom_watch_open_files(w), 0);
	oom_watch_free(w);
	oom_ctx_unref(ctx);
}

/* Kept files read the same as fresh ones, scan after scan; freeing closes them all. */
static void kept_files_read_the_same(void **state)
{
	struct oom_ctx *ctx;
	struct oom_watch *w;
	size_t before;

	(void)state;
	assert_int_equal(oom_ctx_new(FIXTURES "/basic", &ctx), 0);
	before = count_own_fds();
	assert_int_equal(oom_watch_new(ctx, &w), 0);
	oom_watch_set_keep(w, true, 1000);
	for (int i = 0; i < 3; i++) {
		scan_and_compare(ctx, w);
		assert_true(oom_watch_open_files(w) > 0);
		assert_int_equal(count_own_fds(), before + oom_watch_open_files(w));
	}
	oom_watch_free(w);
	assert_int_equal(count_own_fds(), before);
	oom_ctx_unref(ctx);
}

/* Past the budget, processes are read as a snapshot reads them, and nothing more is kept. */
static void budget_is_kept(void **state)
{
	struct oom_ctx *ctx;
	struct oom_watch *w;

	(void)state;
	assert_int_equal(oom_ctx_new(FIXTURES "/basic", &ctx), 0);
	assert_int_equal(oom_watch_new(ctx, &w), 0);
	oom_watch_set_keep(w, true, 3);
	scan_and_compare(ctx, w);
	assert_int_equal(oom_watch_open_files(w), 3);
	scan_and_compare(ctx, w);
	assert_int_equal(oom_watch_open_files(w), 3);
	oom_watch_free(w);
	oom_ctx_unref(ctx);
}

static const struct oom_task *find(const struct oom_snapshot *s, pid_t pid)
{
	return oom_snapshot_find(s, pid);
}

/*
 * Changes between scans: a value rewritten in place is seen through the
 * kept file; a garbled process is skipped and its files closed, then read
 * afresh once repaired; a process whose directory goes has its files closed.
 */
static void changes_between_scans(void **state)
{
	struct tree *t = *state;
	struct oom_snapshot *s;
	struct oom_watch *w;
	char status[4096];
	size_t all, one;

	assert_int_equal(oom_watch_new(t->ctx, &w), 0);
	oom_watch_set_keep(w, true, 1000);
	assert_int_equal(oom_watch_scan(w, ALL_FILES, &s), 0);
	assert_non_null(find(s, 1187));
	all = oom_watch_open_files(w);
	one = all / oom_snapshot_count(s);
	assert_true(one >= 4);
	oom_snapshot_free(s);

	fixture_write(t->dir, "proc/1187/oom_score_adj", "-321\n");
	assert_int_equal(oom_watch_scan(w, ALL_FILES, &s), 0);
	assert_int_equal(find(s, 1187)->oom_score_adj, -321);
	oom_snapshot_free(s);
	scan_and_compare(t->ctx, w);

	assert_true(fixture_read(t->dir, "proc/1187/status", status, sizeof(status)) > 0);
	fixture_write(t->dir, "proc/1187/status", "Name:\tgarbled\nPid: x\n");
	assert_int_equal(oom_watch_scan(w, ALL_FILES, &s), 0);
	assert_null(find(s, 1187));
	assert_int_equal(oom_watch_open_files(w), all - one);
	oom_snapshot_free(s);

	fixture_write(t->dir, "proc/1187/status", status);
	assert_int_equal(oom_watch_scan(w, ALL_FILES, &s), 0);
	assert_non_null(find(s, 1187));
	assert_int_equal(oom_watch_open_files(w), all);
	oom_snapshot_free(s);
	scan_and_compare(t->ctx, w);

	{
		char path[512];

		snprintf(path, sizeof(path), "%s/proc/1187", t->dir);
		fixture_remove(path);
	}
	assert_int_equal(oom_watch_scan(w, ALL_FILES, &s), 0);
	assert_null(find(s, 1187));
	assert_int_equal(oom_watch_open_files(w), all - one);
	oom_snapshot_free(s);
	scan_and_compare(t->ctx, w);
	oom_watch_free(w);
}

/* @rel's content with the first @from replaced by @to, written in place. */
static void fixture_edit(const char *root, const char *rel, const char *from, const char *to)
{
	char text[4096], out[4096];
	char *at;

	assert_true(fixture_read(root, rel, text, sizeof(text)) > 0);
	at = strstr(text, from);
	assert_non_null(at);
	snprintf(out, sizeof(out), "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	fixture_write(root, rel, out);
}

static uid_t scan_uid(struct oom_watch *w, pid_t pid, int *adj)
{
	struct oom_snapshot *s;
	uid_t uid;

	assert_int_equal(oom_watch_scan(w, OOM_READ_STATUS, &s), 0);
	assert_non_null(find(s, pid));
	uid = find(s, pid)->uid;
	if (adj)
		*adj = find(s, pid)->oom_score_adj;
	oom_snapshot_free(s);
	return uid;
}

/*
 * Status-only scans reread status when statm changed, when the process was
 * marked dirty, or at its turn for a full read; oom_score_adj every time.
 */
static void status_reread_when_needed(void **state)
{
	struct tree *t = *state;
	struct oom_snapshot *fresh, *watched;
	struct oom_watch *w;
	int adj, scans;

	assert_int_equal(oom_watch_new(t->ctx, &w), 0);
	oom_watch_set_keep(w, true, 1000);
	assert_int_equal(scan_uid(w, 1187, NULL), 0);

	/* statm and status change together: seen at once. */
	fixture_edit(t->dir, "proc/1187/statm", "1314 1039", "1314 1040");
	fixture_edit(t->dir, "proc/1187/status", "Uid:\t0\t", "Uid:\t4242\t");
	assert_int_equal(scan_uid(w, 1187, NULL), 4242);

	/* oom_score_adj: at once, statm unchanged. */
	fixture_write(t->dir, "proc/1187/oom_score_adj", "77\n");
	scan_uid(w, 1187, &adj);
	assert_int_equal(adj, 77);

	/*
	 * A status change statm does not show, away from the process's turn for
	 * a full read: the last figures stand; marked dirty (an exec), it is
	 * read at the next scan.
	 */
	while ((w->scans + 1187) % OOM_WATCH_FULL_EVERY == 0 || (w->scans + 1 + 1187) % OOM_WATCH_FULL_EVERY == 0)
		scan_uid(w, 1187, NULL);
	fixture_edit(t->dir, "proc/1187/status", "Uid:\t4242\t", "Uid:\t4343\t");
	assert_int_equal(scan_uid(w, 1187, NULL), 4242);
	oom_watch_invalidate(w, 1187);
	assert_int_equal(scan_uid(w, 1187, NULL), 4343);

	/* A pending signal is never left to statm: the task is read in full while it lasts. */
	while ((w->scans + 1187) % OOM_WATCH_FULL_EVERY == 0 || (w->scans + 1 + 1187) % OOM_WATCH_FULL_EVERY == 0)
		scan_uid(w, 1187, NULL);
	fixture_edit(t->dir, "proc/1187/status", "ShdPnd:\t0000000000000000", "ShdPnd:\t0000000000000100");
	oom_watch_invalidate(w, 1187);
	assert_int_equal(scan_uid(w, 1187, NULL), 4343);
	fixture_edit(t->dir, "proc/1187/status", "Uid:\t4343\t", "Uid:\t4242\t");
	assert_int_equal(scan_uid(w, 1187, NULL), 4242);
	fixture_edit(t->dir, "proc/1187/status", "Uid:\t4242\t", "Uid:\t4343\t");
	fixture_edit(t->dir, "proc/1187/status", "ShdPnd:\t0000000000000100", "ShdPnd:\t0000000000000000");
	assert_int_equal(scan_uid(w, 1187, NULL), 4343);

	/* Nothing statm shows: by its turn for a full read at the latest. */
	fixture_edit(t->dir, "proc/1187/status", "Uid:\t4343\t", "Uid:\t4444\t");
	for (scans = 1; scan_uid(w, 1187, NULL) != 4444; scans++)
		assert_true(scans < OOM_WATCH_FULL_EVERY);

	/* With nothing changing, each scan equals a fresh snapshot. */
	for (int i = 0; i < OOM_WATCH_FULL_EVERY + 1; i++) {
		assert_int_equal(oom_snapshot_new(t->ctx, OOM_READ_STATUS, &fresh), 0);
		assert_int_equal(oom_watch_scan(w, OOM_READ_STATUS, &watched), 0);
		assert_same_snapshot(fresh, watched);
		oom_snapshot_free(fresh);
		oom_snapshot_free(watched);
	}
	oom_watch_free(w);
}

/* On the live /proc: files are kept by default, a change is seen, a death lets the files go. */
static void live_watch(void **state)
{
	struct oom_snapshot *s;
	struct oom_ctx *ctx;
	struct oom_watch *w;
	size_t with_child;
	int adj, old;

	(void)state;
	assert_int_equal(oom_ctx_new(NULL, &ctx), 0);
	assert_int_equal(oom_watch_new(ctx, &w), 0);
	assert_int_equal(oom_watch_scan(w, OOM_READ_STATUS, &s), 0);
	assert_non_null(find(s, child_pid));
	adj = find(s, child_pid)->oom_score_adj;
	oom_snapshot_free(s);
	with_child = oom_watch_open_files(w);
	assert_true(with_child >= 2);

	/* Raising is always allowed; the kept oom_score_adj file shows the new value. */
	assert_int_equal(oom_score_adj_write(ctx, child_pid, adj < 1000 ? adj + 1 : 999, 0, &old), 0);
	assert_int_equal(oom_watch_scan(w, OOM_READ_STATUS, &s), 0);
	assert_non_null(find(s, child_pid));
	assert_int_equal(find(s, child_pid)->oom_score_adj, adj < 1000 ? adj + 1 : 999);
	oom_snapshot_free(s);

	kill(child_pid, SIGKILL);
	waitpid(child_pid, NULL, 0);
	assert_int_equal(oom_watch_scan(w, OOM_READ_STATUS, &s), 0);
	assert_null(find(s, child_pid));
	child_pid = 0;
	oom_snapshot_free(s);
	oom_watch_free(w);
	oom_ctx_unref(ctx);
}

/* A child that sets its oom_score_adj to @adj, then pauses. */
static pid_t spawn_at(int adj)
{
	pid_t pid = fork();

	if (pid == 0) {
		char v[16];
		int fd = open("/proc/self/oom_score_adj", O_WRONLY);
		int n = snprintf(v, sizeof(v), "%d", adj);

		if (fd < 0 || write(fd, v, (size_t)n) != n)
			_exit(1);
		close(fd);
		for (;;)
			pause();
	}
	return pid;
}

static int adj_of(const struct oom_snapshot *s, pid_t pid)
{
	const struct oom_task *t = oom_snapshot_find(s, pid);

	return t ? t->oom_score_adj : -9999;
}

#define CHECK(cond)                                                               \
	do {                                                                      \
		if (!(cond)) {                                                    \
			fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); \
			return 1;                                                 \
		}                                                                 \
	} while (0)

/*
 * As PID 1 of a new PID namespace: a watched process dies and its PID goes
 * to a new one (ns_last_pid) between two scans. With every file kept, and
 * with a budget that leaves the first process only its statm kept, the
 * watch must read the new process, as a fresh snapshot does, and keep no
 * file of the dead one. Returns 0, 77 when the namespace cannot be set up.
 */
static int reuse_in_namespace(unsigned int what, size_t budget)
{
	struct oom_snapshot *s, *fresh;
	struct oom_ctx *ctx;
	struct oom_watch *w;
	struct oom_watch_rec *r = NULL;
	pid_t a, b;
	FILE *f;

	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		return 77;
	CHECK(oom_ctx_new(NULL, &ctx) == 0);
	CHECK(oom_watch_new(ctx, &w) == 0);
	oom_watch_set_keep(w, true, budget);
	a = spawn_at(100);
	for (int i = 0; i < 3; i++) {
		usleep(20000);
		CHECK(oom_watch_scan(w, what, &s) == 0);
		CHECK(adj_of(s, a) == 100 || i == 0);
		oom_snapshot_free(s);
	}
	kill(a, SIGKILL);
	waitpid(a, NULL, 0);
	f = fopen("/proc/sys/kernel/ns_last_pid", "w");
	if (!f || fprintf(f, "%d", (int)a - 1) < 0 || fclose(f) != 0)
		return 77;
	b = spawn_at(200);
	if (b != a) {
		kill(b, SIGKILL);
		return 77;
	}
	usleep(20000);
	CHECK(oom_watch_scan(w, what, &s) == 0);
	CHECK(oom_snapshot_new(ctx, what, &fresh) == 0);
	CHECK(adj_of(fresh, b) == 200);
	CHECK(adj_of(s, b) == 200);
	/* Every file the record keeps reads: none is the dead process's. */
	for (size_t i = 0; i < w->n_recs; i++)
		if (w->recs[i].pid == b)
			r = &w->recs[i];
	for (int k = 0; r && k < OOM_KEPT_COUNT; k++) {
		char c;

		CHECK(r->fd[k] < 0 || pread(r->fd[k], &c, 1, 0) == 1);
	}
	oom_snapshot_free(s);
	oom_snapshot_free(fresh);
	kill(b, SIGKILL);
	waitpid(b, NULL, 0);
	oom_watch_free(w);
	oom_ctx_unref(ctx);
	return 0;
}

static void pid_reused(void **state)
{
	/*
	 * Status alone goes through statm; with stat too, a failed kept file is
	 * retried afresh. PID 1 takes 3 files (statm, status, oom_score_adj):
	 * with 4, the first child keeps only its statm.
	 */
	static const struct {
		unsigned int what;
		size_t budget;
	} runs[] = {
		{ OOM_READ_STATUS, 1000 },
		{ OOM_READ_STATUS, 4 },
		{ OOM_READ_STATUS | OOM_READ_STAT, 1000 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		int status;
		pid_t pid = fork();

		assert_true(pid >= 0);
		if (pid == 0) {
			pid_t init;

			if (unshare(CLONE_NEWPID | CLONE_NEWNS) < 0)
				_exit(77);
			init = fork();
			if (init == 0)
				_exit(reuse_in_namespace(runs[i].what, runs[i].budget));
			if (init < 0 || waitpid(init, &status, 0) < 0)
				_exit(1);
			_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status));
		if (WEXITSTATUS(status) == 77)
			skip(); /* no PID namespace, or no ns_last_pid, here */
		assert_int_equal(WEXITSTATUS(status), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(saved_tree_keeps_nothing),
		cmocka_unit_test(kept_files_read_the_same),
		cmocka_unit_test(budget_is_kept),
		cmocka_unit_test_setup_teardown(changes_between_scans, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(status_reread_when_needed, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(live_watch, child_setup, child_teardown),
		cmocka_unit_test(pid_reused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
