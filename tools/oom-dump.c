// SPDX-License-Identifier: LGPL-2.1-or-later
/* oom-dump: the system as the OOM killer sees it, in the kernel's dump_tasks formats. */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

enum format { FORMAT_2636, FORMAT_MODERN };

struct args {
	const char *root;
	enum format format;
};

static const struct argp_option options[] = {
	{ "root", 'r', "DIR", 0, "Read /proc and /sys under DIR (default: $OOM_ROOT or /)", 0 },
	{ "format", 'f', "FORMAT", 0, "2.6.36 (default) or modern", 0 },
	{ 0 },
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct args *a = state->input;

	switch (key) {
	case 'r':
		a->root = arg;
		break;
	case 'f':
		if (strcmp(arg, "2.6.36") == 0)
			a->format = FORMAT_2636;
		else if (strcmp(arg, "modern") == 0)
			a->format = FORMAT_MODERN;
		else
			argp_error(state, "unknown format '%s' (2.6.36, modern)", arg);
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
	"Print the task table the kernel's OOM killer logs (dump_tasks), for the live system or a saved tree.", NULL,
	NULL, NULL,
};

static void print_table(const struct oom_snapshot *snap, enum format format, enum oom_escape esc)
{
	char line[1024];

	if (format == FORMAT_MODERN) {
		fputs("Tasks state (memory values in pages):\n", stdout);
		oom_format_modern_header(line, sizeof(line));
	} else {
		oom_format_2636_header(line, sizeof(line));
	}
	fputs(line, stdout);
	for (size_t i = 0; i < oom_snapshot_count(snap); i++) {
		const struct oom_task *t = oom_snapshot_task(snap, i);

		if (!oom_task_dumpable(t))
			continue;
		if (format == FORMAT_MODERN)
			oom_format_modern_row(line, sizeof(line), t, esc);
		else
			oom_format_2636_row(line, sizeof(line), t, esc);
		fputs(line, stdout);
	}
}

int main(int argc, char **argv)
{
	static char outbuf[1 << 16];
	struct args a = { .format = FORMAT_2636 };
	struct oom_snapshot *snap = NULL;
	struct oom_ctx *ctx = NULL;
	unsigned int what;
	int err;

	tool_init();
	argp_parse(&argp, argc, argv, 0, NULL, &a);
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	if (tool_open_ctx(a.root, &ctx) < 0)
		return EXIT_FAIL;
	/* The modern table needs only status; 2.6.36's cpu column comes from stat. */
	what = OOM_READ_STATUS | (a.format == FORMAT_2636 ? OOM_READ_STAT : 0);
	err = oom_snapshot_new(ctx, what, &snap);
	if (err < 0) {
		tool_error_errno(err, "reading processes");
		oom_ctx_unref(ctx);
		return EXIT_FAIL;
	}
	print_table(snap, a.format, tool_escape_for(stdout));
	oom_snapshot_free(snap);
	oom_ctx_unref(ctx);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		tool_error("write error: %s", strerror(errno));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}
