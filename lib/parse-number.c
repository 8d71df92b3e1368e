// SPDX-License-Identifier: LGPL-2.1-or-later
/* Strict number parsing: what strtol accepts silently (blanks, junk, overflow) is an error here. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static int check_start(const char *s)
{
	if (!s || !*s)
		return -EINVAL;
	/* strto*() skip leading blanks; we do not. */
	if (s[0] == ' ' || (s[0] >= '\t' && s[0] <= '\r'))
		return -EINVAL;
	return 0;
}

OOM_EXPORT int oom_parse_ll(const char *s, int base, long long *out)
{
	char *end;
	long long v;
	int err = check_start(s);

	if (err < 0)
		return err;
	errno = 0;
	v = strtoll(s, &end, base);
	if (end == s || *end != '\0')
		return -EINVAL;
	if (errno == ERANGE)
		return -ERANGE;
	*out = v;
	return 0;
}

OOM_EXPORT int oom_parse_ull(const char *s, int base, unsigned long long *out)
{
	char *end;
	unsigned long long v;
	int err = check_start(s);

	if (err < 0)
		return err;
	/* strtoull() negates "-1" into a huge value. */
	if (s[0] == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, base);
	if (end == s || *end != '\0')
		return -EINVAL;
	if (errno == ERANGE)
		return -ERANGE;
	*out = v;
	return 0;
}

int oom_parse_value_line(const char *text, size_t len, long long *out)
{
	char tmp[32];

	if (len > 0 && text[len - 1] == '\n')
		len--;
	if (len == 0 || len >= sizeof(tmp) || memchr(text, '\0', len))
		return -EINVAL;
	memcpy(tmp, text, len);
	tmp[len] = '\0';
	/* A value no kernel prints is a garbled file, not a range the caller asked for. */
	return oom_parse_ll(tmp, 10, out) < 0 ? -EINVAL : 0;
}
