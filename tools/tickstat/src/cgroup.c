// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup.c - a task's cgroup CPU quota.
 *
 * Since Linux 6.6 a task whose CFS bandwidth is limited keeps the tick
 * (sched_can_stop_tick(): cfs_task_bw_constrained(), which looks at the
 * task's group and its ancestors' hierarchical quota), so a lone task
 * under a cpu.max quota shows as SCHED.  The recorder reads the quota of
 * the tasks that ran on the monitored CPUs at the end, for the report.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup.h"

/* The task's cgroup v2 path ("0::/path"), or -1 (exited, cgroup v1 only). */
static int v2_path(const char *root, int pid, char *path, size_t len)
{
	char file[PATH_MAX], line[PATH_MAX + 8];
	FILE *f;
	int found = -1;

	snprintf(file, sizeof(file), "%s/proc/%d/cgroup", root, pid);
	f = fopen(file, "r");
	if (!f)
		return -1;
	while (found && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::/", 4))
			continue;
		line[strcspn(line, "\n")] = '\0';
		if (strlen(line + 3) < len) {
			snprintf(path, len, "%s", line + 3);
			found = 0;
		}
	}
	fclose(f);
	return found;
}

/* cpu.max of one cgroup: 1 with a quota, 0 "max", -1 no such file */
static int read_cpu_max(const char *root, const char *path, int64_t *quota_us,
			uint64_t *period_us)
{
	char file[2 * PATH_MAX], text[64];
	unsigned long long q, p;
	FILE *f;
	int n;

	n = snprintf(file, sizeof(file), "%s/sys/fs/cgroup%s/cpu.max", root, path);
	if (n < 0 || (size_t)n >= sizeof(file))
		return -1;
	f = fopen(file, "r");
	if (!f)
		return -1;
	n = fgets(text, sizeof(text), f) ? 0 : -1;
	fclose(f);
	if (n)
		return -1;
	if (sscanf(text, "max %llu", &p) == 1)
		return 0;
	if (sscanf(text, "%llu %llu", &q, &p) != 2 || !p || q > INT64_MAX)
		return -1;
	*quota_us = (int64_t)q;
	*period_us = p;
	return 1;
}

/*
 * ts_cgroup_cpu_max - the quota that limits pid's CPU bandwidth: its
 * cgroup's cpu.max, or the nearest ancestor's that has one.  quota_us -1:
 * none ("max" all the way up, or no cpu controller there).  root is
 * prepended to /proc and /sys/fs/cgroup ("" for the live system).
 * Returns 0, or -1 when it cannot be told (no cgroup v2, the task gone).
 */
int ts_cgroup_cpu_max(const char *root, int pid, int64_t *quota_us, uint64_t *period_us)
{
	char path[PATH_MAX], mounted[PATH_MAX];
	FILE *f;

	snprintf(mounted, sizeof(mounted), "%s/sys/fs/cgroup/cgroup.controllers", root);
	f = fopen(mounted, "r");
	if (!f)
		return -1;
	fclose(f);
	if (v2_path(root, pid, path, sizeof(path)))
		return -1;
	*quota_us = -1;
	*period_us = 0;
	/* from the task's group up to the root's child: the root has no cpu.max */
	while (strcmp(path, "/") && path[0]) {
		char *slash;

		if (read_cpu_max(root, path, quota_us, period_us) == 1)
			return 0;
		slash = strrchr(path, '/');
		if (!slash)
			break;
		*slash = '\0';
	}
	*quota_us = -1;
	*period_us = 0;
	return 0;
}
