/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the three tools share: error reporting, value parsing, the root prefix. */
#ifndef OOM_TOOLS_COMMON_H
#define OOM_TOOLS_COMMON_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "liboom.h"

/* Exit statuses (documented in every man page). */
#define EXIT_OK 0
#define EXIT_FAIL 1
#define EXIT_USAGE 2

/* "oomctl: MESSAGE" on stderr. */
void tool_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "oomctl: WHAT: strerror(-err)" with the OOM-specific wording for common errors. */
void tool_error_errno(int err, const char *what);
/* Strict integer option value in [min, max]; prints why and returns -EINVAL otherwise. */
int tool_parse_int(const char *what, const char *s, long long min, long long max, long long *out);
/* The root: --root if given, else $OOM_ROOT, else "/". */
const char *tool_root(const char *opt_root);
/* Opens the context for @root, reporting failure. */
int tool_open_ctx(const char *opt_root, struct oom_ctx **ctx);
/* Names raw for logs and pipes, escaped for terminals. */
enum oom_escape tool_escape_for(FILE *f);
/* Sets up argp's version and exit status; call first in main(). */
void tool_init(char **argv);

/* The constraint options (--memcg PATH, --cpuset-of PID, --nodes LIST); at most one is set. */
struct tool_constraint_opts {
	const char *memcg;
	pid_t cpuset_of;
	const char *nodes;
};

/* How many of the constraint options are set (more than one is a usage error). */
int tool_constraint_count(const struct tool_constraint_opts *o);
/*
 * Builds the constraint @o asks for; *@c stays NULL for a system-wide run.
 * A failure is reported ("--memcg PATH: ...") and its -errno returned.
 */
int tool_make_constraint(struct oom_ctx *ctx, const struct tool_constraint_opts *o, struct oom_constraint **c);
/* A sysctl for oom_select(); a tree without the file reads as the kernel's default 0. Reports errors. */
int tool_sysctl_or_zero(struct oom_ctx *ctx, enum oom_sysctl s, long long *v);

/*
 * The rewrite's forkbomb penalty needs the children's CPU times, but only
 * for a parent with more children than @thres: PPid (from status) tells
 * which, and stat is read for their children alone, not in a second scan.
 */
int tool_read_forkbomb_stat(struct oom_ctx *ctx, struct oom_snapshot *snap, unsigned long thres);

/* A number of seconds (fractions allowed) in [@min, @max], strictly: -EINVAL otherwise. */
int tool_parse_seconds(const char *s, double min, double max, double *out);

struct argp_state;
/* --heuristic NAME: the library's names, an argp usage error (exit 2) otherwise. */
void tool_parse_heuristic(struct argp_state *state, const char *arg, enum oom_heuristic *h);

#endif
