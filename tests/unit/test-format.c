// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * dump_tasks rows, byte for byte. The expected strings are written out by
 * hand from the format strings in SPEC section 9, not produced by printf.
 */
#include <stdio.h>

#include "unit.h"

static struct oom_task task(pid_t pid, uid_t uid, pid_t tgid, const char *comm)
{
	struct oom_task t = {
		.pid = pid,
		.tgid = tgid,
		.uid = uid,
		.ppid = 1,
		.have = OOM_HAVE_STATUS | OOM_HAVE_STAT | OOM_HAVE_MM,
	};

	snprintf(t.comm, sizeof(t.comm), "%s", comm);
	return t;
}

static void headers(void **state)
{
	char buf[256];

	(void)state;
	assert_int_equal(oom_format_2636_header(buf, sizeof(buf)), 69);
	assert_string_equal(buf, "[ pid ]   uid  tgid total_vm      rss cpu oom_adj oom_score_adj name\n");
	oom_format_modern_header(buf, sizeof(buf));
	assert_string_equal(buf, "[  pid  ]   uid  tgid total_vm      rss rss_anon rss_file rss_shmem pgtables_bytes "
				 "swapents oom_score_adj name\n");
}

static void rows_2636(void **state)
{
	struct oom_task t = task(1187, 0, 1187, "bash");
	char buf[512];

	(void)state;
	/* [%5d] %5d %5d %8lu %8lu %3u     %3d         %5d %s */
	t.total_vm_pages = 1314;
	t.rss_anon_pages = 166;
	t.rss_file_pages = 871;
	t.rss_shmem_pages = 2;
	oom_format_2636_row(buf, sizeof(buf), &t, OOM_ESCAPE_NONE);
	assert_string_equal(buf, "[ 1187]     0  1187     1314     1039   0       0             0 bash\n");

	/* -1000 reads back as oom_adj -17 */
	t = task(4034, 0, 4034, "sshd");
	t.total_vm_pages = 619;
	t.rss_anon_pages = 338;
	t.oom_score_adj = -1000;
	oom_format_2636_row(buf, sizeof(buf), &t, OOM_ESCAPE_NONE);
	assert_string_equal(buf, "[ 4034]     0  4034      619      338   0     -17         -1000 sshd\n");

	/* A 7-digit pid widens its column, as printf does; +1000 reads back as 15. */
	t = task(1234567, 1000, 1234567, "x");
	t.total_vm_pages = 12345678;
	t.rss_file_pages = 9;
	t.cpu = 12;
	t.oom_score_adj = 1000;
	oom_format_2636_row(buf, sizeof(buf), &t, OOM_ESCAPE_NONE);
	assert_string_equal(buf, "[1234567]  1000 1234567 12345678        9  12      15          1000 x\n");

	/* 500 reads back as 500 * 17 / 1000 = 8; -1 as 0; the pid of the thread, the tgid of the group */
	t = task(4036, 65534, 4032, "zombie-leader");
	t.total_vm_pages = 2700;
	t.rss_anon_pages = 29;
	t.rss_file_pages = 362;
	t.cpu = 1;
	t.oom_score_adj = 500;
	oom_format_2636_row(buf, sizeof(buf), &t, OOM_ESCAPE_NONE);
	assert_string_equal(buf, "[ 4036] 65534  4032     2700      391   1       8           500 zombie-leader\n");
	t.oom_score_adj = -1;
	oom_format_2636_row(buf, sizeof(buf), &t, OOM_ESCAPE_NONE);
	assert_string_equal(buf, "[ 4036] 65534  4032     2700      391   1       0            -1 zombie-leader\n");
}

static void rows_modern(void **state)
{
	struct oom_task t = task(1187, 0, 1187, "bash");
	char buf[512];

	(void)state;
	/* [%7d] %5d %5d %8lu %8lu %8lu %8lu %9lu %8ld %8lu         %5hd %s */
	t.total_vm_pages = 1314;
	t.rss_anon_pages = 166;
	t.rss_file_pages = 873;
	t.rss_shmem_pages = 0;
	t.pgtables_bytes = 53248;
	t.swap_pages = 512;
	oom_format_modern_row(buf, sizeof(buf), &t, OOM_ESCAPE_NONE);
	assert_string_equal(buf, "[   1187]     0  1187     1314     1039      166      873         0    53248      512"
				 "             0 bash\n");

	t = task(1234567, 1000, 1234567, "sshd");
	t.total_vm_pages = 619;
	t.rss_anon_pages = 100;
	t.rss_file_pages = 200;
	t.rss_shmem_pages = 38;
	t.pgtables_bytes = 4096;
	t.oom_score_adj = -1000;
	oom_format_modern_row(buf, sizeof(buf), &t, OOM_ESCAPE_NONE);
	assert_string_equal(buf, "[1234567]  1000 1234567      619      338      100      200        38     4096        0"
				 "         -1000 sshd\n");
}

static void rows_escaped(void **state)
{
	struct oom_task t = task(4031, 0, 4031, "new\nline\\\x1b[31m");
	char buf[512];
	int n;

	(void)state;
	t.total_vm_pages = 586;
	t.rss_anon_pages = 294;
	/* Raw, as the kernel log has it */
	oom_format_2636_row(buf, sizeof(buf), &t, OOM_ESCAPE_NONE);
	assert_string_equal(buf, "[ 4031]     0  4031      586      294   0       0             0 new\nline\\\x1b[31m\n");
	/* Escaped for a terminal */
	oom_format_2636_row(buf, sizeof(buf), &t, OOM_ESCAPE_CONTROL);
	assert_string_equal(buf, "[ 4031]     0  4031      586      294   0       0             0 new\\x0aline\\x5c\\x1b[31m\n");
	oom_format_modern_row(buf, sizeof(buf), &t, OOM_ESCAPE_CONTROL);
	assert_string_equal(buf, "[   4031]     0  4031      586      294      294        0         0        0        0"
				 "             0 new\\x0aline\\x5c\\x1b[31m\n");
	/* snprintf semantics: the full length back, a cut but terminated row */
	n = oom_format_2636_row(buf, 10, &t, OOM_ESCAPE_NONE);
	assert_int_equal(n, 79);
	assert_string_equal(buf, "[ 4031]  ");
}

static void escape(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "bash", "bash" },
		{ "a) b c", "a) b c" },
		{ "", "" },
		{ "\x1b[31m", "\\x1b[31m" },
		{ "\t\n\r\x01\x1f", "\\x09\\x0a\\x0d\\x01\\x1f" },
		{ "back\\slash", "back\\x5cslash" },
		{ "del\x7f", "del\\x7f" },
		{ "~ !", "~ !" },
		/* valid UTF-8 is kept: é, €, U+1F600, U+00A0 (the first after C1) */
		{ "caf\xc3\xa9", "caf\xc3\xa9" },
		{ "\xe2\x82\xac", "\xe2\x82\xac" },
		{ "\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80" },
		{ "\xc2\xa0", "\xc2\xa0" },
		/* C1 controls as UTF-8 (U+0085, U+009B CSI, U+0080) are escaped byte by byte */
		{ "\xc2\x85", "\\xc2\\x85" },
		{ "a\xc2\x9b" "31m", "a\\xc2\\x9b31m" },
		{ "\xc2\x80", "\\xc2\\x80" },
		/* invalid UTF-8: stray bytes, overlong forms, surrogates, beyond U+10FFFF, cut sequences */
		{ "\xff", "\\xff" },
		{ "\x80x", "\\x80x" },
		{ "\xc0\x80", "\\xc0\\x80" },
		{ "\xc1\xbf", "\\xc1\\xbf" },
		{ "\xe0\x80\xaf", "\\xe0\\x80\\xaf" },
		{ "\xf0\x80\x80\xaf", "\\xf0\\x80\\x80\\xaf" },
		{ "\xed\xa0\x80", "\\xed\\xa0\\x80" },
		{ "\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80" },
		{ "\xf5\x80\x80\x80", "\\xf5\\x80\\x80\\x80" },
		{ "\xe2\x82", "\\xe2\\x82" },
		{ "\xe2\x82x", "\\xe2\\x82x" },
		{ "\xc3\xc3\xa9", "\\xc3\xc3\xa9" },
	};
	char buf[256];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		size_t n = oom_escape_name(buf, sizeof(buf), cases[i].in, OOM_ESCAPE_CONTROL);

		if (strcmp(buf, cases[i].out) != 0)
			fail_msg("case %zu: got \"%s\"", i, buf);
		assert_int_equal(n, strlen(cases[i].out));
		/* Raw mode changes nothing. */
		oom_escape_name(buf, sizeof(buf), cases[i].in, OOM_ESCAPE_NONE);
		assert_string_equal(buf, cases[i].in);
	}
}

static void escape_small_buffer(void **state)
{
	char buf[8];

	(void)state;
	/* "ab" fits, "\x1b" (4 bytes) would not fit in 5: cut before it, the full length returned */
	memset(buf, 'Z', sizeof(buf));
	assert_int_equal(oom_escape_name(buf, 5, "ab\x1b" "cd", OOM_ESCAPE_CONTROL), 8);
	assert_string_equal(buf, "ab");
	/* A UTF-8 character is never split either: "x" + 3 bytes in 4 */
	assert_int_equal(oom_escape_name(buf, 4, "x\xe2\x82\xac", OOM_ESCAPE_CONTROL), 4);
	assert_string_equal(buf, "x");
	/* Exactly fits */
	assert_int_equal(oom_escape_name(buf, 7, "ab\x1b", OOM_ESCAPE_CONTROL), 6);
	assert_string_equal(buf, "ab\\x1b");
	/* Size 0 writes nothing, still counts */
	buf[0] = 'Q';
	assert_int_equal(oom_escape_name(buf, 0, "abc", OOM_ESCAPE_NONE), 3);
	assert_int_equal(buf[0], 'Q');
	assert_int_equal(oom_escape_name(buf, 1, "abc", OOM_ESCAPE_NONE), 3);
	assert_string_equal(buf, "");
}

static void dumpable(void **state)
{
	struct oom_task t = task(100, 0, 100, "x");

	(void)state;
	assert_true(oom_task_dumpable(&t));
	t.oom_score_adj = -1000; /* still listed: dump_tasks shows every task with an mm */
	assert_true(oom_task_dumpable(&t));
	t.have &= ~OOM_HAVE_MM;
	assert_false(oom_task_dumpable(&t));
	t = task(1, 0, 1, "init");
	assert_false(oom_task_dumpable(&t));
	t = task(2, 0, 2, "kthreadd");
	t.flags = OOM_PF_KTHREAD;
	assert_false(oom_task_dumpable(&t));
	/* A kernel thread that somehow shows an mm is still a kernel thread. */
	t.have |= OOM_HAVE_MM;
	assert_false(oom_task_dumpable(&t));
	/* A zombie leader resolved through thread 4036: listed */
	t = task(4036, 0, 4032, "zombie-leader");
	t.state = 'Z';
	assert_true(oom_task_dumpable(&t));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(headers),
		cmocka_unit_test(rows_2636),
		cmocka_unit_test(rows_modern),
		cmocka_unit_test(rows_escaped),
		cmocka_unit_test(escape),
		cmocka_unit_test(escape_small_buffer),
		cmocka_unit_test(dumpable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
