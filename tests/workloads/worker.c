// SPDX-License-Identifier: GPL-2.0
/*
 * worker - the DPDK pattern: a worker thread spins on a chosen CPU while
 * the main thread sleeps in pthread_join().
 *
 * usage: worker -c CPU -d SECONDS
 *
 * On a nohz_full CPU the tick stops soon after the worker starts, and then
 * nothing on that CPU emits a tick event: only the state of the worker
 * thread (not of the process's main thread) tells that the CPU is busy.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "workload.h"

static int cpu = -1;
static double seconds = 1;

static void *work(void *arg)
{
	(void)arg;
	if (pin_to_cpu("worker", cpu))
		exit(1);
	spin_until(now() + seconds);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	int opt;

	while ((opt = getopt(argc, argv, "c:d:h")) != -1) {
		switch (opt) {
		case 'c':
			cpu = atoi(optarg);
			break;
		case 'd':
			seconds = atof(optarg);
			break;
		default:
			fprintf(opt == 'h' ? stdout : stderr, "usage: worker -c CPU -d SECONDS\n");
			return opt == 'h' ? 0 : 1;
		}
	}
	if (cpu < 0 || seconds <= 0) {
		fprintf(stderr, "usage: worker -c CPU -d SECONDS\n");
		return 1;
	}
	if (pthread_create(&t, NULL, work, NULL)) {
		perror("worker: pthread_create");
		return 1;
	}
	pthread_join(t, NULL);
	return 0;
}
