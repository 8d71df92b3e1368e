// SPDX-License-Identifier: LGPL-2.1-or-later
/* The kernel log parser and the name escapers, on strings and on the log fixtures. */
#include <stdio.h>
#include <stdlib.h>

#include "unit.h"

static struct oom_log *parse(const char *text)
{
	struct oom_log *log = NULL;

	assert_int_equal(oom_log_parse(text, strlen(text), &log), 0);
	assert_non_null(log);
	return log;
}

static char *slurp(const char *name, size_t *len)
{
	char path[512];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "%s/logs/%s", FIXTURES, name);
	f = fopen(path, "re");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void strip(const char *line, const char *want)
{
	size_t len = strlen(line);
	const char *s = oom_log_strip_prefix(line, &len);

	assert_int_equal(len, strlen(want));
	assert_memory_equal(s, want, len);
}

static void prefixes(void **state)
{
	(void)state;
	strip("[12345.678901] Out of memory", "Out of memory");
	strip("[    0.000000] x", "x");
	strip("Mar  1 12:00:00 host kernel: [  5.5] abc", "abc");
	strip("Mar 01 12:00:00 host kernel: abc", "abc");
	strip("2024-03-01T12:00:00.123456+00:00 host kernel: abc", "abc");
	strip("kernel: abc", "abc");
	strip("[Thu Mar  1 12:00:00 2024] abc", "abc");
	strip("[  100.000001][  T2345] abc", "abc");
	strip("[  100.000001] [ C1] abc", "abc");
	strip("kern  :info  : [  1.000000] abc", "abc");
	strip("<4>[  1.000000] abc", "abc");
	strip("6,1234,5678901,-;abc", "abc");
	strip("6,1234,5678901,-,caller=T1;abc", "abc");
	strip("[ 1234.567890] host kernel: abc", "abc");
	strip("2024-03-01T12:00:00+0000 host kernel: [ 5.000001] abc", "abc");
	strip("<4>abc", "abc");
	/* not prefixes */
	strip("<a>abc", "<a>abc");
	strip("1,2;abc", "1,2;abc");
	/* Task rows and the table header are not timestamps. */
	strip("[ 1234]     0  1234 x", "[ 1234]     0  1234 x");
	strip("[ pid ]   uid", "[ pid ]   uid");
	/* "kernel: " after a '[' belongs to the message. */
	strip("[ 12]  0 12 1 1 0 0 0 my kernel: x", "[ 12]  0 12 1 1 0 0 0 my kernel: x");
}

static void report_2636(void **state)
{
	struct oom_log *log = parse("noise\n"
				    "bash invoked oom-killer: gfp_mask=0x280da, order=1, oom_adj=-3, oom_score_adj=-176\n"
				    "[ pid ]   uid  tgid total_vm      rss cpu oom_adj oom_score_adj name  \r\n"
				    "[  700]  1000   700     5000      300   1      -3          -176 a) b c\n"
				    "[  701]     0   701       80       10   0     -17         -1000  lead space\n"
				    "Out of memory: Kill process 700 (a) b c) score 12 or sacrifice child\n"
				    "Killed process 700 (a) b c) total-vm:20000kB, anon-rss:1000kB, file-rss:200kB\n");
	const struct oom_log_report *r;

	(void)state;
	assert_int_equal(oom_log_count(log), 1);
	r = oom_log_report(log, 0);
	assert_string_equal(r->damage, "");
	assert_true(r->have_trigger);
	assert_string_equal(r->trigger, "bash");
	assert_int_equal(r->gfp_mask, 0x280da);
	assert_int_equal(r->order, 1);
	assert_true(r->have_oom_adj);
	assert_int_equal(r->oom_adj, -3);
	assert_int_equal(r->oom_score_adj, -176);
	assert_string_equal(r->table_format, "2.6.36");
	assert_int_equal(r->ntasks, 2);
	assert_int_equal(r->tasks[0].pid, 700);
	assert_int_equal(r->tasks[0].uid, 1000);
	assert_int_equal(r->tasks[0].total_vm_pages, 5000);
	assert_int_equal(r->tasks[0].rss_pages, 300);
	assert_int_equal(r->tasks[0].cpu, 1);
	assert_int_equal(r->tasks[0].oom_adj, -3);
	assert_int_equal(r->tasks[0].oom_score_adj, -176);
	assert_string_equal(r->tasks[0].name, "a) b c");
	assert_string_equal(r->tasks[1].name, " lead space");
	assert_true(r->have_chosen);
	assert_int_equal(r->chosen_pid, 700);
	assert_string_equal(r->chosen, "a) b c");
	assert_int_equal(r->chosen_score, 12);
	assert_true(r->have_victim);
	assert_string_equal(r->victim, "a) b c");
	assert_int_equal(r->victim_total_vm_kb, 20000);
	assert_int_equal(r->victim_anon_rss_kb, 1000);
	assert_int_equal(r->victim_file_rss_kb, 200);
	assert_false(r->have_victim_shmem);
	assert_string_equal(r->message, "Out of memory");
	assert_int_equal(r->first_line, 2);
	assert_int_equal(r->last_line, 7);
	oom_log_free(log);
}

static void report_modern(void **state)
{
	struct oom_log *log = parse(
		"x invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=-1, oom_score_adj=0\n"
		"Tasks state (memory values in pages):\n"
		"[  pid  ]   uid  tgid total_vm      rss rss_anon rss_file rss_shmem pgtables_bytes swapents oom_score_adj name\n"
		"[   3001]  1000  3001  2099340  2011042  2010000     1042         0 16207872        7           300 x\n"
		"oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0\n"
		"Memory cgroup out of memory: Killed process 3001 (x) total-vm:8397360kB, anon-rss:8040000kB, "
		"file-rss:4168kB, shmem-rss:5kB, UID:1000 pgtables:15828kB oom_score_adj:300\n");
	const struct oom_log_report *r = oom_log_report(log, 0);
	struct oom_task t;

	(void)state;
	assert_int_equal(oom_log_count(log), 1);
	assert_string_equal(r->damage, "");
	assert_int_equal(r->order, -1);
	assert_false(r->have_oom_adj);
	assert_string_equal(r->table_format, "6.8");
	assert_string_equal(r->constraint, "CONSTRAINT_MEMCG");
	assert_int_equal(r->tasks[0].rss_anon_pages, 2010000);
	assert_int_equal(r->tasks[0].rss_file_pages, 1042);
	assert_int_equal(r->tasks[0].pgtables_bytes, 16207872);
	assert_int_equal(r->tasks[0].swapents, 7);
	assert_false(r->have_chosen);
	assert_string_equal(r->message, "Memory cgroup out of memory");
	assert_true(r->have_victim_shmem);
	assert_int_equal(r->victim_shmem_rss_kb, 5);
	assert_true(r->have_victim_uid);
	assert_int_equal(r->victim_uid, 1000);
	assert_int_equal(r->victim_pgtables_kb, 15828);
	assert_int_equal(r->victim_oom_score_adj, 300);
	oom_log_task_to_task(&r->tasks[0], 4096, &t);
	assert_int_equal(oom_task_rss_pages(&t), 2011042);
	assert_int_equal(t.swap_pages, 7);
	assert_int_equal(t.oom_score_adj, 300);
	oom_log_free(log);
}

static void nr_ptes_to_pgtables(void **state)
{
	struct oom_log *log = parse(
		"y invoked oom-killer: gfp_mask=0x24280ca, order=0, oom_score_adj=0\n"
		"[ pid ]   uid  tgid total_vm      rss nr_ptes nr_pmds swapents oom_score_adj name\n"
		"[  321]     0   321    11080      640      23       3        0         -1000 udevd\n"
		"Killed process 321 (udevd) total-vm:1kB, anon-rss:2kB, file-rss:3kB, shmem-rss:4kB\n");
	const struct oom_log_report *r = oom_log_report(log, 0);
	struct oom_task t;

	(void)state;
	assert_string_equal(r->table_format, "4.0");
	assert_int_equal(r->tasks[0].nr_ptes, 23);
	assert_int_equal(r->tasks[0].nr_pmds, 3);
	oom_log_task_to_task(&r->tasks[0], 4096, &t);
	assert_int_equal(t.pgtables_bytes, 26 * 4096);
	assert_int_equal(t.rss_anon_pages, 640); /* the split was not logged */
	assert_int_equal(t.oom_score_adj, -1000);
	oom_log_free(log);
}

static void damaged_reports(void **state)
{
	struct oom_log *log = parse(
		/* a table with no trigger line: damaged */
		"[ pid ]   uid  tgid total_vm      rss cpu oom_adj oom_score_adj name\n"
		"[    5]     0     5        1        1   0       0             0 a\n"
		/* a row with a column missing: damaged */
		"b invoked oom-killer: gfp_mask=0x0, order=0, oom_adj=0, oom_score_adj=0\n"
		"[ pid ]   uid  tgid total_vm      rss cpu oom_adj oom_score_adj name\n"
		"[    6]     0     6        1        1   0       0 b\n"
		"Killed process 6 (b) total-vm:1kB, anon-rss:1kB, file-rss:1kB\n"
		/* a rate-limited report (kill lines only, after a finished one) is whole */
		"Out of memory: Kill process 9 (f) score 5 or sacrifice child\n"
		"Killed process 9 (f) total-vm:1kB, anon-rss:1kB, file-rss:1kB\n"
		/* an unknown column: damaged */
		"c invoked oom-killer: gfp_mask=0x0, order=0, oom_score_adj=0\n"
		"[ pid ]   uid  tgid total_vm  frobs name\n"
		/* a garbled kill line: damaged */
		"d invoked oom-killer: gfp_mask=0x0, order=0, oom_score_adj=0\n"
		"Killed process 7 (d total-vm:1kB\n"
		/* a trigger line and nothing else: damaged */
		"e invoked oom-killer: gfp_mask=0x0, order=0, oom_score_adj=0\n");

	(void)state;
	assert_int_equal(oom_log_count(log), 6);
	assert_string_equal(oom_log_report(log, 0)->damage,
			    "line 1: task table without an 'invoked oom-killer' line before it");
	assert_string_equal(oom_log_report(log, 1)->damage, "line 5: malformed task table row");
	assert_string_equal(oom_log_report(log, 2)->damage, "");
	assert_false(oom_log_report(log, 2)->have_trigger);
	assert_int_equal(oom_log_report(log, 2)->chosen_pid, 9);
	assert_int_equal(oom_log_report(log, 2)->victim_pid, 9);
	assert_string_equal(oom_log_report(log, 3)->damage, "line 10: task table with an unknown column");
	assert_string_equal(oom_log_report(log, 4)->damage, "line 12: malformed 'Killed process' line");
	assert_string_equal(oom_log_report(log, 5)->damage,
			    "line 13: incomplete report: no task table and no kill line");
	oom_log_free(log);
}

static void garbage_never_crashes(void **state)
{
	static const char *const inputs[] = {
		"", "\n\n", "[", "[ ", "[ 1", "[ 1]", " invoked oom-killer: ", "x invoked oom-killer: gfp_mask=",
		"[ pid ] name", "[  pid  ]   uid name\n[ 1]", "Killed process ", "Killed process 1 (",
		"Out of memory: Kill process 1 (x) score or sacrifice child",
		("x invoked oom-killer: gfp_mask=0x1\n[ pid ]   uid  tgid total_vm      rss cpu oom_adj oom_score_adj name\n"
		 "[99999999999999999999] 0 0 0 0 0 0 0 x\n[ 1] -1 1 1 1 1 1 1 x\n"),
	};
	struct oom_log *log;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(inputs); i++) {
		/* every prefix of every input, so truncation at any byte is covered */
		for (size_t n = 0; n <= strlen(inputs[i]); n++) {
			char *copy = malloc(n ? n : 1);

			assert_non_null(copy);
			memcpy(copy, inputs[i], n);
			assert_int_equal(oom_log_parse(copy, n, &log), 0);
			oom_log_free(log);
			free(copy);
		}
	}
	assert_int_equal(oom_log_parse(NULL, 1, &log), -EINVAL);
}

static void fixtures(void **state)
{
	static const struct {
		const char *file, *format;
		size_t reports, tasks;
	} cases[] = {
		{ "2.6.36-syslog.log", "2.6.36", 1, 7 }, { "3.10-dmesg.log", "3.x", 1, 6 },
		{ "4.4-journal.log", "4.0", 1, 5 },	 { "4.15-dmesg-T.log", "4.15", 1, 4 },
		{ "4.19-dmesg-caller.log", "4.19", 1, 4 }, { "6.8-journal.log", "6.8", 2, 2 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		size_t len;
		char *text = slurp(cases[i].file, &len);
		struct oom_log *log = parse(text);
		const struct oom_log_report *r = oom_log_report(log, 0);

		assert_int_equal(oom_log_count(log), cases[i].reports);
		assert_string_equal(r->damage, "");
		assert_string_equal(r->table_format, cases[i].format);
		assert_int_equal(r->ntasks, cases[i].tasks);
		assert_true(r->have_trigger && r->have_victim);
		oom_log_free(log);
		free(text);
	}
}

static void escapes(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(oom_escape_json(buf, sizeof(buf), "a\"b\\c\n\x1b\x7f"), 21);
	assert_string_equal(buf, "a\\\"b\\\\c\\n\\u001b\\u007f");
	/* valid UTF-8 passes, a stray byte does not */
	oom_escape_json(buf, sizeof(buf), "\xc3\xa9\xff");
	assert_string_equal(buf, "\xc3\xa9\\u00ff");
	oom_escape_prometheus(buf, sizeof(buf), "a\"b\\c\n\x1b");
	assert_string_equal(buf, "a\\\"b\\\\x5cc\\\\x0a\\\\x1b");
	/* cut at a whole escape, never in the middle of one */
	assert_int_equal(oom_escape_json(buf, 5, "ab\x1b"), 8);
	assert_string_equal(buf, "ab");
	assert_int_equal(oom_escape_prometheus(NULL, 0, "\x01"), 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(prefixes),	   cmocka_unit_test(report_2636),
		cmocka_unit_test(report_modern),   cmocka_unit_test(nr_ptes_to_pgtables),
		cmocka_unit_test(damaged_reports), cmocka_unit_test(garbage_never_crashes),
		cmocka_unit_test(fixtures),	   cmocka_unit_test(escapes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
