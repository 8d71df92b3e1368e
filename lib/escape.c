// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Escaping untrusted process names for terminals, JSON and Prometheus.
 * Names are raw kernel bytes: any byte but NUL, not necessarily UTF-8, and
 * a process may choose one to forge output lines or drive a terminal.
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

/*
 * The one escaping loop: printable ASCII and valid UTF-8 pass, every other
 * byte (and the printable ones a format reserves) is spelled by @spell.
 * Output is cut before a character that does not fit whole, and always
 * NUL-terminated; the return value is the full escaped length.
 */
static size_t escape_with(char *buf, size_t size, const char *s, const char *reserved,
			  size_t (*spell)(unsigned char c, char *tmp))
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), out = 0, written = 0;

	for (size_t i = 0; i < n;) {
		char tmp[8];
		size_t tlen, seq = 0;

		if (p[i] >= 0x20 && p[i] < 0x7f && !strchr(reserved, p[i])) {
			tmp[0] = (char)p[i];
			tlen = 1;
		} else if (p[i] >= 0x80 && (seq = utf8_seq(p + i, n - i))) {
			memcpy(tmp, p + i, seq);
			tlen = seq;
		} else {
			tlen = spell(p[i], tmp);
		}
		i += seq ? seq : 1;
		if (written == out && size && out + tlen < size) {
			memcpy(buf + out, tmp, tlen);
			written += tlen;
		}
		out += tlen;
	}
	if (size)
		buf[written] = '\0';
	return out;
}

/* Terminals: \xNN, the spelling the kernel's own escaping uses. */
static size_t spell_hex(unsigned char c, char *tmp)
{
	return (size_t)snprintf(tmp, 8, "\\x%02x", c);
}

OOM_EXPORT size_t oom_escape_name(char *buf, size_t size, const char *s, enum oom_escape esc)
{
	if (esc == OOM_ESCAPE_NONE) {
		size_t n = strlen(s);

		if (size)
			snprintf(buf, size, "%s", s);
		return n;
	}
	return escape_with(buf, size, s, "\\", spell_hex);
}

/* JSON: \" \\ and the short control escapes, else \u00NN (controls, DEL, C1, stray bytes). */
static size_t spell_json(unsigned char c, char *tmp)
{
	static const char shorts[] = { ['\b'] = 'b', ['\f'] = 'f', ['\n'] = 'n', ['\r'] = 'r', ['\t'] = 't',
				       ['"'] = '"', ['\\'] = '\\' };

	if (c < sizeof(shorts) && shorts[c]) {
		tmp[0] = '\\';
		tmp[1] = shorts[c];
		return 2;
	}
	return (size_t)snprintf(tmp, 8, "\\u%04x", c);
}

OOM_EXPORT size_t oom_escape_json(char *buf, size_t size, const char *s)
{
	return escape_with(buf, size, s, "\"\\", spell_json);
}

/*
 * Prometheus label values know only \\, \" and \n; other bytes become the
 * text \xNN with its backslash escaped, as the kernel formats show them.
 */
static size_t spell_prometheus(unsigned char c, char *tmp)
{
	if (c == '"') {
		memcpy(tmp, "\\\"", 2);
		return 2;
	}
	return (size_t)snprintf(tmp, 8, "\\\\x%02x", c);
}

OOM_EXPORT size_t oom_escape_prometheus(char *buf, size_t size, const char *s)
{
	return escape_with(buf, size, s, "\"\\", spell_prometheus);
}
