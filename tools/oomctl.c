// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * oomctl: the OOM killer's per-process and global knobs, for people and for
 * shell scripts. One function per sub-command; each parses its own options
 * with argp, calls the library and prints. Scripts depend on the output and
 * the exit status, so both are documented in oomctl(8) and kept stable.
 */
#include <argp.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <linux/capability.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common.h"
#include "monitor.h"

/* Option keys without a short form. */
enum {
	OPT_NO_HEADERS = 0x100,
	OPT_JSON,
	OPT_SCORE_ADJ,
	OPT_ADJ,
	OPT_BY,
	OPT_KERNEL,
	OPT_TABLE,
	OPT_POLL,
	OPT_INTERVAL,
	OPT_THRESHOLD,
	OPT_MEMCG,
	OPT_CPUSET_OF,
	OPT_NODES,
	OPT_WHAT_IF,
};

static const char *global_root; /* --root given before the sub-command */

/* ---- helpers shared by the sub-commands -------------------------------- */

/* --root DIR, a child parser of every sub-command; its input is a const char **. */
static error_t parse_root(int key, char *arg, struct argp_state *state)
{
	const char **root = state->input;

	if (key != 'r')
		return ARGP_ERR_UNKNOWN;
	*root = arg;
	return 0;
}

static const struct argp_option root_options[] = {
	{ "root", 'r', "DIR", 0, "Use DIR/proc and DIR/sys (default: $OOM_ROOT, else /)", -1 },
	{ 0 },
};

static const struct argp root_argp = { root_options, parse_root, NULL, NULL, NULL, NULL, NULL };

static const struct argp_child root_child[] = {
	{ &root_argp, 0, NULL, 0 },
	{ 0 },
};

/* Runs a sub-command's parser with "oomctl NAME" in its messages. */
static void parse_sub(const struct argp *argp, int argc, char **argv, unsigned int flags, void *input)
{
	static char name[64];

	snprintf(name, sizeof(name), "%s %s", program_invocation_short_name, argv[0]);
	argv[0] = name;
	argp_parse(argp, argc, argv, flags, NULL, input);
}

static void warn_adj_deprecated(void)
{
	static bool warned;

	if (!warned)
		tool_error("oom_adj is deprecated, please use oom_score_adj instead.");
	warned = true;
}

/* Parses PIDs strictly; every one is checked before anything is done. */
static int parse_pids(char **args, size_t n, pid_t *pids)
{
	for (size_t i = 0; i < n; i++) {
		long long v;

		if (tool_parse_int("PID", args[i], 1, INT_MAX, &v) < 0)
			return -EINVAL;
		pids[i] = (pid_t)v;
	}
	return 0;
}

/* Whether oomctl itself holds capability @cap (the process, not the --root tree). */
static bool have_capability(int cap)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data) < 0)
		return false;
	return (data[cap / 32].effective >> (cap % 32)) & 1u;
}

/* Why a process could not be read; garbled files are not the user's "invalid argument". */
static void report_read_error(pid_t pid, int err)
{
	char what[32];

	if (err == -EINVAL) {
		tool_error("%d: its /proc files are malformed or cut short", (int)pid);
		return;
	}
	snprintf(what, sizeof(what), "%d", (int)pid);
	tool_error_errno(err, what);
}

/* Explains why writing oom_score_adj of @pid failed, in the user's terms. */
static void report_write_error(pid_t pid, int err, const struct oom_task *t, int old, int value)
{
	char what[32];

	snprintf(what, sizeof(what), "%d", (int)pid);
	if (err == -EPERM && t && oom_task_is_kthread(t)) {
		tool_error("%d: is a kernel thread; it has no oom_score_adj of its own, nothing changed", (int)pid);
	} else if (err == -EACCES && value < old && !have_capability(OOM_CAP_SYS_RESOURCE)) {
		tool_error("%d: cannot lower oom_score_adj from %d to %d: permission denied: lowering "
			   "it needs CAP_SYS_RESOURCE, which oomctl does not have (even root lacks it in "
			   "some containers)",
			   (int)pid, old, value);
	} else if (err == -EACCES) {
		tool_error("%d: cannot set oom_score_adj to %d: permission denied", (int)pid, value);
	} else {
		tool_error_errno(err, what);
	}
}

/* Writes a JSON string; names are untrusted bytes, so the library escapes them. */
static void json_string(FILE *f, const char *s)
{
	char esc[OOM_COMM_MAX * 6 + 1]; /* \u00NN per byte at most */

	oom_escape_json(esc, sizeof(esc), s);
	fprintf(f, "\"%s\"", esc);
}

/* Scoring parameters for heuristic @h on the system @snap was read from. */
static int score_params(struct oom_ctx *ctx, const struct oom_snapshot *snap, enum oom_heuristic h,
			struct oom_score_params *p, enum oom_total_source *src)
{
	long long thres = 0;
	int err = oom_sysctl_get(ctx, OOM_SYSCTL_OOM_FORKBOMB_THRES, &thres);

	if (err < 0) {
		tool_error_errno(err, oom_sysctl_name(OOM_SYSCTL_OOM_FORKBOMB_THRES));
		return err;
	}
	p->heuristic = h;
	p->forkbomb_thres = (unsigned long)thres;
	p->totalpages = oom_system_totalpages(oom_snapshot_meminfo(snap), oom_snapshot_page_size(snap), h, src);
	return 0;
}

/* The score a heuristic shows for a task: the kernel's is its oom_score scale. */
static long shown_score(const struct oom_snapshot *snap, const struct oom_task *t, const struct oom_score_params *p)
{
	struct oom_score_terms terms;

	if (oom_score_task(snap, t, p, &terms) < 0 || !terms.eligible)
		return 0;
	return p->heuristic == OOM_HEURISTIC_KERNEL ? terms.oom_score : terms.score;
}

static int finish_output(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		tool_error("write error: %s", strerror(errno));
		return EXIT_FAIL;
	}
	return status;
}

/* ---- get ---------------------------------------------------------------- */

enum field_id {
	F_PID,
	F_PPID,
	F_UID,
	F_STATE,
	F_OOM_SCORE_ADJ,
	F_OOM_ADJ,
	F_OOM_SCORE,
	F_SCORE,
	F_RSS,
	F_SWAP,
	F_COMM,
	F_COUNT,
};

static const struct field {
	const char *name;
	const char *header;
	int width; /* right-aligned; 0: COMMAND, left-aligned */
} fields[F_COUNT] = {
	[F_PID] = { "pid", "PID", 7 },
	[F_PPID] = { "ppid", "PPID", 7 },
	[F_UID] = { "uid", "UID", 5 },
	[F_STATE] = { "state", "S", 1 },
	[F_OOM_SCORE_ADJ] = { "oom_score_adj", "OOM_SCORE_ADJ", 13 },
	[F_OOM_ADJ] = { "oom_adj", "OOM_ADJ", 7 },
	[F_OOM_SCORE] = { "oom_score", "OOM_SCORE", 9 },
	[F_SCORE] = { "score", "SCORE", 5 },
	[F_RSS] = { "rss", "RSS", 9 },
	[F_SWAP] = { "swap", "SWAP", 9 },
	[F_COMM] = { "comm", "COMMAND", 0 },
};

#define COMM_WIDTH 16 /* COMMAND when not the last column: comm is 15 bytes */

static const enum field_id default_fields[] = { F_PID, F_OOM_SCORE_ADJ, F_OOM_ADJ, F_OOM_SCORE, F_SCORE, F_COMM };

struct get_args {
	const char *root;
	enum field_id cols[F_COUNT * 2];
	size_t ncols;
	bool no_headers, json;
	enum oom_heuristic heuristic;
	char **pids;
	size_t npids;
};

static void parse_fields(struct argp_state *state, struct get_args *a, char *list)
{
	char *save = NULL;

	for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < F_COUNT; i++) {
			if (strcasecmp(tok, fields[i].name) == 0 || strcmp(tok, fields[i].header) == 0)
				break;
		}
		if (i == F_COUNT)
			argp_error(state, "unknown field '%s' (pid, ppid, uid, state, oom_score_adj, oom_adj, "
				   "oom_score, score, rss, swap, comm)", tok);
		if (a->ncols == sizeof(a->cols) / sizeof(a->cols[0]))
			argp_error(state, "too many fields");
		a->cols[a->ncols++] = (enum field_id)i;
	}
	if (!a->ncols)
		argp_error(state, "no field given to -o");
}

static const struct argp_option get_options[] = {
	{ "output", 'o', "FIELD,...", 0,
	  "Print these fields, in this order: pid ppid uid state oom_score_adj oom_adj oom_score score "
	  "rss swap comm (rss and swap in KiB)", 0 },
	{ "no-headers", OPT_NO_HEADERS, NULL, 0, "No header line; values separated by one space", 0 },
	{ "json", OPT_JSON, NULL, 0, "A JSON array of objects keyed by field name", 0 },
	{ "heuristic", 'H', "NAME", 0, "SCORE under rewrite (default), kernel or legacy", 0 },
	{ 0 },
};

static error_t parse_get(int key, char *arg, struct argp_state *state)
{
	struct get_args *a = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->root;
		break;
	case 'o':
		parse_fields(state, a, arg);
		break;
	case OPT_NO_HEADERS:
		a->no_headers = true;
		break;
	case OPT_JSON:
		a->json = true;
		break;
	case 'H':
		tool_parse_heuristic(state, arg, &a->heuristic);
		break;
	case ARGP_KEY_ARGS:
		a->pids = state->argv + state->next;
		a->npids = (size_t)(state->argc - state->next);
		break;
	case ARGP_KEY_NO_ARGS:
		argp_error(state, "no PID given");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp get_argp = {
	get_options, parse_get, "PID...",
	"Show the OOM killer's view of processes: oom_score_adj, oom_adj (as the kernel reads it back), the "
	"kernel's oom_score and the SCORE of a heuristic.",
	root_child, NULL, NULL,
};

static void print_value(const struct oom_task *t, enum field_id f, long score, bool table, bool json,
			enum oom_escape esc, unsigned long page_kb)
{
	int adj = 0;
	long long v;

	switch (f) {
	case F_PID:
		v = t->tgid;
		break;
	case F_PPID:
		v = t->ppid;
		break;
	case F_UID:
		v = t->uid;
		break;
	case F_STATE:
		if (json)
			printf("\"%c\"", t->state ? t->state : '?');
		else
			printf("%c", t->state ? t->state : '?');
		return;
	case F_OOM_SCORE_ADJ:
		v = t->oom_score_adj;
		break;
	case F_OOM_ADJ:
		oom_score_adj_to_adj_kernel(t->oom_score_adj, &adj);
		v = adj;
		break;
	case F_OOM_SCORE:
		if (!(t->have & OOM_HAVE_OOM_SCORE)) {
			/* A saved tree without the file: say so rather than invent a value. */
			if (json)
				fputs("null", stdout);
			else
				printf("%*s", table ? fields[f].width : 0, "-");
			return;
		}
		v = t->oom_score;
		break;
	case F_SCORE:
		v = score;
		break;
	case F_RSS:
		v = (long long)(oom_task_rss_pages(t) * page_kb);
		break;
	case F_SWAP:
		v = (long long)(t->swap_pages * page_kb);
		break;
	case F_COMM:
	default: {
		char name[OOM_COMM_MAX * 4];

		if (json) {
			json_string(stdout, t->comm);
		} else {
			oom_escape_name(name, sizeof(name), t->comm, esc);
			printf("%-*s", table ? COMM_WIDTH : 0, name);
		}
		return;
	}
	}
	if (table)
		printf("%*lld", fields[f].width, v);
	else
		printf("%lld", v);
}

static int cmd_get(int argc, char **argv)
{
	struct get_args a = { .root = global_root, .heuristic = OOM_HEURISTIC_REWRITE };
	struct oom_snapshot *snap = NULL;
	struct oom_score_params params;
	struct oom_ctx *ctx = NULL;
	enum oom_escape esc;
	unsigned int what = OOM_READ_STATUS | OOM_READ_STAT;
	bool need_score = false, table, first = true;
	unsigned long page_kb;
	pid_t *pids;
	int status = EXIT_OK;

	parse_sub(&get_argp, argc, argv, 0, &a);
	if (!a.ncols) {
		memcpy(a.cols, default_fields, sizeof(default_fields));
		a.ncols = sizeof(default_fields) / sizeof(default_fields[0]);
	}
	pids = calloc(a.npids, sizeof(*pids));
	if (!pids) {
		tool_error_errno(-ENOMEM, "get");
		return EXIT_FAIL;
	}
	if (parse_pids(a.pids, a.npids, pids) < 0) {
		free(pids);
		return EXIT_USAGE;
	}
	for (size_t c = 0; c < a.ncols; c++) {
		if (a.cols[c] == F_OOM_SCORE)
			what |= OOM_READ_OOM_SCORE;
		if (a.cols[c] == F_SCORE)
			need_score = true;
	}
	if (tool_open_ctx(a.root, &ctx) < 0) {
		free(pids);
		return EXIT_FAIL;
	}
	/* A score needs the whole system: totalpages, and children for the forkbomb penalty. */
	if (need_score) {
		int err = oom_snapshot_new(ctx, OOM_READ_STATUS | OOM_READ_STAT, &snap);

		if (err < 0)
			tool_error_errno(err, "reading processes");
		if (err < 0 || score_params(ctx, snap, a.heuristic, &params, NULL) < 0) {
			oom_snapshot_free(snap);
			oom_ctx_unref(ctx);
			free(pids);
			return EXIT_FAIL;
		}
	}
	page_kb = oom_ctx_get_page_size(ctx) / 1024;
	/* Not a kernel format: always escaped, so a name never splits a row a script reads. */
	esc = OOM_ESCAPE_CONTROL;
	table = !a.json && !a.no_headers;
	if (a.json) {
		fputs("[", stdout);
	} else if (!a.no_headers) {
		for (size_t c = 0; c < a.ncols; c++) {
			const struct field *f = &fields[a.cols[c]];

			/* COMMAND is left-aligned: padded only when another column follows. */
			int w = f->width ? f->width : c + 1 < a.ncols ? -COMM_WIDTH : 0;

			printf(c ? " %*s" : "%*s", w, f->header);
		}
		putchar('\n');
	}
	for (size_t i = 0; i < a.npids; i++) {
		struct oom_task t;
		long score = 0;
		int err = oom_task_read(ctx, pids[i], what, &t);

		if (err < 0) {
			report_read_error(pids[i], err);
			status = EXIT_FAIL;
			continue;
		}
		if (need_score)
			score = shown_score(snap, &t, &params);
		if (a.json)
			fputs(first ? "\n{" : ",\n{", stdout);
		for (size_t c = 0; c < a.ncols; c++) {
			if (a.json)
				printf(c ? ", \"%s\": " : "\"%s\": ", fields[a.cols[c]].name);
			else if (c)
				putchar(' ');
			/* The last column is not padded: no trailing blanks. */
			print_value(&t, a.cols[c], score, table && (c + 1 < a.ncols || fields[a.cols[c]].width),
				    a.json, esc, page_kb);
		}
		if (a.json)
			putchar('}');
		else
			putchar('\n');
		first = false;
		oom_task_clear(&t);
	}
	if (a.json)
		fputs(first ? "]\n" : "\n]\n", stdout);
	oom_snapshot_free(snap);
	oom_ctx_unref(ctx);
	free(pids);
	return finish_output(status);
}

/* ---- set ---------------------------------------------------------------- */

enum set_mode { MODE_NONE, MODE_SCORE_ADJ, MODE_ADJ, MODE_BY };

struct value_args {
	const char *root;
	const char *choices; /* the value options this command has, for messages */
	enum set_mode mode;
	const char *value;
	bool verbose;
	char **args;
	size_t nargs;
};

static void set_mode(struct argp_state *state, struct value_args *a, enum set_mode mode, const char *arg)
{
	if (a->mode != MODE_NONE && a->mode != mode)
		argp_error(state, "give only one of %s", a->choices);
	a->mode = mode;
	a->value = arg;
}

static const struct argp_option set_options[] = {
	{ "score-adj", OPT_SCORE_ADJ, "N", 0, "Set oom_score_adj to N (-1000..1000; -100 is absolute)", 0 },
	{ "adj", OPT_ADJ, "N", 0, "Set the deprecated oom_adj N (-17..15), converted to oom_score_adj", 0 },
	{ "by", OPT_BY, "N", 0, "Add the signed N to oom_score_adj, clamped to -1000..1000", 0 },
	{ "verbose", 'v', NULL, 0, "Print \"PID: old -> new\" for each process changed", 0 },
	{ 0 },
};

static error_t parse_set(int key, char *arg, struct argp_state *state)
{
	struct value_args *a = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->root;
		break;
	case OPT_SCORE_ADJ:
		set_mode(state, a, MODE_SCORE_ADJ, arg);
		break;
	case OPT_ADJ:
		set_mode(state, a, MODE_ADJ, arg);
		break;
	case OPT_BY:
		set_mode(state, a, MODE_BY, arg);
		break;
	case 'v':
		a->verbose = true;
		break;
	case ARGP_KEY_ARGS:
		a->args = state->argv + state->next;
		a->nargs = (size_t)(state->argc - state->next);
		break;
	case ARGP_KEY_NO_ARGS:
		argp_error(state, "no PID given");
		break;
	case ARGP_KEY_END:
		if (a->mode == MODE_NONE)
			argp_error(state, "give one of %s", a->choices);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp set_argp = {
	set_options, parse_set, "(--score-adj N | --adj N | --by N) PID...",
	"Change oom_score_adj of each PID. The value is checked before anything is written; each PID is "
	"done on its own, and a failure on one does not stop the others.",
	root_child, NULL, NULL,
};

/* Turns the option value into oom_score_adj (or a delta for --by); 0 or -EINVAL after saying why. */
static int parse_mode_value(enum set_mode mode, const char *s, long long *out)
{
	long long v;
	int adj;

	switch (mode) {
	case MODE_ADJ:
		if (tool_parse_int("oom_adj", s, OOM_DISABLE, OOM_ADJUST_MAX, &v) < 0)
			return -EINVAL;
		warn_adj_deprecated();
		oom_adj_to_score_adj((int)v, &adj);
		*out = adj;
		return 0;
	case MODE_BY:
		/* Any delta is fine: the sum is clamped, and the user told so. */
		return tool_parse_int("--by", s, INT_MIN, INT_MAX, out);
	default:
		return tool_parse_int("oom_score_adj", s, OOM_SCORE_ADJ_MIN, OOM_SCORE_ADJ_MAX, out);
	}
}

static int set_one(struct oom_ctx *ctx, pid_t pid, enum set_mode mode, long long value, bool verbose)
{
	struct oom_task t;
	int err, old, target;

	/* The start time read here is what the write checks against PID reuse. */
	err = oom_task_read(ctx, pid, OOM_READ_STAT, &t);
	if (err < 0) {
		report_read_error(pid, err);
		return err;
	}
	old = t.oom_score_adj;
	if (mode == MODE_BY) {
		long long sum = old + value;

		target = (int)(sum < OOM_SCORE_ADJ_MIN ? OOM_SCORE_ADJ_MIN :
			       sum > OOM_SCORE_ADJ_MAX ? OOM_SCORE_ADJ_MAX : sum);
		if (target != sum)
			tool_error("%d: %d %+lld = %lld is out of range, clamped to %d", (int)pid, old, value, sum,
				   target);
	} else {
		target = (int)value;
	}
	err = oom_score_adj_write(ctx, pid, target, t.start_ticks, &old);
	if (err < 0)
		report_write_error(pid, err, &t, t.oom_score_adj, target);
	else if (verbose)
		printf("%d: %d -> %d\n", (int)pid, old, target);
	oom_task_clear(&t);
	return err;
}

static int cmd_set(int argc, char **argv)
{
	struct value_args a = { .root = global_root, .choices = "--score-adj, --adj and --by" };
	struct oom_ctx *ctx = NULL;
	long long value;
	pid_t *pids;
	int status = EXIT_OK;

	parse_sub(&set_argp, argc, argv, 0, &a);
	pids = calloc(a.nargs, sizeof(*pids));
	if (!pids) {
		tool_error_errno(-ENOMEM, "set");
		return EXIT_FAIL;
	}
	/* Everything is validated before the first write. */
	if (parse_mode_value(a.mode, a.value, &value) < 0 || parse_pids(a.args, a.nargs, pids) < 0) {
		free(pids);
		return EXIT_USAGE;
	}
	if (tool_open_ctx(a.root, &ctx) < 0) {
		free(pids);
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < a.nargs; i++) {
		if (set_one(ctx, pids[i], a.mode, value, a.verbose) < 0)
			status = EXIT_FAIL;
	}
	oom_ctx_unref(ctx);
	free(pids);
	return finish_output(status);
}

/* ---- run ---------------------------------------------------------------- */

static const struct argp_option run_options[] = {
	{ "score-adj", OPT_SCORE_ADJ, "N", 0, "Run CMD with oom_score_adj N (-1000..1000)", 0 },
	{ "adj", OPT_ADJ, "N", 0, "Run CMD with the deprecated oom_adj N (-17..15)", 0 },
	{ 0 },
};

static error_t parse_run(int key, char *arg, struct argp_state *state)
{
	struct value_args *a = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->root;
		break;
	case OPT_SCORE_ADJ:
		set_mode(state, a, MODE_SCORE_ADJ, arg);
		break;
	case OPT_ADJ:
		set_mode(state, a, MODE_ADJ, arg);
		break;
	case ARGP_KEY_ARG:
		/* The command and everything after it belong to the command, options too. */
		a->args = state->argv + state->next - 1;
		a->nargs = (size_t)(state->argc - state->next + 1);
		state->next = state->argc;
		break;
	case ARGP_KEY_NO_ARGS:
		argp_error(state, "no command given");
		break;
	case ARGP_KEY_END:
		if (a->mode == MODE_NONE)
			argp_error(state, "give one of %s", a->choices);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp run_argp = {
	run_options, parse_run, "(--score-adj N | --adj N) [--] CMD [ARG...]",
	"Set oomctl's own oom_score_adj, then execute CMD with it (children inherit it). The exit status "
	"is CMD's; 126 if CMD cannot be executed, 127 if it is not found.",
	root_child, NULL, NULL,
};

static int cmd_run(int argc, char **argv)
{
	struct value_args a = { .root = global_root, .choices = "--score-adj and --adj" };
	struct oom_ctx *ctx = NULL;
	pid_t self = getpid();
	long long value;
	int err, old = 0;

	/* In order: the first non-option is CMD, and its own options are left alone. */
	parse_sub(&run_argp, argc, argv, ARGP_IN_ORDER, &a);
	if (parse_mode_value(a.mode, a.value, &value) < 0)
		return EXIT_USAGE;
	if (tool_open_ctx(a.root, &ctx) < 0)
		return EXIT_FAIL;
	err = oom_score_adj_read(ctx, self, &old);
	if (err == 0)
		err = oom_score_adj_write(ctx, self, (int)value, 0, &old);
	oom_ctx_unref(ctx);
	if (err < 0) {
		report_write_error(self, err, NULL, old, (int)value);
		return EXIT_FAIL;
	}
	execvp(a.args[0], a.args);
	err = errno;
	tool_error("%s: %s", a.args[0], strerror(err));
	return err == ENOENT ? 127 : 126;
}

/* ---- convert ------------------------------------------------------------ */

struct convert_args {
	const char *root;
	const char *adj, *score_adj;
	bool kernel, table;
};

static const struct argp_option convert_options[] = {
	{ "adj", OPT_ADJ, "N", 0, "Print the oom_score_adj that oom_adj N (-17..15) is stored as", 0 },
	{ "score-adj", OPT_SCORE_ADJ, "N", 0, "Print the oom_adj of oom_score_adj N (-1000..1000), as 2.6.36 stored it",
	  0 },
	{ "kernel", OPT_KERNEL, NULL, 0, "With --score-adj: as a current kernel reads /proc/PID/oom_adj back", 0 },
	{ "table", OPT_TABLE, NULL, 0, "Every oom_adj value with its oom_score_adj and both readings back", 0 },
	{ 0 },
};

static error_t parse_convert(int key, char *arg, struct argp_state *state)
{
	struct convert_args *a = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->root;
		break;
	case OPT_ADJ:
		a->adj = arg;
		break;
	case OPT_SCORE_ADJ:
		a->score_adj = arg;
		break;
	case OPT_KERNEL:
		a->kernel = true;
		break;
	case OPT_TABLE:
		a->table = true;
		break;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		break;
	case ARGP_KEY_END:
		if ((a->adj != NULL) + (a->score_adj != NULL) + a->table != 1)
			argp_error(state, "give one of --adj N, --score-adj N and --table");
		if (a->kernel && !a->score_adj)
			argp_error(state, "--kernel goes with --score-adj");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp convert_argp = {
	convert_options, parse_convert, NULL,
	"Convert between the deprecated oom_adj and oom_score_adj, with the kernel's rules: oom_adj -17..15 "
	"is stored as oom_score_adj; 2.6.36 and current kernels read it back differently.",
	root_child, NULL, NULL,
};

static int cmd_convert(int argc, char **argv)
{
	struct convert_args a = { .root = global_root };
	long long v;
	int out;

	parse_sub(&convert_argp, argc, argv, 0, &a);
	if (a.table) {
		printf("OOM_ADJ OOM_SCORE_ADJ OOM_ADJ_2.6.36 OOM_ADJ_KERNEL\n");
		for (int adj = OOM_DISABLE; adj <= OOM_ADJUST_MAX; adj++) {
			int sadj, back, kback;

			oom_adj_to_score_adj(adj, &sadj);
			oom_score_adj_to_adj(sadj, &back);
			oom_score_adj_to_adj_kernel(sadj, &kback);
			printf("%7d %13d %14d %14d\n", adj, sadj, back, kback);
		}
		return finish_output(EXIT_OK);
	}
	if (a.adj) {
		if (tool_parse_int("oom_adj", a.adj, OOM_DISABLE, OOM_ADJUST_MAX, &v) < 0)
			return EXIT_USAGE;
		oom_adj_to_score_adj((int)v, &out);
	} else {
		if (tool_parse_int("oom_score_adj", a.score_adj, OOM_SCORE_ADJ_MIN, OOM_SCORE_ADJ_MAX, &v) < 0)
			return EXIT_USAGE;
		if (a.kernel)
			oom_score_adj_to_adj_kernel((int)v, &out);
		else
			oom_score_adj_to_adj((int)v, &out);
	}
	printf("%d\n", out);
	return finish_output(EXIT_OK);
}

/* ---- sysctl ------------------------------------------------------------- */

struct sysctl_args {
	const char *root;
	bool values_only;
	char **args;
	size_t nargs;
};

static const struct argp_option sysctl_options[] = {
	{ "values", 'n', NULL, 0, "Print values only, one a line", 0 },
	{ 0 },
};

static error_t parse_sysctl(int key, char *arg, struct argp_state *state)
{
	struct sysctl_args *a = state->input;

	(void)arg;
	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->root;
		break;
	case 'n':
		a->values_only = true;
		break;
	case ARGP_KEY_ARGS:
		a->args = state->argv + state->next;
		a->nargs = (size_t)(state->argc - state->next);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp sysctl_argp = {
	sysctl_options, parse_sysctl, "[NAME[=VALUE]...]",
	"Show or set the OOM killer's sysctls, like sysctl(8): vm.panic_on_oom, vm.oom_dump_tasks, "
	"vm.oom_kill_allocating_task, vm.oom_forkbomb_thres (NAME with or without \"vm.\"). Without NAME, "
	"all four. Every NAME and VALUE is checked before anything is written; if a write fails, those "
	"already written get their old value back.",
	root_child, NULL, NULL,
};

struct sysctl_item {
	enum oom_sysctl s;
	bool set, readable;
	long long value, old;
};

static void print_sysctl(enum oom_sysctl s, long long v, bool values_only)
{
	if (values_only)
		printf("%lld\n", v);
	else
		printf("%s = %lld\n", oom_sysctl_name(s), v);
}

/*
 * The lowest (@dir -1) or highest (@dir 1) value the library accepts for @s,
 * found by bisection from 0 (valid for every OOM sysctl), so that the range
 * in the message is the library's and cannot drift from it.
 */
static long long sysctl_bound(enum oom_sysctl s, int dir)
{
	long long ok = 0, bad = dir > 0 ? (long long)INT_MAX + 1 : (long long)INT_MIN - 1;

	while ((bad > ok ? bad - ok : ok - bad) > 1) {
		long long mid = ok + (bad - ok) / 2;

		if (oom_sysctl_validate(s, mid) == 0)
			ok = mid;
		else
			bad = mid;
	}
	return ok;
}

/* Parses "NAME" or "NAME=VALUE" into @it; 0 or -EINVAL after saying why. */
static int parse_sysctl_arg(char *arg, struct sysctl_item *it)
{
	char *eq = strchr(arg, '=');
	int err;

	if (eq)
		*eq = '\0';
	err = oom_sysctl_from_name(arg, &it->s);
	if (err < 0) {
		tool_error("unknown sysctl '%s' (vm.panic_on_oom, vm.oom_dump_tasks, "
			   "vm.oom_kill_allocating_task, vm.oom_forkbomb_thres)", arg);
		return -EINVAL;
	}
	it->set = eq != NULL;
	if (!eq)
		return 0;
	err = oom_parse_ll(eq + 1, 10, &it->value);
	if (err == 0)
		err = oom_sysctl_validate(it->s, it->value);
	if (err == -ERANGE) {
		tool_error("%s must be between %lld and %lld", oom_sysctl_name(it->s), sysctl_bound(it->s, -1),
			   sysctl_bound(it->s, 1));
		return -EINVAL;
	}
	if (err < 0) {
		tool_error("%s: '%s' is not a number", oom_sysctl_name(it->s), eq + 1);
		return -EINVAL;
	}
	return 0;
}

static void report_sysctl_write(int err, enum oom_sysctl s)
{
	if (err == -EACCES || err == -EPERM || err == -EROFS)
		tool_error("%s: permission denied: writing OOM sysctls needs root; nothing changed",
			   oom_sysctl_name(s));
	else
		tool_error_errno(err, oom_sysctl_name(s));
}

static int cmd_sysctl(int argc, char **argv)
{
	struct sysctl_args a = { .root = global_root };
	struct sysctl_item *items;
	struct oom_ctx *ctx = NULL;
	size_t n, done;
	int status = EXIT_OK, err;

	parse_sub(&sysctl_argp, argc, argv, 0, &a);
	n = a.nargs ? a.nargs : OOM_SYSCTL_COUNT;
	items = calloc(n, sizeof(*items));
	if (!items) {
		tool_error_errno(-ENOMEM, "sysctl");
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < n; i++) {
		if (!a.nargs) {
			items[i].s = (enum oom_sysctl)i;
		} else if (parse_sysctl_arg(a.args[i], &items[i]) < 0) {
			free(items);
			return EXIT_USAGE;
		}
	}
	if (tool_open_ctx(a.root, &ctx) < 0) {
		free(items);
		return EXIT_FAIL;
	}
	/* Old values first: printed for reads, restored if a later write fails. */
	for (size_t i = 0; i < n; i++) {
		err = oom_sysctl_get(ctx, items[i].s, &items[i].old);
		items[i].readable = err == 0;
		if (err == -ENOENT)
			tool_error("%s: this kernel has no such sysctl", oom_sysctl_name(items[i].s));
		else if (err < 0)
			tool_error_errno(err, oom_sysctl_name(items[i].s));
		if (err < 0) {
			status = EXIT_FAIL;
			if (items[i].set)
				goto out; /* no old value to restore: write nothing */
		}
	}
	for (done = 0; done < n; done++) {
		if (!items[done].set)
			continue;
		err = oom_sysctl_set(ctx, items[done].s, items[done].value);
		if (err < 0) {
			report_sysctl_write(err, items[done].s);
			status = EXIT_FAIL;
			/* Undo, newest first, so that nothing stays half-applied. */
			while (done-- > 0) {
				if (items[done].set && oom_sysctl_set(ctx, items[done].s, items[done].old) < 0)
					tool_error("%s: could not restore %lld", oom_sysctl_name(items[done].s),
						   items[done].old);
			}
			goto out;
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (items[i].set)
			print_sysctl(items[i].s, items[i].value, a.values_only);
		else if (items[i].readable)
			print_sysctl(items[i].s, items[i].old, a.values_only);
	}
out:
	oom_ctx_unref(ctx);
	free(items);
	return finish_output(status);
}

/* ---- explain ------------------------------------------------------------ */

struct explain_args {
	const char *root;
	enum oom_heuristic heuristic;
	const char *pid;
};

static const struct argp_option explain_options[] = {
	{ "heuristic", 'H', "NAME", 0, "rewrite (default), kernel or legacy", 0 },
	{ 0 },
};

static error_t parse_explain(int key, char *arg, struct argp_state *state)
{
	struct explain_args *a = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->root;
		break;
	case 'H':
		tool_parse_heuristic(state, arg, &a->heuristic);
		break;
	case ARGP_KEY_ARG:
		if (a->pid)
			argp_error(state, "explain takes one PID");
		a->pid = arg;
		break;
	case ARGP_KEY_NO_ARGS:
		argp_error(state, "no PID given");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp explain_argp = {
	explain_options, parse_explain, "PID",
	"Show every term of a process's OOM score under a heuristic, the kernel's /proc/PID/oom_score next to "
	"the kernel heuristic's value, and the process's rank among all processes (one snapshot).",
	root_child, NULL, NULL,
};

static void term(const char *label, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void term(const char *label, const char *fmt, ...)
{
	va_list ap;

	printf("%-18s ", label);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static const char *total_source_text(enum oom_total_source src)
{
	switch (src) {
	case OOM_TOTAL_LRU_SWAP:
		return "Active(anon) + Inactive(anon) + Active(file) + Inactive(file) + SwapTotal, /proc/meminfo";
	case OOM_TOTAL_RAM_SWAP:
		return "MemTotal + SwapTotal, /proc/meminfo";
	case OOM_TOTAL_MEMCG:
		return "the memory cgroup's limit";
	case OOM_TOTAL_NODES:
	default:
		return "the allowed nodes' LRU pages + SwapTotal";
	}
}

static const char *ineligible_reason(const struct oom_task *t)
{
	if (oom_task_is_kthread(t))
		return "a kernel thread";
	if (t->tgid == 1)
		return "init (PID 1)";
	if (!(t->have & OOM_HAVE_MM))
		return "it has no memory (no mm) left";
	return "oom_score_adj is -1000 (OOM_SCORE_ADJ_MIN)";
}

static void explain_rewrite(const struct oom_score_terms *x, const struct oom_score_params *p)
{
	term("base", "(rss + swap) * 1000 / totalpages = (%lu + %lu) * 1000 / %lu = %ld", x->rss_pages, x->swap_pages,
	     p->totalpages ? p->totalpages : 1, x->base);
	if (!p->forkbomb_thres)
		term("forkbomb penalty", "+0 (vm.oom_forkbomb_thres is 0: disabled)");
	else if (x->forkbomb_children > p->forkbomb_thres)
		term("forkbomb penalty", "%+ld (%lu children under 1 s of CPU, more than vm.oom_forkbomb_thres %lu: "
		     "their rss %lu pages / %lu)", x->forkbomb_penalty, x->forkbomb_children, p->forkbomb_thres,
		     x->forkbomb_children_rss_pages, p->forkbomb_thres);
	else
		term("forkbomb penalty", "+0 (%lu children under 1 s of CPU, not more than vm.oom_forkbomb_thres %lu)",
		     x->forkbomb_children, p->forkbomb_thres);
	term("root bonus", "%+ld (%s)", x->root_bonus, x->root_bonus ? "CAP_SYS_ADMIN" : "no CAP_SYS_ADMIN");
	term("oom_score_adj", "%+ld", x->adj_term);
	term("sum", "%ld", x->unclamped);
	term("clamp 0..1000", "%ld%s", x->score, x->clamped ? " (clamped)" : " (unchanged)");
	term("score", "%ld", x->score);
}

static void explain_kernel(const struct oom_score_terms *x, const struct oom_score_params *p, const struct oom_task *t)
{
	term("page tables", "%lu pages (VmPTE %lu bytes)", x->pgtables_pages, t->pgtables_bytes);
	term("base", "rss + swap + page tables = %lu + %lu + %lu = %ld", x->rss_pages, x->swap_pages,
	     x->pgtables_pages, x->base);
	term("oom_score_adj", "%+d * (totalpages / 1000) = %+d * %lu = %+ld", t->oom_score_adj, t->oom_score_adj,
	     p->totalpages / 1000, x->adj_term);
	term("points", "%ld", x->score);
	term("score", "%ld (oom_score: (1000 + points * 1000 / totalpages) * 2 / 3)", x->oom_score);
}

static void explain_legacy(const struct oom_score_terms *x, const struct oom_snapshot *snap, const struct oom_task *t)
{
	const size_t *kids;
	size_t n = oom_snapshot_children(snap, t->tgid, &kids), with_mm = 0;
	bool admin, rawio;

	for (size_t i = 0; i < n; i++) {
		if (oom_snapshot_task(snap, kids[i])->have & OOM_HAVE_MM)
			with_mm++;
	}
	term("total_vm", "%lu pages", x->total_vm_pages);
	term("children", "+%lu pages (total_vm / 2 + 1 of %zu children with their own memory)", x->children_vm_pages,
	     with_mm);
	if (x->cpu_time)
		term("cpu_time", "%lu ((utime + stime) ticks >> 10): divided by int_sqrt(%lu) = %lu", x->cpu_time,
		     x->cpu_time, x->cpu_divisor);
	else
		term("cpu_time", "0 ((utime + stime) ticks >> 10): not divided");
	if (x->run_time)
		term("run_time", "%lu (seconds since start >> 10): divided by int_sqrt(int_sqrt(%lu)) = %lu",
		     x->run_time, x->run_time, x->run_divisor);
	else
		term("run_time", "0 (seconds since start >> 10): not divided");
	term("nice", "%s", x->nice_doubled ? "doubled (nice > 0)" : "unchanged (nice <= 0)");
	admin = oom_task_has_cap(t, OOM_CAP_SYS_ADMIN) || oom_task_has_cap(t, OOM_CAP_SYS_RESOURCE);
	rawio = oom_task_has_cap(t, OOM_CAP_SYS_RAWIO);
	if (admin || rawio)
		term("capabilities", "divided by 4%s%s%s", admin ? " (CAP_SYS_ADMIN or CAP_SYS_RESOURCE)" : "",
		     admin && rawio ? ", and by 4" : "", rawio ? " (CAP_SYS_RAWIO)" : "");
	else
		term("capabilities", "unchanged (no CAP_SYS_ADMIN, CAP_SYS_RESOURCE or CAP_SYS_RAWIO)");
	if (x->oom_adj > 0)
		term("oom_adj", "%d: shifted left by %d (0 becomes 1 first)", x->oom_adj, x->oom_adj);
	else if (x->oom_adj < 0)
		term("oom_adj", "%d: shifted right by %d", x->oom_adj, -x->oom_adj);
	else
		term("oom_adj", "0: no shift");
	term("score", "%ld (badness)", x->score);
}

/* 1-based position in the order the OOM killer would pick, or 0 when not a candidate. */
static size_t rank_of(const struct oom_snapshot *snap, const struct oom_task *target, const struct oom_score_params *p,
		      long target_score, size_t *candidates)
{
	size_t rank = 1;

	*candidates = 0;
	for (size_t i = 0; i < oom_snapshot_count(snap); i++) {
		const struct oom_task *t = oom_snapshot_task(snap, i);
		struct oom_score_terms x;

		if (oom_score_task(snap, t, p, &x) < 0 || !x.eligible)
			continue;
		(*candidates)++;
		if (t == target)
			continue;
		/* Ties: 2.6.36 and earlier keep the first in PID order, current kernels the last. */
		if (x.score > target_score ||
		    (x.score == target_score && (p->heuristic == OOM_HEURISTIC_KERNEL ? t->tgid > target->tgid :
											   t->tgid < target->tgid)))
			rank++;
	}
	return rank;
}

static int cmd_explain(int argc, char **argv)
{
	struct explain_args a = { .root = global_root, .heuristic = OOM_HEURISTIC_REWRITE };
	struct oom_score_params p, kp;
	struct oom_score_terms x, kx;
	struct oom_snapshot *snap = NULL;
	struct oom_ctx *ctx = NULL;
	const struct oom_task *t;
	enum oom_total_source src;
	char name[OOM_COMM_MAX * 4];
	size_t rank, candidates;
	long kernel_score;
	long long pid;
	int err;

	parse_sub(&explain_argp, argc, argv, 0, &a);
	if (tool_parse_int("PID", a.pid, 1, INT_MAX, &pid) < 0)
		return EXIT_USAGE;
	if (tool_open_ctx(a.root, &ctx) < 0)
		return EXIT_FAIL;
	/* One snapshot: the task, its children, every rival and the kernel's own scores agree in time. */
	err = oom_snapshot_new(ctx, OOM_READ_STATUS | OOM_READ_STAT | OOM_READ_OOM_SCORE, &snap);
	if (err < 0) {
		tool_error_errno(err, "reading processes");
		oom_ctx_unref(ctx);
		return EXIT_FAIL;
	}
	t = oom_snapshot_find(snap, (pid_t)pid);
	if (!t) {
		struct oom_task one;

		/* The scan skips what it cannot read: ask for this one alone, to say why. */
		err = oom_task_read(ctx, (pid_t)pid, OOM_READ_STATUS | OOM_READ_STAT, &one);
		if (err == 0)
			oom_task_clear(&one);
		report_read_error((pid_t)pid, err < 0 ? err : -ESRCH);
		goto fail;
	}
	if (score_params(ctx, snap, a.heuristic, &p, &src) < 0 ||
	    score_params(ctx, snap, OOM_HEURISTIC_KERNEL, &kp, NULL) < 0)
		goto fail;
	oom_score_task(snap, t, &p, &x);
	oom_score_task(snap, t, &kp, &kx);

	oom_escape_name(name, sizeof(name), t->comm, OOM_ESCAPE_CONTROL);
	term("process", "%d (%s)", (int)t->tgid, name);
	term("heuristic", "%s", a.heuristic == OOM_HEURISTIC_REWRITE ? "rewrite (the 2010 rewrite as posted, 2.6.36)" :
				a.heuristic == OOM_HEURISTIC_KERNEL ? "kernel (current mainline, v5.9+)" :
								      "legacy (the pre-2010 badness(), 2.6.35)");
	if (!x.eligible) {
		term("candidate", "no: %s", ineligible_reason(t));
		term("score", "0");
	} else {
		if (a.heuristic != OOM_HEURISTIC_LEGACY) {
			term("rss", "%lu pages (anon %lu + file %lu + shmem %lu)", x.rss_pages, t->rss_anon_pages,
			     t->rss_file_pages, t->rss_shmem_pages);
			term("swap", "%lu pages", x.swap_pages);
			term("totalpages", "%lu pages (%s)", p.totalpages, total_source_text(src));
		}
		if (a.heuristic == OOM_HEURISTIC_REWRITE)
			explain_rewrite(&x, &p);
		else if (a.heuristic == OOM_HEURISTIC_KERNEL)
			explain_kernel(&x, &p, t);
		else
			explain_legacy(&x, snap, t);
	}
	kernel_score = kx.eligible ? kx.oom_score : 0;
	if (t->have & OOM_HAVE_OOM_SCORE)
		term("kernel oom_score", "%ld by the kernel heuristic, %ld in /proc/%d/oom_score (%s)", kernel_score,
		     t->oom_score, (int)t->tgid, kernel_score == t->oom_score ? "match" : "differ");
	else
		term("kernel oom_score", "%ld by the kernel heuristic (no /proc/%d/oom_score to compare)",
		     kernel_score, (int)t->tgid);
	if (x.eligible) {
		rank = rank_of(snap, t, &p, x.score, &candidates);
		term("rank", "%zu of %zu candidates (%zu processes)", rank, candidates, oom_snapshot_count(snap));
	} else {
		term("rank", "not a candidate (%zu processes)", oom_snapshot_count(snap));
	}
	oom_snapshot_free(snap);
	oom_ctx_unref(ctx);
	return finish_output(EXIT_OK);
fail:
	oom_snapshot_free(snap);
	oom_ctx_unref(ctx);
	return EXIT_FAIL;
}

/* ---- victim ------------------------------------------------------------- */

/* One --what-if PID=ADJ. */
struct what_if {
	pid_t pid;
	int adj;
	int was; /* the snapshot's own value, for the report */
};

struct victim_args {
	const char *root;
	struct tool_constraint_opts con;
	pid_t task;
	bool all; /* --heuristic all */
	enum oom_heuristic heuristic;
	struct what_if *what_if;
	size_t nwhat_if;
	bool json;
};

static const struct argp_option victim_options[] = {
	{ "memcg", OPT_MEMCG, "PATH", 0, "A memory cgroup OOM of group PATH (as in /proc/PID/cgroup)", 0 },
	{ "cpuset-of", OPT_CPUSET_OF, "PID", 0, "A cpuset OOM: the memory nodes PID may use", 0 },
	{ "nodes", OPT_NODES, "LIST", 0, "A mempolicy OOM on node LIST (e.g. 0-1,3)", 0 },
	{ "task", 't', "PID", 0, "The allocating task, for vm.oom_kill_allocating_task", 0 },
	{ "heuristic", 'H', "NAME", 0, "rewrite (default), kernel, legacy, or all three side by side", 0 },
	{ "what-if", OPT_WHAT_IF, "PID=ADJ", 0, "Decide as if PID had oom_score_adj ADJ (repeatable)", 0 },
	{ "json", OPT_JSON, NULL, 0, "One JSON object per heuristic instead of text", 0 },
	{ 0 },
};

/* PID=ADJ, strictly: both parts are numbers in range (the PID's existence is checked on the snapshot). */
static void parse_what_if(struct argp_state *state, struct victim_args *a, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char pid[32];
	long long p, v;
	struct what_if *w;

	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(pid))
		argp_error(state, "--what-if takes PID=ADJ, not '%s'", arg);
	memcpy(pid, arg, (size_t)(eq - arg));
	pid[eq - arg] = '\0';
	if (tool_parse_int("--what-if PID", pid, 1, INT_MAX, &p) < 0 ||
	    tool_parse_int("--what-if ADJ", eq + 1, OOM_SCORE_ADJ_MIN, OOM_SCORE_ADJ_MAX, &v) < 0)
		exit(EXIT_USAGE);
	w = realloc(a->what_if, (a->nwhat_if + 1) * sizeof(*w));
	if (!w) {
		tool_error("%s", strerror(ENOMEM));
		exit(EXIT_FAIL);
	}
	a->what_if = w;
	w[a->nwhat_if++] = (struct what_if){ .pid = (pid_t)p, .adj = (int)v };
}

static error_t parse_victim(int key, char *arg, struct argp_state *state)
{
	struct victim_args *a = state->input;
	long long v;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->root;
		break;
	case OPT_MEMCG:
		/* A cgroup path as /proc/PID/cgroup shows it: absolute. */
		if (arg[0] != '/')
			argp_error(state, "--memcg takes a cgroup path starting with '/', not '%s'", arg);
		a->con.memcg = arg;
		break;
	case OPT_CPUSET_OF:
		if (tool_parse_int("--cpuset-of", arg, 1, INT_MAX, &v) < 0)
			exit(EXIT_USAGE);
		a->con.cpuset_of = (pid_t)v;
		break;
	case OPT_NODES:
		a->con.nodes = arg;
		break;
	case 't':
		if (tool_parse_int("--task", arg, 1, INT_MAX, &v) < 0)
			exit(EXIT_USAGE);
		a->task = (pid_t)v;
		break;
	case 'H':
		a->all = strcmp(arg, "all") == 0;
		if (!a->all && oom_heuristic_from_name(arg, &a->heuristic) < 0)
			argp_error(state, "unknown heuristic '%s' (rewrite, kernel, legacy, all)", arg);
		break;
	case OPT_WHAT_IF:
		parse_what_if(state, a, arg);
		break;
	case OPT_JSON:
		a->json = true;
		break;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		break;
	case ARGP_KEY_END:
		if (tool_constraint_count(&a->con) > 1)
			argp_error(state, "--memcg, --cpuset-of and --nodes exclude each other");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp victim_argp = {
	victim_options, parse_victim, NULL,
	"Show whom the OOM killer would kill now, and why: the lines the kernel would log, then the chosen "
	"task, its score and the runner-up, the child sacrificed instead, or the panic, kill-in-progress or "
	"nothing-killable outcome; the constraint and its totalpages. Nothing is killed.",
	root_child, NULL, NULL,
};

/* Everything the report needs besides the selection itself. */
struct victim_run {
	const struct victim_args *a;
	const struct oom_snapshot *snap;
	const struct oom_constraint *con;
	long long panic_on_oom, kill_allocating;
};

/* Room for any node list: every other one of OOM_MAX_NODES nodes, "0,2,...,1022". */
#define NODES_TEXT_MAX 4096

/* A node bitmap as a list: "0-1,3". */
static void format_nodes(const uint64_t *nodes, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int n = 0; n < OOM_MAX_NODES && len < size; n++) {
		int end = n;

		if (!((nodes[n / 64] >> (n % 64)) & 1u))
			continue;
		while (end + 1 < OOM_MAX_NODES && ((nodes[(end + 1) / 64] >> ((end + 1) % 64)) & 1u))
			end++;
		if (end > n)
			len += (size_t)snprintf(buf + len, size - len, "%s%d-%d", len ? "," : "", n, end);
		else
			len += (size_t)snprintf(buf + len, size - len, "%s%d", len ? "," : "", n);
		n = end;
	}
}

/* The "constraint" line: "memcg /a (cgroup v2, limited)", "cpuset of 200 (nodes 1)", ... */
static int print_constraint(const struct oom_constraint *c)
{
	const char *path = oom_constraint_memcg_path(c);
	char nodes[NODES_TEXT_MAX], *esc;
	size_t n;

	switch (oom_constraint_get_type(c)) {
	case OOM_CONSTRAINT_MEMCG:
		/* A group path may be as long as a path: escaped into a buffer its size. */
		n = oom_escape_name(NULL, 0, path, OOM_ESCAPE_CONTROL) + 1;
		esc = malloc(n);
		if (!esc)
			return -ENOMEM;
		oom_escape_name(esc, n, path, OOM_ESCAPE_CONTROL);
		term("constraint", "memcg %s (cgroup v%d, %s)", esc, oom_constraint_memcg_version(c),
		     oom_constraint_memcg_limited(c) ? "limited" : "unlimited");
		free(esc);
		break;
	case OOM_CONSTRAINT_CPUSET:
		format_nodes(oom_constraint_nodes(c), nodes, sizeof(nodes));
		term("constraint", "cpuset of %d (nodes %s)", (int)oom_constraint_cpuset_pid(c), nodes);
		break;
	case OOM_CONSTRAINT_MEMPOLICY:
		format_nodes(oom_constraint_nodes(c), nodes, sizeof(nodes));
		term("constraint", "mempolicy (nodes %s)", nodes);
		break;
	default:
		term("constraint", "none (system-wide)");
		break;
	}
	return 0;
}

/* JSON's total_source: short names for scripts. */
static const char *total_source_name(enum oom_total_source src)
{
	switch (src) {
	case OOM_TOTAL_LRU_SWAP:
		return "lru+swap";
	case OOM_TOTAL_RAM_SWAP:
		return "ram+swap";
	case OOM_TOTAL_MEMCG:
		return "memcg";
	case OOM_TOTAL_NODES:
	default:
		return "nodes";
	}
}

static const char *heuristic_text(enum oom_heuristic h)
{
	return h == OOM_HEURISTIC_REWRITE ? "rewrite (the 2010 rewrite as posted, 2.6.36)" :
	       h == OOM_HEURISTIC_KERNEL  ? "kernel (current mainline, v5.9+)" :
					    "legacy (the pre-2010 badness(), 2.6.35)";
}

/* A score in words: the kernel heuristic's points with the oom_score they show as. */
static void score_text(const struct oom_selection *sel, enum oom_heuristic h, long score, char *buf, size_t size)
{
	/* /proc/PID/oom_score is measured against the system's memory: shown for a system-wide OOM only. */
	if (h == OOM_HEURISTIC_KERNEL && sel->total_source == OOM_TOTAL_RAM_SWAP)
		snprintf(buf, size, "%ld points (oom_score %ld)", score,
			 oom_kernel_display_score(score, sel->totalpages, true));
	else if (h == OOM_HEURISTIC_KERNEL)
		snprintf(buf, size, "%ld points", score);
	else if (h == OOM_HEURISTIC_LEGACY)
		snprintf(buf, size, "%ld (badness)", score);
	else
		snprintf(buf, size, "%ld", score);
}

/* "PID (name)", the name escaped for a reader. */
static const char *who(const struct oom_task *t, char *buf, size_t size)
{
	char name[OOM_COMM_MAX * 4];

	oom_escape_name(name, sizeof(name), t->comm, OOM_ESCAPE_CONTROL);
	snprintf(buf, size, "%d (%s)", (int)t->tgid, name);
	return buf;
}

static void explain_kill(const struct victim_run *run, const struct oom_selection *sel, enum oom_heuristic h)
{
	char a[OOM_COMM_MAX * 4 + 32], b[OOM_COMM_MAX * 4 + 32], s[64];

	score_text(sel, h, sel->chosen_score, s, sizeof(s));
	if (sel->allocating_task) {
		term("chosen", "%s, score %s: the allocating task (--task), taken as vm.oom_kill_allocating_task "
		     "is %lld (no scan; the kernel logs score 0 for it)", who(sel->chosen, a, sizeof(a)), s,
		     run->kill_allocating);
	} else {
		term("chosen", "%s, score %s: the highest (of equals, the %s in PID order)", who(sel->chosen, a, sizeof(a)),
		     s, h == OOM_HEURISTIC_KERNEL ? "last" : "first");
		if (sel->runner_up) {
			score_text(sel, h, sel->runner_up_score, s, sizeof(s));
			term("runner-up", "%s, score %s", who(sel->runner_up, a, sizeof(a)), s);
		} else {
			term("runner-up", "none: no other candidate %s",
			     h == OOM_HEURISTIC_REWRITE ? "scores above 0" : "is eligible");
		}
	}
	who(sel->victim, b, sizeof(b));
	score_text(sel, h, sel->victim_score, s, sizeof(s));
	if (sel->sacrificed && h == OOM_HEURISTIC_LEGACY)
		term("victim", "%s, score %s: the first child of %d with memory of its own, killed in its "
		     "parent's place (2.6.35)", b, s, (int)sel->chosen->tgid);
	else if (sel->sacrificed)
		term("victim", "%s, score %s: the child of %d with the highest score, sacrificed in its parent's "
		     "place (seed 005)", b, s, (int)sel->chosen->tgid);
	else if (h == OOM_HEURISTIC_KERNEL)
		term("victim", "%s: the chosen task itself (no child is sacrificed since Linux 5.1)", b);
	else if (h == OOM_HEURISTIC_LEGACY)
		term("victim", "%s: the chosen task itself (no child with memory of its own to kill instead)", b);
	else
		term("victim", "%s: the chosen task itself (no child of it scores above 0)", b);
}

static void explain_outcome(const struct victim_run *run, const struct oom_selection *sel, enum oom_heuristic h)
{
	char a[OOM_COMM_MAX * 4 + 32];
	const struct oom_task *t = sel->in_progress;

	switch (sel->outcome) {
	case OOM_OUTCOME_KILL:
		term("outcome", "kill %s", who(sel->victim, a, sizeof(a)));
		explain_kill(run, sel, h);
		break;
	case OOM_OUTCOME_PANIC:
		if (run->panic_on_oom == 2)
			term("outcome", "panic: vm.panic_on_oom is 2, which panics on every OOM, constrained or not");
		else
			term("outcome", "panic: vm.panic_on_oom is 1 and this OOM is system-wide (1 does not panic "
			     "for a memcg, cpuset or mempolicy OOM)");
		break;
	case OOM_OUTCOME_IN_PROGRESS:
		term("outcome", "nobody: a kill is already in progress: %s %s; the OOM killer waits for its "
		     "memory to come back (seed 003)", who(t, a, sizeof(a)),
		     (t->sig_pending >> (SIGKILL - 1)) & 1 ? "has SIGKILL pending" : "is exiting with its memory");
		break;
	case OOM_OUTCOME_NO_KILLABLE:
		term("outcome", "nobody: no candidate %s; %s", h == OOM_HEURISTIC_REWRITE ? "scores above 0" : "is eligible",
		     sel->would_panic ? "the kernel panics (\"Out of memory and no killable processes...\")"
				      : "a memory cgroup OOM does not panic: its tasks wait");
		break;
	}
}

static int print_victim_text(const struct victim_run *run, const struct oom_selection *sel, enum oom_heuristic h)
{
	const struct oom_snapshot *snap = run->snap;

	for (size_t i = 0; i < sel->nlines; i++)
		printf("%s\n", sel->lines[i]);
	term("heuristic", "%s", heuristic_text(h));
	if (print_constraint(run->con) < 0)
		return -ENOMEM;
	term("totalpages", "%lu pages (%s)%s", sel->totalpages, total_source_text(sel->total_source),
	     h == OOM_HEURISTIC_LEGACY ? "; badness() does not use it" : "");
	term("candidates", "%zu of %zu processes", sel->candidates, oom_snapshot_count(snap));
	term("sysctls", "vm.panic_on_oom = %lld, vm.oom_kill_allocating_task = %lld", run->panic_on_oom,
	     run->kill_allocating);
	for (size_t i = 0; i < run->a->nwhat_if; i++) {
		const struct what_if *w = &run->a->what_if[i];

		term("what-if", "%d: oom_score_adj %d instead of %d", (int)w->pid, w->adj, w->was);
	}
	explain_outcome(run, sel, h);
	return 0;
}

/* {"pid":..,"name":..,"score":..} or null. */
static void json_task(const char *key, const struct oom_task *t, long score, bool with_score)
{
	printf(",\"%s\":", key);
	if (!t) {
		fputs("null", stdout);
		return;
	}
	printf("{\"pid\":%d,\"name\":", (int)t->tgid);
	json_string(stdout, t->comm);
	if (with_score)
		printf(",\"score\":%ld", score);
	putchar('}');
}

static int print_victim_json(const struct victim_run *run, const struct oom_selection *sel, enum oom_heuristic h)
{
	const struct oom_constraint *c = run->con;
	char buf[OOM_SELECT_LINE_MAX * 6];

	printf("{\"heuristic\":\"%s\",\"constraint\":{\"type\":\"%s\",\"kernel_name\":\"%s\"",
	       oom_heuristic_name(h), oom_constraint_type_name(oom_constraint_get_type(c)),
	       oom_constraint_kernel_name(oom_constraint_get_type(c)));
	if (oom_constraint_memcg_path(c)) {
		const char *path = oom_constraint_memcg_path(c);
		size_t n = oom_escape_json(NULL, 0, path) + 1;
		char *esc = malloc(n);

		if (!esc)
			return -ENOMEM;
		oom_escape_json(esc, n, path);
		printf(",\"memcg\":\"%s\"", esc);
		free(esc);
		printf(",\"cgroup_version\":%d,\"limited\":%s", oom_constraint_memcg_version(c),
		       oom_constraint_memcg_limited(c) ? "true" : "false");
	}
	if (oom_constraint_cpuset_pid(c))
		printf(",\"cpuset_of\":%d", (int)oom_constraint_cpuset_pid(c));
	if (oom_constraint_nodes(c)) {
		char nodes[NODES_TEXT_MAX];

		format_nodes(oom_constraint_nodes(c), nodes, sizeof(nodes));
		printf(",\"nodes\":\"%s\"", nodes);
	}
	printf("},\"totalpages\":%lu,\"total_source\":\"%s\",\"candidates\":%zu,\"processes\":%zu,"
	       "\"panic_on_oom\":%lld,\"oom_kill_allocating_task\":%lld,\"task\":",
	       sel->totalpages, total_source_name(sel->total_source), sel->candidates, oom_snapshot_count(run->snap),
	       run->panic_on_oom, run->kill_allocating);
	if (run->a->task)
		printf("%d", (int)run->a->task);
	else
		fputs("null", stdout);
	fputs(",\"what_if\":[", stdout);
	for (size_t i = 0; i < run->a->nwhat_if; i++) {
		const struct what_if *w = &run->a->what_if[i];

		printf("%s{\"pid\":%d,\"oom_score_adj\":%d,\"was\":%d}", i ? "," : "", (int)w->pid, w->adj, w->was);
	}
	printf("],\"outcome\":\"%s\",\"would_panic\":%s,\"message\":", oom_outcome_name(sel->outcome),
	       sel->would_panic ? "true" : "false");
	if (sel->message && sel->outcome == OOM_OUTCOME_KILL)
		json_string(stdout, sel->message);
	else
		fputs("null", stdout);
	printf(",\"allocating_task\":%s,\"sacrificed\":%s", sel->allocating_task ? "true" : "false",
	       sel->sacrificed ? "true" : "false");
	json_task("chosen", sel->chosen, sel->chosen_score, true);
	json_task("runner_up", sel->runner_up, sel->runner_up_score, true);
	json_task("victim", sel->victim, sel->victim_score, true);
	json_task("in_progress", sel->in_progress, 0, false);
	fputs(",\"lines\":[", stdout);
	for (size_t i = 0; i < sel->nlines; i++) {
		oom_escape_json(buf, sizeof(buf), sel->lines[i]);
		printf("%s\"%s\"", i ? "," : "", buf);
	}
	fputs("]}\n", stdout);
	return 0;
}

/* --heuristic all: one line per heuristic after their reports. */
static void print_victim_summary(const struct oom_selection *sel, const enum oom_heuristic *hs, size_t n)
{
	char a[OOM_COMM_MAX * 4 + 32];

	printf("%-9s %-12s %s\n", "HEURISTIC", "OUTCOME", "VICTIM");
	for (size_t i = 0; i < n; i++) {
		const struct oom_selection *s = &sel[i];

		printf("%-9s %-12s ", oom_heuristic_name(hs[i]), oom_outcome_name(s->outcome));
		if (s->outcome == OOM_OUTCOME_KILL && s->sacrificed)
			printf("%s, child of %d\n", who(s->victim, a, sizeof(a)), (int)s->chosen->tgid);
		else if (s->outcome == OOM_OUTCOME_KILL)
			printf("%s\n", who(s->victim, a, sizeof(a)));
		else if (s->outcome == OOM_OUTCOME_IN_PROGRESS)
			printf("none (%s being killed)\n", who(s->in_progress, a, sizeof(a)));
		else
			printf("none\n");
	}
}

/* Constraint errors: a bad value given is usage (2), anything read from the system is a failure (1). */
static int constraint_status(const struct tool_constraint_opts *o, int err)
{
	if ((o->nodes && err == -EINVAL) || (o->cpuset_of && err == -ESRCH))
		return EXIT_USAGE;
	return EXIT_FAIL;
}

static int cmd_victim(int argc, char **argv)
{
	struct victim_args a = { .root = global_root, .heuristic = OOM_HEURISTIC_REWRITE };
	static const enum oom_heuristic all[] = { OOM_HEURISTIC_LEGACY, OOM_HEURISTIC_REWRITE, OOM_HEURISTIC_KERNEL };
	struct oom_selection *sel = NULL; /* one per heuristic, on the heap: over 1 kB each */
	struct oom_select_params sp = { 0 };
	struct victim_run run = { .a = &a };
	struct oom_constraint *con = NULL;
	struct oom_snapshot *snap = NULL;
	struct oom_ctx *ctx = NULL;
	const enum oom_heuristic *hs;
	long long thres = 0;
	size_t nh;
	int status = EXIT_FAIL, err;

	parse_sub(&victim_argp, argc, argv, 0, &a);
	hs = a.all ? all : &a.heuristic;
	nh = a.all ? 3 : 1;
	if (tool_open_ctx(a.root, &ctx) < 0)
		goto out;
	err = tool_make_constraint(ctx, &a.con, &con);
	if (err < 0) {
		status = constraint_status(&a.con, err);
		goto out;
	}
	if (tool_sysctl_or_zero(ctx, OOM_SYSCTL_PANIC_ON_OOM, &run.panic_on_oom) < 0 ||
	    tool_sysctl_or_zero(ctx, OOM_SYSCTL_OOM_KILL_ALLOCATING_TASK, &run.kill_allocating) < 0)
		goto out;
	err = oom_sysctl_get(ctx, OOM_SYSCTL_OOM_FORKBOMB_THRES, &thres);
	if (err < 0) {
		tool_error_errno(err, oom_sysctl_name(OOM_SYSCTL_OOM_FORKBOMB_THRES));
		goto out;
	}
	/*
	 * One snapshot for every heuristic: stat gives PF_EXITING, the
	 * children's CPU time (forkbomb penalty) and legacy's times.
	 */
	err = oom_snapshot_new(ctx, OOM_READ_STATUS | OOM_READ_STAT | oom_constraint_read_flags(con), &snap);
	if (err < 0) {
		tool_error_errno(err, "reading processes");
		goto out;
	}
	if (a.task && !oom_snapshot_find(snap, a.task)) {
		tool_error("--task %d: no such process", (int)a.task);
		status = EXIT_USAGE;
		goto out;
	}
	for (size_t i = 0; i < a.nwhat_if; i++) {
		struct what_if *w = &a.what_if[i];
		const struct oom_task *t = oom_snapshot_find(snap, w->pid);

		if (!t) {
			tool_error("--what-if %d=%d: no such process", (int)w->pid, w->adj);
			status = EXIT_USAGE;
			goto out;
		}
		w->was = t->oom_score_adj;
		/* A repeated PID: the report shows the value before any --what-if. */
		for (size_t j = 0; j < i; j++)
			if (a.what_if[j].pid == w->pid)
				w->was = a.what_if[j].was;
		oom_snapshot_set_score_adj(snap, w->pid, w->adj);
	}
	sel = calloc(nh, sizeof(*sel));
	if (!sel) {
		tool_error("%s", strerror(ENOMEM));
		goto out;
	}
	run.snap = snap;
	run.con = con;
	sp.forkbomb_thres = (unsigned long)thres;
	sp.panic_on_oom = (int)run.panic_on_oom;
	sp.kill_allocating_task = run.kill_allocating != 0;
	sp.task = a.task;
	/* The kernel's lines: raw into pipes and JSON (escaped there as JSON), escaped on terminals. */
	sp.escape = a.json ? OOM_ESCAPE_NONE : tool_escape_for(stdout);
	for (size_t i = 0; i < nh; i++) {
		sp.heuristic = hs[i];
		err = oom_select(snap, con, &sp, &sel[i]);
		if (err < 0) {
			tool_error_errno(err, "selecting");
			goto out;
		}
	}
	for (size_t i = 0; i < nh; i++) {
		if (a.json) {
			if (print_victim_json(&run, &sel[i], hs[i]) < 0) {
				tool_error("%s", strerror(ENOMEM));
				goto out;
			}
			continue;
		}
		if (a.all)
			printf("%s== %s ==\n", i ? "\n" : "", oom_heuristic_name(hs[i]));
		if (print_victim_text(&run, &sel[i], hs[i]) < 0) {
			tool_error("%s", strerror(ENOMEM));
			goto out;
		}
	}
	if (a.all && !a.json) {
		putchar('\n');
		print_victim_summary(sel, hs, nh);
	}
	status = finish_output(EXIT_OK);
out:
	free(sel);
	oom_snapshot_free(snap);
	oom_constraint_free(con);
	oom_ctx_unref(ctx);
	free(a.what_if);
	return status;
}

/* ---- monitor ------------------------------------------------------------ */

/* Options only: the events and the forkbomb accounting are tool_monitor()'s (monitor.c). */
static const struct argp_option monitor_options[] = {
	{ "json", OPT_JSON, NULL, 0, "One JSON object a line instead of key=value lines", 0 },
	{ "poll", OPT_POLL, NULL, 0, "Rescan /proc instead of listening to the proc connector", 0 },
	{ "interval", OPT_INTERVAL, "SECS", 0, "Seconds between rescans when polling (default 1)", 0 },
	{ "threshold", OPT_THRESHOLD, "N", 0, "Flag a parent with more than N short-lived children "
	  "(default: vm.oom_forkbomb_thres)", 0 },
	{ 0 },
};

static error_t parse_monitor(int key, char *arg, struct argp_state *state)
{
	struct tool_monitor_opts *o = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &o->root;
		break;
	case OPT_JSON:
		o->json = true;
		break;
	case OPT_POLL:
		o->poll_only = true;
		break;
	case OPT_INTERVAL:
		/* A floor, as oomtop has: a tiny interval would rescan /proc without pause. */
		if (tool_parse_seconds(arg, 0.05, 86400, &o->interval) < 0)
			argp_error(state, "--interval must be a number of seconds from 0.05 to 86400");
		break;
	case OPT_THRESHOLD:
		if (tool_parse_int("--threshold", arg, 0, INT_MAX, &o->threshold) < 0)
			exit(EXIT_USAGE);
		break;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp monitor_argp = {
	monitor_options, parse_monitor, NULL,
	"Print fork, exec and exit events of processes until interrupted, and a warning when a parent's "
	"short-lived children pass the forkbomb threshold. Polls /proc where the kernel's events are not "
	"permitted, and for a --root tree.",
	root_child, NULL, NULL,
};

static int cmd_monitor(int argc, char **argv)
{
	struct tool_monitor_opts o = { .root = global_root, .threshold = -1 };

	parse_sub(&monitor_argp, argc, argv, 0, &o);
	return tool_monitor(&o);
}

/* ---- the dispatcher ----------------------------------------------------- */

/* One entry per sub-command. */
static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
} commands[] = {
	{ "get", cmd_get },	    { "set", cmd_set },	    { "run", cmd_run },
	{ "convert", cmd_convert }, { "sysctl", cmd_sysctl }, { "explain", cmd_explain },
	{ "victim", cmd_victim },   { "monitor", cmd_monitor },
};

struct main_args {
	const struct command *cmd;
	int argc;
	char **argv;
};

static const struct argp_option main_options[] = {
	{ "root", 'r', "DIR", 0, "Use DIR/proc and DIR/sys (default: $OOM_ROOT, else /)", 0 },
	{ 0 },
};

static error_t parse_main(int key, char *arg, struct argp_state *state)
{
	struct main_args *a = state->input;

	switch (key) {
	case 'r':
		global_root = arg;
		break;
	case ARGP_KEY_ARG:
		for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
			if (strcmp(arg, commands[i].name) == 0)
				a->cmd = &commands[i];
		}
		if (!a->cmd)
			argp_error(state, "unknown command '%s'", arg);
		/* The rest, from the command's name on, is the sub-command's. */
		a->argv = state->argv + state->next - 1;
		a->argc = state->argc - state->next + 1;
		state->next = state->argc;
		break;
	case ARGP_KEY_NO_ARGS:
		argp_error(state, "no command given");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp main_argp = {
	main_options, parse_main, "COMMAND [OPTION...] [ARG...]",
	"Inspect and set the OOM killer's knobs: per-process oom_score_adj, the vm sysctls, and what the "
	"score of a process is made of, and whom the OOM killer would kill now.\v"
	"Commands:\n"
	"  get      show oom_score_adj, oom_adj, oom_score and a heuristic's score\n"
	"  set      change oom_score_adj (--score-adj, --adj, --by)\n"
	"  run      run a command with an oom_score_adj\n"
	"  convert  convert between oom_adj and oom_score_adj\n"
	"  sysctl   show or set vm.panic_on_oom and the other OOM sysctls\n"
	"  explain  every term of a process's score, and its rank\n"
	"  victim   whom the OOM killer would kill now, and why\n"
	"  monitor  process events, and forkbomb warnings\n"
	"\"oomctl COMMAND --help\" describes a command's options. Exit status: 0 success, 1 failure "
	"(any PID failed), 2 bad usage or invalid value (nothing changed).",
	NULL, NULL, NULL,
};

int main(int argc, char **argv)
{
	struct main_args a = { 0 };

	tool_init(argv);
	argp_parse(&main_argp, argc, argv, ARGP_IN_ORDER, NULL, &a);
	return a.cmd->run(a.argc, a.argv);
}
