// SPDX-License-Identifier: LGPL-2.1-or-later
/* The /proc parsers and the number parsers, fed strings: real lines, then hostile ones. */
#include <stdio.h>
#include <stdlib.h>

#include "unit.h"

#define S(lit) lit, sizeof(lit) - 1

/* A real stat line of a shell (kernel 6.18), the comm replaced by %s. */
static const char stat_tail[] =
	" S 1187 4021 3480 0 -1 4194304 110 0 0 0 7 3 0 0 20 0 1 0 232144 2400256 277 "
	"18446744073709551615 93872273313792 93872273314585 140721890962480 0 0 0 0 6 0 1 0 0 17 1 0 0 0 0 0 "
	"93872273325520 93872273326168 93872659099648 140721890970260 140721890970271 140721890970271 "
	"140721890971631 0\n";

static int parse_stat_comm(const char *comm, struct oom_stat_fields *st)
{
	char line[1024];
	int n = snprintf(line, sizeof(line), "4030 (%s)%s", comm, stat_tail);

	return oom_parse_stat(line, (size_t)n, st);
}

static void stat_real(void **state)
{
	struct oom_stat_fields st;

	(void)state;
	assert_int_equal(parse_stat_comm("bash", &st), 0);
	assert_int_equal(st.pid, 4030);
	assert_string_equal(st.comm, "bash");
	assert_int_equal(st.state, 'S');
	assert_int_equal(st.ppid, 1187);
	assert_int_equal(st.flags, 4194304);
	assert_int_equal(st.utime, 7);
	assert_int_equal(st.stime, 3);
	assert_int_equal(st.nice, 0);
	assert_int_equal(st.starttime, 232144);
	assert_int_equal(st.vsize, 2400256);
	assert_int_equal(st.rss, 277);
	assert_int_equal(st.processor, 1);
}

static void stat_hostile_comms(void **state)
{
	static const char *const comms[] = {
		"a) b c", ":-) 1 2 3 4 5 6", "x\ny", ")", "((", ") S 1 2 3", "a b", "",
	};
	struct oom_stat_fields st;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(comms); i++) {
		assert_int_equal(parse_stat_comm(comms[i], &st), 0);
		assert_string_equal(st.comm, comms[i]);
		assert_int_equal(st.ppid, 1187);
		assert_int_equal(st.processor, 1);
		assert_int_equal(st.rss, 277);
	}
}

static void stat_kthread(void **state)
{
	static const char line[] = "2 (kthreadd) S 0 0 0 0 -1 2129984 0 0 0 0 0 0 0 0 20 0 1 0 23 0 0 "
				   "18446744073709551615 0 0 0 0 0 0 0 2147483647 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n";
	struct oom_stat_fields st;

	(void)state;
	assert_int_equal(oom_parse_stat(S(line), &st), 0);
	assert_true(st.flags & OOM_PF_KTHREAD);
	assert_int_equal(st.ppid, 0);
	assert_int_equal(st.processor, 0);
	assert_int_equal(st.nice, 0);
}

static void stat_negative_nice_long_comm(void **state)
{
	char comm[80], line[1024];
	struct oom_stat_fields st;
	int n;

	(void)state;
	memset(comm, 'k', 70);
	comm[70] = '\0';
	n = snprintf(line, sizeof(line),
		     "77 (%s) R 2 0 0 0 -1 69238880 0 0 0 0 5 6 0 0 0 -20 1 0 99 0 0 1 0 0 0 0 0 0 0 0 0 0 0 "
		     "0 17 3 0 0 0 0 0\n",
		     comm);
	assert_int_equal(oom_parse_stat(line, (size_t)n, &st), 0);
	assert_int_equal(st.nice, -20);
	assert_int_equal(st.processor, 3);
	/* Cut to what fits, NUL-terminated. */
	assert_int_equal(strlen(st.comm), OOM_COMM_MAX - 1);
}

/* Every prefix of a valid line that stops before the processor field is an error. */
static void stat_truncated_everywhere(void **state)
{
	char line[1024];
	struct oom_stat_fields st;
	int n = snprintf(line, sizeof(line), "4030 (a) b c)%s", stat_tail);
	const char *p39 = line;

	(void)state;
	/* Find the end of field 39 (processor): the 37th space after the last ')'. */
	p39 = strrchr(line, ')') + 1;
	for (int sp = 0; sp < 37; p39++)
		if (*p39 == ' ')
			sp++;
	while (*p39 != ' ')
		p39++;
	for (size_t len = 0; len < (size_t)(p39 - line); len++) {
		if (oom_parse_stat(line, len, &st) == 0)
			fail_msg("a stat cut to %zu bytes parsed", len);
	}
	assert_int_equal(oom_parse_stat(line, (size_t)(p39 - line), &st), 0);
	assert_int_equal(oom_parse_stat(line, (size_t)n, &st), 0);
}

/* Fields 23..38 of a minimal line, so that tests can vary processor (39). */
#define F23_38 " 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"
#define HEAD(pid, comm) pid " (" comm ") S 1 0 0 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5"

static void stat_garbage(void **state)
{
	static const char *const bad[] = {
		"",
		"\n",
		"garbage",
		"(x) S 1 2",
		HEAD("x", "sh") F23_38 " 1",
		HEAD("-5", "sh") F23_38 " 1",
		HEAD("0", "sh") F23_38 " 1",
		HEAD("+5", "sh") F23_38 " 1",
		HEAD("5", "sh") F23_38,
		HEAD("5", "sh") F23_38 " ",
		HEAD("5", "sh") F23_38 " -1",
		HEAD("5", "sh") F23_38 " +1",
		HEAD("5", "sh") F23_38 " 1x",
		HEAD("5", "sh") F23_38 " 99999999999",
		"5 (sh S 1 0 0 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5" F23_38 " 1",
		"5 sh) S 1 0 0 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5" F23_38 " 1",
		/* two-letter state, junk ppid, signed ppid, junk utime, double space */
		"5 (sh) SS 1 0 0 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5" F23_38 " 1",
		"5 (sh) S x 0 0 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5" F23_38 " 1",
		"5 (sh) S +1 0 0 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5" F23_38 " 1",
		"5 (sh) S 1 0 0 0 -1 0 0 0 0 0 1x 0 0 0 20 0 1 0 5" F23_38 " 1",
		"5 (sh) S 1 0 0 0 -1 0 0 0 0 0 0 0 0 0 20  0 1 0 5" F23_38 " 1",
		/* overflow: utime past 2^64, flags past 2^32, pid past INT_MAX */
		"5 (sh) S 1 0 0 0 -1 0 0 0 0 0 18446744073709551616 0 0 0 20 0 1 0 5" F23_38 " 1",
		"5 (sh) S 1 0 0 0 -1 4294967296 0 0 0 0 0 0 0 0 20 0 1 0 5" F23_38 " 1",
		HEAD("2147483648", "sh") F23_38 " 1",
	};
	static const char ok[] = "5 (sh) S 1 0 0 0 -1 4294967295 0 0 0 0 18446744073709551615 0 0 0 20 -19 1 0 5"
				 F23_38 " 7";
	struct oom_stat_fields st;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		if (oom_parse_stat(bad[i], strlen(bad[i]), &st) == 0)
			fail_msg("parsed: %s", bad[i]);
	}
	/* The largest values still fit; no trailing newline is needed. */
	assert_int_equal(oom_parse_stat(S(ok), &st), 0);
	assert_true(st.utime == 18446744073709551615ull);
	assert_int_equal(st.flags, 4294967295u);
	assert_int_equal(st.nice, -19);
	assert_int_equal(st.processor, 7);
	assert_int_equal(st.pid, 5);
}

/* Every number is taken up to its type's last value and refused one past it. */
static void numbers_at_their_limits(void **state)
{
	static const struct {
		const char *nice;
		int err;
		long nice_out;
	} nices[] = {
		{ "9223372036854775807", 0, 9223372036854775807l },
		{ "9223372036854775808", -ERANGE, 0 },
		{ "-9223372036854775808", 0, -9223372036854775807l - 1 },
		{ "-9223372036854775809", -ERANGE, 0 },
		{ "99999999999999999999", -ERANGE, 0 },
	};
	static const struct {
		const char *cap;
		int err;
		unsigned long long out;
	} caps[] = {
		{ "ffffffffffffffff", 0, 0xffffffffffffffffull },
		{ "FFFFFFFFFFFFFFFe", 0, 0xfffffffffffffffeull },
		{ "10000000000000000", -EINVAL, 0 }, /* status reports any bad number as EINVAL */
		{ "0000000000000000000000001", 0, 1 },
	};
	struct oom_status_fields sf;
	struct oom_stat_fields st;
	char text[512];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(nices); i++) {
		snprintf(text, sizeof(text), "5 (sh) S 1 0 0 0 -1 0 0 0 0 0 0 0 0 0 20 %s 1 0 5" F23_38 " 1\n",
			 nices[i].nice);
		assert_int_equal(oom_parse_stat(text, strlen(text), &st), nices[i].err);
		if (!nices[i].err)
			assert_true(st.nice == nices[i].nice_out);
	}
	for (size_t i = 0; i < ARRAY_SIZE(caps); i++) {
		snprintf(text, sizeof(text), "Name:\tsh\nTgid:\t5\nPPid:\t1\nUid:\t0\t0\t0\t0\nCapEff:\t%s\n",
			 caps[i].cap);
		assert_int_equal(oom_parse_status(text, strlen(text), &sf), caps[i].err);
		if (!caps[i].err)
			assert_true(sf.cap_eff == caps[i].out);
	}
}

/* An embedded NUL (a racing or corrupt read) must not be skipped over. */
static void stat_embedded_nul(void **state)
{
	static const char line[] = HEAD("5", "s\0h") F23_38 " 1\n";
	static const char bad[] = HEAD("5", "sh") F23_38 " \0\n";
	struct oom_stat_fields st;

	(void)state;
	assert_int_equal(oom_parse_stat(S(line), &st), 0);
	assert_int_equal(st.comm[0], 's');
	assert_int_equal(st.comm[1], '\0');
	assert_int_equal(st.processor, 1);
	assert_int_not_equal(oom_parse_stat(S(bad), &st), 0);
}

/* ---- status ---------------------------------------------------------- */

static const char status_real[] =
	"Name:\tbash\n"
	"Umask:\t0022\n"
	"State:\tS (sleeping)\n"
	"Tgid:\t1187\n"
	"Ngid:\t0\n"
	"Pid:\t1187\n"
	"PPid:\t1186\n"
	"TracerPid:\t0\n"
	"Uid:\t1000\t0\t0\t0\n"
	"Gid:\t0\t0\t0\t0\n"
	"FDSize:\t256\n"
	"Groups:\t \n"
	"Kthread:\t0\n"
	"VmPeak:\t    7868 kB\n"
	"VmSize:\t    5256 kB\n"
	"VmRSS:\t    4156 kB\n"
	"RssAnon:\t     664 kB\n"
	"RssFile:\t    3492 kB\n"
	"RssShmem:\t       8 kB\n"
	"VmPTE:\t      52 kB\n"
	"VmSwap:\t    2048 kB\n"
	"Threads:\t1\n"
	"SigPnd:\t0000000000000000\n"
	"ShdPnd:\t0000000000000100\n"
	"CapEff:\t000001ffffffffff\n"
	"Mems_allowed_list:\t0\n"
	"voluntary_ctxt_switches:\t334\n";

static void status_real_values(void **state)
{
	struct oom_status_fields st;

	(void)state;
	assert_int_equal(oom_parse_status(S(status_real), &st), 0);
	assert_int_equal(st.tgid, 1187);
	assert_int_equal(st.ppid, 1186);
	assert_int_equal(st.uid, 1000); /* the real uid: the first column */
	assert_int_equal(st.state, 'S');
	assert_false(st.kthread);
	assert_true(st.has_mm);
	assert_int_equal(st.vm_size_kb, 5256);
	assert_int_equal(st.rss_anon_kb, 664);
	assert_int_equal(st.rss_file_kb, 3492);
	assert_int_equal(st.rss_shmem_kb, 8);
	assert_int_equal(st.vm_pte_kb, 52);
	assert_int_equal(st.vm_swap_kb, 2048);
	assert_int_equal(st.sig_pnd, 0);
	assert_int_equal(st.shd_pnd, 0x100); /* SIGKILL (9) is bit 8 */
	assert_true(st.cap_eff == 0x1ffffffffffull);
	assert_non_null(st.mems_list);
	assert_int_equal(st.mems_list_len, 1);
	assert_memory_equal(st.mems_list, "0", 1);
}

/*
 * Without Mems_allowed_list, parsing stops at the last key taken (CapEff in the
 * kernel's order): the same figures, and what follows is never looked at.
 */
static void status_upto(void **state)
{
	struct oom_status_fields full, upto;
	char text[sizeof(status_real) + 64];
	const char *capeff = strstr(status_real, "CapEff:");
	size_t head;

	(void)state;
	assert_non_null(capeff);
	assert_int_equal(oom_parse_status(S(status_real), &full), 0);
	assert_int_equal(oom_parse_status_upto(S(status_real), false, &upto), 0);
	assert_null(upto.mems_list);
	full.mems_list = NULL;
	full.mems_list_len = 0;
	assert_memory_equal(&full, &upto, sizeof(full));
	assert_int_equal(oom_parse_status_upto(S(status_real), true, &upto), 0);
	assert_non_null(upto.mems_list);

	/* A garbled key we take, after CapEff: read only when Mems_allowed_list is wanted. */
	head = (size_t)(strchr(capeff, '\n') + 1 - status_real);
	snprintf(text, sizeof(text), "%.*sVmSwap:\tlots\nMems_allowed_list:\t0\n", (int)head, status_real);
	assert_int_equal(oom_parse_status_upto(text, strlen(text), false, &upto), 0);
	assert_int_equal(upto.vm_swap_kb, 2048);
	assert_int_equal(oom_parse_status_upto(text, strlen(text), true, &upto), -EINVAL);
	/* A kernel thread has no Vm lines: it is read to the end, Kthread included. */
	snprintf(text, sizeof(text), "Name:\tkworker\nState:\tI\nTgid:\t9\nPPid:\t2\nUid:\t0\t0\t0\t0\n"
		 "SigPnd:\t0\nShdPnd:\t0\nCapEff:\t1ff\nKthread:\t1\n");
	assert_int_equal(oom_parse_status_upto(text, strlen(text), false, &upto), 0);
	assert_true(upto.kthread);
}

static void status_kthread(void **state)
{
	static const char text[] = "Name:\tkthreadd\nState:\tS (sleeping)\nTgid:\t2\nPid:\t2\nPPid:\t0\n"
				   "Uid:\t0\t0\t0\t0\nKthread:\t1\nThreads:\t1\nSigPnd:\t0000000000000000\n"
				   "ShdPnd:\t0000000000000000\nCapEff:\t000001ffffffffff\n";
	struct oom_status_fields st;

	(void)state;
	assert_int_equal(oom_parse_status(S(text), &st), 0);
	assert_true(st.kthread);
	assert_false(st.has_mm);
	assert_int_equal(st.rss_anon_kb, 0);
	assert_null(st.mems_list);
}

static void status_zombie(void **state)
{
	static const char text[] = "Name:\tzombie-leader\nState:\tZ (zombie)\nTgid:\t4032\nPid:\t4032\nPPid:\t1\n"
				   "Uid:\t0\t0\t0\t0\nKthread:\t0\nThreads:\t2\nSigPnd:\t0000000000000000\n"
				   "ShdPnd:\t0000000000000000\nCapEff:\t000001ffffffffff\n";
	struct oom_status_fields st;

	(void)state;
	assert_int_equal(oom_parse_status(S(text), &st), 0);
	assert_int_equal(st.state, 'Z');
	assert_false(st.has_mm);
	assert_false(st.kthread);
}

/* Replaces the first occurrence of @from in status_real by @to. */
static int status_edit(const char *from, const char *to, struct oom_status_fields *st)
{
	char text[2048];
	const char *at = strstr(status_real, from);
	int n;

	assert_non_null(at);
	n = snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - status_real), status_real, to, at + strlen(from));
	return oom_parse_status(text, (size_t)n, st);
}

static void status_bad_values(void **state)
{
	static const char *const edits[][2] = {
		{ "RssAnon:\t     664 kB", "RssAnon:\t     664" },
		{ "RssAnon:\t     664 kB", "RssAnon:\t     6x4 kB" },
		{ "RssAnon:\t     664 kB", "RssAnon:\t      kB" },
		{ "RssAnon:\t     664 kB", "RssAnon:\t     -664 kB" },
		{ "VmSwap:\t    2048 kB", "VmSwap:\t    99999999999999999999 kB" },
		{ "VmPTE:\t      52 kB", "VmPTE:\t      52 MB" },
		{ "Tgid:\t1187", "Tgid:\t0" },
		{ "Tgid:\t1187", "Tgid:\t" },
		{ "Tgid:\t1187", "Tgid:\t1187x" },
		{ "PPid:\t1186", "PPid:\t-1" },
		{ "Uid:\t1000", "Uid:\tx" },
		{ "Uid:\t1000", "Uid:\t4294967296" },
		{ "CapEff:\t000001ffffffffff", "CapEff:\tzz" },
		{ "CapEff:\t000001ffffffffff", "CapEff:\t0x01ffffffffff" },
		{ "CapEff:\t000001ffffffffff", "CapEff:\t10000000000000000" },
		{ "SigPnd:\t0000000000000000", "SigPnd:\t-1" },
		/* required lines missing */
		{ "Tgid:\t1187\n", "" },
		{ "PPid:\t1186\n", "" },
		{ "Uid:\t1000\t0\t0\t0\n", "" },
		{ "CapEff:\t000001ffffffffff\n", "" },
	};
	struct oom_status_fields st;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(edits); i++) {
		if (status_edit(edits[i][0], edits[i][1], &st) == 0)
			fail_msg("parsed with %s", edits[i][1]);
	}
	/* Capitals are valid hex; the real uid may be the largest one. */
	assert_int_equal(status_edit("CapEff:\t000001ffffffffff", "CapEff:\t000001FFFFFFFFFF", &st), 0);
	assert_true(st.cap_eff == 0x1ffffffffffull);
	assert_int_equal(status_edit("Uid:\t1000", "Uid:\t4294967295", &st), 0);
	assert_int_equal(st.uid, 4294967295u);
}

static void status_truncated(void **state)
{
	const char *capeff = strstr(status_real, "CapEff:");
	const char *mems = strstr(status_real, "Mems_allowed_list:");
	struct oom_status_fields st;

	(void)state;
	/* Cut anywhere before the end of the CapEff line: no status. */
	for (size_t len = 0; len < (size_t)(mems - status_real); len++) {
		if (oom_parse_status(status_real, len, &st) == 0)
			fail_msg("status cut at %zu parsed", len);
	}
	/* A cut last line is dropped, not misread as a shorter value. */
	assert_int_equal(oom_parse_status(status_real, (size_t)(mems - status_real) + 20, &st), 0);
	assert_null(st.mems_list);
	assert_int_not_equal(oom_parse_status(status_real, (size_t)(capeff - status_real) + 24, &st), 0);
	assert_int_equal(oom_parse_status(status_real, (size_t)(capeff - status_real) + 25, &st), 0);
}

static void status_name(void **state)
{
	static const struct {
		const char *status;
		const char *name;
	} cases[] = {
		{ "Name:\tbash\nState:\tS\n", "bash" },
		{ "Name:\tnew\\nline\\\\\x1b[31m\nState:\tS\n", "new\nline\\\x1b[31m" },
		{ "Name:\ta) b c\n", "a) b c" },
		{ "Name:\t\\\\n\n", "\\n" },
		{ "Name:\ttab\there\n", "tab\there" },
		{ "Name:\t\n", "" },
		{ "Name:\tx\\q\n", "x\\q" }, /* not an escape the kernel makes: kept */
		{ "Name:\tend\\\n", "end\\" },
	};
	char comm[OOM_COMM_MAX];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		assert_int_equal(oom_parse_status_name(cases[i].status, strlen(cases[i].status), comm, sizeof(comm)), 0);
		assert_string_equal(comm, cases[i].name);
	}
	assert_int_not_equal(oom_parse_status_name(S("Name:\tcut"), comm, sizeof(comm)), 0);
	assert_int_not_equal(oom_parse_status_name(S("State:\tS\nName:\tx\n"), comm, sizeof(comm)), 0);
	assert_int_not_equal(oom_parse_status_name(S(""), comm, sizeof(comm)), 0);
	/* Too long for the buffer: cut, terminated. */
	assert_int_equal(oom_parse_status_name(S("Name:\tabcdefgh\n"), comm, 4), 0);
	assert_string_equal(comm, "abc");
}

/* ---- statm, meminfo -------------------------------------------------- */

static void statm(void **state)
{
	struct oom_statm_fields st;

	(void)state;
	assert_int_equal(oom_parse_statm(S("1314 1039 873 235 0 128 0\n"), &st), 0);
	assert_int_equal(st.size, 1314);
	assert_int_equal(st.resident, 1039);
	assert_int_equal(st.shared, 873);
	assert_int_equal(st.text, 235);
	assert_int_equal(st.lib, 0);
	assert_int_equal(st.data, 128);
	assert_int_equal(st.dt, 0);
	assert_int_equal(oom_parse_statm(S("1 2 3 4 5 6 7"), &st), 0);
	assert_int_not_equal(oom_parse_statm(S("1 2 3 4 5 6\n"), &st), 0);
	assert_int_not_equal(oom_parse_statm(S("1 2 3 4 5 6 7 8\n"), &st), 0);
	assert_int_not_equal(oom_parse_statm(S("1 2 3 4 5 6 7 \n"), &st), 0);
	assert_int_not_equal(oom_parse_statm(S("1 2 3 4 5 x 7\n"), &st), 0);
	assert_int_not_equal(oom_parse_statm(S("1  2 3 4 5 6 7\n"), &st), 0);
	assert_int_not_equal(oom_parse_statm(S("1 2 3 4 5 6 7\n\n"), &st), 0);
	assert_int_not_equal(oom_parse_statm(S(""), &st), 0);
	assert_int_not_equal(oom_parse_statm(S("1 2 3 4 5 6 -7\n"), &st), 0);
}

static const char meminfo_real[] = "MemTotal:       24683584 kB\n"
				   "MemFree:        24512236 kB\n"
				   "MemAvailable:   24441548 kB\n"
				   "Buffers:             844 kB\n"
				   "Active(anon):       1512 kB\n"
				   "Inactive(anon):     2960 kB\n"
				   "Active(file):      34812 kB\n"
				   "Inactive(file):    19812 kB\n"
				   "SwapTotal:       1048572 kB\n"
				   "SwapFree:        1046524 kB\n"
				   "HugePages_Total:       0\n"
				   "Hugepagesize:       2048 kB\n";

static void meminfo(void **state)
{
	struct oom_meminfo mi;
	char text[1024];
	const char *at;

	(void)state;
	assert_int_equal(oom_parse_meminfo(S(meminfo_real), &mi), 0);
	assert_int_equal(mi.mem_total_kb, 24683584);
	assert_int_equal(mi.mem_free_kb, 24512236);
	assert_int_equal(mi.active_anon_kb, 1512);
	assert_int_equal(mi.inactive_anon_kb, 2960);
	assert_int_equal(mi.active_file_kb, 34812);
	assert_int_equal(mi.inactive_file_kb, 19812);
	assert_int_equal(mi.swap_total_kb, 1048572);
	assert_int_equal(mi.swap_free_kb, 1046524);

	/* Without MemTotal there is no meminfo; other lines may be absent (read as 0). */
	assert_int_not_equal(oom_parse_meminfo(meminfo_real + 28, sizeof(meminfo_real) - 1 - 28, &mi), 0);
	assert_int_equal(oom_parse_meminfo(S("MemTotal:  100 kB\n"), &mi), 0);
	assert_int_equal(mi.mem_total_kb, 100);
	assert_int_equal(mi.swap_total_kb, 0);
	assert_int_not_equal(oom_parse_meminfo(S("MemTotal:  100 kB"), &mi), 0); /* cut: dropped */
	assert_int_not_equal(oom_parse_meminfo(S(""), &mi), 0);
	assert_int_not_equal(oom_parse_meminfo(S("MemTotal:  1x0 kB\n"), &mi), 0);
	assert_int_not_equal(oom_parse_meminfo(S("MemTotal:  100\n"), &mi), 0);
	assert_int_not_equal(oom_parse_meminfo(S("MemTotal:  100 kB\nSwapTotal:  -1 kB\n"), &mi), 0);
	assert_int_not_equal(oom_parse_meminfo(S("MemTotal:  100 kB\nActive(anon):\n"), &mi), 0);
	/* A key that only starts like ours is someone else's. */
	assert_int_equal(oom_parse_meminfo(S("MemTotalX:  1x kB\nMemTotal:  7 kB\n"), &mi), 0);
	assert_int_equal(mi.mem_total_kb, 7);
	/* A bad value in a line we do not use does not matter. */
	at = strstr(meminfo_real, "Buffers");
	snprintf(text, sizeof(text), "%.*sBuffers: junk\n%s", (int)(at - meminfo_real), meminfo_real,
		 strstr(at, "\n") + 1);
	assert_int_equal(oom_parse_meminfo(text, strlen(text), &mi), 0);
}

/* ---- cgroup ---------------------------------------------------------- */

static void cgroup_case(const char *text, int err, const char *v2, const char *memory)
{
	char *a = (char *)"x", *b = (char *)"x";

	assert_int_equal(oom_parse_cgroup(text, strlen(text), &a, &b), err);
	if (v2)
		assert_string_equal(a, v2);
	else
		assert_null(a);
	if (memory)
		assert_string_equal(b, memory);
	else
		assert_null(b);
	oom_parse_cgroup_free(&a, &b);
}

static void cgroup(void **state)
{
	(void)state;
	cgroup_case("0::/a/b\n", 0, "/a/b", NULL);
	cgroup_case("0::/\n", 0, "/", NULL);
	cgroup_case("0::/user.slice/user-1000.slice/session-2.scope", 0, "/user.slice/user-1000.slice/session-2.scope",
		    NULL);
	cgroup_case("12:cpu,cpuacct:/x\n11:blkio,memory,pids:/m/n\n", 0, NULL, "/m/n");
	cgroup_case("9:name=systemd:/\n8:pids:/\n4:memory:/process_api/43817c\n1:cpu:/\n0::/\n", 0, "/",
		    "/process_api/43817c");
	cgroup_case("4:memoryx:/a\n3:xmemory:/b\n", 0, NULL, NULL);
	cgroup_case("2:memory:/with space (deleted)\n", 0, NULL, "/with space (deleted)");
	cgroup_case("", 0, NULL, NULL);
	cgroup_case("garbage\n", -EINVAL, NULL, NULL);
	cgroup_case("0::\n", -EINVAL, NULL, NULL);
	cgroup_case("0::relative\n", -EINVAL, NULL, NULL);
	cgroup_case("0:/a\n", -EINVAL, NULL, NULL);
	cgroup_case("0::/a\n\n", -EINVAL, NULL, NULL);
	cgroup_case("4:memory:/m\ngarbage\n", -EINVAL, NULL, NULL);
}

/* ---- node lists and numa_maps ---------------------------------------- */

static bool bit(const uint64_t *bits, unsigned int n)
{
	return (bits[n / 64] >> (n % 64)) & 1;
}

static unsigned int popcount(const uint64_t *bits)
{
	unsigned int c = 0;

	for (unsigned int n = 0; n < OOM_MAX_NODES; n++)
		c += bit(bits, n);
	return c;
}

static void node_lists(void **state)
{
	static const char *const bad[] = {
		"", "\n", ",", "0,", ",0", "0,,1", "1-0", "-1", "0-", "0--1", "0-+1", "+1", "a", "0 ", " 0", "0-1 ",
		"1024", "0-1024", "99999999999999999999999", "0x1", "1\n\n",
	};
	uint64_t bits[OOM_MAX_NODES / 64];

	(void)state;
	assert_int_equal(oom_parse_node_list(S("0-1,3\n"), bits), 0);
	assert_int_equal(popcount(bits), 3);
	assert_true(bit(bits, 0) && bit(bits, 1) && bit(bits, 3));
	assert_int_equal(oom_parse_node_list(S("0"), bits), 0);
	assert_int_equal(popcount(bits), 1);
	assert_int_equal(oom_parse_node_list(S("1023"), bits), 0);
	assert_true(bit(bits, 1023));
	assert_int_equal(popcount(bits), 1);
	assert_int_equal(oom_parse_node_list(S("0-1023"), bits), 0);
	assert_int_equal(popcount(bits), 1024);
	assert_int_equal(oom_parse_node_list(S("5,5,4-6"), bits), 0);
	assert_int_equal(popcount(bits), 3);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		if (oom_parse_node_list(bad[i], strlen(bad[i]), bits) == 0)
			fail_msg("node list \"%s\" parsed", bad[i]);
	}
}

static void numa_maps(void **state)
{
	uint64_t nodes[OOM_MAX_NODES / 64];
	bool def;

	(void)state;
	assert_int_equal(oom_parse_numa_maps(S("55ac3277a000 default file=/usr/bin/bash mapped=47 N0=47\n"
					       "7ffd1000 default stack anon=3 dirty=3 N0=3\n"),
					     nodes, &def),
			 0);
	assert_true(def);
	assert_int_equal(popcount(nodes), 0);

	assert_int_equal(oom_parse_numa_maps(S("1000 bind:0-1 anon=1\n"), nodes, &def), 0);
	assert_false(def);
	assert_int_equal(popcount(nodes), 2);
	assert_true(bit(nodes, 0) && bit(nodes, 1));

	assert_int_equal(oom_parse_numa_maps(S("1000 bind=static:1 anon=1\n2000 interleave:3\n"), nodes, &def), 0);
	assert_false(def);
	assert_int_equal(popcount(nodes), 2);
	assert_true(bit(nodes, 1) && bit(nodes, 3));

	assert_int_equal(oom_parse_numa_maps(S("1000 weighted interleave:2-3 anon=1\n"), nodes, &def), 0);
	assert_false(def);
	assert_true(bit(nodes, 2) && bit(nodes, 3) && popcount(nodes) == 2);

	assert_int_equal(oom_parse_numa_maps(S("1000 interleave=relative|balancing:0 anon=1\n"), nodes, &def), 0);
	assert_true(bit(nodes, 0) && popcount(nodes) == 1);

	/* prefer and "prefer (many)" do not confine a task */
	assert_int_equal(oom_parse_numa_maps(S("1000 prefer:1 anon=1\n2000 prefer (many):0-1 heap\n"), nodes, &def), 0);
	assert_true(def);
	assert_int_equal(popcount(nodes), 0);
	assert_int_equal(oom_parse_numa_maps(S("1000 local anon=1\n"), nodes, &def), 0);
	assert_true(def);

	/* mixed: both answers */
	assert_int_equal(oom_parse_numa_maps(S("1000 default\n2000 bind:5\n"), nodes, &def), 0);
	assert_true(def);
	assert_true(bit(nodes, 5) && popcount(nodes) == 1);

	/* empty (a kernel thread's) */
	assert_int_equal(oom_parse_numa_maps(S(""), nodes, &def), 0);
	assert_false(def);
	assert_int_equal(popcount(nodes), 0);

	assert_int_not_equal(oom_parse_numa_maps(S("1000 bogus anon=1\n"), nodes, &def), 0);
	assert_int_not_equal(oom_parse_numa_maps(S("1000 bind anon=1\n"), nodes, &def), 0);
	assert_int_not_equal(oom_parse_numa_maps(S("1000 bind:9999\n"), nodes, &def), 0);
	assert_int_not_equal(oom_parse_numa_maps(S("1000\n"), nodes, &def), 0);
	assert_int_not_equal(oom_parse_numa_maps(S("1000 defaultx\n"), nodes, &def), 0);
	assert_int_not_equal(oom_parse_numa_maps(S("1000 default\n\n"), nodes, &def), 0);
}

/* ---- numbers --------------------------------------------------------- */

static void parse_ll(void **state)
{
	static const struct {
		const char *s;
		int base;
		int err;
		long long v;
	} cases[] = {
		{ "0", 10, 0, 0 },
		{ "5", 10, 0, 5 },
		{ "-0", 10, 0, 0 },
		{ "+5", 10, 0, 5 },
		{ "-1000", 10, 0, -1000 },
		{ "9223372036854775807", 10, 0, 9223372036854775807ll },
		{ "-9223372036854775808", 10, 0, -9223372036854775807ll - 1 },
		{ "9223372036854775808", 10, -ERANGE, 0 },
		{ "-9223372036854775809", 10, -ERANGE, 0 },
		{ "0x10", 0, 0, 16 },
		{ "010", 0, 0, 8 },
		{ "010", 10, 0, 10 },
		{ "0x10", 10, -EINVAL, 0 },
		{ "10", 16, 0, 16 },
		{ "", 10, -EINVAL, 0 },
		{ " 5", 10, -EINVAL, 0 },
		{ "\t5", 10, -EINVAL, 0 },
		{ "5 ", 10, -EINVAL, 0 },
		{ "5\n", 10, -EINVAL, 0 },
		{ "5x", 10, -EINVAL, 0 },
		{ "x", 10, -EINVAL, 0 },
		{ "-", 10, -EINVAL, 0 },
		{ "+", 10, -EINVAL, 0 },
		{ "--5", 10, -EINVAL, 0 },
		{ "0x", 0, -EINVAL, 0 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		long long v = 4242;
		int err = oom_parse_ll(cases[i].s, cases[i].base, &v);

		if (err != cases[i].err)
			fail_msg("oom_parse_ll(\"%s\", %d) = %d, want %d", cases[i].s, cases[i].base, err, cases[i].err);
		if (err == 0 && v != cases[i].v)
			fail_msg("oom_parse_ll(\"%s\") gave %lld", cases[i].s, v);
		if (err != 0 && v != 4242)
			fail_msg("oom_parse_ll(\"%s\") wrote its output on failure", cases[i].s);
	}
	{
		long long v;

		assert_int_equal(oom_parse_ll(NULL, 10, &v), -EINVAL);
	}
}

static void parse_ull(void **state)
{
	static const struct {
		const char *s;
		int base;
		int err;
		unsigned long long v;
	} cases[] = {
		{ "0", 10, 0, 0 },
		{ "+5", 10, 0, 5 },
		{ "18446744073709551615", 10, 0, 18446744073709551615ull },
		{ "18446744073709551616", 10, -ERANGE, 0 },
		{ "99999999999999999999999", 10, -ERANGE, 0 },
		{ "-1", 10, -EINVAL, 0 },
		{ "-0", 10, -EINVAL, 0 },
		{ "0x10", 0, 0, 16 },
		{ "0x10", 10, -EINVAL, 0 },
		{ "ffffffffffffffff", 16, 0, 18446744073709551615ull },
		{ "FF", 16, 0, 255 },
		{ "", 10, -EINVAL, 0 },
		{ " 5", 10, -EINVAL, 0 },
		{ "5x", 10, -EINVAL, 0 },
		{ "5 ", 10, -EINVAL, 0 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		unsigned long long v = 4242;
		int err = oom_parse_ull(cases[i].s, cases[i].base, &v);

		if (err != cases[i].err)
			fail_msg("oom_parse_ull(\"%s\", %d) = %d, want %d", cases[i].s, cases[i].base, err, cases[i].err);
		if (err == 0 && v != cases[i].v)
			fail_msg("oom_parse_ull(\"%s\") gave %llu", cases[i].s, v);
		if (err != 0 && v != 4242)
			fail_msg("oom_parse_ull(\"%s\") wrote its output on failure", cases[i].s);
	}
}

static void value_line(void **state)
{
	long long v = 0;

	(void)state;
	assert_int_equal(oom_parse_value_line(S("-1000\n"), &v), 0);
	assert_int_equal(v, -1000);
	assert_int_equal(oom_parse_value_line(S("1000"), &v), 0);
	assert_int_equal(v, 1000);
	assert_int_equal(oom_parse_value_line(S("0\n"), &v), 0);
	assert_int_equal(v, 0);
	assert_int_not_equal(oom_parse_value_line(S(""), &v), 0);
	assert_int_not_equal(oom_parse_value_line(S("\n"), &v), 0);
	assert_int_not_equal(oom_parse_value_line(S("5\n\n"), &v), 0);
	assert_int_not_equal(oom_parse_value_line(S(" 5\n"), &v), 0);
	assert_int_not_equal(oom_parse_value_line(S("5 \n"), &v), 0);
	assert_int_not_equal(oom_parse_value_line(S("5\n6\n"), &v), 0);
	assert_int_not_equal(oom_parse_value_line(S("0x10\n"), &v), 0);
	assert_int_not_equal(oom_parse_value_line(S("5\0\n"), &v), 0);
	assert_int_not_equal(oom_parse_value_line(S("99999999999999999999\n"), &v), 0);
	/* Only the first @len bytes count. */
	assert_int_equal(oom_parse_value_line("12345", 2, &v), 0);
	assert_int_equal(v, 12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stat_real),
		cmocka_unit_test(numbers_at_their_limits),
		cmocka_unit_test(stat_hostile_comms),
		cmocka_unit_test(stat_kthread),
		cmocka_unit_test(stat_negative_nice_long_comm),
		cmocka_unit_test(stat_truncated_everywhere),
		cmocka_unit_test(stat_garbage),
		cmocka_unit_test(stat_embedded_nul),
		cmocka_unit_test(status_real_values),
		cmocka_unit_test(status_upto),
		cmocka_unit_test(status_kthread),
		cmocka_unit_test(status_zombie),
		cmocka_unit_test(status_bad_values),
		cmocka_unit_test(status_truncated),
		cmocka_unit_test(status_name),
		cmocka_unit_test(statm),
		cmocka_unit_test(meminfo),
		cmocka_unit_test(cgroup),
		cmocka_unit_test(node_lists),
		cmocka_unit_test(numa_maps),
		cmocka_unit_test(parse_ll),
		cmocka_unit_test(parse_ull),
		cmocka_unit_test(value_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
