// SPDX-License-Identifier: GPL-2.0
/*
 * churn - a steady rate of wakeups on a range of CPUs, among many idle
 * threads, for the scale benchmark (tests/bench/scale).
 *
 * usage: churn -c FIRST-LAST [-r HZ] [-d SECONDS] [-t THREADS]
 *
 * On each CPU of the range a thread pinned there sleeps to the next 1/HZ
 * boundary (clock_nanosleep to an absolute time: no drift) and wakes: each
 * wakeup is two context switches, an hrtimer expiry and the idle loop's
 * tick decisions on that CPU, and nothing on the others.  THREADS more
 * threads block on a pipe that is never written, so that the task table is
 * as big as a server's (their stacks are 16 KiB).  At the end it says how
 * many wakeups there were: in all, and the fewest and most on one CPU.
 * SIGTERM ends it early, with the same summary (the benchmark ends it when
 * the recorder it runs beside has ended).
 */
#define _GNU_SOURCE
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "workload.h"

static int first = -1, last = -1, rate = 100, idle_threads;
static double seconds = 1;
static int never[2];		/* the idle threads read it; nobody writes */
static volatile sig_atomic_t stopping;	/* SIGTERM */

static void on_term(int sig)
{
	(void)sig;
	stopping = 1;
}

struct waker {
	pthread_t thread;
	int cpu;
	long wakeups;
};

static void *wake_up_often(void *arg)
{
	struct waker *w = arg;
	struct timespec t;
	long period = 1000000000L / rate;
	double end;

	if (pin_to_cpu("churn", w->cpu))
		exit(1);
	clock_gettime(CLOCK_MONOTONIC, &t);
	end = t.tv_sec + t.tv_nsec / 1e9 + seconds;
	for (;;) {
		t.tv_nsec += period;
		while (t.tv_nsec >= 1000000000L) {
			t.tv_nsec -= 1000000000L;
			t.tv_sec++;
		}
		if (stopping || t.tv_sec + t.tv_nsec / 1e9 >= end)
			return NULL;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
		w->wakeups++;
	}
}

static void *block(void *arg)
{
	char c;

	(void)arg;
	while (read(never[0], &c, 1) < 0)
		;
	return NULL;
}

static void usage(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: churn -c FIRST-LAST [-r HZ] [-d SECONDS] [-t THREADS]\n"
		"  -c FIRST-LAST  the CPUs that wake up (a thread pinned on each)\n"
		"  -r HZ          wakeups a second on each (default 100)\n"
		"  -d SECONDS     how long (default 1)\n"
		"  -t THREADS     idle threads besides, blocked all along (default 0)\n");
	exit(status);
}

int main(int argc, char **argv)
{
	long total = 0, fewest = LONG_MAX, most = 0;
	struct waker *wakers;
	pthread_attr_t small;
	pthread_t idle;
	int opt, n;

	while ((opt = getopt(argc, argv, "c:r:d:t:h")) != -1) {
		if (opt == 'c' && sscanf(optarg, "%d-%d", &first, &last) == 2)
			continue;
		else if (opt == 'r')
			rate = atoi(optarg);
		else if (opt == 'd')
			seconds = atof(optarg);
		else if (opt == 't')
			idle_threads = atoi(optarg);
		else
			usage(opt == 'h' ? 0 : 2);
	}
	if (first < 0 || last < first || rate <= 0 || rate > 100000 || seconds <= 0 ||
	    idle_threads < 0 || optind != argc)
		usage(2);
	signal(SIGTERM, on_term);
	if (pipe(never)) {
		perror("churn: pipe");
		return 1;
	}
	pthread_attr_init(&small);
	if (pthread_attr_setstacksize(&small, 16384)) {
		fprintf(stderr, "churn: cannot make 16 KiB stacks\n");
		return 1;
	}
	for (int i = 0; i < idle_threads; i++) {
		if (pthread_create(&idle, &small, block, NULL)) {
			fprintf(stderr, "churn: cannot start idle thread %d\n", i + 1);
			return 1;
		}
	}
	n = last - first + 1;
	wakers = calloc(n, sizeof(*wakers));
	if (!wakers)
		return 1;
	for (int i = 0; i < n; i++) {
		wakers[i].cpu = first + i;
		if (pthread_create(&wakers[i].thread, &small, wake_up_often, &wakers[i])) {
			fprintf(stderr, "churn: cannot start the thread of CPU %d\n", first + i);
			return 1;
		}
	}
	for (int i = 0; i < n; i++) {
		pthread_join(wakers[i].thread, NULL);
		total += wakers[i].wakeups;
		if (wakers[i].wakeups < fewest)
			fewest = wakers[i].wakeups;
		if (wakers[i].wakeups > most)
			most = wakers[i].wakeups;
	}
	printf("churn: %ld wakeups on %d CPUs (%ld to %ld each), %d idle threads\n", total, n,
	       fewest, most, idle_threads);
	return 0;
}
