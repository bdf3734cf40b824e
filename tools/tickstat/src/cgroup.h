/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroup.h - a task's cgroup CPU quota (cgroup v2 cpu.max), as the kernel
 * applies it: the innermost limit on the task's cgroup path.  One reader
 * for the recorder (cgroup.c) and tickstat doctor (audit_noise.c).
 */
#ifndef TICKSTAT_CGROUP_H
#define TICKSTAT_CGROUP_H

#include <stddef.h>
#include <stdint.h>

/*
 * How the reader reads a small file, named as on the system (/proc/...,
 * /sys/fs/cgroup/...): the whole of it into buf, NUL-ended.  Returns its
 * length, or -1 when it cannot be read.  The recorder's reads the live
 * system; the audit's prefixes its root and keeps evidence.
 */
typedef int (*ts_cgroup_read_fn)(void *ctx, const char *file, char *buf, size_t len);

/* The cpu.max that limits a task, and where it was read. */
struct ts_cpu_max {
	int64_t quota_us;	/* -1: none ("max" all the way up) */
	uint64_t period_us;	/* 0 with none */
	char cgroup[1024];	/* the cgroup whose cpu.max it is ("/system.slice") */
	char file[1100];		/* that cpu.max, named as on the system */
	char value[64];		/* its line as the kernel wrote it ("50000 100000") */
};

int ts_cgroup_find_cpu_max(const char *task_cgroup_file, ts_cgroup_read_fn read, void *ctx,
			   struct ts_cpu_max *m);
int ts_cgroup_cpu_max(const char *root, int pid, int64_t *quota_us, uint64_t *period_us);

#endif
