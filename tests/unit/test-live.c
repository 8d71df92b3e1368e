// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Against the running system: the kernel heuristic must give exactly
 * /proc/PID/oom_score for every process. oom_score is read before and
 * after the task's figures; only when the two agree did nothing move in
 * between, so a disagreement means a retry, never a flaky failure.
 */
#include <dirent.h>
#include <signal.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "child.h"
#include "unit.h"

#define ATTEMPTS 50

/* The kernel's oom_score of @pid, read through the context. */
static int read_oom_score(struct oom_ctx *ctx, pid_t pid, struct oom_buf *buf, long long *v)
{
	char path[32];
	int err;

	snprintf(path, sizeof(path), "%d/oom_score", (int)pid);
	err = oom_read_file_at(ctx->proc_fd, path, buf);
	if (err == -ENOENT)
		return -ESRCH;
	if (err < 0)
		return err;
	if (buf->len == 0)
		return -ESRCH; /* gone between open and read */
	return oom_parse_value_line(buf->data, buf->len, v);
}

enum outcome { MATCH, VANISHED, MISMATCH, UNSTABLE };

static enum outcome check_pid(struct oom_ctx *ctx, pid_t pid, unsigned long totalpages, struct oom_buf *buf,
			      char *why, size_t why_size)
{
	struct oom_score_params p = { .heuristic = OOM_HEURISTIC_KERNEL, .totalpages = totalpages };
	bool agreed = false;

	for (int i = 0; i < ATTEMPTS; i++) {
		struct oom_score_terms terms;
		struct oom_task t;
		long long before, after;
		long mine;

		if (read_oom_score(ctx, pid, buf, &before) < 0)
			return VANISHED;
		if (oom_task_read(ctx, pid, OOM_READ_STATUS | OOM_READ_STAT, &t) < 0)
			return VANISHED;
		if (read_oom_score(ctx, pid, buf, &after) < 0) {
			oom_task_clear(&t);
			return VANISHED;
		}
		assert_int_equal(oom_score_task(NULL, &t, &p, &terms), 0);
		mine = oom_kernel_display_score(terms.score, totalpages, terms.eligible);
		oom_task_clear(&t);
		if (before == after) {
			agreed = true;
			if (mine == before)
				return MATCH;
			snprintf(why, why_size,
				 "pid %d (%s): kernel %lld, liboom %ld (points %ld, rss %lu, swap %lu, pgtables %lu)",
				 (int)pid, t.comm, before, mine, terms.score, terms.rss_pages, terms.swap_pages,
				 terms.pgtables_pages);
		}
		/*
		 * Give a busy or transient process (a vfork child before its exec
		 * shows 0) a moment: at most ATTEMPTS ms, and only for this one.
		 */
		usleep(1000);
	}
	if (!agreed)
		snprintf(why, why_size, "pid %d: oom_score never held still", (int)pid);
	return agreed ? MISMATCH : UNSTABLE;
}

static void kernel_matches_oom_score(void **state)
{
	struct oom_buf buf = { 0 };
	struct oom_meminfo mi;
	struct oom_ctx *ctx;
	unsigned long totalpages;
	size_t checked = 0, vanished = 0, failed = 0;
	struct dirent *de;
	DIR *d;

	(void)state;
	assert_int_equal(oom_ctx_new("/", &ctx), 0);
	assert_int_equal(oom_read_meminfo(ctx, &mi), 0);
	totalpages = oom_system_totalpages(&mi, oom_ctx_get_page_size(ctx), OOM_HEURISTIC_KERNEL, NULL);
	d = opendir("/proc");
	assert_non_null(d);
	while ((de = readdir(d))) {
		long long pid;
		char why[256];

		if (oom_parse_ll(de->d_name, 10, &pid) < 0)
			continue;
		switch (check_pid(ctx, (pid_t)pid, totalpages, &buf, why, sizeof(why))) {
		case MATCH:
			checked++;
			break;
		case VANISHED:
			vanished++;
			break;
		default:
			print_error("%s\n", why);
			failed++;
		}
	}
	closedir(d);
	oom_buf_free(&buf);
	oom_ctx_unref(ctx);
	print_message("checked %zu processes (%zu vanished)\n", checked, vanished);
	assert_int_equal(failed, 0);
	/* At least init, this test, its parent and a shell, whatever the machine. */
	assert_true(checked >= 4);
}

static void snapshot_has_self(void **state)
{
	struct oom_snapshot *snap;
	const struct oom_task *t;
	struct oom_ctx *ctx;

	(void)state;
	assert_int_equal(oom_ctx_new(NULL, &ctx), 0);
	assert_int_equal(oom_snapshot_new(ctx, OOM_READ_STATUS | OOM_READ_STAT, &snap), 0);
	t = oom_snapshot_find(snap, getpid());
	assert_non_null(t);
	assert_int_equal(t->pid, getpid());
	assert_int_equal(t->uid, getuid());
	assert_int_equal(t->ppid, getppid());
	{
		/* Our own name as the kernel has it ("test-live", or valgrind's when under it). */
		char comm[OOM_COMM_MAX] = "";
		FILE *f = fopen("/proc/self/comm", "r");

		assert_non_null(f);
		assert_non_null(fgets(comm, sizeof(comm), f));
		fclose(f);
		comm[strcspn(comm, "\n")] = '\0';
		assert_string_equal(t->comm, comm);
	}
	assert_true(t->have & OOM_HAVE_MM);
	assert_true(oom_task_dumpable(t));
	assert_true(oom_task_rss_pages(t) > 0);
	assert_true(t->total_vm_pages >= oom_task_rss_pages(t));
	assert_non_null(oom_snapshot_find(snap, getppid()));
	/* init is there; it is never dumped */
	assert_non_null(oom_snapshot_find(snap, 1));
	assert_false(oom_task_dumpable(oom_snapshot_find(snap, 1)));
	/* PID order */
	for (size_t i = 1; i < oom_snapshot_count(snap); i++)
		assert_true(oom_snapshot_task(snap, i - 1)->tgid < oom_snapshot_task(snap, i)->tgid);
	oom_snapshot_free(snap);
	oom_ctx_unref(ctx);
}

/* ---- writing oom_score_adj of a real child ---------------------------- */

static bool have_cap(int cap)
{
	char line[256];
	bool have = false;
	FILE *f = fopen("/proc/self/status", "r");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v;

		if (sscanf(line, "CapEff: %llx", &v) == 1)
			have = (v >> cap) & 1;
	}
	fclose(f);
	return have;
}

static void adj_write_live(void **state)
{
	struct oom_ctx *ctx;
	struct oom_task t;
	int v, old = -1;

	(void)state;
	assert_int_equal(oom_ctx_new(NULL, &ctx), 0);
	assert_int_equal(oom_task_read(ctx, child_pid, OOM_READ_STATUS | OOM_READ_STAT, &t), 0);
	assert_int_equal(oom_score_adj_read(ctx, child_pid, &v), 0);
	assert_int_equal(v, t.oom_score_adj);

	/* Raising is always allowed */
	assert_int_equal(oom_score_adj_write(ctx, child_pid, v + 300 > 1000 ? 1000 : v + 300, t.start_ticks, &old), 0);
	assert_int_equal(old, v);
	assert_int_equal(oom_score_adj_read(ctx, child_pid, &v), 0);
	assert_true(v == old + 300 || v == 1000);
	/* A different start time is another process */
	assert_int_equal(oom_score_adj_write(ctx, child_pid, 1000, t.start_ticks + 1, NULL), -ESTALE);
	assert_int_equal(oom_score_adj_write(ctx, child_pid, 1001, 0, NULL), -EINVAL);
	/* Back down to where it was: the kernel allows it down to oom_score_adj_min */
	assert_int_equal(oom_score_adj_write(ctx, child_pid, old, 0, NULL), 0);
	/*
	 * Below oom_score_adj_min (inherited, not shown in /proc; 0 unless a
	 * privileged writer lowered it) needs CAP_SYS_RESOURCE: EACCES, and
	 * nothing changed.
	 */
	if (!have_cap(OOM_CAP_SYS_RESOURCE) && old > -1000) {
		int err = oom_score_adj_write(ctx, child_pid, -1000, 0, NULL);

		assert_true(err == 0 || err == -EACCES);
		assert_int_equal(oom_score_adj_read(ctx, child_pid, &v), 0);
		assert_int_equal(v, err == 0 ? -1000 : old);
		print_message("lowering to -1000 without CAP_SYS_RESOURCE: %s\n", err ? "EACCES" : "allowed");
	}

	/* Gone */
	kill(child_pid, SIGKILL);
	waitpid(child_pid, NULL, 0);
	assert_int_equal(oom_score_adj_write(ctx, child_pid, 1000, 0, NULL), -ESRCH);
	assert_int_equal(oom_score_adj_read(ctx, child_pid, &v), -ESRCH);
	child_pid = 0;
	oom_task_clear(&t);
	oom_ctx_unref(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kernel_matches_oom_score),
		cmocka_unit_test(snapshot_has_self),
		cmocka_unit_test_setup_teardown(adj_write_live, child_setup, child_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
