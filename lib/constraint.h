/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Private to constraint.c, cgroup.c, select.c and their unit tests: the
 * constraint object and the pure parsers it is built from.
 */
#ifndef LIBOOM_CONSTRAINT_H
#define LIBOOM_CONSTRAINT_H

#include "internal.h"

#define NODE_WORDS (OOM_MAX_NODES / 64)

struct oom_constraint {
	enum oom_constraint_type type;
	struct oom_meminfo meminfo; /* for the system totals and SwapTotal */
	unsigned long page_size;
	/* memcg */
	char *memcg_path; /* as in /proc/PID/cgroup */
	int memcg_version; /* 1 or 2 */
	bool memcg_limited;
	unsigned long memcg_pages; /* the group's totalpages when limited */
	/* cpuset and mempolicy */
	pid_t cpuset_pid;
	uint64_t nodes[NODE_WORDS];
	unsigned long nodes_pages; /* the nodes' LRU pages + SwapTotal */
};

/* ---- cgroup.c: mountinfo, paths and limits ----------------------------- */

/* Where one cgroup hierarchy is mounted: the hierarchy's root shown there and the mount point. */
struct cg_mount {
	char *root; /* field 4 of mountinfo, unescaped */
	char *point; /* field 5, unescaped, absolute */
};

struct cg_mounts {
	struct cg_mount v1_memory; /* a "cgroup" mount with the memory option */
	struct cg_mount v2; /* the "cgroup2" mount */
};

/*
 * Finds the v1 memory and the v2 mounts in a mountinfo text; either may be
 * missing (NULL members). A mount showing the hierarchy's root ("/") is
 * preferred over a bind mount of a subtree. -EINVAL on a malformed line.
 */
int cg_parse_mountinfo(const char *text, size_t len, struct cg_mounts *out);
void cg_mounts_free(struct cg_mounts *m);

/*
 * The directory of cgroup @cgpath (as in /proc/PID/cgroup) in mount @m,
 * relative to the root (no leading '/'), into @buf. -ENOENT when the mount
 * does not show that part of the hierarchy, -ENAMETOOLONG, -EINVAL.
 */
int cg_dir_path(const struct cg_mount *m, const char *cgpath, char *buf, size_t size);

/*
 * One limit file: "max" (v2) or a byte count; the v1 "unlimited" value
 * (PAGE_COUNTER_MAX pages) is reported as unlimited too.
 */
int cg_parse_limit(const char *text, size_t len, unsigned long page_size, unsigned long long *bytes,
		   bool *unlimited);

/* Whether @cgpath is @group or below it ("/" contains every group). */
bool cg_path_within(const char *cgpath, const char *group);

/*
 * totalpages of a group as the kernel's memcg limit: min(limit + SwapTotal,
 * memory+swap limit), where v2's memory+swap limit is memory.max +
 * memory.swap.max. Returns false when the group has no limit at all.
 */
bool cg_totalpages(unsigned long long limit, bool limit_unl, unsigned long long memsw, bool memsw_unl,
		   int version, unsigned long long swap_total_kb, unsigned long page_size,
		   unsigned long *pages);

/* Fills @c's memcg fields (version, limits, totalpages) for group @path. */
int cg_constraint_read(struct oom_ctx *ctx, const char *path, struct oom_constraint *c);

/* ---- constraint.c ------------------------------------------------------ */

/*
 * Sums "Node N Active(anon)", "Inactive(anon)", "Active(file)" and
 * "Inactive(file)" of one node's meminfo into *@lru_kb. -EINVAL when a
 * line is missing or malformed, or names another node than @node.
 */
int node_parse_meminfo(const char *text, size_t len, int node, unsigned long long *lru_kb);

/* A constraint from plain data (tests, and the constructors below). */
int constraint_alloc(enum oom_constraint_type type, const struct oom_meminfo *mi, unsigned long page_size,
		     struct oom_constraint **c);

#endif
