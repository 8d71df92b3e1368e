// SPDX-License-Identifier: LGPL-2.1-or-later
/* /proc/PID/numa_maps: a policy per range, some with node lists. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_copy(data, size);
	uint64_t *nodes = malloc(OOM_MAX_NODES / 8);
	bool has_default;

	if (!nodes)
		abort();
	oom_parse_numa_maps(text, size, nodes, &has_default);
	free(nodes);
	free(text);
	return 0;
}
