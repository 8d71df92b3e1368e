// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * bench-run [-r REPS] [-w WARMUP] [-t SECONDS] [-o RAWFILE] NAME CMD ARG... [:: NAME CMD ARG...]...
 *
 * Runs the commands in turn, round after round (c1 c2 c3 c1 c2 c3 ...), so
 * each pair is measured under the same conditions, with stdout and stderr
 * on /dev/null. For every run: wall time (monotonic clock around spawn and
 * wait4), user and system CPU and peak RSS from wait4's rusage. Prints one
 * line per command: NAME runs fails wall_us cpu_us user_us sys_us maxrss_kb
 * wall_min_us cpu_min_us, the times being medians (then minimums) and maxrss
 * the largest of the runs. A run longer than -t seconds (default 120) is
 * killed and counted as failed.
 *
 * posix_spawn (vfork-like) keeps our own pages out of the child, but Linux
 * still folds the pre-exec RSS into ru_maxrss: this runner stays tiny.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define MAX_CMDS 32
#define MAX_REPS 200

struct cmd {
	const char *name;
	char **argv;
	long wall[MAX_REPS], cpu[MAX_REPS], user[MAX_REPS], sys[MAX_REPS];
	long maxrss;
	int fails;
};

static struct cmd cmds[MAX_CMDS];
static int timeout_s = 120;

static long tv_us(const struct timeval *tv)
{
	return tv->tv_sec * 1000000L + tv->tv_usec;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

static long median(long *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_long);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One run of @c; fills slot @i unless it is a warm-up (i < 0). */
static int run_one(struct cmd *c, int i, FILE *raw, int round)
{
	struct timespec t0, t1, limit = {.tv_sec = timeout_s};
	posix_spawn_file_actions_t fa;
	siginfo_t si;
	sigset_t chld;
	struct rusage ru;
	int status, err;
	pid_t pid;
	long wall;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = posix_spawnp(&pid, c->argv[0], &fa, NULL, c->argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err) {
		fprintf(stderr, "bench-run: %s: %s\n", c->argv[0], strerror(err));
		return -1;
	}
	/* SIGCHLD is blocked (main): wait for it with a time limit, then reap. */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	while (sigtimedwait(&chld, NULL, &limit) < 0 && errno == EINTR)
		;
	si.si_pid = 0;
	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == 0) {
		fprintf(stderr, "bench-run: %s: killed after %d s\n", c->name, timeout_s);
		kill(pid, SIGKILL);
	}
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR)
			return -1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* Drop a SIGCHLD still pending (timeout path), so the next run waits properly. */
	sigtimedwait(&chld, NULL, &(struct timespec){0});
	wall = (t1.tv_sec - t0.tv_sec) * 1000000L + (t1.tv_nsec - t0.tv_nsec) / 1000;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		c->fails++;
	if (i < 0)
		return 0;
	c->wall[i] = wall;
	c->user[i] = tv_us(&ru.ru_utime);
	c->sys[i] = tv_us(&ru.ru_stime);
	c->cpu[i] = c->user[i] + c->sys[i];
	if (ru.ru_maxrss > c->maxrss)
		c->maxrss = ru.ru_maxrss;
	if (raw)
		fprintf(raw, "%d\t%s\t%ld\t%ld\t%ld\t%ld\t%d\n", round, c->name, wall, c->user[i], c->sys[i],
			ru.ru_maxrss, WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return 0;
}

int main(int argc, char **argv)
{
	int reps = 5, warmup = 1, ncmds = 0, opt;
	FILE *raw = NULL;

	sigset_t chld;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	while ((opt = getopt(argc, argv, "+r:w:t:o:")) != -1) {
		switch (opt) {
		case 't':
			timeout_s = atoi(optarg);
			break;
		case 'r':
			reps = atoi(optarg);
			break;
		case 'w':
			warmup = atoi(optarg);
			break;
		case 'o':
			raw = fopen(optarg, "w");
			if (!raw) {
				perror(optarg);
				return 1;
			}
			break;
		default:
			return 2;
		}
	}
	if (reps < 1 || reps > MAX_REPS || warmup < 0 || timeout_s < 1) {
		fprintf(stderr, "bench-run: -r 1..%d, -w >= 0, -t >= 1\n", MAX_REPS);
		return 2;
	}
	/* NAME CMD ARG... separated by "::"; the argv strings are split in place. */
	for (int i = optind; i < argc;) {
		if (ncmds == MAX_CMDS || i + 1 >= argc) {
			fprintf(stderr, "bench-run: at most %d commands, each NAME CMD [ARG...]\n", MAX_CMDS);
			return 2;
		}
		cmds[ncmds].name = argv[i];
		cmds[ncmds].argv = &argv[i + 1];
		for (i++; i < argc && strcmp(argv[i], "::"); i++)
			;
		if (i < argc)
			argv[i++] = NULL;
		ncmds++;
	}
	if (!ncmds) {
		fprintf(stderr,
			"usage: bench-run [-r REPS] [-w WARMUP] [-t SECONDS] [-o RAW] NAME CMD ARG... [:: ...]\n");
		return 2;
	}
	for (int w = 0; w < warmup; w++)
		for (int c = 0; c < ncmds; c++)
			if (run_one(&cmds[c], -1, NULL, 0) < 0)
				return 1;
	for (int c = 0; c < ncmds; c++)
		cmds[c].fails = 0;
	for (int r = 0; r < reps; r++)
		for (int c = 0; c < ncmds; c++)
			if (run_one(&cmds[c], r, raw, r) < 0)
				return 1;
	if (raw)
		fclose(raw);
	for (int c = 0; c < ncmds; c++) {
		struct cmd *k = &cmds[c];

		long wall = median(k->wall, reps), cpu = median(k->cpu, reps);

		/* median() sorted the arrays: [0] is the minimum. */
		printf("%s\t%d\t%d\t%ld\t%ld\t%ld\t%ld\t%ld\t%ld\t%ld\n", k->name, reps, k->fails, wall, cpu,
		       median(k->user, reps), median(k->sys, reps), k->maxrss, k->wall[0], k->cpu[0]);
	}
	return 0;
}
