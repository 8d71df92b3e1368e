// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * oom-dump: the system as the OOM killer sees it, in the kernel's
 * dump_tasks formats, JSON or Prometheus; a snapshot saved as a fixture
 * tree; or the OOM reports of a kernel log, read back.
 */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

enum format { FORMAT_2636, FORMAT_MODERN, FORMAT_JSON, FORMAT_PROMETHEUS };
enum sort_key { SORT_PID, SORT_SCORE, SORT_RSS, SORT_SWAP };

static const char *const format_names[] = {
	[FORMAT_2636] = "2.6.36",
	[FORMAT_MODERN] = "modern",
	[FORMAT_JSON] = "json",
	[FORMAT_PROMETHEUS] = "prometheus",
};

static const char *const sort_names[] = {
	[SORT_PID] = "pid",
	[SORT_SCORE] = "score",
	[SORT_RSS] = "rss",
	[SORT_SWAP] = "swap",
};

enum {
	OPT_HEADER = 0x100,
	OPT_SAVE,
	OPT_SAVE_CMDLINE,
	OPT_MEMCG,
	OPT_CPUSET_OF,
	OPT_NODES,
	OPT_SELECT,
};

struct args {
	const char *root;
	enum format format;
	enum oom_heuristic heuristic;
	enum sort_key sort;
	long long limit; /* -n: 0 is no limit */
	bool header;
	pid_t task;
	const char *save;
	bool save_cmdline;
	const char *from_log;
	/* At most one constraint (SPEC 6); none is system-wide. */
	struct tool_constraint_opts con;
	bool select;
};

static const struct argp_option options[] = {
	{ "root", 'r', "DIR", 0, "Read /proc and /sys under DIR (default: $OOM_ROOT or /)", 0 },
	{ "format", 'f', "FORMAT", 0, "2.6.36 (default), modern, json or prometheus", 0 },
	{ "heuristic", 'H', "NAME", 0, "Score with rewrite (default), kernel or legacy", 0 },
	{ "sort", 's', "KEY", 0, "Order rows by pid (default), score, rss or swap", 0 },
	{ NULL, 'n', "N", 0, "Print only the first N rows after sorting", 0 },
	{ "header", OPT_HEADER, NULL, 0, "Print the 'invoked oom-killer' line for --task first", 0 },
	{ "task", 't', "PID", 0, "The task that triggers the OOM (for --header and --select)", 0 },
	{ "save", OPT_SAVE, "DIR", 0, "Also save the files read into a fixture tree DIR", 0 },
	{ "save-cmdline", OPT_SAVE_CMDLINE, NULL, 0, "With --save, also save each process's cmdline", 0 },
	{ "from-log", 'l', "FILE", 0, "Read the OOM reports of a kernel log (- for stdin)", 0 },
	{ "memcg", OPT_MEMCG, "PATH", 0, "A memory cgroup OOM: only its tasks, scored against its limit", 0 },
	{ "cpuset-of", OPT_CPUSET_OF, "PID", 0, "A cpuset OOM: only the tasks sharing PID's memory nodes", 0 },
	{ "nodes", OPT_NODES, "LIST", 0, "A mempolicy OOM on node LIST (e.g. 0-1,3)", 0 },
	{ "select", OPT_SELECT, NULL, 0, "Also print whom the OOM killer would kill, as its log lines", 0 },
	{ 0 },
};

static int name_index(const char *const *names, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++) {
		if (strcmp(names[i], s) == 0)
			return (int)i;
	}
	return -1;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct args *a = state->input;
	long long v;
	int i;

	switch (key) {
	case 'r':
		a->root = arg;
		break;
	case 'f':
		i = name_index(format_names, 4, arg);
		if (i < 0)
			argp_error(state, "unknown format '%s' (2.6.36, modern, json, prometheus)", arg);
		a->format = (enum format)i;
		break;
	case 'H':
		tool_parse_heuristic(state, arg, &a->heuristic);
		break;
	case 's':
		i = name_index(sort_names, 4, arg);
		if (i < 0)
			argp_error(state, "unknown sort key '%s' (pid, score, rss, swap)", arg);
		a->sort = (enum sort_key)i;
		break;
	case 'n':
		if (tool_parse_int("-n", arg, 1, 1000000000, &v) < 0)
			exit(EXIT_USAGE);
		a->limit = v;
		break;
	case OPT_HEADER:
		a->header = true;
		break;
	case 't':
		if (tool_parse_int("--task", arg, 1, 0x7fffffff, &v) < 0)
			exit(EXIT_USAGE);
		a->task = (pid_t)v;
		break;
	case OPT_SAVE:
		a->save = arg;
		break;
	case OPT_SAVE_CMDLINE:
		a->save_cmdline = true;
		break;
	case 'l':
		a->from_log = arg;
		break;
	case OPT_MEMCG:
		a->con.memcg = arg;
		break;
	case OPT_CPUSET_OF:
		if (tool_parse_int("--cpuset-of", arg, 1, 0x7fffffff, &v) < 0)
			exit(EXIT_USAGE);
		a->con.cpuset_of = (pid_t)v;
		break;
	case OPT_NODES:
		a->con.nodes = arg;
		break;
	case OPT_SELECT:
		a->select = true;
		break;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		break;
	case ARGP_KEY_END:
		if (a->header && !a->task)
			argp_error(state, "--header needs --task PID");
		if (a->header && a->format == FORMAT_PROMETHEUS)
			argp_error(state, "--header has no place in the prometheus format");
		if (a->save_cmdline && !a->save)
			argp_error(state, "--save-cmdline needs --save DIR");
		if (tool_constraint_count(&a->con) > 1)
			argp_error(state, "--memcg, --cpuset-of and --nodes exclude each other");
		if (a->from_log && (a->save || a->header || a->task || a->select || tool_constraint_count(&a->con)))
			argp_error(state, "--from-log reads a log: --save, --header, --task, --select and constraints do not apply");
		if (a->from_log && a->sort == SORT_SCORE)
			argp_error(state, "--from-log: logs carry no scores to sort by (pid, rss, swap)");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp argp = {
	options, parse_opt, NULL,
	"Print the task table the kernel's OOM killer logs (dump_tasks), for the live system, "
	"a saved tree or the OOM reports in a kernel log.",
	NULL, NULL, NULL,
};

/* One printed row: a task and its scores. */
struct row {
	const struct oom_task *t;
	long score; /* the heuristic's (kernel: the oom_score it implies) */
	long points; /* the heuristic's raw result */
	long oom_score; /* /proc/PID/oom_score, computed: the kernel heuristic reproduces it */
};

static enum sort_key sort_by;

static long row_key(const struct row *r)
{
	switch (sort_by) {
	case SORT_SCORE:
		return r->score;
	case SORT_RSS:
		return (long)oom_task_rss_pages(r->t);
	case SORT_SWAP:
		return (long)r->t->swap_pages;
	default:
		return 0;
	}
}

static int cmp_rows(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	long kx = row_key(x), ky = row_key(y);

	/* Biggest first; equal keys (and --sort pid) in PID order. */
	if (kx != ky)
		return kx < ky ? 1 : -1;
	return (x->t->tgid > y->t->tgid) - (x->t->tgid < y->t->tgid);
}

/* ---- writers ------------------------------------------------------------ */

static void put_json_string(const char *s)
{
	char buf[OOM_COMM_MAX * 6 + 1];

	oom_escape_json(buf, sizeof(buf), s);
	printf("\"%s\"", buf);
}

static void put_kernel_row(const struct oom_task *t, enum format f, enum oom_escape esc)
{
	char line[1024];

	if (f == FORMAT_MODERN)
		oom_format_modern_row(line, sizeof(line), t, esc);
	else
		oom_format_2636_row(line, sizeof(line), t, esc);
	fputs(line, stdout);
}

static void put_kernel_header(enum format f)
{
	char line[256];

	if (f == FORMAT_MODERN) {
		fputs("Tasks state (memory values in pages):\n", stdout);
		oom_format_modern_header(line, sizeof(line));
	} else {
		oom_format_2636_header(line, sizeof(line));
	}
	fputs(line, stdout);
}

static void put_trigger_line(const char *comm, unsigned long gfp_mask, int order, int adj, int score_adj,
			     enum oom_escape esc)
{
	char name[OOM_COMM_MAX * 4];

	oom_escape_name(name, sizeof(name), comm, esc);
	printf("%s invoked oom-killer: gfp_mask=0x%lx, order=%d, oom_adj=%d, oom_score_adj=%d\n", name, gfp_mask,
	       order, adj, score_adj);
}

static void put_prom_help(const char *name, const char *help)
{
	printf("# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

#define PROM_LABELS_MAX (sizeof("{pid=\"\",comm=\"\"}") + 12 + OOM_COMM_MAX * 5)

/* A sample's labels into @buf (PROM_LABELS_MAX bytes); returns their length. */
static size_t format_prom_labels(char *buf, pid_t pid, const char *comm)
{
	char esc[OOM_COMM_MAX * 5 + 1];

	oom_escape_prometheus(esc, sizeof(esc), comm);
	return (size_t)snprintf(buf, PROM_LABELS_MAX, "{pid=\"%d\",comm=\"%s\"}", (int)pid, esc);
}

static void put_prom_labels(pid_t pid, const char *comm)
{
	char buf[PROM_LABELS_MAX];

	format_prom_labels(buf, pid, comm);
	fputs(buf, stdout);
}

/* ---- the live (or saved) system ---------------------------------------- */

struct run {
	const struct args *a;
	const struct oom_snapshot *snap;
	struct oom_ctx *ctx;
	struct oom_score_params params;
	struct row *rows;
	size_t nrows;
	const struct oom_task *trigger;
	const struct oom_constraint *cons; /* NULL: system-wide */
	const char *constraint; /* its name: "none", "memcg", ... */
	struct oom_selection sel; /* with --select */
};

/* Rows are the tasks dump_tasks lists; in a constrained dump only candidates (as 2.6.36). */
static bool listed(const struct run *run, const struct oom_task *t)
{
	return run->cons ? oom_constraint_is_candidate(run->cons, t) : oom_task_dumpable(t);
}

static void put_json_task_ref(const char *key, const struct oom_task *t, long score)
{
	printf(",\"%s\":", key);
	if (!t) {
		fputs("null", stdout);
		return;
	}
	printf("{\"pid\":%d,\"name\":", (int)t->tgid);
	put_json_string(t->comm);
	printf(",\"score\":%ld}", score);
}

/* --select: the decision, with the kernel's log lines (names escaped as JSON). */
static void put_json_selection(const struct oom_selection *sel)
{
	printf(",\"selection\":{\"outcome\":\"%s\",\"candidates\":%zu,\"message\":", oom_outcome_name(sel->outcome),
	       sel->candidates);
	if (sel->message)
		put_json_string(sel->message);
	else
		fputs("null", stdout);
	put_json_task_ref("chosen", sel->chosen, sel->chosen_score);
	put_json_task_ref("victim", sel->victim, sel->victim_score);
	put_json_task_ref("in_progress", sel->in_progress, 0);
	printf(",\"sacrificed\":%s,\"would_panic\":%s,\"lines\":[", sel->sacrificed ? "true" : "false",
	       sel->would_panic ? "true" : "false");
	for (size_t i = 0; i < sel->nlines; i++) {
		char buf[OOM_SELECT_LINE_MAX * 6];

		oom_escape_json(buf, sizeof(buf), sel->lines[i]);
		printf("%s\"%s\"", i ? "," : "", buf);
	}
	fputs("]}", stdout);
}

static void print_json(const struct run *run)
{
	const struct args *a = run->a;
	const char *h = oom_heuristic_name(a->heuristic);

	printf("{\"totalpages\":%lu,\"heuristic\":\"%s\",\"constraint\":\"%s\",\"page_size\":%lu",
	       run->params.totalpages, h, run->constraint, oom_snapshot_page_size(run->snap));
	if (run->trigger) {
		const struct oom_task *t = run->trigger;
		int adj = 0;

		oom_score_adj_to_adj_kernel(t->oom_score_adj, &adj);
		printf(",\"trigger\":{\"pid\":%d,\"name\":", (int)t->tgid);
		put_json_string(t->comm);
		printf(",\"gfp_mask\":0,\"order\":0,\"oom_adj\":%d,\"oom_score_adj\":%d}", adj, t->oom_score_adj);
	}
	fputs(",\"tasks\":[", stdout);
	for (size_t i = 0; i < run->nrows; i++) {
		const struct row *r = &run->rows[i];
		const struct oom_task *t = r->t;
		int adj = 0;

		oom_score_adj_to_adj_kernel(t->oom_score_adj, &adj);
		printf("%s\n{\"pid\":%d,\"uid\":%u,\"tgid\":%d,\"total_vm\":%lu,\"rss\":%lu,\"rss_anon\":%lu,"
		       "\"rss_file\":%lu,\"rss_shmem\":%lu,\"pgtables_bytes\":%lu,\"swapents\":%lu,\"cpu\":%d,"
		       "\"oom_adj\":%d,\"oom_score_adj\":%d,\"name\":",
		       i ? "," : "", (int)t->pid, (unsigned int)t->uid, (int)t->tgid, t->total_vm_pages,
		       oom_task_rss_pages(t), t->rss_anon_pages, t->rss_file_pages, t->rss_shmem_pages,
		       t->pgtables_bytes, t->swap_pages, t->cpu, adj, t->oom_score_adj);
		put_json_string(t->comm);
		printf(",\"score\":%ld,\"points\":%ld,\"heuristic\":\"%s\",\"oom_score\":%ld,\"swap\":%lu}", r->score,
		       r->points, h, r->oom_score, t->swap_pages);
	}
	fputs("\n]", stdout);
	if (run->a->select)
		put_json_selection(&run->sel);
	fputs("}\n", stdout);
}

/* A sysctl as a gauge; absent ones (a tree without them) are left out. */
static int put_prom_sysctl(struct oom_ctx *ctx, enum oom_sysctl s, const char *metric, const char *help)
{
	long long v;
	int err = oom_sysctl_get(ctx, s, &v);

	if (err == -ENOENT)
		return 0;
	if (err < 0) {
		tool_error_errno(err, oom_sysctl_name(s));
		return err;
	}
	put_prom_help(metric, help);
	printf("%s %lld\n", metric, v);
	return 0;
}

/* Each row's labels, made once for the five families: packed end to end, NUL-separated. */
struct prom_labels {
	char *text;
	size_t *start; /* row i's labels begin at text + start[i] */
};

static int make_prom_labels(const struct run *run, struct prom_labels *l)
{
	size_t len = 0, cap = 0;

	l->text = NULL;
	l->start = malloc((run->nrows ? run->nrows : 1) * sizeof(*l->start));
	if (!l->start)
		return -ENOMEM;
	for (size_t i = 0; i < run->nrows; i++) {
		char one[PROM_LABELS_MAX];
		size_t n = format_prom_labels(one, run->rows[i].t->tgid, run->rows[i].t->comm);

		if (len + n + 1 > cap) {
			size_t ncap = cap ? cap * 2 : 64 * 1024;
			char *t = realloc(l->text, ncap);

			if (!t)
				return -ENOMEM;
			l->text = t;
			cap = ncap;
		}
		l->start[i] = len;
		memcpy(l->text + len, one, n + 1);
		len += n + 1;
	}
	return 0;
}

static void free_prom_labels(struct prom_labels *l)
{
	free(l->text);
	free(l->start);
}

/* One metric family: HELP, TYPE, then a sample per row. */
static void put_prom_family(const struct run *run, const struct prom_labels *labels, const char *name,
			    const char *help, unsigned long long (*value)(const struct run *, const struct row *),
			    bool is_signed)
{
	put_prom_help(name, help);
	for (size_t i = 0; i < run->nrows; i++) {
		unsigned long long v = value(run, &run->rows[i]);

		fputs(name, stdout);
		fputs(labels->text + labels->start[i], stdout);
		if (is_signed)
			printf(" %lld\n", (long long)v);
		else
			printf(" %llu\n", v);
	}
}

static unsigned long long prom_oom_score(const struct run *run, const struct row *r)
{
	(void)run;
	return (unsigned long long)r->oom_score;
}

static unsigned long long prom_adj(const struct run *run, const struct row *r)
{
	(void)run;
	return (unsigned long long)(long long)r->t->oom_score_adj;
}

static unsigned long long prom_score(const struct run *run, const struct row *r)
{
	(void)run;
	return (unsigned long long)r->score;
}

static unsigned long long prom_rss(const struct run *run, const struct row *r)
{
	return (unsigned long long)oom_task_rss_pages(r->t) * oom_snapshot_page_size(run->snap);
}

static unsigned long long prom_swap(const struct run *run, const struct row *r)
{
	return (unsigned long long)r->t->swap_pages * oom_snapshot_page_size(run->snap);
}

static int print_prometheus(const struct run *run)
{
	const char *h = oom_heuristic_name(run->a->heuristic);
	struct prom_labels labels[1];
	size_t protected = 0;
	char help[96];
	int err = make_prom_labels(run, labels);

	if (err < 0) {
		free_prom_labels(labels);
		tool_error_errno(err, "prometheus");
		return err;
	}
	put_prom_family(run, labels, "oom_score", "The kernel's badness of the process (/proc/PID/oom_score).",
			prom_oom_score, true);
	put_prom_family(run, labels, "oom_score_adj", "The process's oom_score_adj (-1000..1000).", prom_adj, true);
	snprintf(help, sizeof(help), "The process's score under liboom's %s heuristic.", h);
	put_prom_family(run, labels, "oom_heuristic_score", help, prom_score, true);
	put_prom_family(run, labels, "oom_rss_bytes", "Resident memory of the process (anon + file + shmem).", prom_rss,
			false);
	put_prom_family(run, labels, "oom_swap_bytes", "Swapped-out memory of the process.", prom_swap, false);
	free_prom_labels(labels);
	/* Counted over every process the OOM killer would list, not just the -n shown. */
	for (size_t i = 0; i < oom_snapshot_count(run->snap); i++) {
		const struct oom_task *t = oom_snapshot_task(run->snap, i);

		if (listed(run, t) && t->oom_score_adj == OOM_SCORE_ADJ_MIN)
			protected++;
	}
	put_prom_help("oom_protected_processes", "Processes the OOM killer never kills (oom_score_adj -1000).");
	printf("oom_protected_processes %zu\n", protected);
	if (run->a->select) {
		put_prom_help("oom_next_victim", "The task the OOM killer would kill now (the value is its score).");
		if (run->sel.outcome == OOM_OUTCOME_KILL && run->sel.victim) {
			fputs("oom_next_victim", stdout);
			put_prom_labels(run->sel.victim->tgid, run->sel.victim->comm);
			printf(" %ld\n", run->sel.victim_score);
		}
	}
	put_prom_help("oom_totalpages", "The memory the heuristic scores against, in pages.");
	printf("oom_totalpages{heuristic=\"%s\"} %lu\n", h, run->params.totalpages);
	err = put_prom_sysctl(run->ctx, OOM_SYSCTL_PANIC_ON_OOM, "oom_vm_panic_on_oom", "The vm.panic_on_oom sysctl.");
	if (!err)
		err = put_prom_sysctl(run->ctx, OOM_SYSCTL_OOM_DUMP_TASKS, "oom_vm_oom_dump_tasks",
				      "The vm.oom_dump_tasks sysctl.");
	if (!err)
		err = put_prom_sysctl(run->ctx, OOM_SYSCTL_OOM_KILL_ALLOCATING_TASK, "oom_vm_oom_kill_allocating_task",
				      "The vm.oom_kill_allocating_task sysctl.");
	if (!err)
		err = put_prom_sysctl(run->ctx, OOM_SYSCTL_OOM_FORKBOMB_THRES, "oom_vm_oom_forkbomb_thres",
				      "The vm.oom_forkbomb_thres threshold (liboom's when the kernel lacks it).");
	return err;
}

static void print_kernel(const struct run *run, enum oom_escape esc)
{
	if (run->trigger) {
		const struct oom_task *t = run->trigger;
		int adj = 0;

		oom_score_adj_to_adj_kernel(t->oom_score_adj, &adj);
		put_trigger_line(t->comm, 0, 0, adj, t->oom_score_adj, esc);
	}
	put_kernel_header(run->a->format);
	for (size_t i = 0; i < run->nrows; i++)
		put_kernel_row(run->rows[i].t, run->a->format, esc);
	/* --select: what the kernel would log next (names escaped by the library as asked). */
	for (size_t i = 0; run->a->select && i < run->sel.nlines; i++)
		printf("%s\n", run->sel.lines[i]);
	if (run->a->select && run->sel.outcome == OOM_OUTCOME_IN_PROGRESS && run->sel.in_progress) {
		char name[OOM_COMM_MAX * 4];

		/* The kernel logs nothing then; say why nobody is chosen. */
		oom_escape_name(name, sizeof(name), run->sel.in_progress->comm, esc);
		printf("a kill is already in progress: %d (%s)\n", (int)run->sel.in_progress->tgid, name);
	}
}

/* What the snapshot must read for this run (SPEC 4: nothing more). */
static unsigned int read_set(const struct args *a, bool scoring)
{
	unsigned int what = OOM_READ_STATUS;

	if (a->format == FORMAT_2636 || a->format == FORMAT_JSON)
		what |= OOM_READ_STAT; /* the cpu column */
	/* Legacy's CPU and run times; selection's PF_EXITING (stat's flags). */
	if ((scoring && a->heuristic == OOM_HEURISTIC_LEGACY) || a->select)
		what |= OOM_READ_STAT;
	return what;
}

static int score_rows(struct run *run)
{
	const struct oom_snapshot *snap = run->snap;
	size_t n = oom_snapshot_count(snap);
	/* What /proc/PID/oom_score shows is computed, not read (SPEC 4): always system-wide. */
	struct oom_score_params kp = {
		.heuristic = OOM_HEURISTIC_KERNEL,
		.totalpages = oom_system_totalpages(oom_snapshot_meminfo(snap), oom_snapshot_page_size(snap),
						    OOM_HEURISTIC_KERNEL, NULL),
	};

	run->rows = calloc(n ? n : 1, sizeof(*run->rows));
	if (!run->rows)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct oom_task *t = oom_snapshot_task(snap, i);
		struct oom_score_terms terms;
		struct row *r;
		int err;

		if (!listed(run, t))
			continue;
		r = &run->rows[run->nrows++];
		r->t = t;
		err = oom_score_task(snap, t, &run->params, &terms);
		if (err < 0)
			return err;
		r->points = terms.score;
		r->score = run->params.heuristic == OOM_HEURISTIC_KERNEL ? terms.oom_score : terms.score;
		err = oom_score_task(snap, t, &kp, &terms);
		if (err < 0)
			return err;
		r->oom_score = terms.oom_score;
	}
	return 0;
}

static int select_victim(struct run *run, struct oom_ctx *ctx, enum oom_escape esc)
{
	struct oom_select_params sp = {
		.heuristic = run->params.heuristic,
		.forkbomb_thres = run->params.forkbomb_thres,
		.task = run->a->task,
		.escape = esc,
	};
	long long panic, kill_allocating;
	int err;

	err = tool_sysctl_or_zero(ctx, OOM_SYSCTL_PANIC_ON_OOM, &panic);
	if (err == 0)
		err = tool_sysctl_or_zero(ctx, OOM_SYSCTL_OOM_KILL_ALLOCATING_TASK, &kill_allocating);
	if (err < 0)
		return err;
	sp.panic_on_oom = (int)panic;
	sp.kill_allocating_task = kill_allocating != 0;
	err = oom_select(run->snap, run->cons, &sp, &run->sel);
	if (err < 0)
		tool_error_errno(err, "--select");
	return err;
}

static int dump_system(const struct args *a)
{
	struct run run = { .a = a, .constraint = "none" };
	enum oom_escape esc = tool_escape_for(stdout);
	struct oom_constraint *cons = NULL;
	struct oom_snapshot *snap = NULL;
	struct oom_ctx *ctx = NULL;
	bool scoring = a->format == FORMAT_JSON || a->format == FORMAT_PROMETHEUS || a->sort == SORT_SCORE ||
		       a->select;
	long long thres = 0;
	unsigned int what;
	int err;

	if (tool_open_ctx(a->root, &ctx) < 0)
		return EXIT_FAIL;
	if (scoring && a->heuristic == OOM_HEURISTIC_REWRITE) {
		err = oom_sysctl_get(ctx, OOM_SYSCTL_OOM_FORKBOMB_THRES, &thres);
		if (err < 0) {
			tool_error_errno(err, "vm.oom_forkbomb_thres");
			goto fail;
		}
	}
	if (tool_make_constraint(ctx, &a->con, &cons) < 0)
		goto fail;
	what = read_set(a, scoring) | oom_constraint_read_flags(cons);
	if (a->save) {
		/* Save first, then report from the saved tree: the two cannot differ. */
		unsigned int flags = OOM_SAVE_SYSCTLS | (a->save_cmdline ? OOM_SAVE_CMDLINE : 0);

		/* A saved tree holds stat whenever the penalty could ask for it on replay. */
		err = oom_snapshot_save(ctx, what | (thres ? OOM_READ_STAT : 0), flags, a->save);
		if (err == 0)
			err = oom_snapshot_save_constraint(ctx, cons, a->save);
		if (err < 0) {
			tool_error("--save %s: %s", a->save,
				   err == -EEXIST ? "already holds a proc/ directory" : strerror(-err));
			goto fail;
		}
		oom_ctx_unref(ctx);
		ctx = NULL;
		oom_constraint_free(cons);
		cons = NULL;
		/* The constraint too is built again from the saved files. */
		if (tool_open_ctx(a->save, &ctx) < 0 || tool_make_constraint(ctx, &a->con, &cons) < 0)
			goto fail;
	}
	err = oom_snapshot_new(ctx, what, &snap);
	if (err == 0 && !(what & OOM_READ_STAT))
		err = tool_read_forkbomb_stat(ctx, snap, (unsigned long)thres);
	if (err < 0) {
		tool_error_errno(err, "reading processes");
		goto fail;
	}
	run.snap = snap;
	run.ctx = ctx;
	run.cons = cons;
	if (cons)
		run.constraint = oom_constraint_type_name(oom_constraint_get_type(cons));
	run.params.heuristic = a->heuristic;
	run.params.forkbomb_thres = (unsigned long)thres;
	run.params.totalpages =
		cons ? oom_constraint_totalpages(cons, a->heuristic, NULL)
		     : oom_system_totalpages(oom_snapshot_meminfo(snap), oom_snapshot_page_size(snap), a->heuristic, NULL);
	if (a->task) {
		run.trigger = oom_snapshot_find(snap, a->task);
		if (!run.trigger) {
			tool_error("--task %d: no such process", (int)a->task);
			goto fail;
		}
	}
	err = score_rows(&run);
	if (err < 0) {
		tool_error_errno(err, "scoring");
		goto fail;
	}
	if (a->select && select_victim(&run, ctx, a->format == FORMAT_JSON ? OOM_ESCAPE_NONE : esc) < 0)
		goto fail;
	sort_by = a->sort;
	qsort(run.rows, run.nrows, sizeof(*run.rows), cmp_rows);
	if (a->limit && (size_t)a->limit < run.nrows)
		run.nrows = (size_t)a->limit;
	err = 0;
	if (a->format == FORMAT_JSON)
		print_json(&run);
	else if (a->format == FORMAT_PROMETHEUS)
		err = print_prometheus(&run);
	else
		print_kernel(&run, esc);
	free(run.rows);
	oom_snapshot_free(snap);
	oom_constraint_free(cons);
	oom_ctx_unref(ctx);
	return err < 0 ? EXIT_FAIL : EXIT_OK;
fail:
	free(run.rows);
	oom_snapshot_free(snap);
	oom_constraint_free(cons);
	oom_ctx_unref(ctx);
	return EXIT_FAIL;
}

/* ---- kernel logs ---------------------------------------------------------- */

/* Logs carry no page size: nr_ptes pages are taken to be this machine's. */
static unsigned long page_size(void)
{
	return (unsigned long)sysconf(_SC_PAGESIZE);
}

struct log_row {
	const struct oom_log_task *lt;
	struct oom_task t;
};

static enum sort_key log_sort_by;

static int cmp_log_rows(const void *a, const void *b)
{
	const struct log_row *x = a, *y = b;
	unsigned long kx = 0, ky = 0;

	if (log_sort_by == SORT_RSS) {
		kx = oom_task_rss_pages(&x->t);
		ky = oom_task_rss_pages(&y->t);
	} else if (log_sort_by == SORT_SWAP) {
		kx = x->t.swap_pages;
		ky = y->t.swap_pages;
	}
	if (kx != ky)
		return kx < ky ? 1 : -1;
	return (x->t.pid > y->t.pid) - (x->t.pid < y->t.pid);
}

/* The rows of a report in the order and number asked for. */
static struct log_row *log_rows(const struct args *a, const struct oom_log_report *r, size_t *n)
{
	struct log_row *rows = calloc(r->ntasks ? r->ntasks : 1, sizeof(*rows));

	if (!rows)
		return NULL;
	for (size_t i = 0; i < r->ntasks; i++) {
		rows[i].lt = &r->tasks[i];
		oom_log_task_to_task(&r->tasks[i], page_size(), &rows[i].t);
	}
	/* Logged order is PID order already; sort only when asked (stable by pid). */
	log_sort_by = a->sort;
	if (a->sort != SORT_PID)
		qsort(rows, r->ntasks, sizeof(*rows), cmp_log_rows);
	*n = r->ntasks;
	if (a->limit && (size_t)a->limit < *n)
		*n = (size_t)a->limit;
	return rows;
}

static void put_log_kill_lines(const struct oom_log_report *r, enum format f, enum oom_escape esc)
{
	char name[OOM_COMM_MAX * 4], msg[sizeof(r->message) * 4];

	/* Everything taken from a log is untrusted text, the message too. */
	oom_escape_name(msg, sizeof(msg), r->message[0] ? r->message : "Out of memory", esc);

	if (r->have_chosen && f == FORMAT_2636) {
		oom_escape_name(name, sizeof(name), r->chosen, esc);
		printf("%s: Kill process %d (%s) score %ld or sacrifice child\n", msg, (int)r->chosen_pid, name,
		       r->chosen_score);
	}
	if (!r->have_victim)
		return;
	oom_escape_name(name, sizeof(name), r->victim, esc);
	if (f == FORMAT_2636)
		printf("Killed process %d (%s) total-vm:%lukB, anon-rss:%lukB, file-rss:%lukB\n", (int)r->victim_pid,
		       name, r->victim_total_vm_kb, r->victim_anon_rss_kb,
		       r->victim_file_rss_kb + r->victim_shmem_rss_kb);
	else if (r->have_victim_uid)
		printf("%s: Killed process %d (%s) total-vm:%lukB, anon-rss:%lukB, file-rss:%lukB, shmem-rss:%lukB, "
		       "UID:%u pgtables:%lukB oom_score_adj:%hd\n",
		       msg, (int)r->victim_pid, name, r->victim_total_vm_kb, r->victim_anon_rss_kb,
		       r->victim_file_rss_kb, r->victim_shmem_rss_kb, (unsigned int)r->victim_uid,
		       r->victim_pgtables_kb, (short)r->victim_oom_score_adj);
	else /* an older kernel's line: no UID, pgtables or oom_score_adj to show */
		printf("%s: Killed process %d (%s) total-vm:%lukB, anon-rss:%lukB, file-rss:%lukB, shmem-rss:%lukB\n",
		       msg, (int)r->victim_pid, name, r->victim_total_vm_kb, r->victim_anon_rss_kb,
		       r->victim_file_rss_kb, r->victim_shmem_rss_kb);
}

static void put_log_kernel(const struct args *a, const struct oom_log_report *r, const struct log_row *rows,
			   size_t n, enum oom_escape esc)
{
	if (r->have_trigger) {
		int adj = r->oom_adj;

		if (!r->have_oom_adj)
			oom_score_adj_to_adj_kernel(r->oom_score_adj, &adj);
		put_trigger_line(r->trigger, r->gfp_mask, r->order, adj, r->oom_score_adj, esc);
	}
	if (r->table_format[0]) {
		put_kernel_header(a->format);
		for (size_t i = 0; i < n; i++) {
			char line[1024];

			if (a->format == FORMAT_2636) {
				oom_log_format_2636_row(line, sizeof(line), rows[i].lt, page_size(), esc);
				fputs(line, stdout);
			} else {
				put_kernel_row(&rows[i].t, a->format, esc);
			}
		}
	}
	if (a->format == FORMAT_MODERN && r->constraint[0]) {
		char c[sizeof(r->constraint) * 4];

		oom_escape_name(c, sizeof(c), r->constraint, esc);
		printf("oom-kill:constraint=%s\n", c);
	}
	put_log_kill_lines(r, a->format, esc);
}

static void put_json_col(const struct oom_log_task *lt, unsigned int col, const char *key, long long v)
{
	if (lt->have & col)
		printf(",\"%s\":%lld", key, v);
}

static void put_log_json(const struct oom_log_report *r, const struct log_row *rows, size_t n)
{
	printf("{\"first_line\":%zu,\"last_line\":%zu,\"trigger\":", r->first_line, r->last_line);
	if (r->have_trigger) {
		fputs("{\"name\":", stdout);
		put_json_string(r->trigger);
		printf(",\"gfp_mask\":%lu,\"order\":%d", r->gfp_mask, r->order);
		if (r->have_oom_adj)
			printf(",\"oom_adj\":%d", r->oom_adj);
		if (r->have_oom_score_adj)
			printf(",\"oom_score_adj\":%d", r->oom_score_adj);
		fputs("}", stdout);
	} else {
		fputs("null", stdout);
	}
	fputs(",\"constraint\":", stdout);
	if (r->constraint[0])
		put_json_string(r->constraint);
	else
		fputs("null", stdout);
	fputs(",\"table_format\":", stdout);
	if (r->table_format[0])
		put_json_string(r->table_format);
	else
		fputs("null", stdout);
	fputs(",\"tasks\":[", stdout);
	for (size_t i = 0; i < n; i++) {
		const struct oom_log_task *lt = rows[i].lt;

		printf("%s\n{\"pid\":%d", i ? "," : "", (int)lt->pid);
		put_json_col(lt, OOM_LOG_UID, "uid", lt->uid);
		put_json_col(lt, OOM_LOG_TGID, "tgid", lt->tgid);
		put_json_col(lt, OOM_LOG_TOTAL_VM, "total_vm", (long long)lt->total_vm_pages);
		put_json_col(lt, OOM_LOG_RSS, "rss", (long long)lt->rss_pages);
		put_json_col(lt, OOM_LOG_RSS_ANON, "rss_anon", (long long)lt->rss_anon_pages);
		put_json_col(lt, OOM_LOG_RSS_FILE, "rss_file", (long long)lt->rss_file_pages);
		put_json_col(lt, OOM_LOG_RSS_SHMEM, "rss_shmem", (long long)lt->rss_shmem_pages);
		put_json_col(lt, OOM_LOG_NR_PTES, "nr_ptes", (long long)lt->nr_ptes);
		put_json_col(lt, OOM_LOG_NR_PMDS, "nr_pmds", (long long)lt->nr_pmds);
		put_json_col(lt, OOM_LOG_PGTABLES_BYTES, "pgtables_bytes", (long long)lt->pgtables_bytes);
		put_json_col(lt, OOM_LOG_SWAPENTS, "swapents", (long long)lt->swapents);
		put_json_col(lt, OOM_LOG_CPU, "cpu", lt->cpu);
		put_json_col(lt, OOM_LOG_OOM_ADJ, "oom_adj", lt->oom_adj);
		put_json_col(lt, OOM_LOG_OOM_SCORE_ADJ, "oom_score_adj", lt->oom_score_adj);
		fputs(",\"name\":", stdout);
		put_json_string(lt->name);
		fputs("}", stdout);
	}
	fputs("],\"chosen\":", stdout);
	if (r->have_chosen) {
		printf("{\"pid\":%d,\"name\":", (int)r->chosen_pid);
		put_json_string(r->chosen);
		printf(",\"score\":%ld}", r->chosen_score);
	} else {
		fputs("null", stdout);
	}
	fputs(",\"victim\":", stdout);
	if (r->have_victim) {
		printf("{\"pid\":%d,\"name\":", (int)r->victim_pid);
		put_json_string(r->victim);
		fputs(",\"message\":", stdout);
		put_json_string(r->message[0] ? r->message : "Out of memory");
		printf(",\"total_vm_kb\":%lu,\"anon_rss_kb\":%lu,\"file_rss_kb\":%lu", r->victim_total_vm_kb,
		       r->victim_anon_rss_kb, r->victim_file_rss_kb);
		if (r->have_victim_shmem)
			printf(",\"shmem_rss_kb\":%lu", r->victim_shmem_rss_kb);
		if (r->have_victim_uid)
			printf(",\"uid\":%u,\"pgtables_kb\":%lu,\"oom_score_adj\":%d", (unsigned int)r->victim_uid,
			       r->victim_pgtables_kb, r->victim_oom_score_adj);
		fputs("}", stdout);
	} else {
		fputs("null", stdout);
	}
	fputs("}", stdout);
}

/* Prometheus wants each metric's samples together: tasks here, victims after the loop. */
static void put_log_prometheus(size_t idx, const struct log_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char buf[OOM_COMM_MAX * 5 + 1];

		oom_escape_prometheus(buf, sizeof(buf), rows[i].lt->name);
		printf("oom_log_task_rss_pages{report=\"%zu\",pid=\"%d\",comm=\"%s\"} %lu\n", idx, (int)rows[i].t.pid,
		       buf, oom_task_rss_pages(&rows[i].t));
	}
}

static void put_log_prometheus_victims(const struct oom_log *log)
{
	size_t idx = 0;

	put_prom_help("oom_log_victim_rss_bytes", "Resident memory of the task each OOM report of the log killed.");
	for (size_t i = 0; i < oom_log_count(log); i++) {
		const struct oom_log_report *r = oom_log_report(log, i);
		char buf[OOM_COMM_MAX * 5 + 1];

		if (r->damage[0])
			continue;
		idx++;
		if (!r->have_victim)
			continue;
		oom_escape_prometheus(buf, sizeof(buf), r->victim);
		printf("oom_log_victim_rss_bytes{report=\"%zu\",pid=\"%d\",comm=\"%s\"} %llu\n", idx,
		       (int)r->victim_pid, buf,
		       ((unsigned long long)r->victim_anon_rss_kb + r->victim_file_rss_kb + r->victim_shmem_rss_kb) *
			       1024);
	}
}

static int read_all(FILE *f, char **text, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);

	if (!buf)
		return -ENOMEM;
	for (;;) {
		size_t got;

		if (n == cap) {
			char *nb = realloc(buf, cap * 2);

			if (!nb) {
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
			cap *= 2;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		free(buf);
		return -EIO;
	}
	*text = buf;
	*len = n;
	return 0;
}

static int dump_log(const struct args *a)
{
	const char *label = strcmp(a->from_log, "-") == 0 ? "(stdin)" : a->from_log;
	FILE *f = strcmp(a->from_log, "-") == 0 ? stdin : fopen(a->from_log, "re");
	enum oom_escape esc = tool_escape_for(stdout);
	struct oom_log *log = NULL;
	size_t len = 0, printed = 0;
	char *text = NULL;
	bool damaged = false;
	int err;

	if (!f) {
		tool_error("%s: %s", label, strerror(errno));
		return EXIT_FAIL;
	}
	err = read_all(f, &text, &len);
	if (f != stdin)
		fclose(f);
	if (err == 0)
		err = oom_log_parse(text, len, &log);
	free(text);
	if (err < 0) {
		tool_error("%s: %s", label, strerror(-err));
		return EXIT_FAIL;
	}
	if (a->format == FORMAT_JSON)
		fputs("{\"reports\":[", stdout);
	else if (a->format == FORMAT_PROMETHEUS)
		put_prom_help("oom_log_task_rss_pages", "Resident pages of each task in each OOM report of the log.");
	for (size_t i = 0; i < oom_log_count(log); i++) {
		const struct oom_log_report *r = oom_log_report(log, i);
		struct log_row *rows;
		size_t n;

		if (r->damage[0]) {
			tool_error("%s: damaged OOM report (lines %zu-%zu): %s", label, r->first_line, r->last_line,
				   r->damage);
			damaged = true;
			continue;
		}
		rows = log_rows(a, r, &n);
		if (!rows) {
			tool_error_errno(-ENOMEM, label);
			oom_log_free(log);
			return EXIT_FAIL;
		}
		if (a->format == FORMAT_JSON) {
			fputs(printed ? ",\n" : "\n", stdout);
			put_log_json(r, rows, n);
		} else if (a->format == FORMAT_PROMETHEUS) {
			put_log_prometheus(printed + 1, rows, n);
		} else {
			if (printed)
				putchar('\n');
			put_log_kernel(a, r, rows, n, esc);
		}
		printed++;
		free(rows);
	}
	if (a->format == FORMAT_JSON) {
		fputs("\n]}\n", stdout);
	} else if (a->format == FORMAT_PROMETHEUS) {
		put_log_prometheus_victims(log);
		put_prom_help("oom_log_reports", "Intact OOM reports found in the log.");
		printf("oom_log_reports %zu\n", printed);
	} else if (!oom_log_count(log)) {
		tool_error("%s: no OOM report found", label);
	}
	oom_log_free(log);
	return damaged ? EXIT_FAIL : EXIT_OK;
}

int main(int argc, char **argv)
{
	static char outbuf[1 << 16];
	struct args a = { .format = FORMAT_2636, .heuristic = OOM_HEURISTIC_REWRITE, .sort = SORT_PID };
	int ret;

	tool_init(argv);
	argp_parse(&argp, argc, argv, 0, NULL, &a);
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	ret = a.from_log ? dump_log(&a) : dump_system(&a);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		tool_error("write error: %s", strerror(errno));
		return EXIT_FAIL;
	}
	return ret;
}
