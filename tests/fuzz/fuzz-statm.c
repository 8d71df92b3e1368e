// SPDX-License-Identifier: LGPL-2.1-or-later
/* /proc/PID/statm: seven numbers and a newline. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_copy(data, size);
	struct oom_statm_fields st;

	oom_parse_statm(text, size, &st);
	free(text);
	return 0;
}
