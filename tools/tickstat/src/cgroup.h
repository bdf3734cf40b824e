/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroup.h - a task's cgroup CPU quota (cgroup v2 cpu.max), as the kernel
 * applies it: the innermost limit on the task's cgroup path.
 */
#ifndef TICKSTAT_CGROUP_H
#define TICKSTAT_CGROUP_H

#include <stdint.h>

int ts_cgroup_cpu_max(const char *root, int pid, int64_t *quota_us, uint64_t *period_us);

#endif
