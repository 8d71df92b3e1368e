// SPDX-License-Identifier: LGPL-2.1-or-later
/* Memory policies from /proc/PID/numa_maps, for the mempolicy constraint. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Policy names as mm/mempolicy.c prints them; two contain a space. */
static const struct {
	const char *name;
	bool restricts; /* bind and interleave confine a task to their nodes */
} policies[] = {
	{ "weighted interleave", true },
	{ "prefer (many)", false },
	{ "interleave", true },
	{ "bind", true },
	{ "default", false },
	{ "prefer", false },
	{ "local", false },
};

int oom_parse_numa_maps(const char *text, size_t len, uint64_t *nodes, bool *has_default)
{
	const char *p = text, *end = text + len;
	uint64_t line_nodes[OOM_MAX_NODES / 64];

	memset(nodes, 0, OOM_MAX_NODES / 8);
	*has_default = false;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end, *pol, *tok_end;
		size_t i;

		pol = memchr(p, ' ', (size_t)(eol - p));
		if (!pol)
			return -EINVAL;
		pol++;
		for (i = 0; i < ARRAY_SIZE(policies); i++) {
			size_t n = strlen(policies[i].name);

			if ((size_t)(eol - pol) >= n && memcmp(pol, policies[i].name, n) == 0 &&
			    (pol + n == eol || pol[n] == ' ' || pol[n] == ':' || pol[n] == '='))
				break;
		}
		if (i == ARRAY_SIZE(policies))
			return -EINVAL;
		pol += strlen(policies[i].name);
		tok_end = pol;
		while (tok_end < eol && *tok_end != ' ')
			tok_end++;
		if (!policies[i].restricts) {
			*has_default = true;
		} else {
			const char *colon = memchr(pol, ':', (size_t)(tok_end - pol));

			if (!colon || oom_parse_node_list(colon + 1, (size_t)(tok_end - colon - 1), line_nodes) < 0)
				return -EINVAL;
			for (size_t w = 0; w < ARRAY_SIZE(line_nodes); w++)
				nodes[w] |= line_nodes[w];
		}
		p = eol + 1;
	}
	return 0;
}

int oom_read_numa_policy(int piddir, struct oom_buf *buf, struct oom_task *t)
{
	int err = oom_read_file_at(piddir, "numa_maps", buf);

	/*
	 * Another user's numa_maps needs ptrace access, and a saved tree may
	 * lack the file: treat both as the default policy.
	 */
	if (err == -EACCES || err == -EPERM || err == -ENOENT) {
		t->policy_default = true;
		return 0;
	}
	if (err < 0)
		return err;
	t->policy_nodes = malloc(OOM_MAX_NODES / 8);
	if (!t->policy_nodes)
		return -ENOMEM;
	err = oom_parse_numa_maps(buf->data, buf->len, t->policy_nodes, &t->policy_default);
	if (err < 0)
		return err;
	t->have |= OOM_HAVE_NUMA_MAPS;
	return 0;
}
