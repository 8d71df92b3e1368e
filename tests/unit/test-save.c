// SPDX-License-Identifier: LGPL-2.1-or-later
/* oom_snapshot_save: a saved tree reads back into the same snapshot, holding only the read set. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"

static char tmpdir[] = "/tmp/liboom-test-save.XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static bool exists(const char *dir, const char *rel)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	return stat(path, &st) == 0;
}

static void same_task(const struct oom_task *a, const struct oom_task *b)
{
	assert_int_equal(a->pid, b->pid);
	assert_int_equal(a->tgid, b->tgid);
	assert_int_equal(a->ppid, b->ppid);
	assert_int_equal(a->uid, b->uid);
	assert_string_equal(a->comm, b->comm);
	assert_int_equal(a->cpu, b->cpu);
	assert_int_equal(a->total_vm_pages, b->total_vm_pages);
	assert_int_equal(a->rss_anon_pages, b->rss_anon_pages);
	assert_int_equal(a->rss_file_pages, b->rss_file_pages);
	assert_int_equal(a->rss_shmem_pages, b->rss_shmem_pages);
	assert_int_equal(a->swap_pages, b->swap_pages);
	assert_int_equal(a->pgtables_bytes, b->pgtables_bytes);
	assert_int_equal(a->oom_score_adj, b->oom_score_adj);
	assert_int_equal(a->oom_score, b->oom_score);
	assert_int_equal(a->utime_ticks, b->utime_ticks);
	assert_int_equal(a->cap_eff, b->cap_eff);
	assert_int_equal(a->have, b->have);
}

static void roundtrip(unsigned int what, const char *name)
{
	struct oom_ctx *src, *dst;
	struct oom_snapshot *a, *b;
	char dir[256];

	snprintf(dir, sizeof(dir), "%s/%s", tmpdir, name);
	assert_int_equal(oom_ctx_new(FIXTURES "/basic", &src), 0);
	assert_int_equal(oom_snapshot_save(src, what, OOM_SAVE_SYSCTLS, dir), 0);
	/* a second save into the same tree would mix two systems */
	assert_int_equal(oom_snapshot_save(src, what, 0, dir), -EEXIST);
	assert_int_equal(oom_ctx_new(dir, &dst), 0);
	assert_int_equal(oom_snapshot_new(src, what, &a), 0);
	assert_int_equal(oom_snapshot_new(dst, what, &b), 0);
	assert_int_equal(oom_snapshot_count(a), oom_snapshot_count(b));
	assert_true(oom_snapshot_count(a) >= 10);
	for (size_t i = 0; i < oom_snapshot_count(a); i++)
		same_task(oom_snapshot_task(a, i), oom_snapshot_task(b, i));
	assert_memory_equal(oom_snapshot_meminfo(a), oom_snapshot_meminfo(b), sizeof(struct oom_meminfo));
	assert_int_equal(oom_snapshot_uptime(a), oom_snapshot_uptime(b));
	oom_snapshot_free(a);
	oom_snapshot_free(b);
	oom_ctx_unref(src);
	oom_ctx_unref(dst);
}

static void status_only(void **state)
{
	char dir[256];

	(void)state;
	roundtrip(OOM_READ_STATUS, "status");
	snprintf(dir, sizeof(dir), "%s/status", tmpdir);
	assert_true(exists(dir, "proc/5882/status"));
	assert_true(exists(dir, "proc/5882/oom_score_adj"));
	assert_false(exists(dir, "proc/5882/stat"));
	assert_false(exists(dir, "proc/5882/oom_score"));
	assert_false(exists(dir, "proc/5882/cgroup"));
	assert_false(exists(dir, "proc/5882/cmdline"));
	assert_true(exists(dir, "proc/4032/task/4036/status"));
	/* only the thread the snapshot takes the memory from */
	assert_false(exists(dir, "proc/4032/task/4032"));
	assert_true(exists(dir, "proc/sys/vm/panic_on_oom"));
	assert_false(exists(dir, "proc/sys/vm/oom_forkbomb_thres")); /* the fixture has none */
}

static void everything(void **state)
{
	char dir[256];

	(void)state;
	roundtrip(OOM_READ_STATUS | OOM_READ_STAT | OOM_READ_OOM_SCORE | OOM_READ_CGROUP, "all");
	snprintf(dir, sizeof(dir), "%s/all", tmpdir);
	assert_true(exists(dir, "proc/4032/task/4036/stat"));
	assert_true(exists(dir, "proc/1187/cgroup"));
	assert_true(exists(dir, "proc/1187/oom_score"));
}

/* A constraint built from the saved tree is the one built from the original. */
static void constraint_roundtrip(const char *tree, const char *memcg, const char *nodes, const char *name)
{
	struct oom_constraint *a = NULL, *b = NULL;
	struct oom_ctx *src, *dst;
	char root[256], dir[256];

	snprintf(root, sizeof(root), "%s/%s", FIXTURES, tree);
	snprintf(dir, sizeof(dir), "%s/%s", tmpdir, name);
	assert_int_equal(oom_ctx_new(root, &src), 0);
	if (memcg)
		assert_int_equal(oom_constraint_new_memcg(src, memcg, &a), 0);
	else
		assert_int_equal(oom_constraint_new_mempolicy(src, nodes, &a), 0);
	assert_int_equal(oom_snapshot_save(src, OOM_READ_STATUS | oom_constraint_read_flags(a), 0, dir), 0);
	assert_int_equal(oom_snapshot_save_constraint(src, a, dir), 0);
	assert_int_equal(oom_ctx_new(dir, &dst), 0);
	if (memcg)
		assert_int_equal(oom_constraint_new_memcg(dst, memcg, &b), 0);
	else
		assert_int_equal(oom_constraint_new_mempolicy(dst, nodes, &b), 0);
	for (int h = OOM_HEURISTIC_REWRITE; h <= OOM_HEURISTIC_LEGACY; h++)
		assert_int_equal(oom_constraint_totalpages(a, (enum oom_heuristic)h, NULL),
				 oom_constraint_totalpages(b, (enum oom_heuristic)h, NULL));
	assert_int_equal(oom_constraint_memcg_limited(a), oom_constraint_memcg_limited(b));
	oom_constraint_free(a);
	oom_constraint_free(b);
	oom_ctx_unref(src);
	oom_ctx_unref(dst);
}

static void constraints(void **state)
{
	(void)state;
	constraint_roundtrip("memcg-v2", "/work/job3", NULL, "c1");
	constraint_roundtrip("memcg-v2", "/", NULL, "c2");
	constraint_roundtrip("memcg-v1", "/docker/app3", NULL, "c3");
	constraint_roundtrip("numa-2node", NULL, "1", "c4");
	/* nothing to add for the system-wide constraint */
	assert_int_equal(oom_snapshot_save_constraint(NULL, NULL, tmpdir), -EINVAL);
}

static void bad_args(void **state)
{
	struct oom_ctx *ctx;

	(void)state;
	assert_int_equal(oom_ctx_new(FIXTURES "/basic", &ctx), 0);
	assert_int_equal(oom_snapshot_save(NULL, 0, 0, tmpdir), -EINVAL);
	assert_int_equal(oom_snapshot_save(ctx, 0, 0, ""), -EINVAL);
	assert_int_equal(oom_snapshot_save(ctx, 0, 0, "/nonexistent/dir/below"), -ENOENT);
	oom_ctx_unref(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(status_only),
		cmocka_unit_test(everything),
		cmocka_unit_test(constraints),
		cmocka_unit_test(bad_args),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
