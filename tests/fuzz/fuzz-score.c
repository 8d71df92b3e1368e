// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The three heuristics over a snapshot built from the input: up to eight
 * tasks with the values the reader can produce from hostile /proc files
 * (any kB figure, converted as the reader does; oom_score_adj in range)
 * and a totalpages derived from any meminfo. UBSan reports any signed
 * overflow or bad shift.
 */
#include "fuzz.h"

/* What the reader stores for a "N kB" figure: the same wrapping conversion. */
static unsigned long score_kb_pages(uint64_t kb)
{
	return (unsigned long)(kb * 1024 / 4096);
}

struct __attribute__((packed)) score_task {
	int32_t tgid, ppid, oom_score_adj;
	int8_t nice;
	uint8_t have;
	uint32_t flags;
	uint64_t cap_eff, utime, stime, start, total_vm, rss_anon, rss_file, rss_shmem, swap, pgtables;
};

struct __attribute__((packed)) score_head {
	uint64_t totalpages, forkbomb_thres, uptime;
	uint8_t ntasks;
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct score_head h;
	struct oom_meminfo mi = { 0 };
	struct oom_snapshot *snap;
	struct oom_task *tasks;
	size_t n;

	if (size < sizeof(h))
		return 0;
	memcpy(&h, data, sizeof(h));
	data += sizeof(h);
	size -= sizeof(h);
	n = h.ntasks % 9;
	if (size < n * sizeof(struct score_task))
		return 0;
	/* No tasks is a NULL array, as the reader passes for an empty /proc. */
	tasks = n ? calloc(n, sizeof(*tasks)) : NULL;
	if (n && !tasks)
		abort();
	for (size_t i = 0; i < n; i++) {
		struct score_task r;
		struct oom_task *t = &tasks[i];

		memcpy(&r, data + i * sizeof(r), sizeof(r));
		t->pid = t->tgid = r.tgid;
		t->ppid = r.ppid;
		t->oom_score_adj = r.oom_score_adj % (OOM_SCORE_ADJ_MAX + 1);
		t->nice = r.nice;
		t->have = r.have & 0x7f;
		t->flags = r.flags;
		t->cap_eff = r.cap_eff;
		t->utime_ticks = r.utime;
		t->stime_ticks = r.stime;
		t->start_ticks = r.start;
		t->total_vm_pages = score_kb_pages(r.total_vm);
		t->rss_anon_pages = score_kb_pages(r.rss_anon);
		t->rss_file_pages = score_kb_pages(r.rss_file);
		t->rss_shmem_pages = score_kb_pages(r.rss_shmem);
		t->swap_pages = score_kb_pages(r.swap);
		t->pgtables_bytes = (unsigned long)(r.pgtables * 1024);
		t->oom_score = -1;
	}
	if (oom_snapshot_from_tasks(tasks, n, &mi, 4096, h.uptime, &snap) < 0) {
		free(tasks);
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		const struct oom_task *t = oom_snapshot_task(snap, i);

		for (int hh = OOM_HEURISTIC_REWRITE; hh <= OOM_HEURISTIC_LEGACY; hh++) {
			struct oom_score_params p = {
				.heuristic = (enum oom_heuristic)hh,
				.totalpages = score_kb_pages(h.totalpages),
				.forkbomb_thres = h.forkbomb_thres,
			};
			struct oom_score_terms terms;

			if (oom_score_task(snap, t, &p, &terms) == 0 && hh == OOM_HEURISTIC_REWRITE &&
			    terms.eligible)
				FUZZ_ASSERT(terms.score >= 0 && terms.score <= 1000);
		}
	}
	oom_snapshot_free(snap);
	return 0;
}
