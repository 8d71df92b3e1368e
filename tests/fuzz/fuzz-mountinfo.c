// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * /proc/self/mountinfo (cgroup mounts, octal-escaped paths) and the
 * directory of a cgroup inside a mount. The first input line is the
 * cgroup path, the rest is the mountinfo text.
 */
#include "constraint.h"
#include "fuzz.h"

static void check_dir(const struct cg_mount *m, const char *cgpath)
{
	char dir[256];

	if (!m->point)
		return;
	if (cg_dir_path(m, cgpath, dir, sizeof(dir)) == 0) {
		FUZZ_ASSERT(memchr(dir, '\0', sizeof(dir)) != NULL);
		FUZZ_ASSERT(dir[0] != '/'); /* relative to the root fd */
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const paths[] = { "/", "/user.slice", "/system.slice/a.service", "/a/b/c" };
	const uint8_t *nl = memchr(data, '\n', size);
	size_t first = nl ? (size_t)(nl - data) : 0, rest = nl ? size - first - 1 : size;
	char *cgpath = fuzz_cstr(data, first);
	char *text = fuzz_copy(nl ? nl + 1 : data, rest);
	struct cg_mounts m;

	if (cg_parse_mountinfo(text, rest, &m) == 0) {
		FUZZ_ASSERT(!m.v2.point || m.v2.root);
		FUZZ_ASSERT(!m.v1_memory.point || m.v1_memory.root);
		for (size_t i = 0; i < ARRAY_SIZE(paths); i++) {
			check_dir(&m.v1_memory, paths[i]);
			check_dir(&m.v2, paths[i]);
		}
		check_dir(&m.v1_memory, cgpath);
		check_dir(&m.v2, cgpath);
		cg_mounts_free(&m);
	}
	free(text);
	free(cgpath);
	return 0;
}
