// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Escaping untrusted process names for machine formats. Names are raw
 * kernel bytes: any byte but NUL, not necessarily UTF-8, and a process
 * may choose one to forge output lines, so JSON and Prometheus output
 * always escapes them.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* Length of a valid UTF-8 sequence (U+00A0 and up) at @s, else 0. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	unsigned int cp, len;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	len = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;
	if (n < len)
		return 0;
	cp = s[0] & (0x7f >> len);
	for (unsigned int i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp < 0xa0)
		return 0;
	return len;
}

/* Appends @len bytes to @buf while they fit whole; counts them regardless. */
static void put(char *buf, size_t size, size_t *out, bool *full, const char *s, size_t len)
{
	if (!*full && size && *out + len < size)
		memcpy(buf + *out, s, len);
	else
		*full = true;
	*out += len;
}

static size_t finish(char *buf, size_t size, size_t out, size_t written)
{
	if (size)
		buf[written < size ? written : size - 1] = '\0';
	return out;
}

/* JSON's two-character escapes for the common controls, else 0. */
static char json_short(unsigned char c)
{
	switch (c) {
	case '\b': return 'b';
	case '\f': return 'f';
	case '\n': return 'n';
	case '\r': return 'r';
	case '\t': return 't';
	default: return 0;
	}
}

OOM_EXPORT size_t oom_escape_json(char *buf, size_t size, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), out = 0, written = 0;
	bool full = false;

	for (size_t i = 0; i < n;) {
		char tmp[8];
		size_t tlen, seq = 0;

		if (p[i] == '"' || p[i] == '\\') {
			tmp[0] = '\\';
			tmp[1] = (char)p[i];
			tlen = 2;
		} else if (p[i] >= 0x20 && p[i] < 0x7f) {
			tmp[0] = (char)p[i];
			tlen = 1;
		} else if (p[i] >= 0x80 && (seq = utf8_seq(p + i, n - i))) {
			memcpy(tmp, p + i, seq);
			tlen = seq;
		} else if (json_short(p[i])) {
			tmp[0] = '\\';
			tmp[1] = json_short(p[i]);
			tlen = 2;
		} else {
			/* Controls, DEL, C1 and stray bytes: \u00NN keeps the byte value visible. */
			snprintf(tmp, sizeof(tmp), "\\u%04x", p[i]);
			tlen = 6;
		}
		i += seq ? seq : 1;
		put(buf, size, &out, &full, tmp, tlen);
		if (!full)
			written = out;
	}
	return finish(buf, size, out, written);
}

OOM_EXPORT size_t oom_escape_prometheus(char *buf, size_t size, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), out = 0, written = 0;
	bool full = false;

	for (size_t i = 0; i < n;) {
		char tmp[8];
		size_t tlen, seq = 0;

		if (p[i] == '"') {
			memcpy(tmp, "\\\"", 2);
			tlen = 2;
		} else if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\') {
			tmp[0] = (char)p[i];
			tlen = 1;
		} else if (p[i] >= 0x80 && (seq = utf8_seq(p + i, n - i))) {
			memcpy(tmp, p + i, seq);
			tlen = seq;
		} else {
			/*
			 * The exposition format knows only \\, \" and \n; other bytes
			 * become the text \xNN (its backslash escaped), the same
			 * spelling the kernel formats use on a terminal.
			 */
			snprintf(tmp, sizeof(tmp), "\\\\x%02x", p[i]);
			tlen = 5;
		}
		i += seq ? seq : 1;
		put(buf, size, &out, &full, tmp, tlen);
		if (!full)
			written = out;
	}
	return finish(buf, size, out, written);
}
