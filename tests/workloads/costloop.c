// SPDX-License-Identifier: GPL-2.0
/*
 * costloop - the kernel paths the tick series touches, in a timed loop, for
 * tests/bench/cost.
 *
 * usage: costloop MODE -n ITERATIONS -c CPU [-C CPU2]
 *
 * Modes:
 *   syscall   getppid() on CPU: a nohz_full CPU's kernel entry and exit
 *   switch    two processes on CPU hand a byte back and forth through
 *             pipes: two context switches per iteration, and the SCHED
 *             tick dependency set and cleared as the second task comes
 *             and goes
 *   idle      the same between CPU and CPU2: each waits for the other in
 *             the idle loop, so an iteration is two idle entries and exits
 * Prints "costloop MODE ITERATIONS NANOSECONDS" (CLOCK_MONOTONIC).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workload.h"

static int64_t ns_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void syscalls(long n)
{
	while (n--)
		syscall(SYS_getppid);
}

/*
 * The child echoes every byte; the parent sends n and waits for each.  The
 * time (*ns) leaves out the fork and a first round trip.
 */
static int pingpong(long n, int cpu2, int64_t *ns)
{
	int ab[2], ba[2];
	char byte = 0;
	pid_t child;

	if (pipe(ab) || pipe(ba))
		return -1;
	child = fork();
	if (child < 0)
		return -1;
	if (!child) {
		close(ab[1]);
		close(ba[0]);
		if (cpu2 >= 0 && pin_to_cpu("costloop", cpu2))
			_exit(1);
		while (read(ab[0], &byte, 1) == 1)
			if (write(ba[1], &byte, 1) != 1)
				_exit(1);
		_exit(0);
	}
	close(ab[0]);
	close(ba[1]);
	/* one round trip first, so that the child runs where it should */
	if (write(ab[1], &byte, 1) != 1 || read(ba[0], &byte, 1) != 1)
		return -1;
	*ns = ns_now();
	while (n--)
		if (write(ab[1], &byte, 1) != 1 || read(ba[0], &byte, 1) != 1)
			return -1;
	*ns = ns_now() - *ns;
	close(ab[1]);
	waitpid(child, NULL, 0);
	return 0;
}

int main(int argc, char **argv)
{
	int cpu = -1, cpu2 = -1, opt, ret = 0;
	const char *mode;
	int64_t ns;
	long n = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: costloop syscall|switch|idle -n N -c CPU [-C CPU2]\n");
		return 2;
	}
	mode = argv[1];
	optind = 2;
	while ((opt = getopt(argc, argv, "n:c:C:")) != -1) {
		if (opt == 'n')
			n = atol(optarg);
		else if (opt == 'c')
			cpu = atoi(optarg);
		else if (opt == 'C')
			cpu2 = atoi(optarg);
		else
			return 2;
	}
	if (n <= 0 || cpu < 0 || pin_to_cpu("costloop", cpu))
		return 2;
	if (!strcmp(mode, "syscall")) {
		ns = ns_now();
		syscalls(n);
		ns = ns_now() - ns;
	} else if (!strcmp(mode, "switch") || !strcmp(mode, "idle")) {
		if (!strcmp(mode, "idle") && cpu2 < 0) {
			fprintf(stderr, "costloop: idle needs -C CPU2\n");
			return 2;
		}
		ret = pingpong(n, !strcmp(mode, "idle") ? cpu2 : -1, &ns);
	} else {
		fprintf(stderr, "costloop: unknown mode '%s'\n", mode);
		return 2;
	}
	if (ret) {
		perror("costloop");
		return 1;
	}
	printf("costloop %s %ld %lld\n", mode, n, (long long)ns);
	return 0;
}
