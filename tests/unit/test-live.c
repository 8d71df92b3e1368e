// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Against the running system: the kernel heuristic must give exactly
 * /proc/PID/oom_score for every process. oom_score is read before and
 * after the task's figures; only when the two agree did nothing move in
 * between, so a disagreement means a retry, never a flaky failure.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

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
		if (before != after)
			continue;
		agreed = true;
		if (mine == before)
			return MATCH;
		snprintf(why, why_size, "pid %d (%s): kernel %lld, liboom %ld (points %ld, rss %lu, swap %lu, pgtables %lu)",
			 (int)pid, t.comm, before, mine, terms.score, terms.rss_pages, terms.swap_pages,
			 terms.pgtables_pages);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kernel_matches_oom_score),
		cmocka_unit_test(snapshot_has_self),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
