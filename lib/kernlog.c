// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Kernel OOM reports read back from logs: dmesg, journalctl -k and syslog
 * text in, one struct per report out. Pure functions over text, no I/O.
 * The task table is parsed from its own header line, so every dump_tasks
 * layout since 2.6.32 (and any later one that only adds numeric columns)
 * reads alike.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define MAX_COLUMNS 16

struct oom_log {
	struct oom_log_report *reports;
	size_t count, cap;
};

/* Parser state while walking the lines. */
struct parser {
	struct oom_log *log;
	struct oom_log_report *cur; /* the report lines are added to, or NULL */
	bool in_table;
	unsigned int columns[MAX_COLUMNS]; /* enum oom_log_column of each numeric column */
	size_t ncolumns;
	size_t tasks_cap;
};

static const struct {
	const char *name;
	unsigned int column;
} column_names[] = {
	{ "uid", OOM_LOG_UID },
	{ "tgid", OOM_LOG_TGID },
	{ "total_vm", OOM_LOG_TOTAL_VM },
	{ "rss", OOM_LOG_RSS },
	{ "rss_anon", OOM_LOG_RSS_ANON },
	{ "rss_file", OOM_LOG_RSS_FILE },
	{ "rss_shmem", OOM_LOG_RSS_SHMEM },
	{ "nr_ptes", OOM_LOG_NR_PTES },
	{ "nr_pmds", OOM_LOG_NR_PMDS },
	{ "pgtables_bytes", OOM_LOG_PGTABLES_BYTES },
	{ "swapents", OOM_LOG_SWAPENTS },
	{ "cpu", OOM_LOG_CPU },
	{ "oom_adj", OOM_LOG_OOM_ADJ },
	{ "oom_score_adj", OOM_LOG_OOM_SCORE_ADJ },
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool starts_with(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && memcmp(s, prefix, n) == 0;
}

/* memmem for a NUL-terminated needle. */
static const char *find(const char *s, size_t len, const char *needle)
{
	return memmem(s, len, needle, strlen(needle));
}

/* The last occurrence of @needle in @s[0..len). */
static const char *find_last(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle);

	for (size_t i = len >= n ? len - n + 1 : 0; i-- > 0;) {
		if (memcmp(s + i, needle, n) == 0)
			return s + i;
	}
	return NULL;
}

/* Copies @len bytes into a fixed field, cut to fit. */
static void copy_field(char *dst, size_t size, const char *s, size_t len)
{
	if (len >= size)
		len = size - 1;
	memcpy(dst, s, len);
	dst[len] = '\0';
}

/* A signed decimal at *@p (within @end); advances *@p past it. */
static bool parse_num(const char **p, const char *end, long long *v)
{
	const char *s = *p;
	bool neg = false;
	unsigned long long x = 0;

	if (s < end && (*s == '-' || *s == '+'))
		neg = *s++ == '-';
	if (s >= end || !is_digit(*s))
		return false;
	while (s < end && is_digit(*s)) {
		if (x > (unsigned long long)INT64_MAX / 10)
			return false;
		x = x * 10 + (unsigned long long)(*s++ - '0');
	}
	if (x > (unsigned long long)INT64_MAX)
		return false;
	*v = neg ? -(long long)x : (long long)x;
	*p = s;
	return true;
}

static bool parse_hex(const char **p, const char *end, unsigned long *v)
{
	const char *s = *p;
	unsigned long x = 0;
	int digits = 0;

	if (end - s >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (; s < end && digits < 16; s++, digits++) {
		char c = *s;
		unsigned int d;

		if (is_digit(c))
			d = (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned int)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned int)(c - 'A' + 10);
		else
			break;
		x = x << 4 | d;
	}
	if (!digits)
		return false;
	*v = x;
	*p = s;
	return true;
}

/* A bracket holding a dmesg timestamp: "[ 1234.567890]" or dmesg -T's "[Thu Mar  1 12:00:00 2024]". */
static size_t timestamp_len(const char *s, size_t len)
{
	const char *close;
	size_t i = 1, n;

	if (!len || s[0] != '[')
		return 0;
	close = memchr(s, ']', len < 48 ? len : 48);
	if (!close)
		return 0;
	n = (size_t)(close - s);
	while (i < n && s[i] == ' ')
		i++;
	if (i < n && is_digit(s[i])) {
		size_t dots = 0;

		for (; i < n; i++) {
			if (s[i] == '.')
				dots++;
			else if (!is_digit(s[i]))
				return 0;
		}
		return dots == 1 ? n + 1 : 0;
	}
	/* dmesg -T: a weekday name, then a time with colons. */
	if (n >= 20 && s[1] >= 'A' && s[1] <= 'Z' && memchr(s, ':', n))
		return n + 1;
	return 0;
}

/* CONFIG_PRINTK_CALLER's "[  T1234]" / "[ C1]" after the timestamp. */
static size_t caller_len(const char *s, size_t len)
{
	size_t i = 1;

	if (len < 3 || s[0] != '[')
		return 0;
	while (i < len && s[i] == ' ')
		i++;
	if (i >= len || (s[i] != 'T' && s[i] != 'C'))
		return 0;
	if (++i >= len || !is_digit(s[i]))
		return 0;
	while (i < len && is_digit(s[i]))
		i++;
	return i < len && s[i] == ']' ? i + 1 : 0;
}

/* "<4>" (dmesg -r) or /dev/kmsg's "4,1234,5678901,-;" record header. */
static size_t level_len(const char *s, size_t n)
{
	size_t i = 0, commas = 0;

	if (n >= 3 && s[0] == '<') {
		for (i = 1; i < n && i < 6 && is_digit(s[i]); i++)
			;
		return i > 1 && i < n && s[i] == '>' ? i + 1 : 0;
	}
	/* level,seq,usec,flags[,key=value...];message */
	for (; i < n && i < 64 && (is_digit(s[i]) || s[i] == ',' || (commas >= 3 && s[i] != ';')); i++)
		commas += s[i] == ',';
	return commas >= 3 && i < n && s[i] == ';' && is_digit(s[0]) ? i + 1 : 0;
}

/* A timestamp bracket and the printk caller id after it, with the space that follows. */
static size_t stamp_len(const char *s, size_t n)
{
	size_t skip = timestamp_len(s, n), c;

	if (!skip)
		return 0;
	/* The kernel console prints "][ T1]", dmesg(1) "] [ T1]". */
	c = caller_len(s + skip, n - skip);
	if (!c && n - skip > 1 && s[skip] == ' ' && (c = caller_len(s + skip + 1, n - skip - 1)))
		c++;
	skip += c;
	if (skip < n && s[skip] == ' ')
		skip++;
	return skip;
}

OOM_EXPORT const char *oom_log_strip_prefix(const char *line, size_t *len)
{
	const char *s = line, *k;
	size_t n = *len, skip;

	skip = level_len(s, n);
	s += skip;
	n -= skip;
	/* dmesg -x: "kern  :info  : " */
	if (starts_with(s, n, "kern ") || starts_with(s, n, "kern:")) {
		const char *c1 = memchr(s, ':', n);
		const char *c2 = c1 ? memchr(c1 + 1, ':', n - (size_t)(c1 + 1 - s)) : NULL;

		if (c2 && c2 - s < 16 && (size_t)(c2 + 1 - s) < n && c2[1] == ' ') {
			n -= (size_t)(c2 + 2 - s);
			s = c2 + 2;
		}
	}
	/* journalctl -o short-monotonic: "[ 1234.567890] host kernel: " */
	skip = stamp_len(s, n);
	s += skip;
	n -= skip;
	/* syslog and journalctl: "Mar  1 12:00:00 host kernel: " (no '[' before it). */
	k = find(s, n, "kernel: ");
	if (k && (k == s || k[-1] == ' ') && !memchr(s, '[', (size_t)(k - s))) {
		n -= (size_t)(k + 8 - s);
		s = k + 8;
		skip = level_len(s, n);
		s += skip;
		n -= skip;
		/* the kernel's own timestamp, when syslog kept it */
		skip = stamp_len(s, n);
		s += skip;
		n -= skip;
	}
	*len = n;
	return s;
}

static struct oom_log_report *new_report(struct parser *ps, size_t lineno)
{
	struct oom_log *log = ps->log;
	struct oom_log_report *r;

	if (log->count == log->cap) {
		size_t ncap = log->cap ? log->cap * 2 : 8;
		struct oom_log_report *n = realloc(log->reports, ncap * sizeof(*n));

		if (!n)
			return NULL;
		log->reports = n;
		log->cap = ncap;
	}
	r = &log->reports[log->count++];
	memset(r, 0, sizeof(*r));
	r->first_line = r->last_line = lineno;
	ps->cur = r;
	ps->in_table = false;
	ps->tasks_cap = 0;
	return r;
}

static void damage(struct oom_log_report *r, size_t lineno, const char *why)
{
	if (r->damage[0])
		return; /* the first problem is the one worth reading */
	snprintf(r->damage, sizeof(r->damage), "line %zu: %s", lineno, why);
}

/* "NAME invoked oom-killer: gfp_mask=0x..., order=N, oom_adj=N, oom_score_adj=N" */
static int parse_trigger(struct parser *ps, const char *s, size_t len, const char *at, size_t lineno)
{
	static const char marker[] = " invoked oom-killer: ";
	struct oom_log_report *r = new_report(ps, lineno);
	const char *end = s + len, *p;
	long long v;

	if (!r)
		return -ENOMEM;
	r->have_trigger = true;
	r->order = 0;
	copy_field(r->trigger, sizeof(r->trigger), s, (size_t)(at - s));
	s = at + sizeof(marker) - 1;
	len = (size_t)(end - s);
	p = find(s, len, "gfp_mask=");
	if (!p || (p += 9, !parse_hex(&p, end, &r->gfp_mask)))
		damage(r, lineno, "no gfp_mask in the 'invoked oom-killer' line");
	p = find(s, len, "order=");
	if (p && (p += 6, parse_num(&p, end, &v)))
		r->order = (int)v;
	p = find(s, len, " oom_adj=");
	if (p && (p += 9, parse_num(&p, end, &v))) {
		r->oom_adj = (int)v;
		r->have_oom_adj = true;
	}
	p = find(s, len, "oom_score_adj=");
	if (p && (p += 14, parse_num(&p, end, &v))) {
		r->oom_score_adj = (int)v;
		r->have_oom_score_adj = true;
	}
	return 0;
}

static void name_format(struct oom_log_report *r, const char *s, unsigned int have)
{
	const char *f;

	if (have & OOM_LOG_RSS_ANON)
		f = "6.8";
	else if (s[2] == ' ' && (have & OOM_LOG_PGTABLES_BYTES))
		f = "4.19"; /* "[  pid  ]": the pid column widened */
	else if (have & OOM_LOG_PGTABLES_BYTES)
		f = "4.15";
	else if (have & OOM_LOG_NR_PMDS)
		f = "4.0";
	else if (have & OOM_LOG_NR_PTES)
		f = "3.x";
	else if ((have & OOM_LOG_CPU) && (have & OOM_LOG_OOM_SCORE_ADJ))
		f = "2.6.36";
	else if (have & OOM_LOG_CPU)
		f = "2.6.32";
	else
		f = "other";
	copy_field(r->table_format, sizeof(r->table_format), f, strlen(f));
}

/* "[ pid ]   uid  tgid total_vm      rss ... name": learn the columns. */
static int parse_table_header(struct parser *ps, const char *s, size_t len, size_t lineno)
{
	struct oom_log_report *r = ps->cur;
	const char *p, *end;
	unsigned int have = 0;

	while (len && s[len - 1] == ' ')
		len--;
	p = memchr(s, ']', len);
	end = s + len - 4; /* before "name" */

	if (!r || r->ntasks || r->table_format[0] || r->have_victim || r->have_chosen) {
		r = new_report(ps, lineno);
		if (!r)
			return -ENOMEM;
		damage(r, lineno, "task table without an 'invoked oom-killer' line before it");
	}
	r->last_line = lineno;
	ps->ncolumns = 0;
	ps->in_table = false;
	for (p++; p < end;) {
		const char *w;
		size_t i;

		while (p < end && *p == ' ')
			p++;
		if (p >= end)
			break;
		w = p;
		while (p < end && *p != ' ')
			p++;
		for (i = 0; i < ARRAY_SIZE(column_names); i++) {
			if (strlen(column_names[i].name) == (size_t)(p - w) &&
			    memcmp(column_names[i].name, w, (size_t)(p - w)) == 0)
				break;
		}
		if (i == ARRAY_SIZE(column_names) || ps->ncolumns == MAX_COLUMNS || (have & column_names[i].column)) {
			damage(r, lineno, "task table with an unknown column");
			return 0;
		}
		ps->columns[ps->ncolumns++] = column_names[i].column;
		have |= column_names[i].column;
	}
	name_format(r, s, have);
	ps->in_table = true;
	return 0;
}

static bool is_table_header(const char *s, size_t len)
{
	while (len && s[len - 1] == ' ')
		len--;
	return (starts_with(s, len, "[ pid ]") || starts_with(s, len, "[  pid  ]")) && len > 12 &&
	       memcmp(s + len - 5, " name", 5) == 0;
}

/* "[ 1234]" at the start of a line: the shape of a task row. */
static bool looks_like_row(const char *s, size_t len)
{
	size_t i = 1;

	if (!len || s[0] != '[')
		return false;
	while (i < len && s[i] == ' ')
		i++;
	if (i >= len || !is_digit(s[i]))
		return false;
	while (i < len && is_digit(s[i]))
		i++;
	return i < len && s[i] == ']';
}

static void set_column(struct oom_log_task *t, unsigned int column, long long v)
{
	switch (column) {
	case OOM_LOG_UID: t->uid = (uid_t)v; break;
	case OOM_LOG_TGID: t->tgid = (pid_t)v; break;
	case OOM_LOG_TOTAL_VM: t->total_vm_pages = (unsigned long)v; break;
	case OOM_LOG_RSS: t->rss_pages = (unsigned long)v; break;
	case OOM_LOG_RSS_ANON: t->rss_anon_pages = (unsigned long)v; break;
	case OOM_LOG_RSS_FILE: t->rss_file_pages = (unsigned long)v; break;
	case OOM_LOG_RSS_SHMEM: t->rss_shmem_pages = (unsigned long)v; break;
	case OOM_LOG_NR_PTES: t->nr_ptes = (unsigned long)v; break;
	case OOM_LOG_NR_PMDS: t->nr_pmds = (unsigned long)v; break;
	case OOM_LOG_PGTABLES_BYTES: t->pgtables_bytes = (unsigned long)v; break;
	case OOM_LOG_SWAPENTS: t->swapents = (unsigned long)v; break;
	case OOM_LOG_CPU: t->cpu = (int)v; break;
	case OOM_LOG_OOM_ADJ: t->oom_adj = (int)v; break;
	case OOM_LOG_OOM_SCORE_ADJ: t->oom_score_adj = (int)v; break;
	}
	t->have |= column;
}

/* Which columns may be negative; the others must not be. */
#define SIGNED_COLUMNS (OOM_LOG_OOM_ADJ | OOM_LOG_OOM_SCORE_ADJ | OOM_LOG_PGTABLES_BYTES | OOM_LOG_NR_PTES)

static int parse_row(struct parser *ps, const char *s, size_t len, size_t lineno)
{
	struct oom_log_report *r = ps->cur;
	const char *p = s + 1, *end = s + len;
	struct oom_log_task t = { 0 };
	long long v;

	r->last_line = lineno;
	while (p < end && *p == ' ')
		p++;
	if (!parse_num(&p, end, &v) || v < 0 || v > INT32_MAX || p >= end || *p++ != ']')
		goto bad;
	t.pid = (pid_t)v;
	for (size_t i = 0; i < ps->ncolumns; i++) {
		if (p >= end || *p != ' ')
			goto bad;
		while (p < end && *p == ' ')
			p++;
		if (!parse_num(&p, end, &v) || (v < 0 && !(ps->columns[i] & SIGNED_COLUMNS)) ||
		    v < INT32_MIN || (v > INT32_MAX && ps->columns[i] & (OOM_LOG_UID | OOM_LOG_TGID | OOM_LOG_CPU)))
			goto bad;
		set_column(&t, ps->columns[i], v);
	}
	/* Exactly one space, then the name to the end of the line (it may hold spaces). */
	if (end - p < 2 || *p != ' ')
		goto bad;
	copy_field(t.name, sizeof(t.name), p + 1, (size_t)(end - p - 1));
	if (r->ntasks == ps->tasks_cap) {
		size_t ncap = ps->tasks_cap ? ps->tasks_cap * 2 : 32;
		struct oom_log_task *n = realloc(r->tasks, ncap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		r->tasks = n;
		ps->tasks_cap = ncap;
	}
	r->tasks[r->ntasks++] = t;
	return 0;
bad:
	damage(r, lineno, "malformed task table row");
	return 0;
}

/* The kill lines come after the table; a second one starts a (rate-limited) report of its own. */
static struct oom_log_report *kill_report(struct parser *ps, size_t lineno, bool victim)
{
	struct oom_log_report *r = ps->cur;

	if (!r || r->have_victim || (!victim && r->have_chosen))
		r = new_report(ps, lineno);
	if (r) {
		r->last_line = lineno;
		ps->in_table = false;
	}
	return r;
}

/* "PID (NAME) " with NAME up to the last ')' before @stop. */
static bool parse_pid_name(const char *p, const char *stop, pid_t *pid, char *name, size_t size)
{
	const char *close;
	long long v;

	if (!parse_num(&p, stop, &v) || v <= 0 || v > INT32_MAX || stop - p < 3 || p[0] != ' ' || p[1] != '(')
		return false;
	close = find_last(p + 2, (size_t)(stop - p - 2), ")");
	if (!close)
		return false;
	*pid = (pid_t)v;
	copy_field(name, size, p + 2, (size_t)(close - p - 2));
	return true;
}

/* "MSG: Kill process PID (NAME) score N or sacrifice child" */
static int parse_chosen(struct parser *ps, const char *s, size_t len, const char *at, size_t lineno)
{
	const char *end = s + len, *sc = find_last(s, len, ") score ");
	struct oom_log_report *r = kill_report(ps, lineno, false);
	long long v;

	if (!r)
		return -ENOMEM;
	if (at - s >= 2 && !r->message[0])
		copy_field(r->message, sizeof(r->message), s, (size_t)(at - s - 2));
	if (!sc || !parse_pid_name(at + 13, sc + 1, &r->chosen_pid, r->chosen, sizeof(r->chosen))) {
		damage(r, lineno, "malformed 'Kill process' line");
		return 0;
	}
	sc += 8;
	if (!parse_num(&sc, end, &v)) {
		damage(r, lineno, "malformed 'Kill process' line");
		return 0;
	}
	r->chosen_score = (long)v;
	r->have_chosen = true;
	return 0;
}

/* Reads "KEY:NkB" in @s; false when absent or malformed. */
static bool kb_field(const char *s, const char *end, const char *key, unsigned long *out)
{
	const char *p = find(s, (size_t)(end - s), key);
	long long v;

	if (!p)
		return false;
	p += strlen(key);
	if (!parse_num(&p, end, &v) || v < 0)
		return false;
	*out = (unsigned long)v;
	return true;
}

/* "[MSG: ]Killed process PID (NAME) total-vm:NkB, anon-rss:NkB, file-rss:NkB[, shmem-rss:NkB][, UID:N pgtables:NkB oom_score_adj:N]" */
static int parse_victim(struct parser *ps, const char *s, size_t len, const char *at, size_t lineno)
{
	const char *end = s + len, *vm = find(at, (size_t)(end - at), ") total-vm:");
	struct oom_log_report *r = kill_report(ps, lineno, true);
	const char *p;
	long long v;

	if (!r)
		return -ENOMEM;
	if (!vm)
		vm = find(at, (size_t)(end - at), ") vsz:");
	if (at - s >= 2 && at[-2] == ':')
		copy_field(r->message, sizeof(r->message), s, (size_t)(at - s - 2));
	if (!vm || !parse_pid_name(at + 15, vm + 1, &r->victim_pid, r->victim, sizeof(r->victim)) ||
	    !(kb_field(vm, end, "total-vm:", &r->victim_total_vm_kb) || kb_field(vm, end, "vsz:", &r->victim_total_vm_kb)) ||
	    !kb_field(vm, end, "anon-rss:", &r->victim_anon_rss_kb) ||
	    !kb_field(vm, end, "file-rss:", &r->victim_file_rss_kb)) {
		damage(r, lineno, "malformed 'Killed process' line");
		return 0;
	}
	r->have_victim_shmem = kb_field(vm, end, "shmem-rss:", &r->victim_shmem_rss_kb);
	p = find(vm, (size_t)(end - vm), "UID:");
	if (p && (p += 4, parse_num(&p, end, &v)) && v >= 0) {
		r->victim_uid = (uid_t)v;
		r->have_victim_uid = true;
	}
	kb_field(vm, end, "pgtables:", &r->victim_pgtables_kb);
	p = find(vm, (size_t)(end - vm), "oom_score_adj:");
	if (p && (p += 14, parse_num(&p, end, &v)))
		r->victim_oom_score_adj = (int)v;
	r->have_victim = true;
	return 0;
}

static int parse_line(struct parser *ps, const char *line, size_t len, size_t lineno)
{
	const char *s, *at;

	while (len && (line[len - 1] == '\r' || line[len - 1] == '\n'))
		len--;
	s = oom_log_strip_prefix(line, &len);
	if ((at = find(s, len, " invoked oom-killer: ")))
		return parse_trigger(ps, s, len, at, lineno);
	if (is_table_header(s, len))
		return parse_table_header(ps, s, len, lineno);
	if (ps->in_table && ps->cur && looks_like_row(s, len))
		return parse_row(ps, s, len, lineno);
	if ((at = find(s, len, "oom-kill:constraint="))) {
		const char *v = at + 20, *c = memchr(v, ',', (size_t)(s + len - v));

		if (ps->cur) {
			copy_field(ps->cur->constraint, sizeof(ps->cur->constraint), v,
				   (size_t)((c ? c : s + len) - v));
			ps->cur->last_line = lineno;
			ps->in_table = false;
		}
		return 0;
	}
	if ((at = find(s, len, "Kill process ")) && find(at, (size_t)(s + len - at), " or sacrifice child"))
		return parse_chosen(ps, s, len, at, lineno);
	if ((at = find(s, len, "Killed process ")) && (at == s || (at - s >= 2 && at[-2] == ':')))
		return parse_victim(ps, s, len, at, lineno);
	return 0;
}

OOM_EXPORT int oom_log_parse(const char *text, size_t len, struct oom_log **logp)
{
	struct parser ps = { 0 };
	size_t lineno = 0;
	int err = 0;

	if (!logp || (!text && len))
		return -EINVAL;
	ps.log = calloc(1, sizeof(*ps.log));
	if (!ps.log)
		return -ENOMEM;
	for (size_t off = 0; off < len && err == 0;) {
		const char *nl = memchr(text + off, '\n', len - off);
		size_t n = nl ? (size_t)(nl - (text + off)) : len - off;

		err = parse_line(&ps, text + off, n, ++lineno);
		off += n + 1;
	}
	if (err < 0) {
		oom_log_free(ps.log);
		return err;
	}
	for (size_t i = 0; i < ps.log->count; i++) {
		struct oom_log_report *r = &ps.log->reports[i];

		if (r->have_trigger && !r->table_format[0] && !r->have_chosen && !r->have_victim)
			damage(r, r->first_line, "incomplete report: no task table and no kill line");
	}
	*logp = ps.log;
	return 0;
}

OOM_EXPORT void oom_log_free(struct oom_log *log)
{
	if (!log)
		return;
	for (size_t i = 0; i < log->count; i++)
		free(log->reports[i].tasks);
	free(log->reports);
	free(log);
}

OOM_EXPORT size_t oom_log_count(const struct oom_log *log)
{
	return log ? log->count : 0;
}

OOM_EXPORT const struct oom_log_report *oom_log_report(const struct oom_log *log, size_t i)
{
	return log && i < log->count ? &log->reports[i] : NULL;
}

OOM_EXPORT void oom_log_task_to_task(const struct oom_log_task *lt, unsigned long page_size, struct oom_task *t)
{
	memset(t, 0, sizeof(*t));
	t->pid = lt->pid;
	t->tgid = lt->have & OOM_LOG_TGID ? lt->tgid : lt->pid;
	t->uid = lt->uid;
	memcpy(t->comm, lt->name, sizeof(t->comm));
	t->state = 'R';
	t->cpu = lt->cpu;
	t->total_vm_pages = lt->total_vm_pages;
	if (lt->have & OOM_LOG_RSS_ANON) {
		t->rss_anon_pages = lt->rss_anon_pages;
		t->rss_file_pages = lt->rss_file_pages;
		t->rss_shmem_pages = lt->rss_shmem_pages;
	} else {
		t->rss_anon_pages = lt->rss_pages; /* the split was not logged */
	}
	t->swap_pages = lt->swapents;
	if (lt->have & OOM_LOG_PGTABLES_BYTES)
		t->pgtables_bytes = lt->pgtables_bytes;
	else
		t->pgtables_bytes = (lt->nr_ptes + lt->nr_pmds) * page_size;
	t->oom_score_adj = lt->oom_score_adj;
	if (!(lt->have & OOM_LOG_OOM_SCORE_ADJ) && (lt->have & OOM_LOG_OOM_ADJ))
		oom_adj_to_score_adj(lt->oom_adj, &t->oom_score_adj);
	t->oom_score = -1;
	t->have = OOM_HAVE_STATUS | OOM_HAVE_STAT | OOM_HAVE_MM;
}

OOM_EXPORT int oom_log_format_2636_row(char *buf, size_t size, const struct oom_log_task *lt, unsigned long page_size,
				       enum oom_escape esc)
{
	char name[OOM_COMM_MAX * 4];
	struct oom_task t;
	int adj;

	oom_log_task_to_task(lt, page_size, &t);
	if (!(lt->have & OOM_LOG_OOM_ADJ))
		return oom_format_2636_row(buf, size, &t, esc);
	/* The logged oom_adj, not one recomputed: 2.6.36 stored both values. */
	adj = lt->oom_adj;
	oom_escape_name(name, sizeof(name), t.comm, esc);
	return snprintf(buf, size, "[%5d] %5d %5d %8lu %8lu %3u     %3d         %5d %s\n", (int)t.pid, (int)t.uid,
			(int)t.tgid, t.total_vm_pages, oom_task_rss_pages(&t), (unsigned int)t.cpu, adj,
			t.oom_score_adj, name);
}
