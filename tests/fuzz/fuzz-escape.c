// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * oom_escape_json and oom_escape_prometheus: the output is one string
 * literal's content (no raw control byte, every quote escaped) whatever
 * the name, and a short buffer gets a NUL-terminated prefix. Input: two
 * bytes of buffer size, then the name (up to its first NUL).
 */
#include "fuzz.h"

static void check(size_t (*esc)(char *, size_t, const char *), const char *name, size_t small)
{
	size_t n = esc(NULL, 0, name), plen;
	char *full = malloc(n + 1), *part = malloc(small ? small : 1);

	if (!full || !part)
		abort();
	FUZZ_ASSERT(esc(full, n + 1, name) == n && strlen(full) == n);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)full[i];

		FUZZ_ASSERT(c >= 0x20 && c != 0x7f);
		if (c == '\\') {
			FUZZ_ASSERT(i + 1 < n); /* never a dangling backslash */
			i++;
		} else {
			FUZZ_ASSERT(c != '"');
		}
	}
	FUZZ_ASSERT(esc(part, small, name) == n);
	if (small) {
		plen = strnlen(part, small);
		FUZZ_ASSERT(plen < small && memcmp(part, full, plen) == 0);
	}
	free(part);
	free(full);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t small;
	char *name;

	if (size < 2)
		return 0;
	small = (size_t)(data[0] | data[1] << 8) % 1024;
	name = fuzz_cstr(data + 2, size - 2);
	check(oom_escape_json, name, small);
	check(oom_escape_prometheus, name, small);
	free(name);
	return 0;
}
