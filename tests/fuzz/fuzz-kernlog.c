// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Kernel log OOM reports (dmesg, dmesg -T, journalctl -k, syslog), and
 * re-printing their dump_tasks rows: oom-dump --from-log reads logs that
 * anyone could have written into.
 */
#include "fuzz.h"

static void check_strings(const struct oom_log_report *r)
{
	FUZZ_ASSERT(memchr(r->trigger, '\0', sizeof(r->trigger)));
	FUZZ_ASSERT(memchr(r->constraint, '\0', sizeof(r->constraint)));
	FUZZ_ASSERT(memchr(r->table_format, '\0', sizeof(r->table_format)));
	FUZZ_ASSERT(memchr(r->chosen, '\0', sizeof(r->chosen)));
	FUZZ_ASSERT(memchr(r->victim, '\0', sizeof(r->victim)));
	FUZZ_ASSERT(memchr(r->message, '\0', sizeof(r->message)));
	FUZZ_ASSERT(memchr(r->damage, '\0', sizeof(r->damage)));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_copy(data, size);
	struct oom_log *log;
	const char *p = text, *end = text + size;

	/* Prefix stripping, line by line, stays inside the line. */
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p), m = n;
		const char *s = oom_log_strip_prefix(p, &m);

		FUZZ_ASSERT(s >= p && m <= n && s + m <= p + n);
		p += n + 1;
	}
	if (oom_log_parse(text, size, &log) == 0) {
		for (size_t i = 0; i < oom_log_count(log); i++) {
			const struct oom_log_report *r = oom_log_report(log, i);

			FUZZ_ASSERT(r && r->first_line >= 1 && r->first_line <= r->last_line);
			check_strings(r);
			for (size_t j = 0; j < r->ntasks; j++) {
				const struct oom_log_task *lt = &r->tasks[j];
				struct oom_task t = { 0 };
				char row[512];

				FUZZ_ASSERT(memchr(lt->name, '\0', sizeof(lt->name)));
				oom_log_task_to_task(lt, 4096, &t);
				oom_format_2636_row(row, sizeof(row), &t, OOM_ESCAPE_CONTROL);
				oom_format_modern_row(row, sizeof(row), &t, OOM_ESCAPE_NONE);
				FUZZ_ASSERT(oom_log_format_2636_row(row, sizeof(row), lt, 4096, OOM_ESCAPE_CONTROL) > 0);
				oom_log_format_2636_row(row, 7, lt, 65536, OOM_ESCAPE_NONE);
			}
		}
		FUZZ_ASSERT(oom_log_report(log, oom_log_count(log)) == NULL);
		oom_log_free(log);
	}
	free(text);
	return 0;
}
