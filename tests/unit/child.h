/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A real child process that pauses, as a cmocka setup/teardown pair, for the live tests. */
#ifndef OOM_UNIT_CHILD_H
#define OOM_UNIT_CHILD_H

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t child_pid;

static inline int child_setup(void **state)
{
	(void)state;
	child_pid = fork();
	if (child_pid == 0) {
		/* Die with the test, whatever happens to it. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;)
			pause();
	}
	return child_pid > 0 ? 0 : -1;
}

static inline int child_teardown(void **state)
{
	(void)state;
	if (child_pid > 0) {
		kill(child_pid, SIGKILL);
		waitpid(child_pid, NULL, 0);
	}
	child_pid = 0;
	return 0;
}

#endif
