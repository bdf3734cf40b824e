// SPDX-License-Identifier: GPL-2.0
/*
 * spin - burn CPU time in user space on chosen CPUs for a fixed time.
 *
 * usage: spin [-c CPU] [-n TASKS] [-d SECONDS] [-D DELAY]
 *
 * Starts TASKS processes pinned to CPU, each spinning until the deadline,
 * after an optional start DELAY. The loop makes no system calls except a
 * clock read through the vDSO, so a lone spinner on a nohz_full CPU gives
 * the kernel no reason to keep the tick.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "workload.h"


static void usage(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: spin [-c CPU] [-n TASKS] [-d SECONDS] [-D DELAY]\n"
		"  -c CPU      pin the spinners to CPU (default: no pinning)\n"
		"  -n TASKS    number of spinning processes (default 1)\n"
		"  -d SECONDS  how long each spins (default 1)\n"
		"  -D DELAY    seconds to sleep before spinning (default 0)\n"
		"  -p PERIOD   sleep 1 ms every PERIOD seconds (default: never)\n");
	exit(status);
}

static double parse_seconds(const char *arg)
{
	char *end;
	double v = strtod(arg, &end);

	if (*arg == '\0' || *end != '\0' || v < 0 || v > 86400) {
		fprintf(stderr, "spin: bad number of seconds '%s'\n", arg);
		exit(1);
	}
	return v;
}


/*
 * Spin until the deadline; with a period, sleep 1 ms once per period, so the
 * CPU goes idle and back and writes a few trace events each time.
 */
static void spin_periodic(double deadline, double period)
{
	double next;

	if (period <= 0) {
		spin_until(deadline);
		return;
	}
	for (next = now() + period; next < deadline; next += period) {
		spin_until(next);
		usleep(1000);
	}
	spin_until(deadline);
}

int main(int argc, char **argv)
{
	double duration = 1, delay = 0, period = 0, deadline;
	int cpu = -1, tasks = 1, opt, i, status = 0;

	while ((opt = getopt(argc, argv, "c:n:d:D:p:h")) != -1) {
		switch (opt) {
		case 'c':
			cpu = atoi(optarg);
			break;
		case 'n':
			tasks = atoi(optarg);
			if (tasks < 1 || tasks > 64)
				usage(1);
			break;
		case 'd':
			duration = parse_seconds(optarg);
			break;
		case 'D':
			delay = parse_seconds(optarg);
			break;
		case 'p':
			period = parse_seconds(optarg);
			break;
		case 'h':
			usage(0);
			break;
		default:
			usage(1);
		}
	}
	if (optind != argc)
		usage(1);

	if (pin_to_cpu("spin", cpu))
		return 1;
	if (delay > 0)
		usleep(delay * 1e6);
	deadline = now() + duration;
	for (i = 1; i < tasks; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("spin: fork");
			return 1;
		}
		if (pid == 0) {
			spin_periodic(deadline, period);
			_exit(0);
		}
	}
	spin_periodic(deadline, period);
	while (wait(&i) > 0)
		if (!WIFEXITED(i) || WEXITSTATUS(i))
			status = 1;
	return status;
}
