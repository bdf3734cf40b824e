// SPDX-License-Identifier: GPL-2.0
/*
 * depstorm - set and clear tick dependencies from other CPUs, again and
 * again, while threads of this process run on the nohz_full CPUs.
 *
 * usage: depstorm [-d SECONDS] CPU...
 *
 * One thread spins on each CPU given, so each takes the interrupts that
 * make it decide about its tick.  The main thread, on CPU 0, alternates:
 *   - open and close a frequency-mode perf event: the global PERF_EVENTS
 *     dependency is set (every nohz_full CPU is kicked) and cleared again;
 *   - arm and disarm a process-wide ITIMER_PROF: the process-scope
 *     POSIX_TIMER dependency, which the spinning threads read from their
 *     signal_struct, is set from CPU 0 and cleared by the tick of one of
 *     them.
 * Prints how many times it set each.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include "workload.h"

#define MAX_THREADS	16

static volatile int stop;

static void *spinner(void *arg)
{
	if (pin_to_cpu("depstorm", (int)(long)arg))
		exit(1);
	while (!stop)
		;
	return NULL;
}

static int perf_toggle(void)
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
	if (fd < 0) {
		perror("depstorm: perf_event_open");
		return -1;
	}
	close(fd);
	return 0;
}

static int itimer_toggle(void)
{
	struct itimerval on = { .it_value = { .tv_sec = 100 } }, off = { 0 };

	if (setitimer(ITIMER_PROF, &on, NULL) || setitimer(ITIMER_PROF, &off, NULL)) {
		perror("depstorm: setitimer");
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	pthread_t threads[MAX_THREADS];
	long perf = 0, itimer = 0;
	double seconds = 10, end;
	int opt, n = 0;

	while ((opt = getopt(argc, argv, "d:")) != -1) {
		if (opt != 'd') {
			fprintf(stderr, "usage: depstorm [-d SECONDS] CPU...\n");
			return 2;
		}
		seconds = atof(optarg);
	}
	if (optind == argc || argc - optind > MAX_THREADS) {
		fprintf(stderr, "usage: depstorm [-d SECONDS] CPU... (1 to %d CPUs)\n",
			MAX_THREADS);
		return 2;
	}
	/* a timer that fires by mistake must not kill us */
	signal(SIGPROF, SIG_IGN);
	if (pin_to_cpu("depstorm", 0))
		return 1;
	for (; optind < argc; optind++, n++)
		if (pthread_create(&threads[n], NULL, spinner, (void *)atol(argv[optind])))
			return 1;
	end = now() + seconds;
	while (now() < end) {
		if (perf_toggle() || itimer_toggle())
			break;
		perf++;
		itimer++;
	}
	stop = 1;
	while (n--)
		pthread_join(threads[n], NULL);
	printf("depstorm: %ld perf toggles, %ld itimer toggles in %.1f s\n", perf, itimer,
	       seconds);
	return now() < end ? 1 : 0;
}
