// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * leader-exit NTHREADS MSECS: starts NTHREADS threads that live MSECS
 * milliseconds, then the main thread exits alone (pthread_exit), so the
 * thread-group leader is a zombie while its threads still run.
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static long msecs;

static void *live(void *arg)
{
	struct timespec ts = { .tv_sec = msecs / 1000, .tv_nsec = msecs % 1000 * 1000000L };

	(void)arg;
	nanosleep(&ts, NULL);
	return NULL;
}

int main(int argc, char **argv)
{
	long i, n;
	pthread_t t;

	if (argc != 3)
		return 2;
	n = atol(argv[1]);
	msecs = atol(argv[2]);
	/* A safety net: never outlive the test by much. */
	alarm((unsigned int)(msecs / 1000 + 5));
	for (i = 0; i < n; i++)
		if (pthread_create(&t, NULL, live, NULL) != 0)
			return 1;
	pthread_exit(NULL);
}
