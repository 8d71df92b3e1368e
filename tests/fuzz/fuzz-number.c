// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * oom_parse_ll/ull: the first byte picks the base (0, 10 or 16), the rest is
 * the string. Success must agree with a plain reading of the digits.
 */
#include <ctype.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int bases[] = { 0, 10, 16 };
	long long ll;
	unsigned long long ull;
	char *s;
	int base;

	if (size < 1)
		return 0;
	base = bases[data[0] % 3];
	s = fuzz_cstr(data + 1, size - 1);
	if (oom_parse_ll(s, base, &ll) == 0) {
		FUZZ_ASSERT(s[0] != '\0' && !isspace((unsigned char)s[0]));
		/* No white space or junk anywhere after the sign. */
		for (const char *p = s + (s[0] == '-' || s[0] == '+'); *p; p++)
			FUZZ_ASSERT(isxdigit((unsigned char)*p) || *p == 'x' || *p == 'X');
	}
	if (oom_parse_ull(s, base, &ull) == 0) {
		FUZZ_ASSERT(s[0] != '-' && s[0] != '\0' && !isspace((unsigned char)s[0]));
		for (const char *p = s + (s[0] == '+'); *p; p++)
			FUZZ_ASSERT(isxdigit((unsigned char)*p) || *p == 'x' || *p == 'X');
	}
	free(s);
	return 0;
}
