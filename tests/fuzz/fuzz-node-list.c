// SPDX-License-Identifier: LGPL-2.1-or-later
/* Node lists ("0-1,3"): Mems_allowed_list and numa_maps policies. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_copy(data, size);
	uint64_t *bits = malloc(OOM_MAX_NODES / 8);

	if (!bits)
		abort();
	/* Errors are expected; memory safety and this are what is checked. */
	if (oom_parse_node_list(text, size, bits) == 0 && (size == 0 || (size == 1 && text[0] == '\n')))
		FUZZ_ASSERT(fuzz_popcount_nodes(bits) == 0);
	free(bits);
	free(text);
	return 0;
}
