// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * kill-at USECS CMD [ARG...]: runs CMD and SIGKILLs it USECS microseconds
 * after the fork. Prints "killed" if the signal ended it, "exited N" if it
 * ended first; CMD's output goes to /dev/null. Its own exit status is 0
 * unless it could not run CMD.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long us;
	pid_t pid;
	int st;
	struct timespec ts;

	if (argc < 3)
		return 2;
	us = atol(argv[1]);
	ts.tv_sec = us / 1000000;
	ts.tv_nsec = us % 1000000 * 1000;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0)
			dup2(fd, 1);
		execvp(argv[2], argv + 2);
		_exit(127);
	}
	nanosleep(&ts, NULL);
	kill(pid, SIGKILL);
	if (waitpid(pid, &st, 0) < 0)
		return 1;
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
		puts("killed");
	else
		printf("exited %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	return 0;
}
