// SPDX-License-Identifier: LGPL-2.1-or-later
/* /proc/meminfo, and the totalpages each heuristic derives from it (overflow is UB-checked). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_copy(data, size);
	struct oom_meminfo mi;

	if (oom_parse_meminfo(text, size, &mi) == 0) {
		enum oom_total_source src;

		oom_system_totalpages(&mi, 4096, OOM_HEURISTIC_REWRITE, &src);
		oom_system_totalpages(&mi, 4096, OOM_HEURISTIC_KERNEL, &src);
		oom_system_totalpages(&mi, 65536, OOM_HEURISTIC_LEGACY, &src);
	}
	free(text);
	return 0;
}
