// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Memory cgroups: where the hierarchies are mounted (mountinfo), a group's
 * directory under the root, and its limits. Parsers take strings; the only
 * I/O here goes through the context's fds.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "constraint.h"

/* mountinfo escapes space, tab, newline and backslash as \ooo (fs/proc_namespace.c). */
static char *unescape_field(const char *s, size_t n)
{
	char *out = malloc(n + 1), *o = out;

	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 3 < n && s[i + 1] >= '0' && s[i + 1] <= '3' &&
		    s[i + 2] >= '0' && s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
			*o++ = (char)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
			i += 3;
		} else {
			*o++ = s[i];
		}
	}
	*o = '\0';
	return out;
}

/* Whether comma-separated @list (@n bytes) holds the word @word. */
static bool has_option(const char *list, size_t n, const char *word)
{
	size_t wl = strlen(word);
	const char *p = list, *end = list + n;

	while (p < end) {
		const char *c = memchr(p, ',', (size_t)(end - p));
		const char *e = c ? c : end;

		if ((size_t)(e - p) == wl && memcmp(p, word, wl) == 0)
			return true;
		p = e + 1;
	}
	return false;
}

static void mount_free(struct cg_mount *m)
{
	free(m->root);
	free(m->point);
	m->root = m->point = NULL;
}

void cg_mounts_free(struct cg_mounts *m)
{
	mount_free(&m->v1_memory);
	mount_free(&m->v2);
}

/* Keeps the first mount seen, unless a later one shows the hierarchy's root. */
static int consider(struct cg_mount *m, const char *root, size_t rlen, const char *point, size_t plen)
{
	struct cg_mount n;

	if (m->root && strcmp(m->root, "/") == 0)
		return 0;
	n.root = unescape_field(root, rlen);
	n.point = unescape_field(point, plen);
	if (!n.root || !n.point) {
		mount_free(&n);
		return -ENOMEM;
	}
	if (m->root && strcmp(n.root, "/") != 0) {
		mount_free(&n);
		return 0;
	}
	mount_free(m);
	*m = n;
	return 0;
}

int cg_parse_mountinfo(const char *text, size_t len, struct cg_mounts *out)
{
	const char *p = text, *end = text + len;
	int err = 0;

	memset(out, 0, sizeof(*out));
	while (p < end && !err) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		const char *f[10];
		size_t fl[10], nf = 0;
		const char *q = p;
		bool sep = false;
		size_t after_sep = 0;

		/* Fields 1-6, then optional fields up to "-", then fstype, source, super options. */
		while (q < eol && nf < ARRAY_SIZE(f)) {
			const char *sp = memchr(q, ' ', (size_t)(eol - q));
			const char *fe = sp ? sp : eol;

			if (!sep && nf >= 6 && fe - q == 1 && *q == '-') {
				sep = true;
				after_sep = nf;
			} else if (nf < 6 || sep) {
				f[nf] = q;
				fl[nf] = (size_t)(fe - q);
				nf++;
			}
			q = fe + 1;
		}
		if (eol == p) {
			p = eol + 1;
			continue;
		}
		if (!sep || nf < after_sep + 3) {
			err = -EINVAL;
			break;
		}
		if (fl[after_sep] == 7 && memcmp(f[after_sep], "cgroup2", 7) == 0)
			err = consider(&out->v2, f[3], fl[3], f[4], fl[4]);
		else if (fl[after_sep] == 6 && memcmp(f[after_sep], "cgroup", 6) == 0 &&
			 has_option(f[after_sep + 2], fl[after_sep + 2], "memory"))
			err = consider(&out->v1_memory, f[3], fl[3], f[4], fl[4]);
		p = eol + 1;
	}
	if (err)
		cg_mounts_free(out);
	return err;
}

bool cg_path_within(const char *cgpath, const char *group)
{
	size_t gl = strlen(group);

	while (gl > 1 && group[gl - 1] == '/')
		gl--;
	if (gl == 1 && group[0] == '/')
		return cgpath[0] == '/';
	return strncmp(cgpath, group, gl) == 0 && (cgpath[gl] == '\0' || cgpath[gl] == '/');
}

/* A ".." component would leave the group's hierarchy. */
static bool has_dotdot(const char *path)
{
	for (const char *p = path; (p = strstr(p, "..")); p += 2)
		if ((p == path || p[-1] == '/') && (p[2] == '\0' || p[2] == '/'))
			return true;
	return false;
}

int cg_dir_path(const struct cg_mount *m, const char *cgpath, char *buf, size_t size)
{
	const char *rest, *point;
	size_t root_len;
	int n;

	if (!m->root || !m->point)
		return -ENOENT;
	if (cgpath[0] != '/' || has_dotdot(cgpath))
		return -EINVAL;
	/* A mount of a subtree shows only the groups below its root. */
	if (!cg_path_within(cgpath, m->root))
		return -ENOENT;
	/* The root's own trailing slashes ("/a/") are not part of the prefix to cut. */
	root_len = strlen(m->root);
	while (root_len > 0 && m->root[root_len - 1] == '/')
		root_len--;
	rest = cgpath + root_len;
	while (*rest == '/')
		rest++;
	/* Relative to the root fd: a mount point of "/" (or none) adds no leading slash. */
	point = m->point + strspn(m->point, "/");
	n = snprintf(buf, size, "%s%s%s", point, *point && *rest ? "/" : "", rest);
	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	/* The root itself: "sys/fs/cgroup/" or "/" -> drop the trailing slash, "." for "". */
	while (n > 0 && buf[n - 1] == '/')
		buf[--n] = '\0';
	if (n == 0) {
		if (size < 2)
			return -ENAMETOOLONG;
		strcpy(buf, ".");
	}
	return 0;
}

int cg_parse_limit(const char *text, size_t len, unsigned long page_size, unsigned long long *bytes,
		   bool *unlimited)
{
	unsigned long long v;
	char tmp[32];

	if (len > 0 && text[len - 1] == '\n')
		len--;
	if (len == 3 && memcmp(text, "max", 3) == 0) {
		*bytes = ULLONG_MAX;
		*unlimited = true;
		return 0;
	}
	if (len == 0 || len >= sizeof(tmp) || !page_size)
		return -EINVAL;
	memcpy(tmp, text, len);
	tmp[len] = '\0';
	if (tmp[0] < '0' || tmp[0] > '9' || oom_parse_ull(tmp, 10, &v) < 0)
		return -EINVAL;
	*bytes = v;
	/* v1 shows "no limit" as PAGE_COUNTER_MAX pages: LONG_MAX rounded down to a page. */
	*unlimited = v >= (unsigned long long)LONG_MAX / page_size * page_size;
	return 0;
}

static unsigned long long to_pages(unsigned long long bytes, unsigned long page_size)
{
	return bytes / page_size;
}

bool cg_totalpages(unsigned long long limit, bool limit_unl, unsigned long long memsw, bool memsw_unl,
		   int version, unsigned long long swap_total_kb, unsigned long page_size, unsigned long *pages)
{
	unsigned long long swap = swap_total_kb * 1024 / page_size, total;

	if (version == 2) {
		/* memory.swap.max limits swap alone: memory.max plus what of it can be used. */
		if (limit_unl)
			return false;
		if (!memsw_unl && to_pages(memsw, page_size) < swap)
			swap = to_pages(memsw, page_size);
		total = to_pages(limit, page_size) + swap;
	} else {
		/* v1's memsw limit bounds memory + swap together. */
		if (limit_unl && memsw_unl)
			return false;
		total = limit_unl ? ULLONG_MAX : to_pages(limit, page_size) + swap;
		if (!memsw_unl && to_pages(memsw, page_size) < total)
			total = to_pages(memsw, page_size);
	}
	*pages = total > ULONG_MAX ? ULONG_MAX : (unsigned long)total;
	return true;
}

/* Reads one limit file in group directory @dirfd; a missing file is "no limit". */
static int read_limit(int dirfd, const char *name, unsigned long page_size, struct oom_buf *buf,
		      unsigned long long *bytes, bool *unlimited)
{
	int err = oom_read_file_at(dirfd, name, buf);

	if (err == -ENOENT) {
		*bytes = ULLONG_MAX;
		*unlimited = true;
		return 0;
	}
	if (err < 0)
		return err;
	return cg_parse_limit(buf->data, buf->len, page_size, bytes, unlimited);
}

/* Fills the memcg part of @c for group @path: hierarchy, limits, totalpages. */
int cg_constraint_read(struct oom_ctx *ctx, const char *path, struct oom_constraint *c)
{
	struct oom_buf buf = { 0 };
	struct cg_mounts mounts;
	const struct cg_mount *m;
	unsigned long long limit, memsw;
	bool limit_unl, memsw_unl;
	char dir[PATH_MAX];
	int dirfd, err;

	err = oom_read_file_at(ctx->proc_fd, "self/mountinfo", &buf);
	if (err == 0)
		err = cg_parse_mountinfo(buf.data, buf.len, &mounts);
	if (err < 0)
		goto out;
	/* The memory controller lives in exactly one hierarchy: v1 if mounted there. */
	c->memcg_version = mounts.v1_memory.point ? 1 : 2;
	m = c->memcg_version == 1 ? &mounts.v1_memory : &mounts.v2;
	err = cg_dir_path(m, path, dir, sizeof(dir));
	cg_mounts_free(&mounts);
	if (err < 0)
		goto out;
	dirfd = oom_openat(ctx->root_fd, dir, O_RDONLY | O_DIRECTORY);
	if (dirfd < 0) {
		err = dirfd;
		goto out;
	}
	if (c->memcg_version == 1) {
		err = read_limit(dirfd, "memory.limit_in_bytes", c->page_size, &buf, &limit, &limit_unl);
		if (err == 0)
			err = read_limit(dirfd, "memory.memsw.limit_in_bytes", c->page_size, &buf, &memsw,
					 &memsw_unl);
	} else {
		err = read_limit(dirfd, "memory.max", c->page_size, &buf, &limit, &limit_unl);
		if (err == 0)
			err = read_limit(dirfd, "memory.swap.max", c->page_size, &buf, &memsw, &memsw_unl);
	}
	close(dirfd);
	if (err < 0)
		goto out;
	c->memcg_limited = cg_totalpages(limit, limit_unl, memsw, memsw_unl, c->memcg_version,
					 c->meminfo.swap_total_kb, c->page_size, &c->memcg_pages);
out:
	oom_buf_free(&buf);
	return err;
}
