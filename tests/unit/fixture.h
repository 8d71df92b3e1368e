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

#endif
