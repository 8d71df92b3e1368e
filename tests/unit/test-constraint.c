// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Constraints: the parsers on strings (mountinfo, limits, node meminfo),
 * then each constraint's totalpages and filter on the fixture trees
 * numa-2node, numa-4node, memcg-v1 and memcg-v2 (their README files hold
 * the figures the expected values below are computed from).
 */
#include <stdio.h>
#include <stdlib.h>

#include "unit.h"
#include "fixture.h"
#include "constraint.h"

#define PAGE 4096ul
#define KB_PAGES(kb) ((unsigned long)(kb) / 4) /* the fixtures use 4 KiB pages */

/* ---- mountinfo -------------------------------------------------------- */

static const char hybrid_mountinfo[] =
	"22 1 254:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw\n"
	"31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
	"32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
	"35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
	"40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd\n"
	"41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";

static void mountinfo_hybrid(void **state)
{
	struct cg_mounts m;

	(void)state;
	assert_int_equal(cg_parse_mountinfo(hybrid_mountinfo, strlen(hybrid_mountinfo), &m), 0);
	assert_string_equal(m.v1_memory.point, "/sys/fs/cgroup/memory");
	assert_string_equal(m.v1_memory.root, "/");
	assert_string_equal(m.v2.point, "/sys/fs/cgroup/unified");
	cg_mounts_free(&m);
}

static void mountinfo_v2_only_and_none(void **state)
{
	static const char v2[] = "30 24 0:26 / /sys/fs/cgroup rw,nosuid shared:9 master:2 - cgroup2 cgroup2 rw,nsdelegate\n";
	static const char none[] = "22 1 254:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw\n";
	/* Controllers co-mounted with memory, and a named hierarchy that only mentions it. */
	static const char comount[] = "35 31 0:32 / /cg/mem+cpu rw - cgroup cgroup rw,cpu,memory,cpuacct\n"
				      "36 31 0:33 / /cg/other rw - cgroup cgroup rw,name=memory-ish\n";
	struct cg_mounts m;

	(void)state;
	assert_int_equal(cg_parse_mountinfo(v2, strlen(v2), &m), 0);
	assert_null(m.v1_memory.point);
	assert_string_equal(m.v2.point, "/sys/fs/cgroup");
	cg_mounts_free(&m);
	assert_int_equal(cg_parse_mountinfo(none, strlen(none), &m), 0);
	assert_null(m.v1_memory.point);
	assert_null(m.v2.point);
	cg_mounts_free(&m);
	assert_int_equal(cg_parse_mountinfo(comount, strlen(comount), &m), 0);
	assert_string_equal(m.v1_memory.point, "/cg/mem+cpu");
	cg_mounts_free(&m);
}

static void mountinfo_prefers_root_and_unescapes(void **state)
{
	/* A container's bind mount of a subtree first, then the hierarchy's root, with a space in it. */
	static const char text[] = "50 1 0:32 /docker/abc /sys/fs/cgroup/memory ro - cgroup cgroup rw,memory\n"
				   "51 1 0:32 / /mnt/all\\040cgroups rw - cgroup cgroup rw,memory\n"
				   "52 1 0:32 /x /mnt/later rw - cgroup cgroup rw,memory\n";
	static const char sub_only[] = "50 1 0:32 /docker/abc /sys/fs/cgroup/memory ro - cgroup cgroup rw,memory\n";
	struct cg_mounts m;

	(void)state;
	assert_int_equal(cg_parse_mountinfo(text, strlen(text), &m), 0);
	assert_string_equal(m.v1_memory.root, "/");
	assert_string_equal(m.v1_memory.point, "/mnt/all cgroups");
	cg_mounts_free(&m);
	assert_int_equal(cg_parse_mountinfo(sub_only, strlen(sub_only), &m), 0);
	assert_string_equal(m.v1_memory.root, "/docker/abc");
	cg_mounts_free(&m);
}

static void mountinfo_malformed(void **state)
{
	static const char *const bad[] = {
		"35 31 0:32 / /sys/fs/cgroup/memory rw cgroup cgroup rw,memory\n", /* no "-" */
		"35 31 0:32 / /sys/fs/cgroup/memory rw -\n", /* nothing after it */
		"35 31\n",
	};
	struct cg_mounts m;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		assert_int_equal(cg_parse_mountinfo(bad[i], strlen(bad[i]), &m), -EINVAL);
	/* An empty file, and a file without its last newline, are fine. */
	assert_int_equal(cg_parse_mountinfo("", 0, &m), 0);
	cg_mounts_free(&m);
	{
		static const char last[] = "41 31 0:38 / /u rw - cgroup2 cgroup2 rw";

		assert_int_equal(cg_parse_mountinfo(last, strlen(last), &m), 0);
	}
	assert_string_equal(m.v2.point, "/u");
	cg_mounts_free(&m);
}

/* ---- paths ------------------------------------------------------------ */

static void dir_paths(void **state)
{
	struct cg_mount all = { .root = "/", .point = "/sys/fs/cgroup/memory" };
	struct cg_mount sub = { .root = "/docker/abc", .point = "/sys/fs/cgroup/memory" };
	struct cg_mount slash = { .root = "/", .point = "/" };
	char buf[256];

	(void)state;
	assert_int_equal(cg_dir_path(&all, "/a/b", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "sys/fs/cgroup/memory/a/b");
	assert_int_equal(cg_dir_path(&all, "/", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "sys/fs/cgroup/memory");
	assert_int_equal(cg_dir_path(&sub, "/docker/abc/job", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "sys/fs/cgroup/memory/job");
	assert_int_equal(cg_dir_path(&sub, "/docker/abc", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "sys/fs/cgroup/memory");
	assert_int_equal(cg_dir_path(&sub, "/docker/abcd", buf, sizeof(buf)), -ENOENT);
	assert_int_equal(cg_dir_path(&sub, "/other", buf, sizeof(buf)), -ENOENT);
	assert_int_equal(cg_dir_path(&slash, "/", buf, sizeof(buf)), 0);
	assert_string_equal(buf, ".");
	assert_int_equal(cg_dir_path(&all, "relative", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(cg_dir_path(&all, "/a/../../etc", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(cg_dir_path(&all, "/..", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(cg_dir_path(&all, "/a/..", buf, sizeof(buf)), -EINVAL);
	/* Dots inside a name are just a name. */
	assert_int_equal(cg_dir_path(&all, "/a..b/..c/d..", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "sys/fs/cgroup/memory/a..b/..c/d..");
	assert_int_equal(cg_dir_path(&all, "/a/b", buf, 10), -ENAMETOOLONG);
}

static void path_within(void **state)
{
	(void)state;
	assert_true(cg_path_within("/a", "/a"));
	assert_true(cg_path_within("/a/b/c", "/a"));
	assert_true(cg_path_within("/a/b", "/a/"));
	assert_false(cg_path_within("/ab", "/a"));
	assert_false(cg_path_within("/", "/a"));
	assert_true(cg_path_within("/", "/"));
	assert_true(cg_path_within("/x/y", "/"));
}

/* ---- limits ----------------------------------------------------------- */

static void limits(void **state)
{
	unsigned long long b;
	bool unl;

	(void)state;
	assert_int_equal(cg_parse_limit("max\n", 4, PAGE, &b, &unl), 0);
	assert_true(unl);
	assert_int_equal(cg_parse_limit("536870912\n", 10, PAGE, &b, &unl), 0);
	assert_false(unl);
	assert_int_equal(b, 536870912ull);
	assert_int_equal(cg_parse_limit("0", 1, PAGE, &b, &unl), 0);
	assert_false(unl);
	assert_int_equal(b, 0);
	/* v1 "no limit": PAGE_COUNTER_MAX pages, LONG_MAX rounded down to the page size. */
	assert_int_equal(cg_parse_limit("9223372036854771712\n", 20, 4096, &b, &unl), 0);
	assert_true(unl);
	assert_int_equal(cg_parse_limit("9223372036854710272\n", 20, 65536, &b, &unl), 0);
	assert_true(unl);
	assert_int_equal(cg_parse_limit("9223372036854767616\n", 20, 4096, &b, &unl), 0);
	assert_false(unl); /* one page less is a (silly) limit */
	assert_int_equal(cg_parse_limit("", 0, PAGE, &b, &unl), -EINVAL);
	assert_int_equal(cg_parse_limit("\n", 1, PAGE, &b, &unl), -EINVAL);
	assert_int_equal(cg_parse_limit("12abc", 5, PAGE, &b, &unl), -EINVAL);
	assert_int_equal(cg_parse_limit("-1", 2, PAGE, &b, &unl), -EINVAL);
	assert_int_equal(cg_parse_limit("+5", 2, PAGE, &b, &unl), -EINVAL);
	assert_int_equal(cg_parse_limit("maximum", 7, PAGE, &b, &unl), -EINVAL);
	assert_int_equal(cg_parse_limit("99999999999999999999999", 23, PAGE, &b, &unl), -EINVAL);
}

static void group_totalpages(void **state)
{
	const unsigned long long G = 1ull << 30, M = 1ull << 20;
	unsigned long pages;

	(void)state;
	/* v1, no swap: the limit. */
	assert_true(cg_totalpages(G, false, 0, true, 1, 0, PAGE, &pages));
	assert_int_equal(pages, 262144);
	/* v1 with 1 GiB of swap: limit + swap, capped by memory+swap. */
	assert_true(cg_totalpages(G, false, 0, true, 1, 1048576, PAGE, &pages));
	assert_int_equal(pages, 524288);
	assert_true(cg_totalpages(G, false, G + 256 * M, false, 1, 1048576, PAGE, &pages));
	assert_int_equal(pages, 262144 + 65536);
	/* v1: only memory+swap limited. */
	assert_true(cg_totalpages(0, true, 384 * M, false, 1, 0, PAGE, &pages));
	assert_int_equal(pages, 98304);
	assert_false(cg_totalpages(0, true, 0, true, 1, 1048576, PAGE, &pages));
	/* v2: memory.swap.max is swap alone, and no more than SwapTotal counts. */
	assert_true(cg_totalpages(G, false, 0, false, 2, 1048576, PAGE, &pages));
	assert_int_equal(pages, 262144);
	assert_true(cg_totalpages(G, false, 100 * M, false, 2, 1048576, PAGE, &pages));
	assert_int_equal(pages, 262144 + 25600);
	assert_true(cg_totalpages(G, false, 4 * G, false, 2, 1048576, PAGE, &pages));
	assert_int_equal(pages, 262144 + 262144);
	assert_true(cg_totalpages(G, false, 0, true, 2, 1048576, PAGE, &pages));
	assert_int_equal(pages, 524288);
	assert_false(cg_totalpages(0, true, 100 * M, false, 2, 1048576, PAGE, &pages));
}

/* ---- node meminfo ----------------------------------------------------- */

static const char node1_meminfo[] = "Node 1 MemTotal:        4155128 kB\n"
				    "Node 1 MemFree:         3720576 kB\n"
				    "Node 1 Active:            60140 kB\n"
				    "Node 1 Active(anon):       1568 kB\n"
				    "Node 1 Inactive(anon):    73156 kB\n"
				    "Node 1 Active(file):      58572 kB\n"
				    "Node 1 Inactive(file):   166496 kB\n"
				    "Node 1 Unevictable:       13672 kB\n";

static void node_meminfo(void **state)
{
	unsigned long long kb;
	char buf[sizeof(node1_meminfo)];

	(void)state;
	assert_int_equal(node_parse_meminfo(node1_meminfo, strlen(node1_meminfo), 1, &kb), 0);
	assert_int_equal(kb, 1568ull + 73156 + 58572 + 166496);
	/* Another node's file, a missing line, a garbled value. */
	assert_int_equal(node_parse_meminfo(node1_meminfo, strlen(node1_meminfo), 0, &kb), -EINVAL);
	assert_int_equal(node_parse_meminfo(node1_meminfo, strstr(node1_meminfo, "Node 1 Inactive(file)") - node1_meminfo,
					    1, &kb),
			 -EINVAL);
	memcpy(buf, node1_meminfo, sizeof(buf));
	memcpy(strstr(buf, "58572"), "58x72", 5);
	assert_int_equal(node_parse_meminfo(buf, strlen(buf), 1, &kb), -EINVAL);
	memcpy(buf, node1_meminfo, sizeof(buf));
	memcpy(strstr(buf, "1568 kB"), "1568 MB", 7);
	assert_int_equal(node_parse_meminfo(buf, strlen(buf), 1, &kb), -EINVAL);
	assert_int_equal(node_parse_meminfo("", 0, 1, &kb), -EINVAL);
}

/* ---- on the fixture trees (fixture.h: struct fixture_tree and its open/close) ---- */

/* The candidates' PIDs, in order, as a string like "100 300 301". */
static void candidates(const struct fixture_tree *t, const struct oom_constraint *c, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < oom_snapshot_count(t->snap); i++) {
		const struct oom_task *task = oom_snapshot_task(t->snap, i);

		if (oom_constraint_is_candidate(c, task))
			n += (size_t)snprintf(buf + n, size - n, "%s%d", n ? " " : "", (int)task->tgid);
	}
}

static void none_on_trees(void **state)
{
	struct oom_constraint *c;
	enum oom_total_source src;
	struct fixture_tree t;
	char got[256];

	(void)state;
	fixture_open_tree(&t, "numa-2node");
	assert_int_equal(oom_constraint_new_none(t.ctx, &c), 0);
	assert_int_equal(oom_constraint_get_type(c), OOM_CONSTRAINT_NONE);
	assert_int_equal(oom_constraint_read_flags(c), 0);
	/* LRU 2621440 kB + swap 1048576 kB; MemTotal 8388608 kB + swap. */
	assert_int_equal(oom_constraint_totalpages(c, OOM_HEURISTIC_REWRITE, &src), KB_PAGES(2621440 + 1048576));
	assert_int_equal(src, OOM_TOTAL_LRU_SWAP);
	assert_int_equal(oom_constraint_totalpages(c, OOM_HEURISTIC_KERNEL, &src), KB_PAGES(8388608 + 1048576));
	assert_int_equal(src, OOM_TOTAL_RAM_SWAP);
	/* Everyone but init and the kernel thread. */
	candidates(&t, c, got, sizeof(got));
	assert_string_equal(got, "100 200 300 301 302 400 500");
	assert_null(oom_constraint_memcg_path(c));
	assert_null(oom_constraint_nodes(c));
	oom_constraint_free(c);
	fixture_close_tree(&t);
}

static void memcg_v2_tree(void **state)
{
	static const struct {
		const char *path;
		unsigned long pages; /* 0: unlimited, the system's */
		const char *members;
	} cases[] = {
		/* 1 GiB + all of the 2 GiB swap (memory.swap.max is max) */
		{ "/work", KB_PAGES(1048576 + 2097152), "300 301 303 304 400 401 500 550" },
		{ "/work/", KB_PAGES(1048576 + 2097152), "300 301 303 304 400 401 500 550" },
		/* 256 MiB, swap.max 0 */
		{ "/work/job1", KB_PAGES(262144), "300 301 303 304" },
		/* unlimited, nested under a limited group: the system total */
		{ "/work/job2", 0, "400 401" },
		{ "/work/job2/cc1", 0, "401" },
		/* 512 MiB + 100 MiB of swap */
		{ "/work/job3", KB_PAGES(524288 + 102400), "550" },
		{ "/batch", KB_PAGES(131072 + 2097152), "700 701" },
		/* no memory.* files: the controller is not enabled there */
		{ "/user.slice", 0, "600" },
		{ "/", 0, "100 300 301 302 303 304 400 401 500 550 600 700 701" },
	};
	struct fixture_tree t;

	(void)state;
	fixture_open_tree(&t, "memcg-v2");
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct oom_constraint *c;
		enum oom_total_source src;
		unsigned long tp;
		char got[256];

		assert_int_equal(oom_constraint_new_memcg(t.ctx, cases[i].path, &c), 0);
		assert_int_equal(oom_constraint_get_type(c), OOM_CONSTRAINT_MEMCG);
		assert_int_equal(oom_constraint_memcg_version(c), 2);
		assert_int_equal(oom_constraint_read_flags(c), OOM_READ_CGROUP);
		tp = oom_constraint_totalpages(c, OOM_HEURISTIC_REWRITE, &src);
		if (cases[i].pages) {
			assert_true(oom_constraint_memcg_limited(c));
			assert_int_equal(tp, cases[i].pages);
			assert_int_equal(src, OOM_TOTAL_MEMCG);
			/* A limit is the same for every heuristic. */
			assert_int_equal(oom_constraint_totalpages(c, OOM_HEURISTIC_KERNEL, NULL), cases[i].pages);
		} else {
			assert_false(oom_constraint_memcg_limited(c));
			/* LRU 2097152 kB + swap 2097152 kB; MemTotal 4194304 kB + swap */
			assert_int_equal(tp, KB_PAGES(2097152 + 2097152));
			assert_int_equal(src, OOM_TOTAL_LRU_SWAP);
			assert_int_equal(oom_constraint_totalpages(c, OOM_HEURISTIC_KERNEL, &src),
					 KB_PAGES(4194304 + 2097152));
			assert_int_equal(src, OOM_TOTAL_RAM_SWAP);
		}
		candidates(&t, c, got, sizeof(got));
		assert_string_equal(got, cases[i].members);
		oom_constraint_free(c);
	}
	fixture_close_tree(&t);
}

static void memcg_v1_hybrid_tree(void **state)
{
	static const struct {
		const char *path;
		unsigned long pages;
		const char *members;
	} cases[] = {
		{ "/docker/app1", KB_PAGES(524288), "200 201 202" },
		{ "/docker/app2", KB_PAGES(262144), "300" },
		/* memory unlimited, memory+swap 384 MiB */
		{ "/docker/app3", KB_PAGES(393216), "400 401" },
		{ "/docker/app3/nested", 0, "400" },
		{ "/docker", 0, "200 201 202 300 400 401" },
		{ "/system.slice", 0, "100" },
		{ "/", 0, "100 200 201 202 300 400 401" },
	};
	struct fixture_tree t;

	(void)state;
	fixture_open_tree(&t, "memcg-v1");
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct oom_constraint *c;
		enum oom_total_source src;
		char got[256];

		assert_int_equal(oom_constraint_new_memcg(t.ctx, cases[i].path, &c), 0);
		/* Hybrid: the memory controller is v1's, not the unified hierarchy's. */
		assert_int_equal(oom_constraint_memcg_version(c), 1);
		assert_string_equal(oom_constraint_memcg_path(c), cases[i].path);
		if (cases[i].pages) {
			assert_int_equal(oom_constraint_totalpages(c, OOM_HEURISTIC_LEGACY, &src), cases[i].pages);
			assert_int_equal(src, OOM_TOTAL_MEMCG);
		} else {
			/* No swap: LRU 1048576 kB for rewrite. */
			assert_int_equal(oom_constraint_totalpages(c, OOM_HEURISTIC_REWRITE, &src), KB_PAGES(1048576));
			assert_int_equal(src, OOM_TOTAL_LRU_SWAP);
		}
		candidates(&t, c, got, sizeof(got));
		assert_string_equal(got, cases[i].members);
		oom_constraint_free(c);
	}
	fixture_close_tree(&t);
}

static void memcg_errors(void **state)
{
	struct oom_constraint *c = (struct oom_constraint *)0x1;
	struct fixture_tree t;

	(void)state;
	fixture_open_tree(&t, "memcg-v2");
	assert_int_equal(oom_constraint_new_memcg(t.ctx, "/no/such/group", &c), -ENOENT);
	assert_int_equal(oom_constraint_new_memcg(t.ctx, "work", &c), -EINVAL);
	assert_int_equal(oom_constraint_new_memcg(t.ctx, "", &c), -EINVAL);
	assert_int_equal(oom_constraint_new_memcg(t.ctx, NULL, &c), -EINVAL);
	assert_int_equal(oom_constraint_new_memcg(t.ctx, "/../../etc", &c), -EINVAL);
	assert_ptr_equal(c, (struct oom_constraint *)0x1);
	fixture_close_tree(&t);
	/* A tree with no cgroup mounted at all. */
	fixture_open_tree(&t, "basic");
	assert_int_equal(oom_constraint_new_memcg(t.ctx, "/", &c), -ENOENT);
	fixture_close_tree(&t);
}

static void memcg_unknown_membership(void **state)
{
	struct oom_constraint *c;
	struct oom_task task;
	struct fixture_tree t;

	(void)state;
	fixture_open_tree(&t, "memcg-v2");
	assert_int_equal(oom_constraint_new_memcg(t.ctx, "/", &c), 0);
	/* A task read without OOM_READ_CGROUP is in no group we know of. */
	task = *oom_snapshot_find(t.snap, 300);
	task.cgroup_v2 = NULL;
	assert_false(oom_constraint_is_candidate(c, &task));
	oom_constraint_free(c);
	fixture_close_tree(&t);
}

static void cpuset_trees(void **state)
{
	struct oom_constraint *c;
	enum oom_total_source src;
	struct fixture_tree t;
	char got[256];

	(void)state;
	fixture_open_tree(&t, "numa-2node");
	/* postgres has Mems_allowed 0: node0 LRU 1703936 kB + swap 1048576 kB. */
	assert_int_equal(oom_constraint_new_cpuset(t.ctx, 100, &c), 0);
	assert_int_equal(oom_constraint_get_type(c), OOM_CONSTRAINT_CPUSET);
	assert_int_equal(oom_constraint_cpuset_pid(c), 100);
	assert_int_equal(oom_constraint_read_flags(c), OOM_READ_MEMS);
	assert_int_equal(oom_constraint_totalpages(c, OOM_HEURISTIC_REWRITE, &src), KB_PAGES(1703936 + 1048576));
	assert_int_equal(src, OOM_TOTAL_NODES);
	assert_int_equal(oom_constraint_totalpages(c, OOM_HEURISTIC_KERNEL, NULL), KB_PAGES(1703936 + 1048576));
	assert_int_equal(oom_constraint_nodes(c)[0], 1);
	candidates(&t, c, got, sizeof(got));
	assert_string_equal(got, "100 300 301 302 500");
	oom_constraint_free(c);
	/* batch: node 1 only. */
	assert_int_equal(oom_constraint_new_cpuset(t.ctx, 400, &c), 0);
	assert_int_equal(oom_constraint_totalpages(c, OOM_HEURISTIC_REWRITE, NULL), KB_PAGES(917504 + 1048576));
	candidates(&t, c, got, sizeof(got));
	assert_string_equal(got, "200 300 301 302 400 500");
	oom_constraint_free(c);
	/* redis: both nodes, everyone. */
	assert_int_equal(oom_constraint_new_cpuset(t.ctx, 300, &c), 0);
	assert_int_equal(oom_constraint_totalpages(c, OOM_HEURISTIC_REWRITE, NULL),
			 KB_PAGES(1703936 + 917504 + 1048576));
	candidates(&t, c, got, sizeof(got));
	assert_string_equal(got, "100 200 300 301 302 400 500");
	oom_constraint_free(c);
	c = NULL;
	assert_int_equal(oom_constraint_new_cpuset(t.ctx, 4242, &c), -ESRCH);
	assert_null(c);
	assert_int_equal(oom_constraint_new_cpuset(t.ctx, 0, &c), -EINVAL);
	/* A task read without OOM_READ_MEMS counts as allowed everywhere. */
	assert_int_equal(oom_constraint_new_cpuset(t.ctx, 100, &c), 0);
	{
		struct oom_task task = *oom_snapshot_find(t.snap, 400);

		assert_false(oom_constraint_is_candidate(c, &task));
		task.mems_allowed = NULL;
		assert_true(oom_constraint_is_candidate(c, &task));
	}
	oom_constraint_free(c);
	fixture_close_tree(&t);

	/* No swap, four nodes. */
	fixture_open_tree(&t, "numa-4node");
	assert_int_equal(oom_constraint_new_cpuset(t.ctx, 300, &c), 0); /* nodes 0-1 */
	assert_int_equal(oom_constraint_totalpages(c, OOM_HEURISTIC_REWRITE, NULL), KB_PAGES(524288 + 786432));
	candidates(&t, c, got, sizeof(got));
	assert_string_equal(got, "100 200 300 500 501");
	oom_constraint_free(c);
	fixture_close_tree(&t);
}

static void mempolicy_trees(void **state)
{
	static const struct {
		const char *tree, *nodes;
		unsigned long pages;
		const char *members;
	} cases[] = {
		/* bind:0 matches 0; interleave:1 and bind:1 miss it; default and prefer match anything */
		{ "numa-2node", "0", KB_PAGES(1703936 + 1048576), "100 300 301 302 500" },
		{ "numa-2node", "1", KB_PAGES(917504 + 1048576), "200 300 301 302 400 500" },
		{ "numa-2node", "0-1", KB_PAGES(1703936 + 917504 + 1048576), "100 200 300 301 302 400 500" },
		{ "numa-4node", "0-1,3", KB_PAGES(524288 + 786432 + 131072), "100 200 300 500 501 900" },
		/* interleave:0-1 intersects 1 */
		{ "numa-4node", "1", KB_PAGES(786432), "200 300 500 501" },
		{ "numa-4node", "2", KB_PAGES(262144), "400 500 501 502" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct oom_constraint *c;
		enum oom_total_source src;
		struct fixture_tree t;
		char got[256];

		fixture_open_tree(&t, cases[i].tree);
		assert_int_equal(oom_constraint_new_mempolicy(t.ctx, cases[i].nodes, &c), 0);
		assert_int_equal(oom_constraint_get_type(c), OOM_CONSTRAINT_MEMPOLICY);
		assert_int_equal(oom_constraint_read_flags(c), OOM_READ_NUMA_MAPS);
		assert_int_equal(oom_constraint_totalpages(c, OOM_HEURISTIC_REWRITE, &src), cases[i].pages);
		assert_int_equal(src, OOM_TOTAL_NODES);
		candidates(&t, c, got, sizeof(got));
		assert_string_equal(got, cases[i].members);
		oom_constraint_free(c);
		fixture_close_tree(&t);
	}
}

static void mempolicy_errors(void **state)
{
	struct oom_constraint *c = NULL;
	struct fixture_tree t;

	(void)state;
	fixture_open_tree(&t, "numa-4node");
	assert_int_equal(oom_constraint_new_mempolicy(t.ctx, "5", &c), -ENOENT);
	assert_int_equal(oom_constraint_new_mempolicy(t.ctx, "", &c), -EINVAL);
	assert_int_equal(oom_constraint_new_mempolicy(t.ctx, "x", &c), -EINVAL);
	assert_int_equal(oom_constraint_new_mempolicy(t.ctx, "1-0", &c), -EINVAL);
	assert_int_equal(oom_constraint_new_mempolicy(t.ctx, "0,", &c), -EINVAL);
	assert_int_equal(oom_constraint_new_mempolicy(t.ctx, NULL, &c), -EINVAL);
	assert_null(c);
	fixture_close_tree(&t);
}

static void mempolicy_without_numa_maps(void **state)
{
	struct oom_constraint *c;
	struct oom_task task;
	struct fixture_tree t;

	(void)state;
	fixture_open_tree(&t, "numa-2node");
	assert_int_equal(oom_constraint_new_mempolicy(t.ctx, "0", &c), 0);
	/* batch is bound to node 1; read without numa_maps it is assumed to match. */
	task = *oom_snapshot_find(t.snap, 400);
	assert_false(oom_constraint_is_candidate(c, &task));
	task.policy_nodes = NULL;
	task.policy_default = false;
	assert_true(oom_constraint_is_candidate(c, &task));
	oom_constraint_free(c);
	fixture_close_tree(&t);
}

static void names(void **state)
{
	(void)state;
	assert_string_equal(oom_constraint_type_name(OOM_CONSTRAINT_NONE), "none");
	assert_string_equal(oom_constraint_type_name(OOM_CONSTRAINT_MEMCG), "memcg");
	assert_string_equal(oom_constraint_type_name(OOM_CONSTRAINT_CPUSET), "cpuset");
	assert_string_equal(oom_constraint_type_name(OOM_CONSTRAINT_MEMPOLICY), "mempolicy");
	assert_null(oom_constraint_type_name((enum oom_constraint_type)4));
	assert_string_equal(oom_constraint_kernel_name(OOM_CONSTRAINT_MEMPOLICY), "CONSTRAINT_MEMORY_POLICY");
	assert_string_equal(oom_constraint_kernel_name(OOM_CONSTRAINT_MEMCG), "CONSTRAINT_MEMCG");
	oom_constraint_free(NULL);
	/* NULL is the system-wide constraint for the queries. */
	assert_int_equal(oom_constraint_get_type(NULL), OOM_CONSTRAINT_NONE);
	assert_int_equal(oom_constraint_read_flags(NULL), 0);
	assert_int_equal(oom_constraint_totalpages(NULL, OOM_HEURISTIC_KERNEL, NULL), 0);
	assert_null(oom_constraint_memcg_path(NULL));
	assert_int_equal(oom_constraint_memcg_version(NULL), 0);
	assert_false(oom_constraint_memcg_limited(NULL));
	assert_int_equal(oom_constraint_cpuset_pid(NULL), 0);
	assert_null(oom_constraint_nodes(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mountinfo_hybrid),
		cmocka_unit_test(mountinfo_v2_only_and_none),
		cmocka_unit_test(mountinfo_prefers_root_and_unescapes),
		cmocka_unit_test(mountinfo_malformed),
		cmocka_unit_test(dir_paths),
		cmocka_unit_test(path_within),
		cmocka_unit_test(limits),
		cmocka_unit_test(group_totalpages),
		cmocka_unit_test(node_meminfo),
		cmocka_unit_test(none_on_trees),
		cmocka_unit_test(memcg_v2_tree),
		cmocka_unit_test(memcg_v1_hybrid_tree),
		cmocka_unit_test(memcg_errors),
		cmocka_unit_test(memcg_unknown_membership),
		cmocka_unit_test(cpuset_trees),
		cmocka_unit_test(mempolicy_trees),
		cmocka_unit_test(mempolicy_errors),
		cmocka_unit_test(mempolicy_without_numa_maps),
		cmocka_unit_test(names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
