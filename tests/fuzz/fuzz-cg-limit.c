// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * memory.max / memory.limit_in_bytes (and the swap limits) and the memcg
 * totalpages computed from them. Input: a flags byte, SwapTotal in kB and
 * a memory+swap limit (8 bytes each), then the limit file's text.
 */
#include "constraint.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t swap_kb, memsw;
	unsigned long long bytes;
	unsigned long pages;
	uint8_t flags;
	bool unl;
	char *text;

	if (size < 17)
		return 0;
	flags = data[0];
	memcpy(&swap_kb, data + 1, 8);
	memcpy(&memsw, data + 9, 8);
	text = fuzz_copy(data + 17, size - 17);
	if (cg_parse_limit(text, size - 17, 4096, &bytes, &unl) == 0)
		cg_totalpages(bytes, unl, memsw, flags & 1, flags & 2 ? 2 : 1, swap_kb, 4096, &pages);
	free(text);
	return 0;
}
