// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * dump_tasks rows, in the kernel's own format strings: 2.6.36's, and the
 * one Linux 6.8+ prints. Names are untrusted: escaped unless the caller
 * writes to a log-like sink where the kernel's raw bytes are wanted.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

OOM_EXPORT bool oom_task_dumpable(const struct oom_task *t)
{
	return t->tgid != 1 && !oom_task_is_kthread(t) && (t->have & OOM_HAVE_MM);
}

OOM_EXPORT int oom_format_2636_header(char *buf, size_t size)
{
	return snprintf(buf, size, "[ pid ]   uid  tgid total_vm      rss cpu oom_adj oom_score_adj name\n");
}

union row_arg {
	long long i;
	unsigned long long u;
	const char *s;
};

/*
 * printf() for the kernel's own row formats, which use only
 * %[width][h|l](d|u) and %s: a printf call per row was a third of a dump's
 * user time. Returns the full length, truncating like snprintf().
 */
static int format_row(char *buf, size_t size, const char *fmt, const union row_arg *arg)
{
	char out[512];
	size_t o = 0;

	for (const char *f = fmt; *f; f++) {
		char num[24];
		const char *src = num;
		size_t len = 0, width = 0;
		bool is_short = false;

		if (*f != '%') {
			if (o + 1 < sizeof(out))
				out[o++] = *f;
			continue;
		}
		for (f++; *f >= '0' && *f <= '9'; f++)
			width = width * 10 + (size_t)(*f - '0');
		if (*f == 'h' || *f == 'l')
			is_short = *f++ == 'h';
		if (*f == 's') {
			src = arg->s;
			len = strlen(src);
		} else {
			unsigned long long v = arg->u;
			bool neg = false;
			char rev[24];
			size_t n = 0;

			if (*f == 'd') {
				long long x = is_short ? (short)arg->i : arg->i;

				neg = x < 0;
				v = neg ? 0 - (unsigned long long)x : (unsigned long long)x;
			}
			do
				rev[n++] = (char)('0' + v % 10);
			while (v /= 10);
			if (neg)
				num[len++] = '-';
			while (n)
				num[len++] = rev[--n];
		}
		arg++;
		for (; width > len && o + 1 < sizeof(out); width--)
			out[o++] = ' ';
		if (len > sizeof(out) - 1 - o)
			len = sizeof(out) - 1 - o;
		memcpy(out + o, src, len);
		o += len;
	}
	if (size) {
		size_t n = o < size - 1 ? o : size - 1;

		memcpy(buf, out, n);
		buf[n] = '\0';
	}
	return (int)o;
}

OOM_EXPORT int oom_format_2636_row(char *buf, size_t size, const struct oom_task *t, enum oom_escape esc)
{
	char name[OOM_COMM_MAX * 4];
	int adj = 0;

	oom_escape_name(name, sizeof(name), t->comm, esc);
	oom_score_adj_to_adj_kernel(t->oom_score_adj, &adj);
	const union row_arg args[] = {
		{ .i = t->pid }, { .i = (int)t->uid }, { .i = t->tgid }, { .u = t->total_vm_pages },
		{ .u = oom_task_rss_pages(t) }, { .u = (unsigned int)t->cpu }, { .i = adj },
		{ .i = t->oom_score_adj }, { .s = name },
	};
	return format_row(buf, size, "[%5d] %5d %5d %8lu %8lu %3u     %3d         %5d %s\n", args);
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
	const union row_arg args[] = {
		{ .i = t->pid }, { .i = (int)t->uid }, { .i = t->tgid }, { .u = t->total_vm_pages },
		{ .u = oom_task_rss_pages(t) }, { .u = t->rss_anon_pages }, { .u = t->rss_file_pages },
		{ .u = t->rss_shmem_pages }, { .i = (long)t->pgtables_bytes }, { .u = t->swap_pages },
		{ .i = t->oom_score_adj }, { .s = name },
	};
	return format_row(buf, size, "[%7d] %5d %5d %8lu %8lu %8lu %8lu %9lu %8ld %8lu         %5hd %s\n", args);
}
