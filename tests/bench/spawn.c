// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * bench-spawn N: fork N idle children that pause, in a process group of our
 * own, then print "ready PGID" and wait. The harness ends the whole group with
 * kill -TERM -PGID: the children die at once and we reap them before leaving,
 * so no zombie is left for an init that may not reap.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	struct sigaction sa = {.sa_handler = on_term};
	sigset_t block, old;
	long n, made = 0;
	char *end;

	if (argc != 2 || (n = strtol(argv[1], &end, 10)) < 0 || *end || n > 1000000) {
		fprintf(stderr, "usage: %s N\n", argv[0]);
		return 2;
	}
	if (setpgid(0, 0) < 0) {
		perror("setpgid");
		return 1;
	}
	/* Block TERM until we wait for it, so a kill during the forks is not lost. */
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, &old);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	for (; made < n; made++) {
		pid_t pid = fork();

		if (pid < 0) {
			fprintf(stderr, "fork %ld of %ld: %s\n", made + 1, n, strerror(errno));
			kill(0, SIGKILL);
			return 1;
		}
		if (pid == 0) {
			/* Default actions: TERM to the group ends the child. */
			signal(SIGTERM, SIG_DFL);
			signal(SIGINT, SIG_DFL);
			sigprocmask(SIG_SETMASK, &old, NULL);
			for (;;)
				pause();
		}
	}
	printf("ready %d\n", (int)getpgrp());
	fflush(stdout);
	while (!stop)
		sigsuspend(&old);
	/* The group signal reached the children too; make sure and reap them all. */
	signal(SIGTERM, SIG_IGN);
	kill(0, SIGTERM);
	while (wait(NULL) > 0 || errno == EINTR)
		;
	return 0;
}
