// SPDX-License-Identifier: GPL-2.0
/*
 * ipi - send a known number of IPIs to a busy CPU: a thread pinned there
 * spins, and the main thread (wherever it runs: not on that CPU) sends it,
 * N times each, SPACING apart:
 *
 *  - membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED): the kernel runs a
 *    function on every other CPU running a thread of the process, the
 *    spinner's: a call function IPI (CAL in /proc/interrupts; a single
 *    target goes as call_function_single);
 *  - a signal (SIGUSR1, with a handler) to the spinner: the kernel kicks
 *    the CPU running it (kick_process()) with a reschedule IPI (RES).
 *
 * The spacing lets each IPI be taken before the next, and each signal is
 * handled before the next is sent (a pending signal is not sent again).
 * Prints how many of each it made and the handler saw.
 *
 * usage: ipi -c CPU [-n N] [-i MILLISECONDS]
 */
#define _GNU_SOURCE
#include <linux/membarrier.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "workload.h"

static atomic_int stop, ready, handled;
static atomic_int spinner_tid;
static int cpu = -1;

static void on_usr1(int sig)
{
	(void)sig;
	atomic_fetch_add(&handled, 1);
}

static void *spinner(void *arg)
{
	(void)arg;
	if (pin_to_cpu("ipi", cpu))
		exit(1);
	atomic_store(&spinner_tid, (int)syscall(SYS_gettid));
	atomic_store(&ready, 1);
	while (!atomic_load(&stop))
		;
	return NULL;
}

static int membarrier(int cmd)
{
	return (int)syscall(__NR_membarrier, cmd, 0, 0);
}

/* sleep_ms - sleep that long, resumed when a signal cuts it short */
static void sleep_ms(double ms)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)(ms * 1e6) % 1000000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int main(int argc, char **argv)
{
	int n = 100, opt, barriers = 0, signals = 0;
	double spacing = 5;
	struct sigaction sa = { .sa_handler = on_usr1 };
	sigset_t block;
	pthread_t th;

	while ((opt = getopt(argc, argv, "c:n:i:")) != -1) {
		if (opt == 'c') {
			cpu = atoi(optarg);
		} else if (opt == 'n') {
			n = atoi(optarg);
		} else if (opt == 'i') {
			spacing = atof(optarg);
		} else {
			fprintf(stderr, "usage: ipi -c CPU [-n N] [-i MILLISECONDS]\n");
			return 2;
		}
	}
	if (cpu < 0 || n < 0 || spacing <= 0) {
		fprintf(stderr, "ipi: -c CPU is required; N >= 0, spacing > 0\n");
		return 2;
	}
	if (sched_getcpu() == cpu) {
		fprintf(stderr, "ipi: run it on another CPU than %d (taskset)\n", cpu);
		return 2;
	}
	if (membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED)) {
		fprintf(stderr, "ipi: membarrier: %s\n", strerror(errno));
		return 1;
	}
	sigaction(SIGUSR1, &sa, NULL);
	/* only the spinner takes the signal: the sender's sleeps stay whole */
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	if (pthread_create(&th, NULL, spinner, NULL))
		return 1;
	pthread_sigmask(SIG_BLOCK, &block, NULL);
	while (!atomic_load(&ready))
		sleep_ms(1);
	sleep_ms(20);		/* the spinner alone on its CPU: its tick stops */
	for (int i = 0; i < n; i++) {
		if (!membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED))
			barriers++;
		sleep_ms(spacing);
		if (!syscall(SYS_tgkill, getpid(), atomic_load(&spinner_tid), SIGUSR1))
			signals++;
		sleep_ms(spacing);
		/* taken before the next: a signal still pending is not sent again */
		for (int w = 0; w < 1000 && atomic_load(&handled) < signals; w++)
			sleep_ms(1);
	}
	atomic_store(&stop, 1);
	pthread_join(th, NULL);
	printf("ipi: %d membarrier, %d signals to CPU %d, %d handled\n", barriers, signals, cpu,
	       atomic_load(&handled));
	return barriers == n && signals == n ? 0 : 1;
}
