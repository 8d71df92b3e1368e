// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * oomtop: top for the OOM killer. Who would die first, and by how much,
 * refreshed every few seconds; new and exited processes arrive between
 * refreshes from the proc connector when the kernel lets us listen.
 */
#include <argp.h>
#include <curses.h>
#include <errno.h>
#include <locale.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

enum sort_key { SORT_SCORE, SORT_OOM_SCORE, SORT_ADJ, SORT_RSS, SORT_SWAP, SORT_PID, SORT_USER, SORT_COMMAND, SORT_COUNT };

static const char *const sort_names[SORT_COUNT] = {
	"score", "oom_score", "adj", "rss", "swap", "pid", "user", "command",
};

#define MAX_PIDS 256

struct args {
	const char *root;
	double delay;
	long long iterations; /* 0: forever */
	bool batch;
	pid_t pids[MAX_PIDS];
	size_t npids;
	bool have_uid;
	uid_t uid;
	enum oom_heuristic heuristic;
	enum sort_key sort;
	bool poll_only;
	size_t event_buffer;
	/* One constraint at most, as oomctl victim takes them. */
	const char *memcg;
	pid_t cpuset_of;
	const char *nodes;
};

/* One line of the table. */
struct row {
	const struct oom_task *t;
	long score;
	long oom_score; /* the kernel's, -1 unknown */
	bool eligible;
	int depth; /* 1 for a child shown under its parent (t) */
	char mark; /* 'V' the would-be victim, 'C' the child sacrificed for it */
};

/* ---- state ------------------------------------------------------------ */

static struct args args = { .delay = 2.0, .heuristic = OOM_HEURISTIC_REWRITE, .sort = SORT_SCORE };

static struct oom_ctx *ctx;
static struct oom_watch *watch; /* keeps each process's files open between refreshes */
static struct oom_snapshot *snap;
static struct oom_constraint *cons; /* NULL: system-wide */
static struct oom_events *events;
static const char *events_why = "polling"; /* header word when not listening */
static unsigned long overruns;
static long long sysctls[OOM_SYSCTL_COUNT];
static unsigned long totalpages;
static unsigned long kernel_totalpages; /* what /proc/PID/oom_score divides by */
static enum oom_total_source total_source;

/* Between two full scans: processes forked since (read one by one) and those that exited. */
static struct oom_task *extra;
static size_t n_extra, cap_extra;

/* A set of PIDs, appended to as events come and sorted once before lookups. */
struct pid_set {
	pid_t *pids;
	size_t n, cap;
	bool sorted;
};

static struct pid_set gone; /* exited since the last scan */
static struct pid_set pending; /* forked or exec'd since, not read yet */

static struct row *rows;
static size_t n_rows, cap_rows;
static size_t n_procs, n_protected;

/* The screen. */
static size_t sel, top_row;
static pid_t sel_pid;
static unsigned long long sel_start; /* start time of sel_pid, read when it was selected */
static bool tree, show_victim, paused, help;
static char name_filter[64];
static bool have_user_filter;
static uid_t user_filter;
static char status_line[256];
static bool curses_on;

static volatile sig_atomic_t quit_signal;
static const char *scan_step = "reading processes"; /* what the last scan failure was about */

/* ---- small helpers ------------------------------------------------------ */

static const char *user_name(uid_t uid, char *buf, size_t size)
{
	static struct {
		uid_t uid;
		char name[32];
	} cache[64];
	static size_t n;
	struct passwd *pw;

	for (size_t i = 0; i < n; i++)
		if (cache[i].uid == uid)
			return cache[i].name;
	pw = getpwuid(uid);
	if (pw)
		snprintf(buf, size, "%s", pw->pw_name);
	else
		snprintf(buf, size, "%u", (unsigned int)uid);
	if (n < sizeof(cache) / sizeof(cache[0])) {
		cache[n].uid = uid;
		snprintf(cache[n].name, sizeof(cache[n].name), "%s", buf);
		return cache[n++].name;
	}
	return buf;
}

/* 1536 -> "1.5K": one decimal below ten, whole units above. */
static void human(char *buf, size_t size, unsigned long long bytes)
{
	static const char units[] = "BKMGTPE";
	double v = (double)bytes;
	int i = 0;

	while (v >= 1024 && units[i + 1]) {
		v /= 1024;
		i++;
	}
	if (i == 0)
		snprintf(buf, size, "%lluB", bytes);
	else if (v < 10)
		snprintf(buf, size, "%.1f%c", (double)(long long)(v * 10) / 10, units[i]);
	else
		snprintf(buf, size, "%lld%c", (long long)v, units[i]);
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

static void set_add(struct pid_set *s, pid_t pid)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		pid_t *n = realloc(s->pids, cap * sizeof(*n));

		if (!n)
			return; /* the next scan shows it anyway */
		s->pids = n;
		s->cap = cap;
	}
	s->pids[s->n++] = pid;
	s->sorted = false;
}

static bool set_has(struct pid_set *s, pid_t pid)
{
	if (!s->n)
		return false;
	if (!s->sorted) {
		qsort(s->pids, s->n, sizeof(*s->pids), cmp_pid);
		s->sorted = true;
	}
	return bsearch(&pid, s->pids, s->n, sizeof(pid), cmp_pid) != NULL;
}

static bool is_gone(pid_t pid)
{
	return set_has(&gone, pid);
}

static void clear_between(void)
{
	for (size_t i = 0; i < n_extra; i++)
		oom_task_clear(&extra[i]);
	n_extra = 0;
	gone.n = 0;
	pending.n = 0;
}

/* ---- reading ------------------------------------------------------------ */

static unsigned int read_flags(bool need_stat)
{
	/*
	 * The table needs status and oom_score_adj; stat only for CPU times.
	 * OOM_SCORE is computed: the kernel heuristic reproduces it exactly,
	 * and not reading it saves a file per process on every refresh.
	 */
	return OOM_READ_STATUS | (need_stat ? OOM_READ_STAT : 0) |
	       (cons ? oom_constraint_read_flags(cons) : 0);
}

/* The constraint, made again at every scan: limits and node sizes change. */
static int make_constraint(void)
{
	struct oom_constraint *c = NULL;
	int err;

	if (args.memcg)
		err = oom_constraint_new_memcg(ctx, args.memcg, &c);
	else if (args.cpuset_of)
		err = oom_constraint_new_cpuset(ctx, args.cpuset_of, &c);
	else if (args.nodes)
		err = oom_constraint_new_mempolicy(ctx, args.nodes, &c);
	else
		return 0;
	if (err < 0)
		return err;
	oom_constraint_free(cons);
	cons = c;
	return 0;
}

static int full_scan(void)
{
	struct oom_snapshot *s = NULL;
	bool penalty, need_stat;
	int err;

	for (int i = 0; i < OOM_SYSCTL_COUNT; i++)
		if (oom_sysctl_get(ctx, (enum oom_sysctl)i, &sysctls[i]) < 0)
			sysctls[i] = -1;
	if (sysctls[OOM_SYSCTL_OOM_FORKBOMB_THRES] < 0)
		sysctls[OOM_SYSCTL_OOM_FORKBOMB_THRES] = 0;
	/*
	 * stat is read for all only for legacy's CPU and run times; the
	 * forkbomb penalty reads it for the children of a parent over the
	 * threshold, so a refresh reads status and oom_score_adj alone.
	 */
	scan_step = args.memcg ? "--memcg" : args.cpuset_of ? "--cpuset-of" : "--nodes";
	err = make_constraint();
	if (err < 0)
		return err;
	scan_step = "reading processes";
	penalty = args.heuristic == OOM_HEURISTIC_REWRITE && sysctls[OOM_SYSCTL_OOM_FORKBOMB_THRES] > 0;
	need_stat = args.heuristic == OOM_HEURISTIC_LEGACY;
	/* One ranking needs no watch: its files would be kept for nothing. */
	if (watch)
		err = oom_watch_scan(watch, read_flags(need_stat), &s);
	else
		err = oom_snapshot_new(ctx, read_flags(need_stat), &s);
	if (err == 0 && !need_stat && penalty)
		err = tool_read_forkbomb_stat(ctx, s, (unsigned long)sysctls[OOM_SYSCTL_OOM_FORKBOMB_THRES]);
	if (err < 0) {
		oom_snapshot_free(s);
		return err;
	}
	oom_snapshot_free(snap);
	snap = s;
	clear_between();
	if (cons)
		totalpages = oom_constraint_totalpages(cons, args.heuristic, &total_source);
	else
		totalpages = oom_system_totalpages(oom_snapshot_meminfo(snap), oom_snapshot_page_size(snap),
						   args.heuristic, &total_source);
	kernel_totalpages = oom_system_totalpages(oom_snapshot_meminfo(snap), oom_snapshot_page_size(snap),
						  OOM_HEURISTIC_KERNEL, NULL);
	return 0;
}

/* A process forked or exec'd since the last scan: read it alone. */
static void add_extra(pid_t pid)
{
	struct oom_task t;

	if (oom_snapshot_find(snap, pid))
		return; /* exec of a known process: the next scan has its new figures */
	if (oom_task_read(ctx, pid, read_flags(false), &t) < 0)
		return;
	/* Seen at its fork already: an exec brings a new name and memory. */
	for (size_t i = 0; i < n_extra; i++) {
		if (extra[i].tgid == pid) {
			oom_task_clear(&extra[i]);
			extra[i] = t;
			return;
		}
	}
	if (n_extra == cap_extra) {
		size_t cap = cap_extra ? cap_extra * 2 : 64;
		struct oom_task *n = realloc(extra, cap * sizeof(*n));

		if (!n) {
			oom_task_clear(&t);
			return;
		}
		extra = n;
		cap_extra = cap;
	}
	extra[n_extra++] = t;
}

static bool pid_wanted(pid_t pid);

/*
 * Reads the processes that forked or exec'd since the last draw, unless
 * they have exited already: most of a fork storm never costs a read.
 */
static void read_pending(void)
{
	if (pending.n) /* pids is NULL until the first event */
		qsort(pending.pids, pending.n, sizeof(*pending.pids), cmp_pid);
	for (size_t i = 0; i < pending.n; i++) {
		pid_t pid = pending.pids[i];

		/* A fork and its exec are one read. */
		if ((i && pid == pending.pids[i - 1]) || is_gone(pid))
			continue;
		add_extra(pid);
	}
	pending.n = 0;
}

/*
 * Drains the event socket. Returns true when the table may have changed;
 * an overrun (a fork storm) is answered with a full scan.
 */
static bool drain_events(void)
{
	struct oom_event e;
	bool changed = false;
	int r, budget = 4096;

	while (budget-- > 0 && (r = oom_events_next(events, &e)) != 0) {
		if (r == -ENOBUFS) {
			overruns++;
			full_scan();
			return true;
		}
		if (r < 0)
			break;
		if (!oom_event_is_process(&e))
			continue;
		if (!pid_wanted(e.tgid))
			continue; /* -p: nobody else is shown */
		if (e.type == OOM_EVENT_EXIT) {
			const size_t *kids;
			size_t n = snap ? oom_snapshot_children(snap, e.tgid, &kids) : 0;

			/* Its children get a new parent: PPid changes with no trace in statm. */
			for (size_t i = 0; i < n; i++)
				oom_watch_invalidate(watch, oom_snapshot_task(snap, kids[i])->tgid);
			set_add(&gone, e.tgid);
			/* Only a process on the table changes it. */
			changed |= oom_snapshot_find(snap, e.tgid) != NULL;
			for (size_t i = 0; i < n_extra && !changed; i++)
				changed = extra[i].tgid == e.tgid;
		} else if (e.type == OOM_EVENT_FORK || e.type == OOM_EVENT_EXEC) {
			/* A new program: its name, uid and caps may change with no trace in statm. */
			if (e.type == OOM_EVENT_EXEC)
				oom_watch_invalidate(watch, e.tgid);
			set_add(&pending, e.tgid);
			changed = true;
		}
	}
	return changed;
}

/* ---- the table ---------------------------------------------------------- */

static bool pid_wanted(pid_t pid)
{
	if (!args.npids)
		return true;
	for (size_t i = 0; i < args.npids; i++)
		if (args.pids[i] == pid)
			return true;
	return false;
}

static bool row_filtered_out(const struct oom_task *t)
{
	if (!pid_wanted(t->tgid))
		return true;
	if (args.have_uid && t->uid != args.uid)
		return true;
	if (have_user_filter && t->uid != user_filter)
		return true;
	if (name_filter[0] && !strstr(t->comm, name_filter))
		return true;
	return false;
}

static void score_row(struct row *r, const struct oom_task *t)
{
	struct oom_score_params p = {
		.heuristic = args.heuristic,
		.totalpages = totalpages,
		.forkbomb_thres = (unsigned long)sysctls[OOM_SYSCTL_OOM_FORKBOMB_THRES],
	};
	struct oom_score_params kp = { .heuristic = OOM_HEURISTIC_KERNEL, .totalpages = kernel_totalpages };
	struct oom_score_terms terms;

	memset(r, 0, sizeof(*r));
	r->t = t;
	r->oom_score = oom_score_task(snap, t, &kp, &terms) == 0 ? terms.oom_score : -1;
	if (oom_score_task(snap, t, &p, &terms) < 0)
		return;
	r->eligible = terms.eligible;
	/* The kernel heuristic's points are shown as /proc/PID/oom_score shows them. */
	r->score = args.heuristic == OOM_HEURISTIC_KERNEL ? terms.oom_score : terms.score;
	if (!r->eligible)
		r->score = 0;
}

static int cmp_str(const char *a, const char *b)
{
	int c = strcmp(a, b);

	return (c > 0) - (c < 0);
}

static int cmp_rows(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	char ua[32], ub[32];
	long long x = 0, y = 0;
	int c = 0;

	switch (args.sort) {
	case SORT_SCORE:
		x = a->eligible ? a->score : -1;
		y = b->eligible ? b->score : -1;
		break;
	case SORT_OOM_SCORE:
		x = a->oom_score;
		y = b->oom_score;
		break;
	case SORT_ADJ:
		x = a->t->oom_score_adj;
		y = b->t->oom_score_adj;
		break;
	case SORT_RSS:
		x = (long long)oom_task_rss_pages(a->t);
		y = (long long)oom_task_rss_pages(b->t);
		break;
	case SORT_SWAP:
		x = (long long)a->t->swap_pages;
		y = (long long)b->t->swap_pages;
		break;
	case SORT_PID:
		break;
	case SORT_USER:
		c = cmp_str(user_name(a->t->uid, ua, sizeof(ua)), user_name(b->t->uid, ub, sizeof(ub)));
		break;
	case SORT_COMMAND:
		c = cmp_str(a->t->comm, b->t->comm);
		break;
	case SORT_COUNT:
		break;
	}
	if (!c)
		c = (x < y) - (x > y); /* numbers: largest first */
	if (!c)
		c = (a->t->tgid > b->t->tgid) - (a->t->tgid < b->t->tgid);
	return c;
}

static struct row *push_row(void)
{
	if (n_rows == cap_rows) {
		size_t cap = cap_rows ? cap_rows * 2 : 256;
		struct row *n = realloc(rows, cap * sizeof(*n));

		if (!n)
			return NULL;
		rows = n;
		cap_rows = cap;
	}
	return &rows[n_rows++];
}

/* The outcome of a simulated OOM now, for the 'v' key (the library's selection). */
static char victim_line[4 * OOM_COMM_MAX + 96];

/*
 * Marks the task the OOM killer would pick now (V) and the child it would
 * kill in its place (C), system-wide, by the rules of the heuristic's kernel.
 */
static void mark_victim(void)
{
	struct oom_select_params p = {
		.heuristic = args.heuristic,
		.forkbomb_thres = (unsigned long)sysctls[OOM_SYSCTL_OOM_FORKBOMB_THRES],
		.panic_on_oom = sysctls[OOM_SYSCTL_PANIC_ON_OOM] > 0 ? (int)sysctls[OOM_SYSCTL_PANIC_ON_OOM] : 0,
		.escape = OOM_ESCAPE_CONTROL,
	};
	struct oom_selection sel_out;
	char name[4 * OOM_COMM_MAX + 8];

	victim_line[0] = '\0';
	if (oom_select(snap, cons, &p, &sel_out) < 0)
		return;
	switch (sel_out.outcome) {
	case OOM_OUTCOME_KILL:
		oom_escape_name(name, sizeof(name), sel_out.victim->comm, OOM_ESCAPE_CONTROL);
		snprintf(victim_line, sizeof(victim_line), "  victim %d (%s)%s", (int)sel_out.victim->tgid, name,
			 sel_out.sacrificed ? " sacrificed for its parent" : "");
		break;
	case OOM_OUTCOME_PANIC:
		snprintf(victim_line, sizeof(victim_line), "  would panic (vm.panic_on_oom)");
		break;
	case OOM_OUTCOME_IN_PROGRESS:
		snprintf(victim_line, sizeof(victim_line), "  a kill is already in progress: %d",
			 sel_out.in_progress ? (int)sel_out.in_progress->tgid : 0);
		break;
	case OOM_OUTCOME_NO_KILLABLE:
		snprintf(victim_line, sizeof(victim_line), "  no killable processes");
		break;
	}
	if (sel_out.outcome != OOM_OUTCOME_KILL)
		return;
	for (size_t i = 0; i < n_rows; i++) {
		if (rows[i].t->tgid == sel_out.chosen->tgid)
			rows[i].mark = 'V';
		else if (sel_out.sacrificed && rows[i].t->tgid == sel_out.victim->tgid)
			rows[i].mark = 'C';
	}
}

static void build_rows(void)
{
	size_t n_top;

	n_rows = n_procs = n_protected = 0;
	for (size_t i = 0; i < oom_snapshot_count(snap) + n_extra; i++) {
		const struct oom_task *t = i < oom_snapshot_count(snap) ? oom_snapshot_task(snap, i)
									 : &extra[i - oom_snapshot_count(snap)];
		struct row *r;

		if (!oom_task_dumpable(t) || is_gone(t->tgid) || (cons && !oom_constraint_is_candidate(cons, t)))
			continue;
		n_procs++;
		if (t->oom_score_adj == OOM_SCORE_ADJ_MIN)
			n_protected++;
		if (row_filtered_out(t))
			continue;
		r = push_row();
		if (!r)
			break;
		score_row(r, t);
	}
	if (rows && n_rows) /* rows is NULL when nothing passed the filters */
		qsort(rows, n_rows, sizeof(*rows), cmp_rows);
	if (tree) {
		/* Each task's children (the sacrifice candidates) under it, one level deep. */
		struct row *top = malloc((n_rows ? n_rows : 1) * sizeof(*top));

		if (!top)
			return;
		n_top = rows ? n_rows : 0;
		if (n_top)
			memcpy(top, rows, n_top * sizeof(*top));
		n_rows = 0;
		for (size_t i = 0; i < n_top; i++) {
			const size_t *idx;
			size_t n = oom_snapshot_children(snap, top[i].t->tgid, &idx);
			struct row *r = push_row();

			if (!r)
				break;
			*r = top[i];
			for (size_t k = 0; k < n; k++) {
				const struct oom_task *c = oom_snapshot_task(snap, idx[k]);

				if (!oom_task_dumpable(c) || is_gone(c->tgid))
					continue;
				r = push_row();
				if (!r)
					break;
				score_row(r, c);
				r->depth = 1;
			}
		}
		free(top);
	}
	if (show_victim)
		mark_victim();
}

/* ---- text --------------------------------------------------------------- */

static const char *source_name(enum oom_total_source s)
{
	switch (s) {
	case OOM_TOTAL_LRU_SWAP:
		return "LRU+SwapTotal";
	case OOM_TOTAL_RAM_SWAP:
		return "MemTotal+SwapTotal";
	case OOM_TOTAL_MEMCG:
		return "memcg limit";
	case OOM_TOTAL_NODES:
		return "nodes";
	}
	return "?";
}

/* The three summary lines; each fits in @size. */
static void header_lines(char lines[3][256])
{
	const struct oom_meminfo *mi = oom_snapshot_meminfo(snap);
	char mem[16], swap[16], mode[64], constraint[96];

	human(mem, sizeof(mem), mi->mem_total_kb * 1024);
	human(swap, sizeof(swap), mi->swap_total_kb * 1024);
	snprintf(lines[0], 256, "totalpages %lu (%s)  MemTotal %s  SwapTotal %s", totalpages,
		 source_name(total_source), mem, swap);
	snprintf(lines[1], 256, "vm.panic_on_oom %lld  vm.oom_dump_tasks %lld  vm.oom_kill_allocating_task %lld  "
		 "vm.oom_forkbomb_thres %lld", sysctls[OOM_SYSCTL_PANIC_ON_OOM], sysctls[OOM_SYSCTL_OOM_DUMP_TASKS],
		 sysctls[OOM_SYSCTL_OOM_KILL_ALLOCATING_TASK], sysctls[OOM_SYSCTL_OOM_FORKBOMB_THRES]);
	if (events && overruns)
		snprintf(mode, sizeof(mode), "events (%lu overrun%s, rescanned)", overruns, overruns == 1 ? "" : "s");
	else
		snprintf(mode, sizeof(mode), "%s", events ? "events" : events_why);
	if (args.memcg)
		snprintf(constraint, sizeof(constraint), "memcg %s", args.memcg);
	else if (args.cpuset_of)
		snprintf(constraint, sizeof(constraint), "cpuset of %d", (int)args.cpuset_of);
	else if (args.nodes)
		snprintf(constraint, sizeof(constraint), "mempolicy %s", args.nodes);
	else
		snprintf(constraint, sizeof(constraint), "none");
	snprintf(lines[2], 256, "heuristic %s  constraint %s  delay %gs  %s %zu (%zu at -1000)  %s%s",
		 oom_heuristic_name(args.heuristic), constraint, args.delay, cons ? "candidates" : "processes", n_procs,
		 n_protected, mode, paused ? "  PAUSED" : "");
}

#define TABLE_HEAD "    PID USER         SCORE OOM_SCORE   ADJ    RSS   SWAP  %MEM COMMAND"

static void format_row(const struct row *r, char *buf, size_t size)
{
	const struct oom_task *t = r->t;
	const struct oom_meminfo *mi = oom_snapshot_meminfo(snap);
	unsigned long page = oom_snapshot_page_size(snap);
	char ubuf[32], user[16], rss[24], swp[24], cmd[4 * OOM_COMM_MAX + 8], oscore[24];
	double pct = mi->mem_total_kb ? (double)oom_task_rss_pages(t) * (double)page / 1024.0 * 100.0 /
						(double)mi->mem_total_kb
				      : 0.0;
	const char *u = user_name(t->uid, ubuf, sizeof(ubuf));

	/* Names longer than the column end in '+', as top shows them. */
	if (strlen(u) > 8)
		snprintf(user, sizeof(user), "%.7s+", u);
	else
		snprintf(user, sizeof(user), "%s", u);
	human(rss, sizeof(rss), (unsigned long long)oom_task_rss_pages(t) * page);
	human(swp, sizeof(swp), (unsigned long long)t->swap_pages * page);
	oom_escape_name(cmd, sizeof(cmd), t->comm, OOM_ESCAPE_CONTROL);
	if (r->oom_score >= 0)
		snprintf(oscore, sizeof(oscore), "%ld", r->oom_score);
	else
		snprintf(oscore, sizeof(oscore), "-");
	snprintf(buf, size, "%c%6d %-8s %9ld %9s %5d %6s %6s %5.1f %s%s", r->mark ? r->mark : ' ', (int)t->tgid, user,
		 r->score, oscore, t->oom_score_adj, rss, swp, pct, r->depth ? "`- " : "", cmd);
}

/* ---- batch mode --------------------------------------------------------- */

static int run_batch(void)
{
	char lines[3][256], line[512];

	for (long long it = 0; !args.iterations || it < args.iterations; it++) {
		if (quit_signal)
			break;
		if (it) {
			struct timespec ts = { (time_t)args.delay,
					       (long)((args.delay - (double)(time_t)args.delay) * 1e9) };

			nanosleep(&ts, NULL);
			if (quit_signal)
				break;
		}
		int err = full_scan();

		if (err < 0) {
			tool_error_errno(err, scan_step);
			return EXIT_FAIL;
		}
		build_rows();
		header_lines(lines);
		if (it)
			putchar('\n');
		printf("%s\n%s\n%s\n\n%s\n", lines[0], lines[1], lines[2], TABLE_HEAD);
		for (size_t i = 0; i < n_rows; i++) {
			format_row(&rows[i], line, sizeof(line));
			puts(line);
		}
		if (fflush(stdout) != 0 || ferror(stdout)) {
			tool_error("write error: %s", strerror(errno));
			return EXIT_FAIL;
		}
	}
	return EXIT_OK;
}

/* ---- the screen --------------------------------------------------------- */

static void restore_terminal(void)
{
	if (curses_on) {
		curses_on = false;
		endwin();
	}
}

static void on_quit_signal(int sig)
{
	quit_signal = sig;
}

/* A crash still hands the terminal back, then dies of the same signal. */
static void on_crash_signal(int sig)
{
	restore_terminal();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install_signals(void)
{
	static const int crash[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_quit_signal; /* no SA_RESTART: poll() returns at once */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_crash_signal;
	sa.sa_flags = SA_RESETHAND;
	for (size_t i = 0; i < sizeof(crash) / sizeof(crash[0]); i++)
		sigaction(crash[i], &sa, NULL);
}

static void set_status(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void set_status(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(status_line, sizeof(status_line), fmt, ap);
	va_end(ap);
}

static int table_height(void)
{
	int h = LINES - 6; /* three header lines, a blank, the column heads, the status line */

	return h > 1 ? h : 1;
}

/*
 * Pins the selected row's PID with its start time, read now: a write after
 * the PID was reused is refused. Every change of the selected row calls it
 * at once, so a key that writes never pairs one PID with another's start.
 */
static void pin_selection(void)
{
	struct oom_task t;

	if (!n_rows || rows[sel].t->tgid == sel_pid)
		return;
	sel_pid = rows[sel].t->tgid;
	sel_start = 0;
	if (oom_task_read(ctx, sel_pid, OOM_READ_STAT, &t) == 0) {
		sel_start = t.start_ticks;
		oom_task_clear(&t);
	}
}

/* Keeps the selection on the same PID across refreshes. */
static void follow_selection(void)
{
	if (!n_rows) {
		sel = 0;
		sel_pid = 0;
		return;
	}
	if (sel_pid) {
		for (size_t i = 0; i < n_rows; i++) {
			if (rows[i].t->tgid == sel_pid) {
				sel = i;
				break;
			}
		}
	}
	if (sel >= n_rows)
		sel = n_rows - 1;
	pin_selection();
	if (sel < top_row)
		top_row = sel;
	if (sel >= top_row + (size_t)table_height())
		top_row = sel - (size_t)table_height() + 1;
}

static void draw_help(void)
{
	static const char *const text[] = {
		"oomtop keys",
		"",
		"  Up Down PgUp PgDn Home End   select a process",
		"  + -      raise / lower the selected oom_score_adj by 100",
		"  =        set the selected oom_score_adj to a value",
		"  s        next sort column        H   next heuristic",
		"  /        filter by name           u   filter by user",
		"  t        children under each task (sacrifice candidates)",
		"  v        mark the would-be victim (V) and its sacrificed child (C)",
		"  p        pause / resume          space  refresh now",
		"  h ?      this help               q   quit",
		"",
		"Press any key to return.",
	};

	erase();
	for (size_t i = 0; i < sizeof(text) / sizeof(text[0]); i++)
		mvaddstr((int)i + 1, 2, text[i]);
	refresh();
}

static void draw(void)
{
	char lines[3][256], line[512];
	int h = table_height();

	if (help) {
		draw_help();
		return;
	}
	follow_selection();
	header_lines(lines);
	erase();
	mvaddnstr(0, 0, lines[0], COLS);
	mvaddnstr(1, 0, lines[1], COLS);
	mvaddnstr(2, 0, lines[2], COLS);
	if (name_filter[0] || have_user_filter || tree || show_victim) {
		char ubuf[32];

		snprintf(line, sizeof(line), "sort %s%s%s%s%s%s%s", sort_names[args.sort], name_filter[0] ? "  name~" : "",
			 name_filter, have_user_filter ? "  user " : "",
			 have_user_filter ? user_name(user_filter, ubuf, sizeof(ubuf)) : "", tree ? "  tree" : "",
			 show_victim ? victim_line : "");
		mvaddnstr(3, 0, line, COLS);
	} else {
		snprintf(line, sizeof(line), "sort %s", sort_names[args.sort]);
		mvaddnstr(3, 0, line, COLS);
	}
	attron(A_REVERSE);
	snprintf(line, sizeof(line), "%-*s", COLS > 0 ? COLS : 1, TABLE_HEAD);
	mvaddnstr(4, 0, line, COLS);
	attroff(A_REVERSE);
	for (int i = 0; i < h && top_row + (size_t)i < n_rows; i++) {
		const struct row *r = &rows[top_row + (size_t)i];

		format_row(r, line, sizeof(line));
		if (top_row + (size_t)i == sel)
			attron(A_REVERSE);
		if (r->mark)
			attron(A_BOLD);
		mvaddnstr(5 + i, 0, line, COLS);
		if (top_row + (size_t)i == sel)
			chgat(-1, A_REVERSE, 0, NULL);
		attroff(A_REVERSE | A_BOLD);
	}
	mvaddnstr(LINES - 1, 0, status_line, COLS);
	refresh();
}

/* Reads a line on the status line; false when cancelled (Escape or empty with @allow_empty false). */
static bool prompt(const char *what, char *buf, int size)
{
	int y = LINES - 1, r;

	move(y, 0);
	clrtoeol();
	mvaddstr(y, 0, what);
	echo();
	curs_set(1);
	nodelay(stdscr, FALSE);
	r = getnstr(buf, size - 1);
	nodelay(stdscr, TRUE);
	curs_set(0);
	noecho();
	status_line[0] = '\0';
	return r == OK;
}

static void write_adj(int value)
{
	const struct row *r;
	int old = 0, err;

	if (!n_rows) {
		set_status("no process selected");
		return;
	}
	/* Rows may have been rebuilt since the last draw: back to the pinned PID. */
	follow_selection();
	r = &rows[sel];
	if (value < OOM_SCORE_ADJ_MIN)
		value = OOM_SCORE_ADJ_MIN;
	if (value > OOM_SCORE_ADJ_MAX)
		value = OOM_SCORE_ADJ_MAX;
	err = oom_score_adj_write(ctx, r->t->tgid, value, sel_start, &old);
	switch (err) {
	case 0:
		set_status("PID %d: oom_score_adj %d -> %d", (int)r->t->tgid, old, value);
		break;
	case -EACCES:
		set_status("PID %d: cannot set oom_score_adj %d: permission denied (lowering it needs CAP_SYS_RESOURCE)",
			   (int)r->t->tgid, value);
		break;
	case -ESRCH:
		set_status("PID %d: no such process", (int)r->t->tgid);
		break;
	case -ESTALE:
		set_status("PID %d was reused by another process; nothing changed", (int)r->t->tgid);
		break;
	case -EPERM:
		set_status("PID %d: operation not permitted (a kernel thread, or not yours)", (int)r->t->tgid);
		break;
	default:
		set_status("PID %d: cannot set oom_score_adj %d: %s", (int)r->t->tgid, value, strerror(-err));
		break;
	}
}

static void set_user_filter(const char *s)
{
	struct passwd *pw;
	long long v;

	have_user_filter = false;
	if (!*s)
		return;
	pw = getpwnam(s);
	if (pw) {
		user_filter = pw->pw_uid;
		have_user_filter = true;
	} else if (oom_parse_ll(s, 10, &v) == 0 && v >= 0 && v <= UINT32_MAX) {
		user_filter = (uid_t)v;
		have_user_filter = true;
	} else {
		set_status("no such user: %s", s);
	}
}

/* Handles one key; returns true when the data must be re-read. */
static bool handle_key(int ch)
{
	char buf[64];
	size_t page = (size_t)table_height();

	if (help) {
		help = false;
		return false;
	}
	switch (ch) {
	case 'q':
		quit_signal = -1;
		break;
	case KEY_UP:
		if (sel > 0)
			sel--;
		pin_selection();
		break;
	case KEY_DOWN:
		if (sel + 1 < n_rows)
			sel++;
		pin_selection();
		break;
	case KEY_PPAGE:
		sel = sel > page ? sel - page : 0;
		pin_selection();
		break;
	case KEY_NPAGE:
		sel = n_rows && sel + page < n_rows ? sel + page : (n_rows ? n_rows - 1 : 0);
		pin_selection();
		break;
	case KEY_HOME:
		sel = 0;
		pin_selection();
		break;
	case KEY_END:
		sel = n_rows ? n_rows - 1 : 0;
		pin_selection();
		break;
	case '+':
	case '-':
		if (n_rows)
			write_adj(rows[sel].t->oom_score_adj + (ch == '+' ? 100 : -100));
		return true;
	case '=':
		if (!n_rows)
			break;
		snprintf(buf, sizeof(buf), "oom_score_adj for PID %d: ", (int)rows[sel].t->tgid);
		{
			char val[32] = "";
			long long v;

			if (!prompt(buf, val, sizeof(val)) || !val[0])
				break;
			if (oom_parse_ll(val, 10, &v) < 0 || v < OOM_SCORE_ADJ_MIN || v > OOM_SCORE_ADJ_MAX)
				set_status("'%s': not a value between -1000 and 1000", val);
			else
				write_adj((int)v);
		}
		return true;
	case 's':
		args.sort = (enum sort_key)((args.sort + 1) % SORT_COUNT);
		break;
	case 'H':
		args.heuristic = (enum oom_heuristic)((args.heuristic + 1) % 3);
		return true;
	case '/':
		buf[0] = '\0';
		if (prompt("filter by name (empty: all): ", buf, sizeof(name_filter)))
			snprintf(name_filter, sizeof(name_filter), "%s", buf);
		break;
	case 'u':
		buf[0] = '\0';
		if (prompt("filter by user (empty: all): ", buf, sizeof(buf)))
			set_user_filter(buf);
		break;
	case 't':
		tree = !tree;
		break;
	case 'v':
		show_victim = !show_victim;
		break;
	case 'p':
		paused = !paused;
		return !paused;
	case 'h':
	case '?':
		help = true;
		break;
	case KEY_RESIZE:
		break;
	default:
		return true; /* any other key refreshes at once */
	}
	return false;
}

static double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Changes that events bring are shown at most this often (seconds). */
#define EVENT_REDRAW_SEC 0.25

static int run_screen(void)
{
	double last_draw;
	bool event_dirty = false;
	double next;
	long long it = 0;
	int err;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		tool_error("not a terminal: use -b for batch output");
		return EXIT_FAIL;
	}
	err = full_scan();
	if (err < 0) {
		tool_error_errno(err, scan_step);
		return EXIT_FAIL;
	}
	install_signals();
	initscr();
	curses_on = true;
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	build_rows();
	draw();
	next = now_sec() + args.delay;
	last_draw = now_sec();
	while (!quit_signal) {
		struct pollfd pfd[2] = { { .fd = STDIN_FILENO, .events = POLLIN }, { .fd = -1, .events = POLLIN } };
		double wait = next - now_sec();
		bool rescan = false, redraw = false;
		int ch;

		/* Paused, events wait in the socket (an overrun on resume means a rescan). */
		if (events && !paused)
			pfd[1].fd = oom_events_fd(events);
		if (event_dirty && last_draw + EVENT_REDRAW_SEC - now_sec() < wait)
			wait = last_draw + EVENT_REDRAW_SEC - now_sec();
		if (poll(pfd, 2, wait > 0 ? (int)(wait * 1000) + 1 : 0) < 0 && errno != EINTR)
			break;
		while ((ch = getch()) != ERR) {
			/* Re-read before the next key, so that "+ +" adds 200, not 100 twice. */
			if (handle_key(ch) && !paused) {
				full_scan();
				build_rows();
				next = now_sec() + args.delay;
			}
			redraw = true;
			if (quit_signal)
				break;
		}
		if (quit_signal)
			break;
		if (events && (pfd[1].revents & POLLIN))
			event_dirty |= drain_events();
		/* A fork storm redraws a few times a second, not once per event. */
		if (event_dirty && now_sec() >= last_draw + EVENT_REDRAW_SEC)
			redraw = true;
		if (now_sec() >= next) {
			/* Paused: nothing is read; the timer just moves on. */
			if (paused)
				next = now_sec() + args.delay;
			else
				rescan = true;
		}
		if (rescan) {
			it++;
			if (args.iterations && it >= args.iterations)
				break;
			full_scan();
			next = now_sec() + args.delay;
		}
		if (redraw || rescan) {
			read_pending();
			build_rows();
			draw();
			last_draw = now_sec();
			event_dirty = false;
		}
	}
	restore_terminal();
	return EXIT_OK;
}

/* ---- arguments ---------------------------------------------------------- */

enum { OPT_HEURISTIC = 256, OPT_SORT, OPT_POLL, OPT_EVENT_BUFFER, OPT_MEMCG, OPT_CPUSET_OF, OPT_NODES };

static const struct argp_option options[] = {
	{ "delay", 'd', "SECS", 0, "Refresh every SECS seconds (default 2; fractions allowed)", 0 },
	{ "iterations", 'n', "N", 0, "Stop after N refreshes", 0 },
	{ "batch", 'b', NULL, 0, "Print plain-text rankings to stdout, no screen", 0 },
	{ "pid", 'p', "PID,...", 0, "Show only these processes", 0 },
	{ "user", 'u', "USER", 0, "Show only processes of USER (name or uid)", 0 },
	{ "heuristic", OPT_HEURISTIC, "H", 0, "rewrite (default), kernel or legacy", 0 },
	{ "sort", OPT_SORT, "COLUMN", 0, "score (default), oom_score, adj, rss, swap, pid, user or command", 0 },
	{ "root", 'r', "DIR", 0, "Read /proc and /sys under DIR (default: $OOM_ROOT or /)", 0 },
	{ "memcg", OPT_MEMCG, "PATH", 0, "A memory cgroup OOM: its tasks, scored against its limit", 0 },
	{ "cpuset-of", OPT_CPUSET_OF, "PID", 0, "A cpuset OOM: the tasks sharing PID's memory nodes", 0 },
	{ "nodes", OPT_NODES, "LIST", 0, "A mempolicy OOM on node LIST (e.g. 0-1,3)", 0 },
	{ "poll", OPT_POLL, NULL, 0, "Do not listen to process events; rescan /proc only", 0 },
	{ "event-buffer", OPT_EVENT_BUFFER, "BYTES", 0, "Receive buffer for process events (testing overruns)", 0 },
	{ 0 },
};

static void parse_pids(const char *s, struct argp_state *state)
{
	char *copy = strdup(s), *save = NULL, *tok;

	if (!copy)
		argp_failure(state, EXIT_FAIL, ENOMEM, "-p");
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		long long v;

		if (args.npids == MAX_PIDS)
			argp_error(state, "at most %d PIDs", MAX_PIDS);
		if (tool_parse_int("PID", tok, 1, INT32_MAX, &v) < 0)
			exit(EXIT_USAGE);
		args.pids[args.npids++] = (pid_t)v;
	}
	free(copy);
	if (!args.npids)
		argp_error(state, "-p needs at least one PID");
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct passwd *pw;
	long long v;

	switch (key) {
	case 'd':
		if (tool_parse_seconds(arg, 0.05, 86400, &args.delay) < 0)
			argp_error(state, "invalid delay '%s' (seconds, 0.05 to 86400)", arg);
		break;
	case 'n':
		if (tool_parse_int("iterations", arg, 1, INT32_MAX, &v) < 0)
			exit(EXIT_USAGE);
		args.iterations = v;
		break;
	case 'b':
		args.batch = true;
		break;
	case 'p':
		parse_pids(arg, state);
		break;
	case 'u':
		pw = getpwnam(arg);
		if (pw) {
			args.uid = pw->pw_uid;
		} else if (oom_parse_ll(arg, 10, &v) == 0 && v >= 0 && v <= UINT32_MAX) {
			args.uid = (uid_t)v;
		} else {
			argp_error(state, "no such user '%s'", arg);
		}
		args.have_uid = true;
		break;
	case OPT_HEURISTIC:
		tool_parse_heuristic(state, arg, &args.heuristic);
		break;
	case OPT_SORT:
		for (v = 0; v < SORT_COUNT; v++)
			if (strcmp(arg, sort_names[v]) == 0)
				break;
		if (v == SORT_COUNT)
			argp_error(state, "unknown sort column '%s'", arg);
		args.sort = (enum sort_key)v;
		break;
	case 'r':
		args.root = arg;
		break;
	case OPT_POLL:
		args.poll_only = true;
		break;
	case OPT_MEMCG:
		args.memcg = arg;
		break;
	case OPT_CPUSET_OF:
		if (tool_parse_int("PID", arg, 1, INT32_MAX, &v) < 0)
			exit(EXIT_USAGE);
		args.cpuset_of = (pid_t)v;
		break;
	case OPT_NODES:
		args.nodes = arg;
		break;
	case ARGP_KEY_END:
		if (!!args.memcg + !!args.cpuset_of + !!args.nodes > 1)
			argp_error(state, "--memcg, --cpuset-of and --nodes exclude each other");
		break;
	case OPT_EVENT_BUFFER:
		if (tool_parse_int("event buffer", arg, 1, INT32_MAX, &v) < 0)
			exit(EXIT_USAGE);
		args.event_buffer = (size_t)v;
		break;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp argp = {
	options, parse_opt, NULL,
	"Show processes ranked by how likely the OOM killer is to kill them.\v"
	"Keys: arrows, PgUp, PgDn, Home, End select; + and - change oom_score_adj by 100; = sets it; "
	"s sort; H heuristic; / name filter; u user filter; t children; v victim; p pause; h help; q quit.",
	NULL, NULL, NULL,
};

static void open_events(void)
{
	const char *root = tool_root(args.root);
	int err;

	if (args.batch || args.poll_only) {
		events_why = "polling";
		return;
	}
	/* The kernel's events describe this system, not a saved tree. */
	if (strcmp(root, "/") != 0) {
		events_why = "polling (not the live root)";
		return;
	}
	err = oom_events_open(args.event_buffer, &events);
	if (err == -EPERM)
		events_why = "polling (process events not permitted)";
	else if (err < 0)
		events_why = "polling (no process events)";
}

/*
 * The watch keeps two or three files open per process, within half the
 * soft limit of open files: take the hard limit, as a long-running monitor may.
 */
static void raise_file_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

int main(int argc, char **argv)
{
	int ret;

	tool_init(argv);
	setlocale(LC_ALL, "");
	argp_parse(&argp, argc, argv, 0, NULL, NULL);
	if (tool_open_ctx(args.root, &ctx) < 0)
		return EXIT_FAIL;
	if (!args.batch || args.iterations != 1) {
		raise_file_limit();
		ret = oom_watch_new(ctx, &watch);
		if (ret < 0) {
			tool_error_errno(ret, "watching processes");
			return EXIT_FAIL;
		}
	}
	open_events();
	if (args.batch) {
		signal(SIGPIPE, SIG_DFL);
		ret = run_batch();
	} else {
		ret = run_screen();
	}
	restore_terminal();
	oom_events_close(events);
	clear_between();
	free(extra);
	free(gone.pids);
	free(pending.pids);
	free(rows);
	oom_snapshot_free(snap);
	oom_watch_free(watch);
	oom_constraint_free(cons);
	oom_ctx_unref(ctx);
	return ret;
}
