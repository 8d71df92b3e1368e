/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* `oomctl monitor`: process events as lines or JSON, with forkbomb warnings. */
#ifndef OOM_TOOLS_MONITOR_H
#define OOM_TOOLS_MONITOR_H

#include <stdbool.h>
#include <stddef.h>

struct tool_monitor_opts {
	const char *root; /* --root, or NULL ($OOM_ROOT, else /) */
	bool json; /* one JSON object a line instead of key=value lines */
	bool poll_only; /* never listen to the proc connector: rescan /proc */
	double interval; /* seconds between rescans when polling (0: 1 s) */
	long long threshold; /* forkbomb threshold; < 0: vm.oom_forkbomb_thres */
	size_t event_buffer; /* the event socket's receive buffer, 0 for the default */
};

/*
 * Prints fork, exec and exit events until SIGINT or SIGTERM, and a warning
 * when a parent's short-lived children pass the forkbomb threshold. Where
 * the kernel does not let us listen (or for a --root tree), it polls /proc
 * and says so on stderr. Returns the exit status: 0 after a signal, 1 on
 * failure.
 */
int tool_monitor(const struct tool_monitor_opts *opts);

#endif
