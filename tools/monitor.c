// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * `oomctl monitor`: the proc connector's fork, exec and exit events for
 * scripts, one line (or one JSON object) each, with a warning when a
 * parent's short-lived children pass the forkbomb threshold. Where events
 * are not permitted it rescans /proc and reports what changed instead.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "common.h"
#include "monitor.h"

static volatile sig_atomic_t monitor_stop;

static void on_stop(int sig)
{
	(void)sig;
	monitor_stop = 1;
}

static uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A JSON string: quotes, backslashes and control bytes escaped; other bytes as they are. */
static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

/* The raw command name of @tgid; false when the process is gone. */
static bool task_comm(struct oom_ctx *ctx, pid_t tgid, char *comm, size_t size)
{
	struct oom_task t;

	if (oom_task_read(ctx, tgid, OOM_READ_STATUS, &t) < 0)
		return false;
	snprintf(comm, size, "%s", t.comm);
	oom_task_clear(&t);
	return true;
}

static void print_comm(FILE *f, bool json, const char *comm)
{
	char esc[4 * OOM_COMM_MAX + 8];

	if (json) {
		fputs(",\"comm\":", f);
		json_string(f, comm);
	} else {
		oom_escape_name(esc, sizeof(esc), comm, OOM_ESCAPE_CONTROL);
		fprintf(f, " comm=%s", esc);
	}
}

/*
 * One event of a process (threads are left out, so pid is the thread-group
 * ID); @polled: synthesised from two scans (no exit status, and the time of
 * the scan, not the kernel's).
 */
static void print_event(struct oom_ctx *ctx, const struct tool_monitor_opts *o, const struct oom_event *e,
			bool polled, const char *known_comm)
{
	char comm[OOM_COMM_MAX];
	bool have_comm = false;
	FILE *f = stdout;

	if (known_comm) {
		snprintf(comm, sizeof(comm), "%s", known_comm);
		have_comm = true;
	} else if (e->type == OOM_EVENT_EXEC || e->type == OOM_EVENT_FORK) {
		have_comm = task_comm(ctx, e->tgid, comm, sizeof(comm));
	}
	switch (e->type) {
	case OOM_EVENT_FORK:
		if (o->json)
			fprintf(f, "{\"event\":\"fork\",\"timestamp_ns\":%llu,\"pid\":%d,\"ppid\":%d",
				(unsigned long long)e->timestamp_ns, (int)e->tgid, (int)e->parent_tgid);
		else
			fprintf(f, "fork pid=%d ppid=%d", (int)e->tgid, (int)e->parent_tgid);
		break;
	case OOM_EVENT_EXEC:
		if (o->json)
			fprintf(f, "{\"event\":\"exec\",\"timestamp_ns\":%llu,\"pid\":%d",
				(unsigned long long)e->timestamp_ns, (int)e->tgid);
		else
			fprintf(f, "exec pid=%d", (int)e->tgid);
		break;
	case OOM_EVENT_EXIT:
		if (o->json) {
			fprintf(f, "{\"event\":\"exit\",\"timestamp_ns\":%llu,\"pid\":%d,\"ppid\":%d",
				(unsigned long long)e->timestamp_ns, (int)e->tgid, (int)e->parent_tgid);
			if (polled)
				fputs(",\"status\":null", f);
			else if (WIFSIGNALED(e->exit_code))
				fprintf(f, ",\"signal\":%d", WTERMSIG(e->exit_code));
			else
				fprintf(f, ",\"status\":%d", WEXITSTATUS(e->exit_code));
		} else {
			fprintf(f, "exit pid=%d ppid=%d", (int)e->tgid, (int)e->parent_tgid);
			if (polled)
				fputs(" status=?", f);
			else if (WIFSIGNALED(e->exit_code))
				fprintf(f, " signal=%d", WTERMSIG(e->exit_code));
			else
				fprintf(f, " status=%d", WEXITSTATUS(e->exit_code));
		}
		break;
	}
	if (have_comm)
		print_comm(f, o->json, comm);
	if (o->json)
		fprintf(f, ",\"source\":\"%s\"}\n", polled ? "poll" : "events");
	else
		fputc('\n', f);
}

static void print_alert(struct oom_ctx *ctx, const struct tool_monitor_opts *o, const struct oom_forkbomb_alert *a)
{
	char comm[OOM_COMM_MAX], esc[4 * OOM_COMM_MAX + 8];
	bool have = task_comm(ctx, a->parent_tgid, comm, sizeof(comm));

	if (o->json) {
		printf("{\"event\":\"forkbomb\",\"pid\":%d,\"children\":%lu,\"exited\":%lu,\"threshold\":%lu",
		       (int)a->parent_tgid, a->children, a->exited, a->thres);
		if (have)
			print_comm(stdout, true, comm);
		fputs("}\n", stdout);
		return;
	}
	oom_escape_name(esc, sizeof(esc), have ? comm : "?", OOM_ESCAPE_CONTROL);
	printf("warning: forkbomb: %d (%s) has %lu children younger than one second (%lu exited), "
	       "over vm.oom_forkbomb_thres %lu\n", (int)a->parent_tgid, esc, a->children, a->exited, a->thres);
}

static void print_notice(const struct tool_monitor_opts *o, const char *event, const char *text)
{
	if (o->json) {
		printf("{\"event\":\"%s\",\"message\":", event);
		json_string(stdout, text);
		fputs("}\n", stdout);
	} else {
		printf("%s: %s\n", event, text);
	}
}

/* The first line: how the events are found, so that a script knows whether exit statuses come. */
static void print_start(const struct tool_monitor_opts *o, const char *mode)
{
	if (o->json)
		printf("{\"event\":\"start\",\"mode\":\"%s\"}\n", mode);
	else
		printf("start mode=%s\n", mode);
	fflush(stdout);
}

static int feed(struct oom_ctx *ctx, const struct tool_monitor_opts *o, struct oom_forkbomb *fb,
		const struct oom_event *e, bool polled, const char *comm)
{
	struct oom_forkbomb_alert a;
	int r;

	/* Threads come and go with their process: only processes are reported. */
	if (!oom_event_is_process(e))
		return 0;
	print_event(ctx, o, e, polled, comm);
	r = oom_forkbomb_feed(fb, e, &a);
	if (r == 1)
		print_alert(ctx, o, &a);
	return r < 0 ? r : 0;
}

static int run_events(struct oom_ctx *ctx, const struct tool_monitor_opts *o, struct oom_events *ev,
		      struct oom_forkbomb *fb)
{
	struct pollfd pfd = { .fd = oom_events_fd(ev), .events = POLLIN };

	while (!monitor_stop) {
		struct oom_event e;
		int r;

		/* Wake once a second even when quiet, so counts age out. */
		if (poll(&pfd, 1, 1000) < 0 && errno != EINTR)
			return -errno;
		oom_forkbomb_expire(fb, monotonic_ns());
		while (!monitor_stop && (r = oom_events_next(ev, &e)) != 0) {
			if (r == -ENOBUFS) {
				/* Lost events make the counts wrong: start them afresh. */
				oom_forkbomb_reset(fb);
				print_notice(o, "overrun", "events were lost (the socket overflowed); counts restarted");
				continue;
			}
			if (r < 0)
				return r;
			r = feed(ctx, o, fb, &e, false, NULL);
			if (r < 0)
				return r;
		}
		if (fflush(stdout) != 0)
			return -errno;
	}
	return 0;
}

static int cmp_task_tgid(const void *a, const void *b)
{
	const struct oom_task *x = *(const struct oom_task *const *)a, *y = *(const struct oom_task *const *)b;

	return (x->tgid > y->tgid) - (x->tgid < y->tgid);
}

/* Fallback: two scans apart, the processes that appeared are forks and those gone are exits. */
static int run_polling(struct oom_ctx *ctx, const struct tool_monitor_opts *o, struct oom_forkbomb *fb)
{
	double interval = o->interval > 0 ? o->interval : 1.0;
	struct oom_snapshot *old = NULL, *cur = NULL;
	int err = oom_snapshot_new(ctx, OOM_READ_STATUS, &old);

	if (err < 0)
		return err;
	while (!monitor_stop) {
		struct timespec ts = { (time_t)interval, (long)((interval - (double)(time_t)interval) * 1e9) };
		size_t i = 0, j = 0, n_old, n_cur;
		uint64_t now;

		nanosleep(&ts, NULL);
		if (monitor_stop)
			break;
		err = oom_snapshot_new(ctx, OOM_READ_STATUS, &cur);
		if (err < 0)
			break;
		now = monotonic_ns();
		oom_forkbomb_expire(fb, now);
		n_old = oom_snapshot_count(old);
		n_cur = oom_snapshot_count(cur);
		/* Both are in PID order: one merge pass. */
		while (i < n_old || j < n_cur) {
			const struct oom_task *a = i < n_old ? oom_snapshot_task(old, i) : NULL;
			const struct oom_task *b = j < n_cur ? oom_snapshot_task(cur, j) : NULL;
			struct oom_event e = { .timestamp_ns = now };

			if (a && b && a->tgid == b->tgid) {
				i++;
				j++;
				continue;
			}
			if (!a && !b)
				break; /* a snapshot shorter than its count said: nothing left to merge */
			if (a && (!b || cmp_task_tgid(&a, &b) <= 0)) {
				e.type = OOM_EVENT_EXIT;
				e.pid = e.tgid = a->tgid;
				e.parent_pid = e.parent_tgid = a->ppid;
				err = feed(ctx, o, fb, &e, true, a->comm);
				i++;
			} else {
				e.type = OOM_EVENT_FORK;
				e.pid = e.tgid = b->tgid;
				e.parent_pid = e.parent_tgid = b->ppid;
				err = feed(ctx, o, fb, &e, true, b->comm);
				j++;
			}
			if (err < 0)
				break;
		}
		oom_snapshot_free(old);
		old = cur;
		cur = NULL;
		if (err < 0 || fflush(stdout) != 0) {
			err = err < 0 ? err : -errno;
			break;
		}
	}
	oom_snapshot_free(old);
	oom_snapshot_free(cur);
	return err;
}

int tool_monitor(const struct tool_monitor_opts *o)
{
	struct oom_events *ev = NULL;
	struct oom_forkbomb *fb = NULL;
	struct oom_ctx *ctx = NULL;
	struct sigaction sa;
	long long thres = o->threshold;
	const char *why = NULL;
	int err;

	if (tool_open_ctx(o->root, &ctx) < 0)
		return EXIT_FAIL;
	if (thres < 0 && oom_sysctl_get(ctx, OOM_SYSCTL_OOM_FORKBOMB_THRES, &thres) < 0)
		thres = OOM_FORKBOMB_THRES_DEFAULT;
	err = oom_forkbomb_new((unsigned long)thres, &fb);
	if (err < 0) {
		tool_error_errno(err, "forkbomb tracker");
		oom_ctx_unref(ctx);
		return EXIT_FAIL;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop; /* no SA_RESTART: poll() and nanosleep() return at once */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* Scripts read us through pipes: every line as soon as it is complete. */
	setvbuf(stdout, NULL, _IOLBF, 0);

	if (o->poll_only)
		why = "polling requested";
	else if (strcmp(tool_root(o->root), "/") != 0)
		why = "the kernel's events do not describe a --root tree";
	else if ((err = oom_events_open(o->event_buffer, &ev)) < 0)
		why = err == -EPERM ? "process events are not permitted here" : "process events are not available";
	if (why) {
		char text[160];

		snprintf(text, sizeof(text), "%s; rescanning every %gs (exit statuses unknown)", why,
			 o->interval > 0 ? o->interval : 1.0);
		tool_error("%s", text);
		print_start(o, "polling");
		err = run_polling(ctx, o, fb);
	} else {
		print_start(o, "events");
		err = run_events(ctx, o, ev, fb);
	}
	oom_events_close(ev);
	oom_forkbomb_free(fb);
	oom_ctx_unref(ctx);
	if (err == -EPIPE)
		return EXIT_OK; /* the reader went away: nothing left to say */
	if (err < 0) {
		tool_error_errno(err, "monitor");
		return EXIT_FAIL;
	}
	return EXIT_OK;
}
