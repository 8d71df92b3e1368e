// SPDX-License-Identifier: LGPL-2.1-or-later
/* Whole-file reads into a growing buffer, and single writes, on a scratch directory. */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fixture.h"

struct scratch {
	char dir[64];
	int fd;
};

static int setup(void **state)
{
	struct scratch *s = calloc(1, sizeof(*s));

	assert_non_null(s);
	snprintf(s->dir, sizeof(s->dir), "/tmp/liboom-unit-XXXXXX");
	assert_non_null(mkdtemp(s->dir));
	s->fd = open(s->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(s->fd >= 0);
	*state = s;
	return 0;
}

static int teardown(void **state)
{
	struct scratch *s = *state;

	close(s->fd);
	fixture_remove(s->dir);
	free(s);
	return 0;
}

static void write_bytes(struct scratch *s, const char *name, size_t n)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", s->dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	/* A pattern that shows a misplaced chunk: byte i is 'a' + i % 26, a newline every 100. */
	for (size_t i = 0; i < n; i++)
		fputc(i % 100 == 99 ? '\n' : 'a' + (int)(i % 26), f);
	assert_int_equal(fclose(f), 0);
}

static void check_pattern(const struct oom_buf *b, size_t n)
{
	assert_int_equal(b->len, n);
	assert_int_equal(b->data[n], '\0');
	for (size_t i = 0; i < n; i++) {
		char want = i % 100 == 99 ? '\n' : (char)('a' + (int)(i % 26));

		if (b->data[i] != want)
			fail_msg("byte %zu of %zu", i, n);
	}
}

static void sizes(void **state)
{
	static const size_t ns[] = { 0, 1, 1023, 1024, 1025, 3071, 4095, 4096, 4097, 100000, 1 << 20 };
	struct scratch *s = *state;
	struct oom_buf b = { 0 };

	for (size_t i = 0; i < ARRAY_SIZE(ns); i++) {
		write_bytes(s, "f", ns[i]);
		assert_int_equal(oom_read_file_at(s->fd, "f", &b), 0);
		check_pattern(&b, ns[i]);
	}
	/* The buffer is reused: a short file after a long one holds only itself */
	write_bytes(s, "g", 10);
	assert_int_equal(oom_read_file_at(s->fd, "g", &b), 0);
	check_pattern(&b, 10);
	oom_buf_free(&b);
	assert_null(b.data);
	assert_int_equal(b.len, 0);
	oom_buf_free(&b); /* twice is fine */
}

static void errors(void **state)
{
	struct scratch *s = *state;
	struct oom_buf b = { 0 };

	assert_int_equal(oom_read_file_at(s->fd, "missing", &b), -ENOENT);
	assert_int_equal(mkdirat(s->fd, "d", 0755), 0);
	assert_int_equal(oom_read_file_at(s->fd, "d", &b), -EISDIR);
	assert_int_equal(oom_read_file_at(s->fd, "../x", &b) < 0, 1);
	assert_int_equal(oom_read_file_at(s->fd, "/etc/hostname", &b) < 0, 1);
	oom_buf_free(&b);
}

static void writes(void **state)
{
	struct scratch *s = *state;
	char buf[64];

	write_bytes(s, "w", 30);
	assert_int_equal(oom_write_file_at(s->fd, "w", "12\n", 3), 0);
	assert_int_equal(fixture_read(s->dir, "w", buf, sizeof(buf)), 3);
	assert_string_equal(buf, "12\n");
	/* Never creates: /proc files exist or the process is gone */
	assert_int_equal(oom_write_file_at(s->fd, "new", "1\n", 2), -ENOENT);
	assert_int_equal(fixture_read(s->dir, "new", buf, sizeof(buf)), -1);
	assert_int_equal(oom_write_file_at(s->fd, "d-none/x", "1\n", 2), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(sizes, setup, teardown),
		cmocka_unit_test_setup_teardown(errors, setup, teardown),
		cmocka_unit_test_setup_teardown(writes, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
