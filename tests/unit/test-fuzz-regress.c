// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Replays the fuzzers' inputs through the same harness code, without
 * libFuzzer: every seed in tests/fuzz/corpus/NAME/ and every crash kept in
 * tests/fuzz/regress/NAME-*. A harness aborts on a broken invariant, so a
 * regression fails here under make check, and under make check-asan a
 * memory error or undefined behaviour does too.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"

/* Each harness's entry point gets its own name here. */
#define LLVMFuzzerTestOneInput fuzz_cg_limit
#include "../fuzz/fuzz-cg-limit.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_cgroup
#include "../fuzz/fuzz-cgroup.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_escape
#include "../fuzz/fuzz-escape.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_format
#include "../fuzz/fuzz-format.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_kernlog
#include "../fuzz/fuzz-kernlog.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_meminfo
#include "../fuzz/fuzz-meminfo.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_mountinfo
#include "../fuzz/fuzz-mountinfo.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_node_list
#include "../fuzz/fuzz-node-list.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_node_meminfo
#include "../fuzz/fuzz-node-meminfo.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_numa_maps
#include "../fuzz/fuzz-numa-maps.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_number
#include "../fuzz/fuzz-number.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_score
#include "../fuzz/fuzz-score.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_stat
#include "../fuzz/fuzz-stat.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_statm
#include "../fuzz/fuzz-statm.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_status
#include "../fuzz/fuzz-status.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_value_line
#include "../fuzz/fuzz-value-line.c"
#undef LLVMFuzzerTestOneInput

#define FUZZ_DIR FIXTURES "/../fuzz"

struct harness {
	const char *name; /* tests/fuzz/fuzz-NAME.c, corpus/NAME/, regress/NAME-* */
	int (*run)(const uint8_t *data, size_t size);
};

static const struct harness harnesses[] = {
	{ "cg-limit", fuzz_cg_limit },
	{ "cgroup", fuzz_cgroup },
	{ "escape", fuzz_escape },
	{ "format", fuzz_format },
	{ "kernlog", fuzz_kernlog },
	{ "meminfo", fuzz_meminfo },
	{ "mountinfo", fuzz_mountinfo },
	{ "node-list", fuzz_node_list },
	{ "node-meminfo", fuzz_node_meminfo },
	{ "numa-maps", fuzz_numa_maps },
	{ "number", fuzz_number },
	{ "score", fuzz_score },
	{ "stat", fuzz_stat },
	{ "statm", fuzz_statm },
	{ "status", fuzz_status },
	{ "value-line", fuzz_value_line },
};

static void replay_file(const struct harness *h, int dirfd, const char *name)
{
	struct oom_buf buf = { 0 };
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);

	assert_true(fd >= 0);
	assert_int_equal(oom_read_fd(fd, &buf), 0);
	close(fd);
	assert_int_equal(h->run((const uint8_t *)buf.data, buf.len), 0);
	oom_buf_free(&buf);
}

/* Every file of a corpus directory; returns how many. */
static size_t replay_dir(const struct harness *h, const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	size_t n = 0;

	assert_non_null(d);
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		replay_file(h, dirfd(d), e->d_name);
		n++;
	}
	closedir(d);
	return n;
}

static void corpus(void **state)
{
	const struct harness *h = *state;
	char path[512];

	snprintf(path, sizeof(path), "%s/corpus/%s", FUZZ_DIR, h->name);
	/* A harness without seeds would be fuzzing from nothing. */
	assert_true(replay_dir(h, path) > 0);
}

/* The harness a regress file belongs to: the longest NAME with "NAME-" as its prefix. */
static const struct harness *owner(const char *file)
{
	const struct harness *best = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(harnesses); i++) {
		size_t n = strlen(harnesses[i].name);

		if (strncmp(file, harnesses[i].name, n) == 0 && file[n] == '-' &&
		    (!best || n > strlen(best->name)))
			best = &harnesses[i];
	}
	return best;
}

static void regress(void **state)
{
	DIR *d = opendir(FUZZ_DIR "/regress");
	struct dirent *e;

	(void)state;
	assert_non_null(d);
	while ((e = readdir(d))) {
		const struct harness *h;

		if (e->d_name[0] == '.' || strcmp(e->d_name, "README") == 0)
			continue;
		h = owner(e->d_name);
		if (!h)
			fail_msg("tests/fuzz/regress/%s: no harness of that name", e->d_name);
		replay_file(h, dirfd(d), e->d_name);
	}
	closedir(d);
}

/* Every harness source is listed above (a new one must be added to the table). */
static void all_harnesses_listed(void **state)
{
	DIR *d = opendir(FUZZ_DIR);
	struct dirent *e;
	size_t n = 0;

	(void)state;
	assert_non_null(d);
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		bool found = false;

		if (strncmp(e->d_name, "fuzz-", 5) != 0 || len < 7 || strcmp(e->d_name + len - 2, ".c") != 0)
			continue;
		for (size_t i = 0; i < ARRAY_SIZE(harnesses); i++)
			found |= strlen(harnesses[i].name) == len - 7 &&
				 strncmp(e->d_name + 5, harnesses[i].name, len - 7) == 0;
		if (!found)
			fail_msg("tests/fuzz/%s is not replayed by test-fuzz-regress.c", e->d_name);
		n++;
	}
	closedir(d);
	assert_int_equal(n, ARRAY_SIZE(harnesses));
}

int main(void)
{
	struct CMUnitTest tests[ARRAY_SIZE(harnesses) + 2];

	for (size_t i = 0; i < ARRAY_SIZE(harnesses); i++) {
		tests[i] = (struct CMUnitTest)cmocka_unit_test_prestate(corpus, (void *)&harnesses[i]);
		tests[i].name = harnesses[i].name;
	}
	tests[ARRAY_SIZE(harnesses)] = (struct CMUnitTest)cmocka_unit_test(regress);
	tests[ARRAY_SIZE(harnesses) + 1] = (struct CMUnitTest)cmocka_unit_test(all_harnesses_listed);
	return _cmocka_run_group_tests("fuzz-regress", tests, ARRAY_SIZE(tests), NULL, NULL);
}
