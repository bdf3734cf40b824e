// SPDX-License-Identifier: GPL-2.0
/*
 * perf-freq - hold a frequency-mode perf event open for a while.
 *
 * usage: perf-freq [-c CPU] [-d SECONDS]
 *
 * Opens a software context-switch event in frequency mode (sample_freq 100)
 * on itself, running on CPU (default: no pinning), and sleeps. Any such event
 * sets the global PERF_EVENTS tick dependency in 6.1. (Not cpu-clock: the
 * hrtimer-based software events turn frequency mode into a fixed period.)
 * Then says how long the event was surely open, from open()'s return to
 * close()'s call, and at most, from open()'s call to close()'s return: the
 * kernel sets the dependency inside open() and clears it inside close(),
 * and a task that waits for its CPU (the recorder shares CPU 0) stretches
 * either end.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "workload.h"

int main(int argc, char **argv)
{
	double duration = 1, opening, opened, closing;
	int cpu = -1, opt, fd;

	while ((opt = getopt(argc, argv, "c:d:")) != -1) {
		switch (opt) {
		case 'c':
			cpu = atoi(optarg);
			break;
		case 'd':
			duration = atof(optarg);
			break;
		default:
			fprintf(stderr, "usage: perf-freq [-c CPU] [-d SECONDS]\n");
			return 1;
		}
	}
	if (pin_to_cpu("perf-freq", cpu))
		return 1;
	opening = now();
	fd = open_freq_perf_event("perf-freq");
	if (fd < 0)
		return 1;
	opened = now();
	printf("perf-freq: pid %d\n", getpid());
	fflush(stdout);
	usleep(duration * 1e6);
	closing = now();
	close(fd);
	printf("perf-freq: event open %.3f s, at most %.3f s\n", closing - opened,
	       now() - opening);
	return 0;
}
