// SPDX-License-Identifier: LGPL-2.1-or-later
/* /proc/PID/stat: comm may hold ')', spaces, newlines; fields may be cut short. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_copy(data, size);
	struct oom_stat_fields st;

	if (oom_parse_stat(text, size, &st) == 0) {
		struct oom_task t = { 0 };
		char row[512];

		FUZZ_ASSERT(st.pid > 0);
		FUZZ_ASSERT(memchr(st.comm, '\0', sizeof(st.comm)) != NULL);
		oom_task_apply_stat(&t, &st, 4096);
		FUZZ_ASSERT(memchr(t.comm, '\0', sizeof(t.comm)) != NULL);
		oom_format_2636_row(row, sizeof(row), &t, OOM_ESCAPE_CONTROL);
		oom_format_modern_row(row, sizeof(row), &t, OOM_ESCAPE_NONE);
	}
	free(text);
	return 0;
}
