// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup.c - a task's cgroup CPU quota.
 *
 * Since Linux 6.6 a task whose CFS bandwidth is limited keeps the tick
 * (sched_can_stop_tick(): cfs_task_bw_constrained(), which looks at the
 * task's group and its ancestors' hierarchical quota), so a lone task
 * under a cpu.max quota shows as SCHED.  The recorder reads the quota of
 * the tasks that ran on the monitored CPUs, for the report; tickstat
 * doctor reads it for the tasks allowed on isolated CPUs.  Both read it
 * here, through their own file reader.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup.h"

/* The cgroup v2 path in a /proc/PID/cgroup text ("0::/path"), or -1 (cgroup v1 only). */
static int v2_path(const char *text, char *path, size_t len)
{
	for (const char *line = text; line; line = strchr(line, '\n')) {
		size_t n;

		if (*line == '\n')
			line++;
		if (strncmp(line, "0::/", 4))
			continue;
		n = strcspn(line + 3, "\n");
		if (n >= len)
			return -1;
		memcpy(path, line + 3, n);
		path[n] = '\0';
		return 0;
	}
	return -1;
}

/* cpu.max of one cgroup: 1 with a quota, 0 "max" (or unreadable, malformed) */
static int read_cpu_max(ts_cgroup_read_fn read, void *ctx, const char *path,
			struct ts_cpu_max *m)
{
	char file[sizeof(m->file)], text[64];
	unsigned long long q, p;
	int n;

	n = snprintf(file, sizeof(file), "/sys/fs/cgroup%s/cpu.max", path);
	if (n < 0 || (size_t)n >= sizeof(file) || read(ctx, file, text, sizeof(text)) < 0)
		return 0;
	text[strcspn(text, "\n")] = '\0';
	if (sscanf(text, "%llu %llu", &q, &p) != 2 || !p || q > INT64_MAX)
		return 0;
	m->quota_us = (int64_t)q;
	m->period_us = p;
	snprintf(m->cgroup, sizeof(m->cgroup), "%s", path);
	snprintf(m->file, sizeof(m->file), "%s", file);
	snprintf(m->value, sizeof(m->value), "%s", text);
	return 1;
}

/*
 * ts_cgroup_find_cpu_max - the quota that limits a task's CPU bandwidth:
 * its cgroup's cpu.max, or the nearest ancestor's that has one, from the
 * task's cgroup file (/proc/PID/cgroup, or a thread's).  Returns 1 with m
 * filled, 0 with none (m->quota_us -1), -1 when it cannot be told (the
 * file unread, no cgroup v2 line).  A cgroup path deeper than m->cgroup
 * holds is unknown.  O(depth of the path) reads.
 */
int ts_cgroup_find_cpu_max(const char *task_cgroup_file, ts_cgroup_read_fn read, void *ctx,
			   struct ts_cpu_max *m)
{
	char text[4096], path[sizeof(m->cgroup)];

	memset(m, 0, sizeof(*m));
	m->quota_us = -1;
	if (read(ctx, task_cgroup_file, text, sizeof(text)) < 0 ||
	    v2_path(text, path, sizeof(path)))
		return -1;
	/* from the task's group up to the root's child: the root has no cpu.max */
	while (strcmp(path, "/") && path[0]) {
		char *slash;

		if (read_cpu_max(read, ctx, path, m))
			return 1;
		slash = strrchr(path, '/');
		if (!slash)
			break;
		*slash = '\0';
	}
	return 0;
}

/* The recorder's reader: root (its prefix: "" for the live system) + file. */
static int read_under_root(void *ctx, const char *file, char *buf, size_t len)
{
	char path[PATH_MAX];
	size_t n;
	FILE *f;
	int n_path;

	n_path = snprintf(path, sizeof(path), "%s%s", (const char *)ctx, file);
	if (n_path < 0 || (size_t)n_path >= sizeof(path))
		return -1;
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	if (ferror(f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[n] = '\0';
	return (int)n;
}

/*
 * ts_cgroup_cpu_max - the quota that limits pid's CPU bandwidth (see
 * ts_cgroup_find_cpu_max).  quota_us -1: none ("max" all the way up, or no
 * cpu controller there).  root is prepended to /proc and /sys/fs/cgroup
 * ("" for the live system).  Returns 0, or -1 when it cannot be told (no
 * cgroup v2 mounted, the task gone).
 */
int ts_cgroup_cpu_max(const char *root, int pid, int64_t *quota_us, uint64_t *period_us)
{
	char file[64], buf[256];
	struct ts_cpu_max m;

	if (read_under_root((void *)root, "/sys/fs/cgroup/cgroup.controllers", buf,
			    sizeof(buf)) < 0)
		return -1;
	snprintf(file, sizeof(file), "/proc/%d/cgroup", pid);
	if (ts_cgroup_find_cpu_max(file, read_under_root, (void *)root, &m) < 0)
		return -1;
	*quota_us = m.quota_us;
	*period_us = m.period_us;
	return 0;
}
