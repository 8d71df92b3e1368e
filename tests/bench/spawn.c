// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * bench-spawn [-f FANOUT] N: fork N idle children that pause, in a process
 * group of our own, then print "ready PGID" and wait. The harness ends the
 * whole group with kill -TERM -PGID: the children die at once and every helper
 * reaps its own before leaving, so no zombie is left for an init that may not
 * reap.
 *
 * Without -f all N are children of this helper (flat): with N above
 * vm.oom_forkbomb_thres (1000 by default) that is a forkbomb by the 2010
 * rewrite's definition. With -f FANOUT the helper forks ceil(N / FANOUT)
 * sub-helpers, each of which forks its share (at most FANOUT) of the N idle
 * children, the way idle processes on a real server are spread over many
 * parents. Each sub-helper writes one byte to a pipe once its children exist;
 * "ready" is printed only when all N do. A fork that fails ends the group
 * (TERM, then every helper reaps) and we exit 1.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t stop;
static sigset_t old_mask;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

/* TERM to the whole group (ours ignored from now on), then reap our children. */
static void end_group(void)
{
	signal(SIGTERM, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	kill(0, SIGTERM);
	while (wait(NULL) > 0 || errno == EINTR)
		;
}

static void idle_child(void)
{
	/* Default actions: TERM to the group ends the child. */
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	for (;;)
		pause();
}

/* Forks n idle children; 0, or -1 after a message when a fork fails. */
static int fork_idle(long n, long first, long total)
{
	for (long made = 0; made < n; made++) {
		pid_t pid = fork();

		if (pid < 0) {
			fprintf(stderr, "fork %ld of %ld: %s\n", first + made + 1, total, strerror(errno));
			return -1;
		}
		if (pid == 0)
			idle_child();
	}
	return 0;
}

/* A sub-helper: its share of the children, one byte up the pipe, then wait. */
static void sub_helper(int wfd, long n, long first, long total)
{
	char ok = 'r';

	if (fork_idle(n, first, total) < 0) {
		close(wfd);
		end_group();
		_exit(1);
	}
	if (write(wfd, &ok, 1) != 1) {
		perror("write");
		end_group();
		_exit(1);
	}
	close(wfd);
	while (!stop)
		sigsuspend(&old_mask);
	end_group();
	_exit(0);
}

/* Forks the sub-helpers; 0 once all report their children exist, else -1. */
static int fork_tree(long n, long fanout)
{
	long subs = (n + fanout - 1) / fanout, ready = 0;
	int fd[2];

	if (pipe(fd) < 0) {
		perror("pipe");
		return -1;
	}
	for (long i = 0; i < subs; i++) {
		long first = i * fanout, share = n - first < fanout ? n - first : fanout;
		pid_t pid = fork();

		if (pid < 0) {
			fprintf(stderr, "fork sub-helper %ld of %ld: %s\n", i + 1, subs, strerror(errno));
			close(fd[0]);
			close(fd[1]);
			return -1;
		}
		if (pid == 0) {
			close(fd[0]);
			sub_helper(fd[1], share, first, n);
		}
	}
	/* Each sub-helper closes its end after its byte, or by dying: EOF ends the count. */
	close(fd[1]);
	while (ready < subs) {
		char buf[64];
		ssize_t got = read(fd[0], buf, sizeof(buf));

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		ready += got;
	}
	close(fd[0]);
	if (ready < subs) {
		fprintf(stderr, "only %ld of %ld sub-helpers made their children\n", ready, subs);
		return -1;
	}
	return 0;
}

static int usage(const char *argv0)
{
	fprintf(stderr, "usage: %s [-f FANOUT] N\n", argv0);
	return 2;
}

int main(int argc, char **argv)
{
	struct sigaction sa = {.sa_handler = on_term};
	sigset_t block;
	long n, fanout = 0;
	char *end;
	int opt, err;

	while ((opt = getopt(argc, argv, "f:")) != -1) {
		if (opt != 'f')
			return usage(argv[0]);
		fanout = strtol(optarg, &end, 10);
		if (fanout < 1 || *end || fanout > 1000000)
			return usage(argv[0]);
	}
	if (argc - optind != 1 || (n = strtol(argv[optind], &end, 10)) < 0 || *end || n > 1000000)
		return usage(argv[0]);
	if (fanout && (n + fanout - 1) / fanout > fanout) {
		fprintf(stderr, "%s: %ld sub-helpers would be more than FANOUT %ld children of one parent\n", argv[0],
			(n + fanout - 1) / fanout, fanout);
		return 2;
	}
	if (setpgid(0, 0) < 0) {
		perror("setpgid");
		return 1;
	}
	/*
	 * Block TERM until we wait for it, so a kill during the forks is not
	 * lost; the sub-helpers inherit the mask and the handler.
	 */
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, &old_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	err = fanout ? fork_tree(n, fanout) : fork_idle(n, 0, n);
	if (err < 0) {
		end_group();
		return 1;
	}
	printf("ready %d\n", (int)getpgrp());
	fflush(stdout);
	while (!stop)
		sigsuspend(&old_mask);
	/* The group signal reached the children too; make sure and reap them all. */
	end_group();
	return 0;
}
