// SPDX-License-Identifier: GPL-2.0
/*
 * depstorm - set and clear tick dependencies from other CPUs, again and
 * again, while threads of this process run on the nohz_full CPUs.
 *
 * usage: depstorm [-d SECONDS] [-i MICROSECONDS] CPU...
 *
 * One thread spins on each CPU given.  With -i, each also has a timer that
 * interrupts it every MICROSECONDS (a CLOCK_MONOTONIC POSIX timer, which
 * sets no tick dependency), so its CPU decides about its tick that often.
 * The main thread, on CPU 0, keeps opening and closing a frequency-mode
 * perf event: the global PERF_EVENTS dependency is set (every nohz_full
 * CPU is kicked) and cleared again.  Each time it also arms and disarms a
 * process-wide ITIMER_PROF: the process-scope POSIX_TIMER dependency,
 * which the spinning threads read from their signal_struct, is set from
 * CPU 0 and cleared by the tick of one of them.  (Opening a perf event
 * patches the kernel's jump labels, so the pair takes milliseconds under
 * emulation.)
 * Prints how many times it set each.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/time.h>
#include <unistd.h>

#include "workload.h"

#define MAX_THREADS	16

static volatile int stop;
static long interval_us;

static void on_tick(int sig)
{
	(void)sig;
}

/* A timer that interrupts the calling thread every interval_us. */
static int thread_timer(void)
{
	struct sigevent sev = { .sigev_notify = SIGEV_THREAD_ID, .sigev_signo = SIGRTMIN };
	struct itimerspec its = { .it_value = { .tv_nsec = interval_us * 1000 },
				  .it_interval = { .tv_nsec = interval_us * 1000 } };
	timer_t timer;

	sev._sigev_un._tid = gettid();	/* glibc 2.36 names no macro for it */
	if (timer_create(CLOCK_MONOTONIC, &sev, &timer) || timer_settime(timer, 0, &its, NULL)) {
		perror("depstorm: timer");
		return -1;
	}
	return 0;
}

static void *spinner(void *arg)
{
	if (pin_to_cpu("depstorm", (int)(long)arg))
		exit(1);
	if (interval_us && thread_timer())
		exit(1);
	while (!stop)
		;
	return NULL;
}

static int perf_toggle(void)
{
	int fd = open_freq_perf_event("depstorm");

	if (fd < 0)
		return -1;
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

	while ((opt = getopt(argc, argv, "d:i:")) != -1) {
		if (opt == 'd') {
			seconds = atof(optarg);
		} else if (opt == 'i') {
			interval_us = atol(optarg);
		} else {
			fprintf(stderr, "usage: depstorm [-d SECONDS] [-i MICROSECONDS] CPU...\n");
			return 2;
		}
	}
	if (optind == argc || argc - optind > MAX_THREADS || interval_us < 0 ||
	    interval_us >= 1000000) {
		fprintf(stderr, "usage: depstorm [-d SECONDS] [-i MICROSECONDS] CPU... "
			"(1 to %d CPUs, under 1 s)\n", MAX_THREADS);
		return 2;
	}
	/* an ITIMER_PROF that fires by mistake must not kill us */
	signal(SIGPROF, SIG_IGN);
	signal(SIGRTMIN, on_tick);
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
