// SPDX-License-Identifier: GPL-2.0
/*
 * cputimer - spin on a CPU with a POSIX CPU timer armed, then disarmed.
 *
 * usage: cputimer -c CPU -k itimer|thread|process [-d SECONDS] [-a SECONDS]
 *
 * Spins pinned to CPU for SECONDS in all; the timer is armed for the first
 * ARMED seconds (default half) and then disarmed, so the tick should stop
 * again afterwards. Kinds:
 *   itimer   setitimer(ITIMER_PROF): a process-wide CPU timer
 *   thread   timer_create(CLOCK_THREAD_CPUTIME_ID): a per-thread CPU timer
 *   process  timer_create(CLOCK_PROCESS_CPUTIME_ID): a process CPU timer
 * Prints "cputimer: pid N" first so tests can match the culprit.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "workload.h"



static void usage(void)
{
	fprintf(stderr, "usage: cputimer -c CPU -k itimer|thread|process [-d SECONDS] [-a SECONDS]\n");
	exit(1);
}

int main(int argc, char **argv)
{
	double duration = 2, armed = -1, start;
	const char *kind = NULL;
	int cpu = -1, opt;
	timer_t timer;

	while ((opt = getopt(argc, argv, "c:k:d:a:")) != -1) {
		switch (opt) {
		case 'c':
			cpu = atoi(optarg);
			break;
		case 'k':
			kind = optarg;
			break;
		case 'd':
			duration = atof(optarg);
			break;
		case 'a':
			armed = atof(optarg);
			break;
		default:
			usage();
		}
	}
	if (cpu < 0 || !kind || duration <= 0)
		usage();
	if (armed < 0)
		armed = duration / 2;

	if (pin_to_cpu("cputimer", cpu))
		return 1;
	/* The timer fires far beyond the run: only its being armed matters */
	signal(SIGPROF, SIG_IGN);
	printf("cputimer: pid %d\n", getpid());
	fflush(stdout);

	start = now();
	if (!strcmp(kind, "itimer")) {
		struct itimerval it = { .it_value = { .tv_sec = 1000 } };

		if (setitimer(ITIMER_PROF, &it, NULL)) {
			perror("cputimer: setitimer");
			return 1;
		}
		spin_until(start + armed);
		memset(&it, 0, sizeof(it));
		setitimer(ITIMER_PROF, &it, NULL);
	} else if (!strcmp(kind, "thread") || !strcmp(kind, "process")) {
		clockid_t clock = !strcmp(kind, "thread") ?
			CLOCK_THREAD_CPUTIME_ID : CLOCK_PROCESS_CPUTIME_ID;
		struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGPROF };
		struct itimerspec its = { .it_value = { .tv_sec = 1000 } };

		if (timer_create(clock, &sev, &timer) || timer_settime(timer, 0, &its, NULL)) {
			perror("cputimer: timer_create");
			return 1;
		}
		spin_until(start + armed);
		timer_delete(timer);
	} else {
		usage();
	}
	spin_until(start + duration);
	return 0;
}
