// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * OOM constraints (SPEC 6, seeds 004, 006, 009): which tasks an OOM may
 * kill, and the totalpages their scores are measured against.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "constraint.h"

static const char *const type_names[] = {
	[OOM_CONSTRAINT_NONE] = "none",
	[OOM_CONSTRAINT_MEMCG] = "memcg",
	[OOM_CONSTRAINT_CPUSET] = "cpuset",
	[OOM_CONSTRAINT_MEMPOLICY] = "mempolicy",
};

static const char *const kernel_names[] = {
	[OOM_CONSTRAINT_NONE] = "CONSTRAINT_NONE",
	[OOM_CONSTRAINT_MEMCG] = "CONSTRAINT_MEMCG",
	[OOM_CONSTRAINT_CPUSET] = "CONSTRAINT_CPUSET",
	[OOM_CONSTRAINT_MEMPOLICY] = "CONSTRAINT_MEMORY_POLICY",
};

OOM_EXPORT const char *oom_constraint_type_name(enum oom_constraint_type type)
{
	return (unsigned int)type < ARRAY_SIZE(type_names) ? type_names[type] : NULL;
}

OOM_EXPORT const char *oom_constraint_kernel_name(enum oom_constraint_type type)
{
	return (unsigned int)type < ARRAY_SIZE(kernel_names) ? kernel_names[type] : NULL;
}

int constraint_alloc(enum oom_constraint_type type, const struct oom_meminfo *mi, unsigned long page_size,
		     struct oom_constraint **cp)
{
	struct oom_constraint *c;

	if (!cp || !mi || !page_size || (unsigned int)type >= ARRAY_SIZE(type_names))
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->type = type;
	c->meminfo = *mi;
	c->page_size = page_size;
	*cp = c;
	return 0;
}

OOM_EXPORT void oom_constraint_free(struct oom_constraint *c)
{
	if (!c)
		return;
	free(c->memcg_path);
	free(c);
}

static int alloc_from_ctx(struct oom_ctx *ctx, enum oom_constraint_type type, struct oom_constraint **cp)
{
	struct oom_meminfo mi;
	int err;

	if (!ctx || !cp)
		return -EINVAL;
	err = oom_read_meminfo(ctx, &mi);
	if (err < 0)
		return err;
	return constraint_alloc(type, &mi, oom_ctx_get_page_size(ctx), cp);
}

OOM_EXPORT int oom_constraint_new_none(struct oom_ctx *ctx, struct oom_constraint **cp)
{
	return alloc_from_ctx(ctx, OOM_CONSTRAINT_NONE, cp);
}

OOM_EXPORT int oom_constraint_new_memcg(struct oom_ctx *ctx, const char *path, struct oom_constraint **cp)
{
	struct oom_constraint *c;
	size_t len;
	int err;

	if (!path || path[0] != '/')
		return -EINVAL;
	err = alloc_from_ctx(ctx, OOM_CONSTRAINT_MEMCG, &c);
	if (err < 0)
		return err;
	/* Membership compares paths: keep the group without trailing slashes. */
	len = strlen(path);
	while (len > 1 && path[len - 1] == '/')
		len--;
	c->memcg_path = strndup(path, len);
	if (!c->memcg_path) {
		oom_constraint_free(c);
		return -ENOMEM;
	}
	err = cg_constraint_read(ctx, c->memcg_path, c);
	if (err < 0) {
		oom_constraint_free(c);
		return err;
	}
	*cp = c;
	return 0;
}

/* ---- nodes ------------------------------------------------------------ */

int node_parse_meminfo(const char *text, size_t len, int node, unsigned long long *lru_kb)
{
	static const char *const keys[] = { "Active(anon)", "Inactive(anon)", "Active(file)", "Inactive(file)" };
	const char *p = text, *end = text + len;
	unsigned int seen = 0;
	char prefix[32];
	int plen;

	plen = snprintf(prefix, sizeof(prefix), "Node %d ", node);
	if (plen < 0 || (size_t)plen >= sizeof(prefix))
		return -EINVAL;
	*lru_kb = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end, *colon, *v;
		char num[32];
		size_t i, vlen;
		unsigned long long kb;

		/* "Node 0 Active(anon):       1568 kB" */
		colon = memchr(p, ':', (size_t)(eol - p));
		if (!colon || (size_t)(eol - p) < (size_t)plen || memcmp(p, prefix, (size_t)plen) != 0) {
			p = eol + 1;
			continue;
		}
		for (i = 0; i < ARRAY_SIZE(keys); i++)
			if ((size_t)(colon - p - plen) == strlen(keys[i]) &&
			    memcmp(p + plen, keys[i], strlen(keys[i])) == 0)
				break;
		if (i == ARRAY_SIZE(keys)) {
			p = eol + 1;
			continue;
		}
		v = colon + 1;
		while (v < eol && *v == ' ')
			v++;
		vlen = (size_t)(eol - v);
		if (vlen < 4 || memcmp(eol - 3, " kB", 3) != 0 || vlen - 3 >= sizeof(num))
			return -EINVAL;
		memcpy(num, v, vlen - 3);
		num[vlen - 3] = '\0';
		if (oom_parse_ull(num, 10, &kb) < 0)
			return -EINVAL;
		if (seen & (1u << i))
			return -EINVAL;
		seen |= 1u << i;
		*lru_kb += kb;
		p = eol + 1;
	}
	return seen == (1u << ARRAY_SIZE(keys)) - 1 ? 0 : -EINVAL;
}

/* The nodes' LRU pages plus SwapTotal, as constrained_alloc() counted them (seed 009). */
static int read_nodes_pages(struct oom_ctx *ctx, struct oom_constraint *c)
{
	struct oom_buf buf = { 0 };
	unsigned long long kb = c->meminfo.swap_total_kb;
	int sys = oom_ctx_sys_fd(ctx), err = 0;
	bool any = false;

	if (sys < 0)
		return sys;
	for (int n = 0; n < OOM_MAX_NODES && !err; n++) {
		unsigned long long lru;
		char path[64];

		if (!(c->nodes[n / 64] >> (n % 64) & 1))
			continue;
		any = true;
		snprintf(path, sizeof(path), "devices/system/node/node%d/meminfo", n);
		err = oom_read_file_at(sys, path, &buf);
		if (err == 0)
			err = node_parse_meminfo(buf.data, buf.len, n, &lru);
		if (err == 0)
			kb += lru;
	}
	oom_buf_free(&buf);
	if (err < 0)
		return err;
	if (!any)
		return -EINVAL;
	c->nodes_pages = (unsigned long)(kb * 1024 / c->page_size);
	return 0;
}

OOM_EXPORT int oom_constraint_new_cpuset(struct oom_ctx *ctx, pid_t pid, struct oom_constraint **cp)
{
	struct oom_constraint *c;
	struct oom_task t;
	int err;

	if (pid <= 0)
		return -EINVAL;
	err = alloc_from_ctx(ctx, OOM_CONSTRAINT_CPUSET, &c);
	if (err < 0)
		return err;
	err = oom_task_read(ctx, pid, OOM_READ_STATUS | OOM_READ_MEMS, &t);
	if (err == 0) {
		if (t.mems_allowed)
			memcpy(c->nodes, t.mems_allowed, sizeof(c->nodes));
		else
			err = -EINVAL; /* a status without Mems_allowed_list */
		oom_task_clear(&t);
	}
	c->cpuset_pid = pid;
	if (err == 0)
		err = read_nodes_pages(ctx, c);
	if (err < 0) {
		oom_constraint_free(c);
		return err;
	}
	*cp = c;
	return 0;
}

OOM_EXPORT int oom_constraint_new_mempolicy(struct oom_ctx *ctx, const char *nodes, struct oom_constraint **cp)
{
	struct oom_constraint *c;
	int err;

	if (!nodes || !*nodes)
		return -EINVAL;
	err = alloc_from_ctx(ctx, OOM_CONSTRAINT_MEMPOLICY, &c);
	if (err < 0)
		return err;
	err = oom_parse_node_list(nodes, strlen(nodes), c->nodes);
	if (err == 0)
		err = read_nodes_pages(ctx, c);
	if (err < 0) {
		oom_constraint_free(c);
		return err;
	}
	*cp = c;
	return 0;
}

/* ---- queries ---------------------------------------------------------- */

OOM_EXPORT enum oom_constraint_type oom_constraint_get_type(const struct oom_constraint *c)
{
	return c ? c->type : OOM_CONSTRAINT_NONE;
}

OOM_EXPORT unsigned int oom_constraint_read_flags(const struct oom_constraint *c)
{
	switch (c ? c->type : OOM_CONSTRAINT_NONE) {
	case OOM_CONSTRAINT_MEMCG:
		return OOM_READ_CGROUP;
	case OOM_CONSTRAINT_CPUSET:
		return OOM_READ_MEMS;
	case OOM_CONSTRAINT_MEMPOLICY:
		return OOM_READ_NUMA_MAPS;
	default:
		return 0;
	}
}

OOM_EXPORT unsigned long oom_constraint_totalpages(const struct oom_constraint *c, enum oom_heuristic h,
						   enum oom_total_source *source)
{
	if (!c)
		return 0;
	switch (c->type) {
	case OOM_CONSTRAINT_MEMCG:
		if (!c->memcg_limited)
			break;
		if (source)
			*source = OOM_TOTAL_MEMCG;
		return c->memcg_pages;
	case OOM_CONSTRAINT_CPUSET:
	case OOM_CONSTRAINT_MEMPOLICY:
		if (source)
			*source = OOM_TOTAL_NODES;
		return c->nodes_pages;
	default:
		break;
	}
	return oom_system_totalpages(&c->meminfo, c->page_size, h, source);
}

static bool nodes_intersect(const uint64_t *a, const uint64_t *b)
{
	for (size_t w = 0; w < NODE_WORDS; w++)
		if (a[w] & b[w])
			return true;
	return false;
}

static bool nodes_empty(const uint64_t *a)
{
	for (size_t w = 0; w < NODE_WORDS; w++)
		if (a[w])
			return false;
	return true;
}

OOM_EXPORT bool oom_constraint_is_candidate(const struct oom_constraint *c, const struct oom_task *t)
{
	const char *path;

	if (!t || !oom_task_dumpable(t))
		return false;
	switch (c ? c->type : OOM_CONSTRAINT_NONE) {
	case OOM_CONSTRAINT_MEMCG:
		/* Hierarchical: the group or any group below it. Unknown membership is not membership. */
		path = c->memcg_version == 1 ? t->cgroup_memory : t->cgroup_v2;
		return path && cg_path_within(path, c->memcg_path);
	case OOM_CONSTRAINT_CPUSET:
		/* Seed 004: a task in a disjoint cpuset would free nothing for this one. */
		return !t->mems_allowed || nodes_intersect(t->mems_allowed, c->nodes);
	case OOM_CONSTRAINT_MEMPOLICY:
		/* Seed 006: preferred and default policies may have allocated anywhere. */
		if (t->policy_default || !t->policy_nodes || nodes_empty(t->policy_nodes))
			return true;
		return nodes_intersect(t->policy_nodes, c->nodes);
	default:
		return true;
	}
}

OOM_EXPORT const char *oom_constraint_memcg_path(const struct oom_constraint *c)
{
	return c && c->type == OOM_CONSTRAINT_MEMCG ? c->memcg_path : NULL;
}

OOM_EXPORT int oom_constraint_memcg_version(const struct oom_constraint *c)
{
	return c && c->type == OOM_CONSTRAINT_MEMCG ? c->memcg_version : 0;
}

OOM_EXPORT bool oom_constraint_memcg_limited(const struct oom_constraint *c)
{
	return c && c->type == OOM_CONSTRAINT_MEMCG && c->memcg_limited;
}

OOM_EXPORT pid_t oom_constraint_cpuset_pid(const struct oom_constraint *c)
{
	return c && c->type == OOM_CONSTRAINT_CPUSET ? c->cpuset_pid : 0;
}

OOM_EXPORT const uint64_t *oom_constraint_nodes(const struct oom_constraint *c)
{
	if (!c || (c->type != OOM_CONSTRAINT_CPUSET && c->type != OOM_CONSTRAINT_MEMPOLICY))
		return NULL;
	return c->nodes;
}
