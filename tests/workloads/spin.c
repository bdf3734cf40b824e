// SPDX-License-Identifier: GPL-2.0
/*
 * spin - burn CPU time in user space on chosen CPUs for a fixed time.
 *
 * usage: spin [-c CPU] [-n TASKS] [-d SECONDS] [-D DELAY] [-p PERIOD]
 *             [-P POLICY] [-R RUNTIME] [-r FILES]
 *
 * Starts TASKS processes pinned to CPU, each spinning until the deadline,
 * after an optional start DELAY. The loop makes no system calls except a
 * clock read through the vDSO, so a lone spinner on a nohz_full CPU gives
 * the kernel no reason to keep the tick.
 *
 * With -r, each spinner then creates and closes FILES memfds before it
 * exits: the kernel frees each inode after an RCU grace period
 * (destroy_inode() queues call_rcu() on the CPU that closes it), so the
 * CPU is sure to go idle with RCU callbacks of its own pending.  Without
 * it, whether the exit leaves callbacks on the CPU is a race with the
 * parent that reaps it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "workload.h"


static void usage(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: spin [-c CPU] [-n TASKS] [-d SECONDS] [-D DELAY] [-p PERIOD]\n"
		"            [-P POLICY] [-R RUNTIME] [-r FILES]\n"
		"  -c CPU      pin the spinners to CPU (default: no pinning)\n"
		"  -n TASKS    number of spinning processes (default 1)\n"
		"  -d SECONDS  how long each spins (default 1)\n"
		"  -D DELAY    seconds to sleep before spinning (default 0)\n"
		"  -p PERIOD   sleep 1 ms every PERIOD seconds (default: never)\n"
		"  -P POLICY   other (default), fifo, rr, or deadline (RUNTIME in a\n"
		"              100 ms period)\n"
		"  -R RUNTIME  a deadline task's runtime per period, in seconds\n"
		"              (default 0.01, at most 0.1)\n"
		"  -r FILES    before exiting, create and close FILES memfds: RCU\n"
		"              callbacks pending on the CPU as it goes idle\n");
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


/* The kernel's struct sched_attr (glibc 2.36 has no wrapper). */
struct sched_attr_v1 {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
};

/*
 * set_policy - switch the calling process to a scheduling policy by name;
 * a deadline task gets runtime_ns of every 100 ms period
 */
static int set_policy(const char *name, uint64_t runtime_ns)
{
	struct sched_param sp = { .sched_priority = 1 };
	struct sched_attr_v1 attr = {
		.size = sizeof(attr), .sched_policy = 6 /* SCHED_DEADLINE */,
		.sched_runtime = runtime_ns, .sched_deadline = 100000000,
		.sched_period = 100000000,
	};
	int ret;

	if (!strcmp(name, "other"))
		return 0;
	if (!strcmp(name, "fifo"))
		ret = sched_setscheduler(0, SCHED_FIFO, &sp);
	else if (!strcmp(name, "rr"))
		ret = sched_setscheduler(0, SCHED_RR, &sp);
	else if (!strcmp(name, "deadline"))
		ret = syscall(SYS_sched_setattr, 0, &attr, 0);
	else {
		fprintf(stderr, "spin: unknown policy '%s'\n", name);
		return -1;
	}
	if (ret)
		fprintf(stderr, "spin: cannot set policy %s: %s\n", name, strerror(errno));
	return ret;
}

/*
 * Leave RCU callbacks on this CPU: the last close of a memfd frees its inode
 * through call_rcu() here.
 */
static int queue_rcu_callbacks(int files)
{
	int i, fd;

	for (i = 0; i < files; i++) {
		fd = memfd_create("spin-rcu", 0);
		if (fd < 0) {
			perror("spin: memfd_create");
			return 1;
		}
		close(fd);
	}
	return 0;
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
	double duration = 1, delay = 0, period = 0, runtime = 0.01, deadline;
	const char *policy = "other";
	int cpu = -1, tasks = 1, files = 0, runtime_set = 0, opt, i, status = 0;

	while ((opt = getopt(argc, argv, "c:n:d:D:p:P:R:r:h")) != -1) {
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
		case 'P':
			policy = optarg;
			break;
		case 'R':
			runtime = parse_seconds(optarg);
			/* the kernel's floor is 1024 ns; the period bounds it above */
			if (runtime < 1024e-9 || runtime > 0.1)
				usage(1);
			runtime_set = 1;
			break;
		case 'r':
			files = atoi(optarg);
			if (files < 1 || files > 4096)
				usage(1);
			break;
		case 'h':
			usage(0);
			break;
		default:
			usage(1);
		}
	}
	if (optind != argc || (runtime_set && strcmp(policy, "deadline")))
		usage(1);

	if (pin_to_cpu("spin", cpu))
		return 1;
	/* a deadline task may not be pinned to fewer CPUs than its root domain */
	if (set_policy(policy, (uint64_t)(runtime * 1e9 + 0.5)))
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
			_exit(queue_rcu_callbacks(files));
		}
	}
	spin_periodic(deadline, period);
	status = queue_rcu_callbacks(files);
	while (wait(&i) > 0)
		if (!WIFEXITED(i) || WEXITSTATUS(i))
			status = 1;
	return status;
}
