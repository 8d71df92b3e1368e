// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * bench-floor SET: the least a scanner can do, to measure liboom against.
 * Opens /proc once, each PID directory once, and reads exactly the files of
 * SET with openat + one read into a reused buffer + close:
 *   status  status, oom_score_adj          (what the modern table needs)
 *   stat    stat, status, oom_score_adj    (the 2.6.36 table)
 * It prints one short line per process (PID, Name, adj) to a buffered stdout,
 * so the output cost is there but light. No liboom, on purpose.
 *
 * Two flags add back, one at a time, what a general reader does on top, to
 * price each: -2 opens with openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS)
 * instead of openat, -e reads again until read() returns 0 (EOF).
 */
#include <dirent.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static char buf[16384];
static int use_openat2, read_to_eof;

static int open_at(int dirfd, const char *name, int flags)
{
	struct open_how how = {
	    .flags = (unsigned long long)(flags | O_CLOEXEC),
	    .resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
	};

	if (use_openat2)
		return (int)syscall(SYS_openat2, dirfd, name, &how, sizeof(how));
	return openat(dirfd, name, flags | O_CLOEXEC);
}

/* One read; /proc seq files hand over the whole text at once when it fits. */
static ssize_t read_once(int dirfd, const char *name)
{
	int fd = open_at(dirfd, name, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	if (read_to_eof && n > 0)
		while (read(fd, buf + n, sizeof(buf) - 1 - (size_t)n) > 0)
			;
	close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

int main(int argc, char **argv)
{
	static char outbuf[1 << 16];
	char name[64] = "";
	int with_stat, procfd, opt;
	struct dirent *de;
	DIR *d;

	while ((opt = getopt(argc, argv, "2e")) != -1) {
		if (opt == '2')
			use_openat2 = 1;
		else if (opt == 'e')
			read_to_eof = 1;
		else
			return 2;
	}
	if (argc != optind + 1 || (strcmp(argv[optind], "status") && strcmp(argv[optind], "stat"))) {
		fprintf(stderr, "usage: %s [-2] [-e] status|stat\n", argv[0]);
		return 2;
	}
	with_stat = strcmp(argv[optind], "stat") == 0;
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	procfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (procfd < 0 || !(d = fdopendir(procfd))) {
		perror("/proc");
		return 1;
	}
	while ((de = readdir(d))) {
		long cpu = -1;
		int piddir;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		piddir = open_at(procfd, de->d_name, O_RDONLY | O_DIRECTORY);
		if (piddir < 0)
			continue;
		if (with_stat) {
			/* Field 39 (processor), as the 2.6.36 table's cpu column; comm ends at the last ')'. */
			if (read_once(piddir, "stat") > 0) {
				char *p = strrchr(buf, ')');

				for (int f = 2; p && f < 39; f++)
					p = strchr(p + 1, ' ');
				if (p)
					cpu = strtol(p + 1, NULL, 10);
			}
		}
		if (read_once(piddir, "status") > 6) {
			size_t len = strcspn(buf + 6, "\n");

			if (len >= sizeof(name))
				len = sizeof(name) - 1;
			memcpy(name, buf + 6, len);
			name[len] = '\0';
		}
		if (read_once(piddir, "oom_score_adj") > 0)
			printf("%s %s %ld %s", de->d_name, name, cpu, buf);
		close(piddir);
	}
	closedir(d);
	return fflush(stdout) ? 1 : 0;
}
