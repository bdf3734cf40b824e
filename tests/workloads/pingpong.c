// SPDX-License-Identifier: GPL-2.0
/*
 * pingpong - two processes on one CPU hand a byte back and forth through
 * pipes: tens of thousands of context switches a second, enough trace
 * events to overflow a small ring buffer on purpose.
 *
 * usage: pingpong -c CPU [-d SECONDS]
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workload.h"

int main(int argc, char **argv)
{
	int cpu = -1, opt, ab[2], ba[2];
	double seconds = 1, end;
	char byte = 0;
	pid_t child;

	while ((opt = getopt(argc, argv, "c:d:")) != -1) {
		if (opt == 'c') {
			cpu = atoi(optarg);
		} else if (opt == 'd') {
			seconds = atof(optarg);
		} else {
			fprintf(stderr, "usage: pingpong -c CPU [-d SECONDS]\n");
			return 2;
		}
	}
	if (pin_to_cpu("pingpong", cpu) || pipe(ab) || pipe(ba))
		return 1;
	child = fork();
	if (child < 0)
		return 1;
	if (!child) {
		/* without these the child would never see the end of its pipe */
		close(ab[1]);
		close(ba[0]);
		while (read(ab[0], &byte, 1) == 1 && write(ba[1], &byte, 1) == 1)
			;
		_exit(0);
	}
	close(ab[0]);
	close(ba[1]);
	end = now() + seconds;
	while (now() < end)
		if (write(ab[1], &byte, 1) != 1 || read(ba[0], &byte, 1) != 1)
			break;
	close(ab[1]);
	waitpid(child, NULL, 0);
	return 0;
}
