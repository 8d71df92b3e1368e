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
