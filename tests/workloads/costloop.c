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
 *   itimer    setitimer(ITIMER_PROF) arms a process-wide CPU timer of 1 s
 *             and disarms it: every arm sets the POSIX_TIMER tick dependency
 *             (tick_nohz_dep_set_signal(), which tickstat's probes see); the
 *             tick clears it later
 * Prints "costloop MODE ITERATIONS NANOSECONDS" (CLOCK_MONOTONIC).
 *
 * The loops are fenced by marker instructions (multi-byte NOPs) for the
 * instruction-counting QEMU plugin tests/bench/insncount.c.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workload.h"

static int64_t ns_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * "nopl TAG(%rax)": a NOP to the CPU, a start (TAG ...1) or stop (TAG ...2)
 * of counting to tests/bench/insncount.c; the middle digits name the loop.
 */
static inline void insncount_mark(unsigned int tag)
{
	/*
	 * "i": the tag is an immediate, so each call must be inlined with a
	 * constant (gcc -O2 does; otherwise the build fails, never the count)
	 */
	asm volatile(".byte 0x0f, 0x1f, 0x80\n\t.long %c0" : : "i" (tag) : "memory");
}

static void syscalls(long n)
{
	insncount_mark(0x71c50011);
	while (n--)
		syscall(SYS_getppid);
	insncount_mark(0x71c50012);
}

static void itimers(long n)
{
	struct itimerval arm = { .it_value = { .tv_sec = 1 } }, disarm = { 0 };

	insncount_mark(0x71c50041);
	while (n--) {
		setitimer(ITIMER_PROF, &arm, NULL);
		setitimer(ITIMER_PROF, &disarm, NULL);
	}
	insncount_mark(0x71c50042);
}

static void mark_start(bool idle)
{
	if (idle)
		insncount_mark(0x71c50031);
	else
		insncount_mark(0x71c50021);
}

static void mark_stop(bool idle)
{
	if (idle)
		insncount_mark(0x71c50032);
	else
		insncount_mark(0x71c50022);
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
		/* CPU2's work counts only when it is another CPU */
		if (read(ab[0], &byte, 1) != 1 || write(ba[1], &byte, 1) != 1)
			_exit(1);
		if (cpu2 >= 0)
			mark_start(true);
		while (read(ab[0], &byte, 1) == 1)
			if (write(ba[1], &byte, 1) != 1)
				_exit(1);
		if (cpu2 >= 0)
			mark_stop(true);
		_exit(0);
	}
	close(ab[0]);
	close(ba[1]);
	/* one round trip first, so that the child runs where it should */
	if (write(ab[1], &byte, 1) != 1 || read(ba[0], &byte, 1) != 1)
		return -1;
	mark_start(cpu2 >= 0);
	*ns = ns_now();
	while (n--)
		if (write(ab[1], &byte, 1) != 1 || read(ba[0], &byte, 1) != 1)
			return -1;
	*ns = ns_now() - *ns;
	mark_stop(cpu2 >= 0);
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
		fprintf(stderr, "usage: costloop syscall|switch|idle|itimer -n N -c CPU [-C CPU2]\n");
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
	} else if (!strcmp(mode, "itimer")) {
		ns = ns_now();
		itimers(n);
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
