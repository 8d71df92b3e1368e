// SPDX-License-Identifier: LGPL-2.1-or-later
/* The OOM sysctls: names, ranges, and get/set on a private copy of the basic fixture. */
#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fixture.h"

#define SHIM "var/lib/liboom/vm.oom_forkbomb_thres"

static void names(void **state)
{
	static const struct {
		const char *name;
		enum oom_sysctl s;
	} ok[] = {
		{ "vm.panic_on_oom", OOM_SYSCTL_PANIC_ON_OOM },
		{ "panic_on_oom", OOM_SYSCTL_PANIC_ON_OOM },
		{ "vm/panic_on_oom", OOM_SYSCTL_PANIC_ON_OOM },
		{ "vm.oom_dump_tasks", OOM_SYSCTL_OOM_DUMP_TASKS },
		{ "oom_kill_allocating_task", OOM_SYSCTL_OOM_KILL_ALLOCATING_TASK },
		{ "vm.oom_forkbomb_thres", OOM_SYSCTL_OOM_FORKBOMB_THRES },
		{ "oom_forkbomb_thres", OOM_SYSCTL_OOM_FORKBOMB_THRES },
	};
	static const char *const bad[] = {
		"", "vm.", "vm", "vm.swappiness", "kernel.panic_on_oom", "vm.vm.panic_on_oom", "vm.panic_on_oom ",
		"VM.panic_on_oom", "panic",
	};
	enum oom_sysctl s;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		s = OOM_SYSCTL_COUNT;
		assert_int_equal(oom_sysctl_from_name(ok[i].name, &s), 0);
		assert_int_equal(s, ok[i].s);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		if (oom_sysctl_from_name(bad[i], &s) == 0)
			fail_msg("\"%s\" is a sysctl", bad[i]);
	}
	assert_int_equal(oom_sysctl_from_name(NULL, &s), -EINVAL);
	assert_string_equal(oom_sysctl_name(OOM_SYSCTL_PANIC_ON_OOM), "vm.panic_on_oom");
	assert_string_equal(oom_sysctl_name(OOM_SYSCTL_OOM_DUMP_TASKS), "vm.oom_dump_tasks");
	assert_string_equal(oom_sysctl_name(OOM_SYSCTL_OOM_KILL_ALLOCATING_TASK), "vm.oom_kill_allocating_task");
	assert_string_equal(oom_sysctl_name(OOM_SYSCTL_OOM_FORKBOMB_THRES), "vm.oom_forkbomb_thres");
	assert_null(oom_sysctl_name(OOM_SYSCTL_COUNT));
}

static void validation(void **state)
{
	(void)state;
	/* panic_on_oom 0..2 */
	assert_int_equal(oom_sysctl_validate(OOM_SYSCTL_PANIC_ON_OOM, 0), 0);
	assert_int_equal(oom_sysctl_validate(OOM_SYSCTL_PANIC_ON_OOM, 2), 0);
	assert_int_not_equal(oom_sysctl_validate(OOM_SYSCTL_PANIC_ON_OOM, 3), 0);
	assert_int_not_equal(oom_sysctl_validate(OOM_SYSCTL_PANIC_ON_OOM, -1), 0);
	/* the two booleans */
	for (enum oom_sysctl s = OOM_SYSCTL_OOM_DUMP_TASKS; s <= OOM_SYSCTL_OOM_KILL_ALLOCATING_TASK; s++) {
		assert_int_equal(oom_sysctl_validate(s, 0), 0);
		assert_int_equal(oom_sysctl_validate(s, 1), 0);
		assert_int_not_equal(oom_sysctl_validate(s, 2), 0);
		assert_int_not_equal(oom_sysctl_validate(s, -1), 0);
	}
	/* oom_forkbomb_thres 0..INT_MAX */
	assert_int_equal(oom_sysctl_validate(OOM_SYSCTL_OOM_FORKBOMB_THRES, 0), 0);
	assert_int_equal(oom_sysctl_validate(OOM_SYSCTL_OOM_FORKBOMB_THRES, INT_MAX), 0);
	assert_int_not_equal(oom_sysctl_validate(OOM_SYSCTL_OOM_FORKBOMB_THRES, (long long)INT_MAX + 1), 0);
	assert_int_not_equal(oom_sysctl_validate(OOM_SYSCTL_OOM_FORKBOMB_THRES, -1), 0);
	assert_int_not_equal(oom_sysctl_validate(OOM_SYSCTL_COUNT, 0), 0);
}

/* struct tree, tree_setup and tree_teardown (a private copy of "basic"): fixture.h */

/* The entries of @root/@rel, sorted into one string "a b c". */
static void list_dir(const char *root, const char *rel, char *out, size_t size)
{
	char path[512];
	struct dirent **ents;
	int n;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	n = scandir(path, &ents, NULL, alphasort);
	assert_true(n >= 0);
	out[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (strcmp(ents[i]->d_name, ".") && strcmp(ents[i]->d_name, "..")) {
			if (out[0])
				strncat(out, " ", size - strlen(out) - 1);
			strncat(out, ents[i]->d_name, size - strlen(out) - 1);
		}
		free(ents[i]);
	}
	free(ents);
}

static void get_fixture(void **state)
{
	struct tree *t = *state;
	long long v = -5;

	/* The captured values: 0, 1, 0; no forkbomb file anywhere: 1000 */
	assert_int_equal(oom_sysctl_get(t->ctx, OOM_SYSCTL_PANIC_ON_OOM, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(oom_sysctl_get(t->ctx, OOM_SYSCTL_OOM_DUMP_TASKS, &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(oom_sysctl_get(t->ctx, OOM_SYSCTL_OOM_KILL_ALLOCATING_TASK, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(oom_sysctl_get(t->ctx, OOM_SYSCTL_OOM_FORKBOMB_THRES, &v), 0);
	assert_int_equal(v, 1000);
	assert_int_equal(oom_sysctl_get(t->ctx, OOM_SYSCTL_COUNT, &v), -EINVAL);
}

static void set_kernel_file(void **state)
{
	struct tree *t = *state;
	char buf[64];
	long long v;

	assert_int_equal(oom_sysctl_set(t->ctx, OOM_SYSCTL_PANIC_ON_OOM, 2), 0);
	assert_true(fixture_read(t->dir, "proc/sys/vm/panic_on_oom", buf, sizeof(buf)) >= 0);
	assert_string_equal(buf, "2\n");
	assert_int_equal(oom_sysctl_get(t->ctx, OOM_SYSCTL_PANIC_ON_OOM, &v), 0);
	assert_int_equal(v, 2);

	/* Bad values change nothing. */
	assert_int_not_equal(oom_sysctl_set(t->ctx, OOM_SYSCTL_PANIC_ON_OOM, 3), 0);
	assert_int_not_equal(oom_sysctl_set(t->ctx, OOM_SYSCTL_PANIC_ON_OOM, -1), 0);
	assert_int_not_equal(oom_sysctl_set(t->ctx, OOM_SYSCTL_OOM_DUMP_TASKS, 2), 0);
	fixture_read(t->dir, "proc/sys/vm/panic_on_oom", buf, sizeof(buf));
	assert_string_equal(buf, "2\n");
	fixture_read(t->dir, "proc/sys/vm/oom_dump_tasks", buf, sizeof(buf));
	assert_string_equal(buf, "1\n");

	/* A kernel with the forkbomb sysctl: its file is used, a longer old value fully replaced. */
	fixture_write(t->dir, "proc/sys/vm/oom_forkbomb_thres", "1000\n");
	assert_int_equal(oom_sysctl_set(t->ctx, OOM_SYSCTL_OOM_FORKBOMB_THRES, 5), 0);
	fixture_read(t->dir, "proc/sys/vm/oom_forkbomb_thres", buf, sizeof(buf));
	assert_string_equal(buf, "5\n");
	assert_int_equal(oom_sysctl_get(t->ctx, OOM_SYSCTL_OOM_FORKBOMB_THRES, &v), 0);
	assert_int_equal(v, 5);
	assert_int_equal(fixture_read(t->dir, SHIM, buf, sizeof(buf)), -1);
}

static void set_shim(void **state)
{
	struct tree *t = *state;
	char buf[256];
	long long v;

	/* No kernel file: the shim file is created under the root, and nothing else is left there. */
	assert_int_equal(oom_sysctl_set(t->ctx, OOM_SYSCTL_OOM_FORKBOMB_THRES, 2147483647), 0);
	assert_true(fixture_read(t->dir, SHIM, buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "2147483647\n");
	list_dir(t->dir, "var/lib/liboom", buf, sizeof(buf));
	assert_string_equal(buf, "vm.oom_forkbomb_thres");
	assert_int_equal(oom_sysctl_get(t->ctx, OOM_SYSCTL_OOM_FORKBOMB_THRES, &v), 0);
	assert_int_equal(v, 2147483647);

	/* Replaced, not appended to; 0 (disabled) is a value, not "unset". */
	assert_int_equal(oom_sysctl_set(t->ctx, OOM_SYSCTL_OOM_FORKBOMB_THRES, 0), 0);
	fixture_read(t->dir, SHIM, buf, sizeof(buf));
	assert_string_equal(buf, "0\n");
	assert_int_equal(oom_sysctl_get(t->ctx, OOM_SYSCTL_OOM_FORKBOMB_THRES, &v), 0);
	assert_int_equal(v, 0);
	list_dir(t->dir, "var/lib/liboom", buf, sizeof(buf));
	assert_string_equal(buf, "vm.oom_forkbomb_thres");

	/* A bad value changes nothing. */
	assert_int_not_equal(oom_sysctl_set(t->ctx, OOM_SYSCTL_OOM_FORKBOMB_THRES, -1), 0);
	assert_int_not_equal(oom_sysctl_set(t->ctx, OOM_SYSCTL_OOM_FORKBOMB_THRES, (long long)INT_MAX + 1), 0);
	fixture_read(t->dir, SHIM, buf, sizeof(buf));
	assert_string_equal(buf, "0\n");

	/* A garbled shim file is an error, not the default. */
	fixture_write(t->dir, SHIM, "12abc\n");
	assert_int_not_equal(oom_sysctl_get(t->ctx, OOM_SYSCTL_OOM_FORKBOMB_THRES, &v), 0);
}

static void shim_stays_under_root(void **state)
{
	struct tree *t = *state;
	char outside[] = "/tmp/liboom-outside-XXXXXX", link[512], buf[256];

	/* ROOT/var is a symlink to a directory outside the root: nothing may be written there. */
	assert_non_null(mkdtemp(outside));
	snprintf(link, sizeof(link), "%s/var", t->dir);
	assert_int_equal(symlink(outside, link), 0);
	assert_int_not_equal(oom_sysctl_set(t->ctx, OOM_SYSCTL_OOM_FORKBOMB_THRES, 7), 0);
	list_dir(outside, ".", buf, sizeof(buf));
	assert_string_equal(buf, "");
	fixture_remove(outside);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names),
		cmocka_unit_test(validation),
		cmocka_unit_test_setup_teardown(get_fixture, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(set_kernel_file, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(set_shim, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(shim_stays_under_root, tree_setup, tree_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
