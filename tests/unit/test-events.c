// SPDX-License-Identifier: LGPL-2.1-or-later
/* The proc connector: decoding crafted messages, the live socket, overruns, and the forkbomb tracker. */
#include <sched.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "unit.h"

/* ---- crafting messages ------------------------------------------------- */

struct craft {
	unsigned char buf[8192] __attribute__((aligned(8)));
	size_t len;
};

/* Appends one connector message carrying @plen bytes of @payload. */
static void put_cn(struct craft *c, uint16_t type, uint32_t idx, const void *payload, size_t plen, size_t cnlen)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)(c->buf + c->len);
	struct cn_msg *cn = (struct cn_msg *)NLMSG_DATA(nlh);
	size_t total = NLMSG_LENGTH(sizeof(*cn) + plen);

	assert_true(c->len + NLMSG_ALIGN(total) <= sizeof(c->buf));
	memset(nlh, 0, NLMSG_ALIGN(total));
	nlh->nlmsg_len = (uint32_t)total;
	nlh->nlmsg_type = type;
	cn->id.idx = idx;
	cn->id.val = CN_VAL_PROC;
	cn->len = (uint16_t)cnlen;
	memcpy(cn->data, payload, plen);
	c->len += NLMSG_ALIGN(total);
}

static void put_event(struct craft *c, const struct proc_event *pe, size_t len)
{
	put_cn(c, NLMSG_DONE, CN_IDX_PROC, pe, len, len);
}

static struct proc_event fork_event(pid_t parent, pid_t child_pid, pid_t child_tgid)
{
	struct proc_event pe;

	memset(&pe, 0, sizeof(pe));
	pe.what = PROC_EVENT_FORK;
	pe.cpu = 1;
	pe.timestamp_ns = 123456789;
	pe.event_data.fork.parent_pid = parent;
	pe.event_data.fork.parent_tgid = parent;
	pe.event_data.fork.child_pid = child_pid;
	pe.event_data.fork.child_tgid = child_tgid;
	return pe;
}

static struct proc_event exit_event(pid_t pid, uint32_t code, pid_t parent)
{
	struct proc_event pe;

	memset(&pe, 0, sizeof(pe));
	pe.what = PROC_EVENT_EXIT;
	pe.timestamp_ns = 42;
	pe.event_data.exit.process_pid = pid;
	pe.event_data.exit.process_tgid = pid;
	pe.event_data.exit.exit_code = code;
	pe.event_data.exit.exit_signal = SIGCHLD;
	pe.event_data.exit.parent_pid = parent;
	pe.event_data.exit.parent_tgid = parent;
	return pe;
}

#define HEAD offsetof(struct proc_event, event_data)

static void test_decode_fork(void **state)
{
	struct proc_event pe = fork_event(100, 205, 200);
	struct craft c = { .len = 0 };
	struct oom_event e;

	(void)state;
	put_event(&c, &pe, sizeof(pe));
	assert_int_equal(oom_events_decode(c.buf, c.len, &e, 1), 1);
	assert_int_equal(e.type, OOM_EVENT_FORK);
	assert_int_equal(e.cpu, 1);
	assert_true(e.timestamp_ns == 123456789);
	assert_int_equal(e.parent_pid, 100);
	assert_int_equal(e.parent_tgid, 100);
	assert_int_equal(e.pid, 205);
	assert_int_equal(e.tgid, 200);
	assert_false(oom_event_is_process(&e)); /* a thread */
}

static void test_decode_exec_exit(void **state)
{
	struct proc_event ex, pe = exit_event(300, 7 << 8, 1);
	struct craft c = { .len = 0 };
	struct oom_event e[4];

	(void)state;
	memset(&ex, 0, sizeof(ex));
	ex.what = PROC_EVENT_EXEC;
	ex.event_data.exec.process_pid = 301;
	ex.event_data.exec.process_tgid = 300;
	put_event(&c, &ex, sizeof(ex));
	put_event(&c, &pe, sizeof(pe));
	/* A pre-4.18 exit event: no parent fields. */
	put_event(&c, &pe, HEAD + offsetof(struct exit_proc_event, parent_pid));
	assert_int_equal(oom_events_decode(c.buf, c.len, e, 4), 3);
	assert_int_equal(e[0].type, OOM_EVENT_EXEC);
	assert_int_equal(e[0].pid, 301);
	assert_int_equal(e[0].tgid, 300);
	assert_int_equal(e[1].type, OOM_EVENT_EXIT);
	assert_int_equal(e[1].tgid, 300);
	assert_int_equal(e[1].exit_code, 7 << 8);
	assert_true(WIFEXITED(e[1].exit_code) && WEXITSTATUS(e[1].exit_code) == 7);
	assert_int_equal(e[1].exit_signal, SIGCHLD);
	assert_int_equal(e[1].parent_tgid, 1);
	assert_int_equal(e[2].type, OOM_EVENT_EXIT);
	assert_int_equal(e[2].parent_tgid, 0);
	assert_int_equal(e[2].exit_code, 7 << 8);
}

static void test_decode_skips(void **state)
{
	struct proc_event pe = fork_event(1, 2, 2), other;
	struct craft c = { .len = 0 };
	struct oom_event e[2];

	(void)state;
	memset(&other, 0, sizeof(other));
	other.what = PROC_EVENT_COMM; /* not one we report */
	put_event(&c, &other, sizeof(other));
	other.what = PROC_EVENT_NONE; /* an acknowledgement */
	put_event(&c, &other, sizeof(other));
	put_cn(&c, NLMSG_DONE, CN_IDX_PROC + 1, &pe, sizeof(pe), sizeof(pe)); /* another connector user */
	put_cn(&c, NLMSG_NOOP, CN_IDX_PROC, &pe, sizeof(pe), sizeof(pe));
	assert_int_equal(oom_events_decode(c.buf, c.len, e, 2), 0);
	assert_int_equal(oom_events_decode(NULL, 0, e, 2), 0);
}

static void test_decode_count_past_max(void **state)
{
	struct craft c = { .len = 0 };
	struct oom_event e[2];

	(void)state;
	for (int i = 0; i < 5; i++) {
		struct proc_event pe = fork_event(1, 10 + i, 10 + i);

		put_event(&c, &pe, sizeof(pe));
	}
	assert_int_equal(oom_events_decode(c.buf, c.len, e, 2), 5);
	assert_int_equal(e[0].tgid, 10);
	assert_int_equal(e[1].tgid, 11);
}

static void test_decode_malformed(void **state)
{
	struct proc_event pe = fork_event(1, 2, 2);
	struct craft c = { .len = 0 };
	struct oom_event e;

	(void)state;
	/* The fork union cut short. */
	put_event(&c, &pe, HEAD + 8);
	assert_int_equal(oom_events_decode(c.buf, c.len, &e, 1), -EBADMSG);
	/* cn_msg claims more than the netlink message holds. */
	c.len = 0;
	put_cn(&c, NLMSG_DONE, CN_IDX_PROC, &pe, sizeof(pe), sizeof(pe) + 64);
	assert_int_equal(oom_events_decode(c.buf, c.len, &e, 1), -EBADMSG);
	/* Shorter than the event header. */
	c.len = 0;
	put_cn(&c, NLMSG_DONE, CN_IDX_PROC, &pe, 4, 4);
	assert_int_equal(oom_events_decode(c.buf, c.len, &e, 1), -EBADMSG);
	/* A whole message followed by a truncated one. */
	c.len = 0;
	put_event(&c, &pe, sizeof(pe));
	put_event(&c, &pe, sizeof(pe));
	assert_int_equal(oom_events_decode(c.buf, c.len - 8, &e, 1), -EBADMSG);
	/* Every truncation of a good buffer is either fewer events or an error, never a crash. */
	for (size_t n = 0; n < c.len; n++)
		assert_true(oom_events_decode(c.buf, n, &e, 1) <= 1);
}

static void test_decode_overrun_and_error(void **state)
{
	struct craft c = { .len = 0 };
	struct nlmsghdr *nlh = (struct nlmsghdr *)c.buf;
	struct nlmsgerr *err;
	struct oom_event e;

	(void)state;
	nlh->nlmsg_len = NLMSG_LENGTH(0);
	nlh->nlmsg_type = NLMSG_OVERRUN;
	assert_int_equal(oom_events_decode(c.buf, nlh->nlmsg_len, &e, 1), -ENOBUFS);
	nlh->nlmsg_len = NLMSG_LENGTH(sizeof(*err));
	nlh->nlmsg_type = NLMSG_ERROR;
	err = NLMSG_DATA(nlh);
	memset(err, 0, sizeof(*err));
	err->error = -EPERM;
	assert_int_equal(oom_events_decode(c.buf, nlh->nlmsg_len, &e, 1), -EPERM);
	err->error = 0;
	assert_int_equal(oom_events_decode(c.buf, nlh->nlmsg_len, &e, 1), 0);
}

/* Mutated and random buffers: an error or some events, never a crash or an overread (run under ASan). */
static void test_decode_garbage(void **state)
{
	struct craft c = { .len = 0 };
	struct oom_event e[4];
	unsigned int seed = 42;

	(void)state;
	for (int i = 0; i < 3; i++) {
		struct proc_event pe = fork_event(1, 2 + i, 2 + i);

		put_event(&c, &pe, sizeof(pe));
	}
	for (int round = 0; round < 20000; round++) {
		unsigned char *buf = malloc(c.len);
		size_t len = (size_t)rand_r(&seed) % (c.len + 1);
		int r;

		assert_non_null(buf);
		memcpy(buf, c.buf, c.len);
		for (int k = rand_r(&seed) % 4; k >= 0; k--)
			buf[(size_t)rand_r(&seed) % c.len] = (unsigned char)rand_r(&seed);
		if (round % 2)
			for (size_t k = 0; k < len; k++)
				buf[k] = (unsigned char)rand_r(&seed);
		/* A copy of exactly len bytes, so that ASan sees any read past it. */
		unsigned char *exact = malloc(len ? len : 1);

		assert_non_null(exact);
		memcpy(exact, buf, len);
		r = oom_events_decode(exact, len, e, 4);
		assert_true(r <= (int)(len / NLMSG_HDRLEN) + 1);
		free(exact);
		free(buf);
	}
}

/* ---- the live socket ---------------------------------------------------- */

static struct oom_events *open_or_skip(size_t rcvbuf)
{
	struct oom_events *ev = NULL;
	int err = oom_events_open(rcvbuf, &ev);

	if (err == -EPERM || err == -EPROTONOSUPPORT) {
		print_message("proc connector not available here (%s): skipped\n", strerror(-err));
		skip();
	}
	assert_int_equal(err, 0);
	assert_true(oom_events_fd(ev) >= 0);
	return ev;
}

/* Forks a child that exits with 7 and looks for its fork and exit; false when an overrun hid them. */
static bool see_child(struct oom_events *ev)
{
	struct pollfd pfd = { .fd = oom_events_fd(ev), .events = POLLIN };
	bool seen_fork = false, seen_exit = false, overrun = false;
	struct oom_event e;
	pid_t child;

	child = fork();
	assert_true(child >= 0);
	if (child == 0)
		_exit(7);
	assert_int_equal(waitpid(child, NULL, 0), child);
	for (int rounds = 0; rounds < 50 && !(seen_fork && seen_exit); rounds++) {
		int r;

		while ((r = oom_events_next(ev, &e)) > 0) {
			if (e.type == OOM_EVENT_FORK && e.tgid == child) {
				assert_int_equal(e.parent_tgid, getpid());
				assert_true(oom_event_is_process(&e));
				seen_fork = true;
			}
			if (e.type == OOM_EVENT_EXIT && e.tgid == child) {
				assert_true(seen_fork || overrun); /* in order */
				assert_true(WIFEXITED(e.exit_code) && WEXITSTATUS(e.exit_code) == 7);
				seen_exit = true;
			}
		}
		if (r == -ENOBUFS)
			overrun = true;
		else
			assert_int_equal(r, 0);
		poll(&pfd, 1, 100);
	}
	if (overrun && !(seen_fork && seen_exit))
		return false;
	assert_true(seen_fork);
	assert_true(seen_exit);
	return true;
}

static void test_live_fork_exit(void **state)
{
	struct oom_events *ev = open_or_skip(0);
	int tries = 0;

	(void)state;
	/* Another program's fork storm may overrun even a large buffer: try again. */
	while (!see_child(ev))
		assert_true(++tries < 5);
	oom_events_close(ev);
}

static void test_live_overrun(void **state)
{
	/* The smallest buffer the kernel allows holds a handful of events. */
	struct oom_events *ev = open_or_skip(1);
	bool overrun = false, after = false;
	struct oom_event e;
	int r;

	(void)state;
	for (int i = 0; i < 300; i++) {
		pid_t c = fork();

		assert_true(c >= 0);
		if (c == 0)
			_exit(0);
		waitpid(c, NULL, 0);
	}
	while ((r = oom_events_next(ev, &e)) != 0) {
		if (r == -ENOBUFS) {
			overrun = true;
			continue;
		}
		assert_int_equal(r, 1);
		if (overrun)
			after = true;
	}
	assert_true(overrun);
	/* After the overrun the socket still works: a new child is seen. */
	pid_t c = fork();

	assert_true(c >= 0);
	if (c == 0)
		_exit(0);
	waitpid(c, NULL, 0);
	struct pollfd pfd = { .fd = oom_events_fd(ev), .events = POLLIN };
	for (int rounds = 0; rounds < 20 && !after; rounds++) {
		poll(&pfd, 1, 100);
		while ((r = oom_events_next(ev, &e)) > 0)
			if (e.tgid == c)
				after = true;
	}
	assert_true(after);
	oom_events_close(ev);
}

/*
 * Where the kernel will not report to us it must say -EPERM so callers fall
 * back to polling. Outside the initial user namespace it ignores the request
 * (kernels before 6.6 also answered EPERM without CAP_NET_ADMIN; 6.6 and
 * later let anyone listen).
 */
static void test_live_eperm(void **state)
{
	struct oom_events *probe = NULL;
	int status;
	pid_t c;

	(void)state;
	if (oom_events_open(0, &probe) < 0)
		skip(); /* not permitted here at all: the fallback is all there is */
	oom_events_close(probe);
	c = fork();
	assert_true(c >= 0);
	if (c == 0) {
		struct oom_events *ev = NULL;

		if (unshare(CLONE_NEWUSER) < 0)
			_exit(77);
		_exit(oom_events_open(0, &ev) == -EPERM ? 0 : 1);
	}
	assert_int_equal(waitpid(c, &status, 0), c);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77) {
		print_message("no user namespaces here: skipped\n");
		skip();
	}
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* ---- the forkbomb tracker ---------------------------------------------- */

#define SEC 1000000000ull

static struct oom_event ev_at(enum oom_event_type type, pid_t parent, pid_t child, uint64_t ts)
{
	struct oom_event e = { .type = type, .pid = child, .tgid = child, .timestamp_ns = ts };

	e.parent_pid = e.parent_tgid = parent;
	return e;
}

static void test_forkbomb_threshold(void **state)
{
	struct oom_forkbomb *fb;
	struct oom_forkbomb_alert a;
	struct oom_event e;
	unsigned long exited;

	(void)state;
	assert_int_equal(oom_forkbomb_new(3, &fb), 0);
	for (int i = 1; i <= 3; i++) {
		e = ev_at(OOM_EVENT_FORK, 100, 100 + i, (uint64_t)i * 1000);
		assert_int_equal(oom_forkbomb_feed(fb, &e, &a), 0);
	}
	assert_int_equal(oom_forkbomb_count(fb, 100, NULL), 3);
	/* Two die young: they still count. */
	e = ev_at(OOM_EVENT_EXIT, 100, 101, 5000);
	assert_int_equal(oom_forkbomb_feed(fb, &e, &a), 0);
	e = ev_at(OOM_EVENT_EXIT, 100, 102, 6000);
	assert_int_equal(oom_forkbomb_feed(fb, &e, &a), 0);
	assert_int_equal(oom_forkbomb_count(fb, 100, &exited), 3);
	assert_int_equal(exited, 2);
	/* The fourth passes the threshold of 3 (the penalty needs more than thres). */
	e = ev_at(OOM_EVENT_FORK, 100, 104, 7000);
	memset(&a, 0, sizeof(a));
	assert_int_equal(oom_forkbomb_feed(fb, &e, &a), 1);
	assert_int_equal(a.parent_tgid, 100);
	assert_int_equal(a.children, 4);
	assert_int_equal(a.exited, 2);
	assert_int_equal(a.thres, 3);
	/* Once only. */
	e = ev_at(OOM_EVENT_FORK, 100, 105, 8000);
	assert_int_equal(oom_forkbomb_feed(fb, &e, &a), 0);
	assert_int_equal(oom_forkbomb_count(fb, 100, NULL), 5);
	/* Another parent is counted apart; a thread is not a child process. */
	e = ev_at(OOM_EVENT_FORK, 200, 201, 9000);
	assert_int_equal(oom_forkbomb_feed(fb, &e, &a), 0);
	e = ev_at(OOM_EVENT_FORK, 100, 106, 9000);
	e.tgid = 100;
	assert_int_equal(oom_forkbomb_feed(fb, &e, &a), 0);
	assert_int_equal(oom_forkbomb_count(fb, 200, NULL), 1);
	assert_int_equal(oom_forkbomb_count(fb, 100, NULL), 5);
	/* A second later everything has aged out. */
	oom_forkbomb_expire(fb, 7000 + SEC);
	assert_int_equal(oom_forkbomb_count(fb, 100, NULL), 1); /* 105, forked at 8000 */
	oom_forkbomb_expire(fb, 9000 + SEC);
	assert_int_equal(oom_forkbomb_count(fb, 100, &exited), 0);
	assert_int_equal(exited, 0);
	assert_int_equal(oom_forkbomb_count(fb, 200, NULL), 0);
	/* Re-armed: a new burst warns again. */
	for (int i = 0; i < 4; i++) {
		e = ev_at(OOM_EVENT_FORK, 100, 300 + i, 3 * SEC + (uint64_t)i);
		assert_int_equal(oom_forkbomb_feed(fb, &e, &a), i == 3);
	}
	oom_forkbomb_reset(fb);
	assert_int_equal(oom_forkbomb_count(fb, 100, NULL), 0);
	oom_forkbomb_free(fb);
	oom_forkbomb_free(NULL);
}

static void test_forkbomb_exit_window(void **state)
{
	struct oom_forkbomb *fb;
	struct oom_event e;

	(void)state;
	assert_int_equal(oom_forkbomb_new(0, &fb), 0);
	e = ev_at(OOM_EVENT_FORK, 10, 11, 0);
	assert_int_equal(oom_forkbomb_feed(fb, &e, NULL), 0);
	/* Dies at 0.9 s: counted until 1.9 s, past its one-second birthday. */
	e = ev_at(OOM_EVENT_EXIT, 10, 11, SEC * 9 / 10);
	oom_forkbomb_feed(fb, &e, NULL);
	oom_forkbomb_expire(fb, SEC * 18 / 10);
	assert_int_equal(oom_forkbomb_count(fb, 10, NULL), 1);
	oom_forkbomb_expire(fb, SEC * 19 / 10);
	assert_int_equal(oom_forkbomb_count(fb, 10, NULL), 0);
	/* A PID reused before we saw its exit is counted once, for its new parent. */
	e = ev_at(OOM_EVENT_FORK, 10, 12, 2 * SEC);
	oom_forkbomb_feed(fb, &e, NULL);
	e = ev_at(OOM_EVENT_FORK, 20, 12, 2 * SEC + 5);
	oom_forkbomb_feed(fb, &e, NULL);
	assert_int_equal(oom_forkbomb_count(fb, 10, NULL), 0);
	assert_int_equal(oom_forkbomb_count(fb, 20, NULL), 1);
	/* An exit of a process we never saw fork changes nothing. */
	e = ev_at(OOM_EVENT_EXIT, 10, 999, 2 * SEC + 6);
	assert_int_equal(oom_forkbomb_feed(fb, &e, NULL), 0);
	assert_int_equal(oom_forkbomb_count(fb, 10, NULL), 0);
	oom_forkbomb_free(fb);
}

/* Many parents, children and exits against a plain model: exercises the tables' growth and deletion. */
static void test_forkbomb_model(void **state)
{
	enum { PARENTS = 37, CHILDREN = 20000 };
	static uint64_t forked[CHILDREN], died[CHILDREN];
	static pid_t parent_of[CHILDREN];
	struct oom_forkbomb *fb;
	uint64_t now = 0;
	unsigned int seed = 12345;

	(void)state;
	assert_int_equal(oom_forkbomb_new(100000, &fb), 0);
	for (int i = 0; i < CHILDREN; i++) {
		struct oom_event e;
		int victim;

		now += (uint64_t)(rand_r(&seed) % 200000); /* up to 0.2 ms apart */
		parent_of[i] = 1 + rand_r(&seed) % PARENTS;
		forked[i] = now;
		died[i] = 0;
		e = ev_at(OOM_EVENT_FORK, parent_of[i], 1000 + i, now);
		assert_int_equal(oom_forkbomb_feed(fb, &e, NULL), 0);
		victim = rand_r(&seed) % (i + 1);
		if (!died[victim] && rand_r(&seed) % 2) {
			died[victim] = now;
			e = ev_at(OOM_EVENT_EXIT, parent_of[victim], 1000 + victim, now);
			oom_forkbomb_feed(fb, &e, NULL);
		}
		if (i % 997 == 0) {
			for (pid_t p = 1; p <= PARENTS; p++) {
				unsigned long want = 0, want_exited = 0, exited;

				for (int k = 0; k <= i; k++) {
					if (parent_of[k] != p)
						continue;
					if (!died[k] && now < forked[k] + SEC)
						want++;
					if (died[k] && died[k] < forked[k] + SEC && now < died[k] + SEC) {
						want++;
						want_exited++;
					}
				}
				assert_int_equal(oom_forkbomb_count(fb, p, &exited), want);
				assert_int_equal(exited, want_exited);
			}
		}
	}
	oom_forkbomb_free(fb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode_fork),
		cmocka_unit_test(test_decode_exec_exit),
		cmocka_unit_test(test_decode_skips),
		cmocka_unit_test(test_decode_count_past_max),
		cmocka_unit_test(test_decode_malformed),
		cmocka_unit_test(test_decode_overrun_and_error),
		cmocka_unit_test(test_decode_garbage),
		cmocka_unit_test(test_live_fork_exit),
		cmocka_unit_test(test_live_overrun),
		cmocka_unit_test(test_live_eperm),
		cmocka_unit_test(test_forkbomb_threshold),
		cmocka_unit_test(test_forkbomb_exit_window),
		cmocka_unit_test(test_forkbomb_model),
	};

	return cmocka_run_group_tests_name("events", tests, NULL, NULL);
}
