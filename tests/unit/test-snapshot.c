// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The snapshot on fixture trees (tests/fixtures/README says what each PID
 * holds), reading and writing oom_score_adj on private copies, and the
 * root confinement.
 */
#include <sys/stat.h>
#include <unistd.h>

#include "fixture.h"

static const pid_t basic_pids[] = { 1, 2, 14, 45, 1187, 4030, 4031, 4032, 4034, 4035, 5882 };

static struct oom_snapshot *snapshot_of(const char *root, unsigned int what)
{
	struct oom_ctx *ctx;
	struct oom_snapshot *snap = NULL;

	assert_int_equal(oom_ctx_new(root, &ctx), 0);
	assert_int_equal(oom_snapshot_new(ctx, what, &snap), 0);
	oom_ctx_unref(ctx);
	return snap;
}

static void pid_order(void **state)
{
	static const unsigned int modes[] = { OOM_READ_STATUS, OOM_READ_STATUS | OOM_READ_STAT, OOM_READ_ALL };

	(void)state;
	for (size_t m = 0; m < ARRAY_SIZE(modes); m++) {
		struct oom_snapshot *snap = snapshot_of(FIXTURES "/basic", modes[m]);

		assert_int_equal(oom_snapshot_count(snap), ARRAY_SIZE(basic_pids));
		for (size_t i = 0; i < ARRAY_SIZE(basic_pids); i++)
			assert_int_equal(oom_snapshot_task(snap, i)->tgid, basic_pids[i]);
		assert_null(oom_snapshot_task(snap, ARRAY_SIZE(basic_pids)));
		oom_snapshot_free(snap);
	}
}

static void system_figures(void **state)
{
	struct oom_snapshot *snap = snapshot_of(FIXTURES "/basic", OOM_READ_STATUS);
	const struct oom_meminfo *mi = oom_snapshot_meminfo(snap);

	(void)state;
	assert_int_equal(mi->mem_total_kb, 24683584);
	assert_int_equal(mi->swap_total_kb, 1048572);
	assert_int_equal(mi->swap_free_kb, 1046524);
	assert_int_equal(mi->active_anon_kb, 1568);
	assert_int_equal(oom_snapshot_uptime(snap), 2333); /* "2333.45 4604.78" */
	assert_int_equal(oom_snapshot_page_size(snap), (unsigned long)sysconf(_SC_PAGESIZE));
	oom_snapshot_free(snap);
}

static void special_tasks(void **state)
{
	struct oom_snapshot *snap = snapshot_of(FIXTURES "/basic", OOM_READ_STATUS | OOM_READ_STAT);
	const struct oom_task *t;

	(void)state;
	/* Kernel threads: flagged, no mm, not dumped. */
	for (pid_t pid = 2; pid <= 45; pid++) {
		t = oom_snapshot_find(snap, pid);
		if (!t)
			continue;
		assert_true(oom_task_is_kthread(t));
		assert_false(t->have & OOM_HAVE_MM);
		assert_false(oom_task_dumpable(t));
	}
	assert_string_equal(oom_snapshot_find(snap, 45)->comm, "kswapd0");

	/* init: in the snapshot with its memory, never dumped */
	t = oom_snapshot_find(snap, 1);
	assert_non_null(t);
	assert_string_equal(t->comm, "process_api");
	assert_true(t->have & OOM_HAVE_MM);
	assert_false(oom_task_is_kthread(t));
	assert_false(oom_task_dumpable(t));

	/* The zombie leader: memory, cpu and pid from live thread 4036; state and identity its own */
	t = oom_snapshot_find(snap, 4032);
	assert_non_null(t);
	assert_int_equal(t->tgid, 4032);
	assert_int_equal(t->pid, 4036);
	assert_int_equal(t->state, 'Z');
	assert_int_equal(t->ppid, 1);
	assert_true(t->have & OOM_HAVE_MM);
	assert_true(oom_task_dumpable(t));
	/* thread status: VmSize 10800 kB, RssAnon 116, RssFile 1448, VmPTE 48 kB; 4 KiB pages */
	if (oom_snapshot_page_size(snap) == 4096) {
		assert_int_equal(t->total_vm_pages, 2700);
		assert_int_equal(t->rss_anon_pages, 29);
		assert_int_equal(t->rss_file_pages, 362);
	}
	assert_int_equal(t->pgtables_bytes, 48 * 1024);
	assert_int_equal(t->cpu, 1);
	assert_string_equal(t->comm, "zombie-leader");

	/* Names: raw bytes from stat */
	assert_string_equal(oom_snapshot_find(snap, 4030)->comm, "a) b c");
	assert_string_equal(oom_snapshot_find(snap, 4031)->comm, "new\nline\\\x1b[31m");
	assert_string_equal(oom_snapshot_find(snap, 4035)->comm, ":-) 1 2 3 4 5 6");

	/* Other edited cases */
	t = oom_snapshot_find(snap, 4035);
	assert_int_equal(t->uid, 1000);
	assert_int_equal(t->cap_eff, 0);
	assert_int_equal(t->ppid, 1187);
	assert_int_equal(oom_snapshot_find(snap, 4034)->oom_score_adj, -1000);
	assert_int_equal(oom_snapshot_find(snap, 5882)->oom_score_adj, 1000);
	assert_int_equal(oom_snapshot_find(snap, 1187)->swap_pages * oom_snapshot_page_size(snap), 2048 * 1024);
	assert_true(oom_task_has_cap(oom_snapshot_find(snap, 1187), OOM_CAP_SYS_ADMIN));
	assert_int_equal(oom_snapshot_find(snap, 1187)->oom_score, -1); /* not asked for */
	assert_null(oom_snapshot_find(snap, 4036)); /* a thread is not a process */
	assert_null(oom_snapshot_find(snap, 3));
	assert_null(oom_snapshot_find(snap, 99999));
	oom_snapshot_free(snap);
}

/* status alone gives the same names (unescaped) and the kthread flag from "Kthread:". */
static void status_only(void **state)
{
	struct oom_snapshot *snap = snapshot_of(FIXTURES "/basic", OOM_READ_STATUS);
	const struct oom_task *t;

	(void)state;
	assert_string_equal(oom_snapshot_find(snap, 4030)->comm, "a) b c");
	assert_string_equal(oom_snapshot_find(snap, 4031)->comm, "new\nline\\\x1b[31m");
	assert_true(oom_task_is_kthread(oom_snapshot_find(snap, 2)));
	assert_false(oom_snapshot_find(snap, 4030)->have & OOM_HAVE_STAT);
	t = oom_snapshot_find(snap, 4032);
	assert_int_equal(t->pid, 4036);
	assert_true(oom_task_dumpable(t));
	oom_snapshot_free(snap);
}

static void extras(void **state)
{
	struct oom_snapshot *snap = snapshot_of(FIXTURES "/basic", OOM_READ_ALL);
	const struct oom_task *t = oom_snapshot_find(snap, 5882);

	(void)state;
	assert_int_equal(t->oom_score, 1334);
	assert_true(t->have & OOM_HAVE_OOM_SCORE);
	assert_true(t->have & OOM_HAVE_CGROUP);
	assert_string_equal(t->cgroup_v2, "/");
	assert_string_equal(t->cgroup_memory, "/process_api/43817c6d190f105725be44cba8486bb5");
	assert_true(t->have & OOM_HAVE_MEMS);
	assert_non_null(t->mems_allowed);
	assert_int_equal(t->mems_allowed[0], 1); /* "0" */
	for (size_t w = 1; w < OOM_MAX_NODES / 64; w++)
		assert_int_equal(t->mems_allowed[w], 0);
	t = oom_snapshot_find(snap, 1187);
	assert_true(t->have & OOM_HAVE_NUMA_MAPS);
	assert_true(t->policy_default);
	oom_snapshot_free(snap);
}

/* The fixture's oom_score files were recomputed by hand with the kernel's formula: agree with them. */
static void kernel_matches_fixture(void **state)
{
	struct oom_snapshot *snap = snapshot_of(FIXTURES "/basic", OOM_READ_ALL);
	struct oom_score_params p = { .heuristic = OOM_HEURISTIC_KERNEL };

	(void)state;
	p.totalpages = oom_system_totalpages(oom_snapshot_meminfo(snap), oom_snapshot_page_size(snap),
					     OOM_HEURISTIC_KERNEL, NULL);
	if (oom_snapshot_page_size(snap) != 4096)
		skip();
	assert_int_equal(p.totalpages, 6433039);
	for (size_t i = 0; i < oom_snapshot_count(snap); i++) {
		const struct oom_task *t = oom_snapshot_task(snap, i);
		struct oom_score_terms terms;
		long shown;

		assert_int_equal(oom_score_task(snap, t, &p, &terms), 0);
		shown = oom_kernel_display_score(terms.score, p.totalpages, terms.eligible);
		if (shown != t->oom_score)
			fail_msg("pid %d: %ld, the fixture says %ld", (int)t->tgid, shown, t->oom_score);
	}
	oom_snapshot_free(snap);
}

static void children(void **state)
{
	struct oom_snapshot *snap = snapshot_of(FIXTURES "/basic", OOM_READ_STATUS);
	static const pid_t of_1187[] = { 4030, 4031, 4034, 4035 };
	static const pid_t of_1[] = { 4032, 5882 };
	static const pid_t of_0[] = { 1, 2 };
	const size_t *idx;
	size_t n;

	(void)state;
	n = oom_snapshot_children(snap, 1187, &idx);
	assert_int_equal(n, ARRAY_SIZE(of_1187));
	for (size_t i = 0; i < n; i++)
		assert_int_equal(oom_snapshot_task(snap, idx[i])->tgid, of_1187[i]);
	n = oom_snapshot_children(snap, 1, &idx);
	assert_int_equal(n, ARRAY_SIZE(of_1));
	for (size_t i = 0; i < n; i++)
		assert_int_equal(oom_snapshot_task(snap, idx[i])->tgid, of_1[i]);
	n = oom_snapshot_children(snap, 0, &idx);
	assert_int_equal(n, ARRAY_SIZE(of_0));
	for (size_t i = 0; i < n; i++)
		assert_int_equal(oom_snapshot_task(snap, idx[i])->tgid, of_0[i]);
	n = oom_snapshot_children(snap, 2, &idx);
	assert_int_equal(n, 2); /* 14 and 45 */
	assert_int_equal(oom_snapshot_children(snap, 4030, &idx), 0);
	assert_int_equal(oom_snapshot_children(snap, 99999, &idx), 0);
	oom_snapshot_free(snap);
}

static void broken_skipped(void **state)
{
	struct oom_snapshot *snap;

	(void)state;
	/* With stat: only the two good processes */
	snap = snapshot_of(FIXTURES "/broken", OOM_READ_STATUS | OOM_READ_STAT);
	assert_int_equal(oom_snapshot_count(snap), 2);
	assert_int_equal(oom_snapshot_task(snap, 0)->tgid, 1);
	assert_int_equal(oom_snapshot_task(snap, 1)->tgid, 1187);
	oom_snapshot_free(snap);
	/* Status alone: 903's cut stat is not read, so it is there too */
	snap = snapshot_of(FIXTURES "/broken", OOM_READ_STATUS);
	assert_int_equal(oom_snapshot_count(snap), 3);
	assert_int_equal(oom_snapshot_task(snap, 1)->tgid, 903);
	oom_snapshot_free(snap);
	snap = snapshot_of(FIXTURES "/broken", OOM_READ_ALL);
	assert_int_equal(oom_snapshot_count(snap), 2);
	oom_snapshot_free(snap);
}

static void task_read(void **state)
{
	struct oom_task t;
	struct oom_ctx *ctx;

	(void)state;
	assert_int_equal(oom_ctx_new(FIXTURES "/basic", &ctx), 0);
	assert_int_equal(oom_task_read(ctx, 4030, OOM_READ_STATUS | OOM_READ_STAT | OOM_READ_CGROUP, &t), 0);
	assert_int_equal(t.tgid, 4030);
	assert_int_equal(t.pid, 4030);
	assert_int_equal(t.ppid, 1187);
	assert_string_equal(t.comm, "a) b c");
	assert_int_equal(t.start_ticks, 232144);
	assert_int_equal(t.cpu, 1);
	assert_non_null(t.cgroup_memory);
	oom_task_clear(&t);
	assert_null(t.cgroup_memory);
	oom_task_clear(&t); /* twice is fine */
	oom_task_clear(NULL);

	assert_int_equal(oom_task_read(ctx, 4032, OOM_READ_STATUS, &t), 0);
	assert_int_equal(t.pid, 4036);
	oom_task_clear(&t);
	assert_int_equal(oom_task_read(ctx, 99999, OOM_READ_STATUS, &t), -ESRCH);
	assert_int_equal(oom_task_read(ctx, 0, OOM_READ_STATUS, &t), -EINVAL);
	assert_int_equal(oom_task_read(ctx, -5, OOM_READ_STATUS, &t), -EINVAL);
	oom_ctx_unref(ctx);

	assert_int_equal(oom_ctx_new(FIXTURES "/broken", &ctx), 0);
	assert_int_equal(oom_task_read(ctx, 906, OOM_READ_STATUS, &t), -ESRCH); /* a thread */
	assert_true(oom_task_read(ctx, 901, OOM_READ_STATUS, &t) < 0);
	assert_true(oom_task_read(ctx, 905, OOM_READ_STATUS, &t) < 0);
	assert_true(oom_task_read(ctx, 908, OOM_READ_STATUS, &t) < 0);
	oom_ctx_unref(ctx);
}

static void context(void **state)
{
	struct oom_ctx *ctx = (struct oom_ctx *)1;

	(void)state;
	assert_int_equal(oom_ctx_new(FIXTURES "/basic", &ctx), 0);
	assert_string_equal(oom_ctx_get_root(ctx), FIXTURES "/basic");
	assert_int_equal(oom_ctx_get_page_size(ctx), (unsigned long)sysconf(_SC_PAGESIZE));
	assert_ptr_equal(oom_ctx_ref(ctx), ctx);
	assert_null(oom_ctx_unref(ctx));
	assert_null(oom_ctx_unref(ctx));
	assert_null(oom_ctx_unref(NULL));
	/* A root without proc/ */
	assert_int_equal(oom_ctx_new(FIXTURES, &ctx), -ENOENT);
	assert_int_equal(oom_ctx_new("/nonexistent-liboom", &ctx), -ENOENT);
	assert_int_equal(oom_ctx_new(NULL, NULL), -EINVAL);
	/* NULL and "" mean the running system */
	assert_int_equal(oom_ctx_new(NULL, &ctx), 0);
	assert_string_equal(oom_ctx_get_root(ctx), "/");
	oom_ctx_unref(ctx);
}

/* ---- oom_score_adj on a private copy ---------------------------------- */

/* struct tree, tree_setup and tree_teardown (a private copy of "basic"): fixture.h */

static void adj_read_write(void **state)
{
	struct tree *t = *state;
	char buf[64];
	int v = 7, old = 7;

	assert_int_equal(oom_score_adj_read(t->ctx, 4030, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(oom_score_adj_read(t->ctx, 4034, &v), 0);
	assert_int_equal(v, -1000);
	assert_int_equal(oom_score_adj_read(t->ctx, 99999, &v), -ESRCH);
	assert_int_equal(oom_score_adj_read(t->ctx, 0, &v), -ESRCH);

	/* With the right start time (stat field 22: 232144) */
	assert_int_equal(oom_score_adj_write(t->ctx, 4030, 500, 232144, &old), 0);
	assert_int_equal(old, 0);
	fixture_read(t->dir, "proc/4030/oom_score_adj", buf, sizeof(buf));
	assert_string_equal(buf, "500\n");
	assert_int_equal(oom_score_adj_read(t->ctx, 4030, &v), 0);
	assert_int_equal(v, 500);

	/* Without a start-time check; a shorter value replaces a longer one whole */
	assert_int_equal(oom_score_adj_write(t->ctx, 4034, 5, 0, &old), 0);
	assert_int_equal(old, -1000);
	fixture_read(t->dir, "proc/4034/oom_score_adj", buf, sizeof(buf));
	assert_string_equal(buf, "5\n");
	assert_int_equal(oom_score_adj_write(t->ctx, 4034, -1000, 0, NULL), 0);
	fixture_read(t->dir, "proc/4034/oom_score_adj", buf, sizeof(buf));
	assert_string_equal(buf, "-1000\n");

	/* Errors change nothing */
	assert_int_equal(oom_score_adj_write(t->ctx, 4030, 1001, 0, &old), -EINVAL);
	assert_int_equal(oom_score_adj_write(t->ctx, 4030, -1001, 0, &old), -EINVAL);
	assert_int_equal(oom_score_adj_write(t->ctx, 4030, 100, 232145, &old), -ESTALE);
	assert_int_equal(oom_score_adj_write(t->ctx, 99999, 100, 0, &old), -ESRCH);
	assert_int_equal(oom_score_adj_write(t->ctx, -3, 100, 0, &old), -ESRCH);
	fixture_read(t->dir, "proc/4030/oom_score_adj", buf, sizeof(buf));
	assert_string_equal(buf, "500\n");
	/* A kernel thread has none of its own */
	assert_int_not_equal(oom_score_adj_write(t->ctx, 2, 100, 0, &old), 0);
	fixture_read(t->dir, "proc/2/oom_score_adj", buf, sizeof(buf));
	assert_string_equal(buf, "0\n");
}

/* ---- the root prefix holds ------------------------------------------- */

static void root_confinement(void **state)
{
	struct tree *t = *state;
	char outside[] = "/tmp/liboom-outside-XXXXXX", cmd[1024], link[512], target[512];
	struct oom_snapshot *snap;
	struct oom_task task;
	int v;

	/* A valid process directory outside the root, pid 777 */
	assert_non_null(mkdtemp(outside));
	snprintf(cmd, sizeof(cmd),
		 "cp -a '%s/proc/1187' '%s/777' && sed -i 's/^Tgid:.*/Tgid:\t777/' '%s/777/status' && "
		 "sed -i 's/^1187 /777 /' '%s/777/stat'",
		 t->dir, outside, outside, outside);
	assert_int_equal(system(cmd), 0);

	/* proc/777 -> /tmp/.../777 (absolute) and proc/778 -> ../../../tmp/.../777 (relative) */
	snprintf(link, sizeof(link), "%s/proc/777", t->dir);
	snprintf(target, sizeof(target), "%s/777", outside);
	assert_int_equal(symlink(target, link), 0);
	snprintf(link, sizeof(link), "%s/proc/778", t->dir);
	snprintf(target, sizeof(target), "../../../../../../../../..%s/777", outside);
	assert_int_equal(symlink(target, link), 0);
	/* and a file inside a real PID dir pointing outside */
	snprintf(link, sizeof(link), "%s/proc/4030/oom_score_adj", t->dir);
	unlink(link);
	snprintf(target, sizeof(target), "%s/777/oom_score_adj", outside);
	assert_int_equal(symlink(target, link), 0);

	assert_int_equal(oom_snapshot_new(t->ctx, OOM_READ_STATUS | OOM_READ_STAT, &snap), 0);
	assert_null(oom_snapshot_find(snap, 777));
	assert_null(oom_snapshot_find(snap, 778));
	assert_null(oom_snapshot_find(snap, 4030));
	assert_non_null(oom_snapshot_find(snap, 4031));
	oom_snapshot_free(snap);
	assert_true(oom_task_read(t->ctx, 777, OOM_READ_STATUS, &task) < 0);
	assert_true(oom_score_adj_read(t->ctx, 777, &v) < 0);
	assert_true(oom_score_adj_write(t->ctx, 777, 300, 0, NULL) < 0);
	assert_true(oom_score_adj_write(t->ctx, 4030, 300, 0, NULL) < 0);
	/* Nothing outside was written */
	assert_true(fixture_read(outside, "777/oom_score_adj", target, sizeof(target)) > 0);
	assert_string_equal(target, "0\n");
	fixture_remove(outside);
}

/* The same without openat2(): the component walk must hold the root too. */
static void root_confinement_walk(void **state)
{
	liboom_use_openat2 = 0;
	pid_order(state);
	special_tasks(state);
	root_confinement(state);
	liboom_use_openat2 = 1;
}

/* dump_tasks shows the comm of the thread find_lock_task_mm() found, not the dead leader's. */
static void zombie_thread_comm(void **state)
{
	struct tree *t = *state;
	char cmd[1024];
	struct oom_task task;
	unsigned int modes[] = { OOM_READ_STATUS, OOM_READ_STATUS | OOM_READ_STAT };

	snprintf(cmd, sizeof(cmd),
		 "sed -i 's/^Name:.*/Name:\tworker/' '%s/proc/4032/task/4036/status' && "
		 "sed -i 's/(zombie-leader)/(worker)/' '%s/proc/4032/task/4036/stat'",
		 t->dir, t->dir);
	assert_int_equal(system(cmd), 0);
	for (size_t i = 0; i < ARRAY_SIZE(modes); i++) {
		assert_int_equal(oom_task_read(t->ctx, 4032, modes[i], &task), 0);
		assert_int_equal(task.pid, 4036);
		/* 2.6.36 names the leader; 6.8+ and the kill line name the mm's thread. */
		assert_string_equal(task.comm, "zombie-leader");
		assert_string_equal(oom_task_mm_comm(&task), "worker");
		assert_int_equal(task.state, 'Z');
		oom_task_clear(&task);
	}
	/* No live thread with an mm: the leader stays, with no mm, and is not dumped */
	snprintf(cmd, sizeof(cmd), "sed -i -E '/^(Vm|Rss)/d' '%s/proc/4032/task/4036/status'", t->dir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(oom_task_read(t->ctx, 4032, OOM_READ_STATUS | OOM_READ_STAT, &task), 0);
	assert_int_equal(task.pid, 4032);
	assert_string_equal(task.comm, "zombie-leader");
	assert_null(task.mm_comm);
	assert_false(task.have & OOM_HAVE_MM);
	assert_false(oom_task_dumpable(&task));
	assert_int_equal(task.rss_anon_pages, 0);
	oom_task_clear(&task);
}

/* Of several live threads, the lowest TID lends its mm, as find_lock_task_mm() walks them. */
static void zombie_lowest_thread(void **state)
{
	struct tree *t = *state;
	char cmd[1024];
	struct oom_task task;

	snprintf(cmd, sizeof(cmd),
		 "cd '%s/proc/4032/task' && cp -a 4036 4039 && cp -a 4036 4034 && "
		 "sed -i 's/^Name:.*/Name:\tfirst/' 4034/status && sed -i 's/(zombie-leader)/(first)/' 4034/stat",
		 t->dir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(oom_task_read(t->ctx, 4032, OOM_READ_STATUS | OOM_READ_STAT, &task), 0);
	assert_int_equal(task.pid, 4034);
	assert_string_equal(oom_task_mm_comm(&task), "first");
	oom_task_clear(&task);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pid_order),
		cmocka_unit_test(system_figures),
		cmocka_unit_test(special_tasks),
		cmocka_unit_test(status_only),
		cmocka_unit_test(extras),
		cmocka_unit_test(kernel_matches_fixture),
		cmocka_unit_test(children),
		cmocka_unit_test(broken_skipped),
		cmocka_unit_test(task_read),
		cmocka_unit_test(context),
		cmocka_unit_test_setup_teardown(adj_read_write, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(root_confinement, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(root_confinement_walk, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(zombie_thread_comm, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(zombie_lowest_thread, tree_setup, tree_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
