/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Private copies of fixture trees for unit tests that write (never write into tests/fixtures). */
#ifndef OOM_UNIT_FIXTURE_H
#define OOM_UNIT_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>

#include "unit.h"

/* Copies FIXTURES/@name into a new temporary directory; @dir receives its path. */
static inline void fixture_copy(const char *name, char *dir, size_t size)
{
	char cmd[1024];

	assert_true(snprintf(dir, size, "/tmp/liboom-unit-XXXXXX") < (int)size);
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "cp -a '%s/%s/.' '%s/'", FIXTURES, name, dir);
	assert_int_equal(system(cmd), 0);
}

static inline void fixture_remove(const char *dir)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* The whole content of @root/@rel into @buf (NUL-terminated); -1 if it cannot be read. */
static inline long fixture_read(const char *root, const char *rel, char *buf, size_t size)
{
	char path[1024];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = '\0';
	return (long)n;
}

static inline void fixture_write(const char *root, const char *rel, const char *text)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* A private, writable copy of the "basic" tree, as a cmocka setup/teardown pair. */
struct tree {
	char dir[256];
	struct oom_ctx *ctx;
};

static inline int tree_setup(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	fixture_copy("basic", t->dir, sizeof(t->dir));
	assert_int_equal(oom_ctx_new(t->dir, &t->ctx), 0);
	*state = t;
	return 0;
}

static inline int tree_teardown(void **state)
{
	struct tree *t = *state;

	oom_ctx_unref(t->ctx);
	fixture_remove(t->dir);
	free(t);
	return 0;
}

/* A read-only fixture tree with a full snapshot of it (no copy: nothing is written). */
struct fixture_tree {
	struct oom_ctx *ctx;
	struct oom_snapshot *snap;
};

static inline void fixture_open_tree(struct fixture_tree *t, const char *name)
{
	char root[512];

	snprintf(root, sizeof(root), "%s/%s", FIXTURES, name);
	assert_int_equal(oom_ctx_new(root, &t->ctx), 0);
	assert_int_equal(oom_snapshot_new(t->ctx, OOM_READ_ALL, &t->snap), 0);
}

static inline void fixture_close_tree(struct fixture_tree *t)
{
	oom_snapshot_free(t->snap);
	oom_ctx_unref(t->ctx);
}

#endif
