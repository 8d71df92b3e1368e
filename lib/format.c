// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * dump_tasks rows, in the kernel's own format strings: 2.6.36's, and the
 * one Linux 6.8+ prints. Names are untrusted: escaped unless the caller
 * writes to a log-like sink where the kernel's raw bytes are wanted.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* Length of a valid UTF-8 sequence at @s that is not a C1 control, else 0. */
static size_t utf8_printable(const unsigned char *s, size_t n)
{
	unsigned int cp, len, i;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	len = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;
	if (n < len)
		return 0;
	cp = s[0] & (0x7f >> len);
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates, beyond U+10FFFF, and C1 controls (U+0080..U+009F). */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp < 0xa0)
		return 0;
	return len;
}

OOM_EXPORT size_t oom_escape_name(char *buf, size_t size, const char *s, enum oom_escape esc)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), out = 0;

	for (size_t i = 0; i < n;) {
		char tmp[5];
		size_t tlen, seq = 0;

		if (esc == OOM_ESCAPE_NONE || (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\')) {
			tmp[0] = (char)p[i];
			tlen = 1;
		} else if (p[i] >= 0x80 && (seq = utf8_printable(p + i, n - i))) {
			memcpy(tmp, p + i, seq);
			tlen = seq;
		} else {
			snprintf(tmp, sizeof(tmp), "\\x%02x", p[i]);
			tlen = 4;
		}
		i += seq ? seq : 1;
		if (size && out + tlen < size)
			memcpy(buf + out, tmp, tlen);
		else if (size && out < size)
			size = out + 1; /* stop writing: keep a prefix of whole characters */
		out += tlen;
	}
	if (size)
		buf[out < size ? out : size - 1] = '\0';
	return out;
}

OOM_EXPORT bool oom_task_dumpable(const struct oom_task *t)
{
	return t->tgid != 1 && !oom_task_is_kthread(t) && (t->have & OOM_HAVE_MM);
}

OOM_EXPORT int oom_format_2636_header(char *buf, size_t size)
{
	return snprintf(buf, size, "[ pid ]   uid  tgid total_vm      rss cpu oom_adj oom_score_adj name\n");
}

OOM_EXPORT int oom_format_2636_row(char *buf, size_t size, const struct oom_task *t, enum oom_escape esc)
{
	char name[OOM_COMM_MAX * 4];
	int adj = 0;

	oom_escape_name(name, sizeof(name), t->comm, esc);
	oom_score_adj_to_adj_kernel(t->oom_score_adj, &adj);
	return snprintf(buf, size, "[%5d] %5d %5d %8lu %8lu %3u     %3d         %5d %s\n", (int)t->pid,
			(int)t->uid, (int)t->tgid, t->total_vm_pages, oom_task_rss_pages(t), (unsigned int)t->cpu,
			adj, t->oom_score_adj, name);
}

OOM_EXPORT int oom_format_modern_header(char *buf, size_t size)
{
	return snprintf(buf, size,
			"[  pid  ]   uid  tgid total_vm      rss rss_anon rss_file rss_shmem pgtables_bytes swapents oom_score_adj name\n");
}

OOM_EXPORT int oom_format_modern_row(char *buf, size_t size, const struct oom_task *t, enum oom_escape esc)
{
	char name[OOM_COMM_MAX * 4];

	oom_escape_name(name, sizeof(name), oom_task_mm_comm(t), esc);
	return snprintf(buf, size, "[%7d] %5d %5d %8lu %8lu %8lu %8lu %9lu %8ld %8lu         %5hd %s\n", (int)t->pid,
			(int)t->uid, (int)t->tgid, t->total_vm_pages, oom_task_rss_pages(t), t->rss_anon_pages,
			t->rss_file_pages, t->rss_shmem_pages, (long)t->pgtables_bytes, t->swap_pages,
			(short)t->oom_score_adj, name);
}
