// SPDX-License-Identifier: GPL-2.0
/*
 * rusage - run a command and say what it cost, for the benchmarks.
 *
 * usage: rusage COMMAND [ARGS...]
 *
 * On stderr, after the command ends: "rusage: start_ns=S wall_ns=W
 * user_ns=U sys_ns=Y maxrss_kb=M status=X".  S is CLOCK_MONOTONIC (the
 * trace clock tickstat uses) just before the command starts; U and Y
 * include the children it waited for (trace-cmd's per-CPU readers), M is
 * the largest resident set among them.  The exit status is the command's.
 *
 * Around the command, rusage executes the markers of tests/bench/insncount.c
 * (tag 0x71c50061 before the fork, 0x71c50062 after the wait): with that
 * QEMU plugin loaded, the guest instructions its vCPU ran meanwhile, which
 * under TCG measure the work where CPU time does not (tests/bench/scale).
 * Without the plugin they are NOPs.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000ULL + t.tv_nsec;
}

/* "nopl TAG(%rax)": a NOP to the CPU, a mark to tests/bench/insncount.c */
static inline void insncount_mark(unsigned int tag)
{
	asm volatile(".byte 0x0f, 0x1f, 0x80\n\t.long %c0" : : "i" (tag) : "memory");
}

static uint64_t tv_ns(struct timeval tv)
{
	return tv.tv_sec * 1000000000ULL + tv.tv_usec * 1000ULL;
}

int main(int argc, char **argv)
{
	struct rusage ru;
	uint64_t start;
	int status;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: rusage COMMAND [ARGS...]\n");
		return 2;
	}
	start = mono_ns();
	insncount_mark(0x71c50061);
	pid = fork();
	if (pid < 0) {
		perror("rusage: fork");
		return 2;
	}
	if (!pid) {
		execvp(argv[1], argv + 1);
		perror("rusage: exec");
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("rusage: wait4");
		return 2;
	}
	insncount_mark(0x71c50062);
	fprintf(stderr, "rusage: start_ns=%llu wall_ns=%llu user_ns=%llu sys_ns=%llu maxrss_kb=%ld status=%d\n",
		(unsigned long long)start, (unsigned long long)(mono_ns() - start),
		(unsigned long long)tv_ns(ru.ru_utime), (unsigned long long)tv_ns(ru.ru_stime),
		ru.ru_maxrss, WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
