// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * named NAME [SECS]: renames itself to NAME (raw bytes, cut to 15 by the
 * kernel) with prctl(PR_SET_NAME), prints its PID, closes stdout and waits
 * SECS seconds (default 60) or until killed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3)
		return 2;
	if (prctl(PR_SET_NAME, argv[1], 0, 0, 0) != 0)
		return 1;
	printf("%d\n", (int)getpid());
	fclose(stdout);
	sleep(argc == 3 ? (unsigned int)atoi(argv[2]) : 60);
	return 0;
}
