/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload.h - what every workload shares: the clock, a spin loop, pinning.
 * Header-only so each workload stays one static program.
 */
#ifndef WORKLOAD_H
#define WORKLOAD_H

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* now - CLOCK_MONOTONIC in seconds (a vDSO call: no system call) */
static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* spin_until - burn CPU in user space until @deadline (see now()) */
static inline void spin_until(double deadline)
{
	while (now() < deadline)
		;
}

/* pin_to_cpu - run only on @cpu; a negative @cpu leaves the affinity alone */
static inline int pin_to_cpu(const char *prog, int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "%s: cannot pin to CPU %d: %s\n", prog, cpu, strerror(errno));
		return -1;
	}
	return 0;
}

#endif /* WORKLOAD_H */
