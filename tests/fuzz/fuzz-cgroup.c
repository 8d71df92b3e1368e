// SPDX-License-Identifier: LGPL-2.1-or-later
/* /proc/PID/cgroup: "ID:CONTROLLERS:PATH" lines, v1 and v2 mixed. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_copy(data, size);
	char *v2, *memory;

	if (oom_parse_cgroup(text, size, &v2, &memory) == 0) {
		FUZZ_ASSERT(!v2 || v2[0] == '/');
		FUZZ_ASSERT(!memory || memory[0] == '/');
		oom_parse_cgroup_free(&v2, &memory);
	} else {
		FUZZ_ASSERT(!v2 && !memory);
	}
	free(text);
	return 0;
}
