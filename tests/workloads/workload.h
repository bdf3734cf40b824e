/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload.h - what the workloads share: the clock, a spin loop, pinning,
 * a frequency-mode perf event.
 * Header-only so each workload stays one static program.
 */
#ifndef WORKLOAD_H
#define WORKLOAD_H

#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

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

/*
 * open_freq_perf_event - a software context-switch event in frequency mode
 * (sample_freq 100) on this task: any such event sets the global
 * PERF_EVENTS tick dependency in 6.1.  (Not cpu-clock: the hrtimer-based
 * software events turn frequency mode into a fixed period.)  Returns the
 * fd, or -1 after saying why.
 */
static inline int open_freq_perf_event(const char *prog)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
	attr.freq = 1;
	attr.sample_freq = 100;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0)
		fprintf(stderr, "%s: perf_event_open: %s\n", prog, strerror(errno));
	return fd;
}

#endif /* WORKLOAD_H */
