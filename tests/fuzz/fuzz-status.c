// SPDX-License-Identifier: LGPL-2.1-or-later
/* /proc/PID/status, its escaped Name: line and its Mems_allowed_list. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_copy(data, size);
	struct oom_status_fields st;
	char comm[OOM_COMM_MAX], tiny[2];

	if (oom_parse_status_name(text, size, comm, sizeof(comm)) == 0)
		FUZZ_ASSERT(memchr(comm, '\0', sizeof(comm)) != NULL);
	oom_parse_status_name(text, size, tiny, sizeof(tiny));
	if (oom_parse_status(text, size, &st) == 0) {
		struct oom_status_fields upto;
		struct oom_task t = { 0 };

		/* Stopping early reads a prefix of what the full parse accepted. */
		FUZZ_ASSERT(oom_parse_status_upto(text, size, false, &upto) == 0 && upto.tgid > 0);
		FUZZ_ASSERT(oom_parse_status_upto(text, size, true, &upto) == 0);

		FUZZ_ASSERT(st.tgid > 0);
		if (st.mems_list) {
			uint64_t bits[OOM_MAX_NODES / 64];

			/* The list must point inside the text it was parsed from. */
			FUZZ_ASSERT(st.mems_list >= text && st.mems_list + st.mems_list_len <= text + size);
			oom_parse_node_list(st.mems_list, st.mems_list_len, bits);
		}
		oom_task_apply_status(&t, &st, 4096);
	}
	free(text);
	return 0;
}
