// SPDX-License-Identifier: LGPL-2.1-or-later
#include <argp.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

const char *argp_program_version = "liboom " LIBOOM_VERSION;
const char *argp_program_bug_address = "<liboom@lists.example.org>";

void tool_init(char **argv)
{
	/* Bad usage and invalid values are 2, as documented; argp's default is 64. */
	argp_err_exit_status = EXIT_USAGE;
	/* getopt names the program by argv[0]: "oomtop: ...", as every other message, not its path. */
	if (argv && argv[0])
		argv[0] = program_invocation_short_name;
}

void tool_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", program_invocation_short_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void tool_error_errno(int err, const char *what)
{
	const char *msg;

	switch (err) {
	case -ESRCH:
		msg = "no such process";
		break;
	case -ESTALE:
		msg = "process ID was reused by another process; nothing changed";
		break;
	case -EXDEV:
		msg = "refused a symbolic link (liboom never follows one out of the root)";
		break;
	case -EBADMSG:
		msg = "its file holds a malformed or out-of-range value";
		break;
	default:
		msg = strerror(-err);
		break;
	}
	tool_error("%s: %s", what, msg);
}

int tool_parse_int(const char *what, const char *s, long long min, long long max, long long *out)
{
	long long v;
	int err = oom_parse_ll(s, 10, &v);

	if (err == 0 && (v < min || v > max))
		err = -ERANGE;
	if (err == -ERANGE) {
		tool_error("%s must be between %lld and %lld", what, min, max);
		return -EINVAL;
	}
	if (err < 0) {
		tool_error("%s: '%s' is not a number", what, s);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

const char *tool_root(const char *opt_root)
{
	const char *env;

	if (opt_root)
		return opt_root;
	env = getenv("OOM_ROOT");
	return env && *env ? env : "/";
}

int tool_open_ctx(const char *opt_root, struct oom_ctx **ctx)
{
	const char *root = tool_root(opt_root);
	int err = oom_ctx_new(root, ctx);

	if (err == -ENOTDIR || err == -EXDEV)
		tool_error("%s: cannot use as root: its proc is not a directory (symbolic links are not followed)",
			   root);
	else if (err < 0)
		tool_error("%s: cannot use as root: %s", root, strerror(-err));
	return err;
}

enum oom_escape tool_escape_for(FILE *f)
{
	return isatty(fileno(f)) ? OOM_ESCAPE_CONTROL : OOM_ESCAPE_NONE;
}

int tool_constraint_count(const struct tool_constraint_opts *o)
{
	return !!o->memcg + !!o->cpuset_of + !!o->nodes;
}

int tool_make_constraint(struct oom_ctx *ctx, const struct tool_constraint_opts *o, struct oom_constraint **c)
{
	char what[64];
	int err;

	*c = NULL;
	if (o->memcg)
		err = oom_constraint_new_memcg(ctx, o->memcg, c);
	else if (o->cpuset_of)
		err = oom_constraint_new_cpuset(ctx, o->cpuset_of, c);
	else if (o->nodes)
		err = oom_constraint_new_mempolicy(ctx, o->nodes, c);
	else
		return 0;
	if (err < 0) {
		if (o->memcg)
			snprintf(what, sizeof(what), "--memcg %.50s", o->memcg);
		else if (o->cpuset_of)
			snprintf(what, sizeof(what), "--cpuset-of %d", (int)o->cpuset_of);
		else
			snprintf(what, sizeof(what), "--nodes %.50s", o->nodes);
		tool_error_errno(err, what);
	}
	return err;
}

int tool_sysctl_or_zero(struct oom_ctx *ctx, enum oom_sysctl s, long long *v)
{
	int err = oom_sysctl_get(ctx, s, v);

	if (err == -ENOENT) {
		*v = 0;
		err = 0;
	}
	if (err < 0)
		tool_error_errno(err, oom_sysctl_name(s));
	return err;
}

int tool_read_forkbomb_stat(struct oom_ctx *ctx, struct oom_snapshot *snap, unsigned long thres)
{
	for (size_t i = 0; thres && i < oom_snapshot_count(snap); i++) {
		pid_t pid = oom_snapshot_task(snap, i)->tgid;
		const size_t *kids;
		int err;

		if (oom_snapshot_children(snap, pid, &kids) <= thres)
			continue;
		err = oom_snapshot_read_children_stat(ctx, snap, pid);
		if (err < 0)
			return err;
	}
	return 0;
}

int tool_parse_seconds(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	/* An optional '+', decimal digits and one point: strtod's blanks, hex, exponents, inf and nan are refused. */
	if (*s == '+')
		s++;
	if (!*s || s[strspn(s, "0123456789.")] != '\0' || strchr(s, '.') != strrchr(s, '.'))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= min && v <= max))
		return -EINVAL;
	*out = v;
	return 0;
}

void tool_parse_heuristic(struct argp_state *state, const char *arg, enum oom_heuristic *h)
{
	if (oom_heuristic_from_name(arg, h) < 0)
		argp_error(state, "unknown heuristic '%s' (rewrite, kernel, legacy)", arg);
}
