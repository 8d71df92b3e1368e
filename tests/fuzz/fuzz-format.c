// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * oom_escape_name and the dump_tasks row formatters, on a task whose
 * numbers and name come from the input. Checked: snprintf semantics at
 * every buffer size, escaped output free of control bytes, and an escaped
 * row that is exactly one line.
 */
#include "fuzz.h"

/* The numbers a row prints, taken raw from the input. */
struct __attribute__((packed)) format_task {
	int32_t pid, tgid, uid, cpu, oom_score_adj;
	uint64_t total_vm, rss_anon, rss_file, rss_shmem, swap, pgtables;
	uint16_t bufsize;
	uint8_t esc;
};

static void format_check_escape(const char *name, enum oom_escape esc, size_t small)
{
	char full[OOM_COMM_MAX * 4 + 1], *part;
	size_t n = oom_escape_name(full, sizeof(full), name, esc);

	FUZZ_ASSERT(n < sizeof(full));
	FUZZ_ASSERT(strlen(full) == n);
	if (esc == OOM_ESCAPE_NONE) {
		FUZZ_ASSERT(strcmp(full, name) == 0);
	} else {
		for (const unsigned char *p = (const unsigned char *)full; *p; p++)
			FUZZ_ASSERT(*p >= 0x20 && *p != 0x7f);
	}
	/* A short buffer: same return, a NUL-terminated prefix of the full text. */
	part = malloc(small ? small : 1);
	if (!part)
		abort();
	FUZZ_ASSERT(oom_escape_name(part, small, name, esc) == n);
	if (small) {
		size_t plen = strnlen(part, small);

		FUZZ_ASSERT(plen < small);
		FUZZ_ASSERT(memcmp(part, full, plen) == 0);
	}
	free(part);
}

static void format_check_row(int (*fmt)(char *, size_t, const struct oom_task *, enum oom_escape),
		      const struct oom_task *t, enum oom_escape esc, size_t small)
{
	char *full, *part;
	int n = fmt(NULL, 0, t, esc);

	FUZZ_ASSERT(n > 0);
	full = malloc((size_t)n + 1);
	part = malloc(small ? small : 1);
	if (!full || !part)
		abort();
	FUZZ_ASSERT(fmt(full, (size_t)n + 1, t, esc) == n);
	FUZZ_ASSERT(strlen(full) == (size_t)n && full[n - 1] == '\n');
	if (esc == OOM_ESCAPE_CONTROL)
		FUZZ_ASSERT(memchr(full, '\n', (size_t)n - 1) == NULL);
	FUZZ_ASSERT(fmt(part, small, t, esc) == n);
	if (small) {
		size_t plen = strnlen(part, small);

		FUZZ_ASSERT(plen < small);
		FUZZ_ASSERT(memcmp(part, full, plen) == 0);
	}
	free(part);
	free(full);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct format_task r;
	struct oom_task t = { 0 };
	size_t namelen, small;
	enum oom_escape esc;

	if (size < sizeof(r))
		return 0;
	memcpy(&r, data, sizeof(r));
	data += sizeof(r);
	size -= sizeof(r);
	namelen = size < OOM_COMM_MAX - 1 ? size : OOM_COMM_MAX - 1;
	memcpy(t.comm, data, namelen);
	t.comm[namelen] = '\0';
	t.pid = r.pid;
	t.tgid = r.tgid;
	t.uid = (uid_t)r.uid;
	t.cpu = r.cpu;
	t.oom_score_adj = r.oom_score_adj;
	t.total_vm_pages = r.total_vm;
	t.rss_anon_pages = r.rss_anon;
	t.rss_file_pages = r.rss_file;
	t.rss_shmem_pages = r.rss_shmem;
	t.swap_pages = r.swap;
	t.pgtables_bytes = r.pgtables;
	esc = r.esc & 1 ? OOM_ESCAPE_CONTROL : OOM_ESCAPE_NONE;
	small = r.bufsize % 512;

	format_check_escape(t.comm, esc, small % (OOM_COMM_MAX * 4));
	format_check_row(oom_format_2636_row, &t, esc, small);
	format_check_row(oom_format_modern_row, &t, esc, small);
	oom_task_dumpable(&t);
	return 0;
}
