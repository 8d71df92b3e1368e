// SPDX-License-Identifier: LGPL-2.1-or-later
/* /sys/devices/system/node/nodeN/meminfo: the first byte is N (0..254, 255 is -1). */
#include "constraint.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned long long lru;
	char *text;

	if (size < 1)
		return 0;
	text = fuzz_copy(data + 1, size - 1);
	node_parse_meminfo(text, size - 1, data[0] == 255 ? -1 : data[0], &lru);
	free(text);
	return 0;
}
