/* SPDX-License-Identifier: GPL-2.0 */
/*
 * util.h - messages, CPU lists and small helpers shared by the commands.
 */
#ifndef TICKSTAT_UTIL_H
#define TICKSTAT_UTIL_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

/* Exit codes: rtla's convention. */
enum ts_exit {
	TS_EXIT_OK = 0,
	TS_EXIT_ERROR = 1,
	TS_EXIT_FAILED = 2,	/* check: a threshold was not met */
};

extern int ts_verbose;

void err_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void info_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void debug_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define TS_CPUSET_WORDS	16	/* 1024 CPUs */
struct ts_cpuset {
	uint64_t bits[TS_CPUSET_WORDS];
};

/*
 * The longest list of TS_CPUSET_WORDS * 64 CPUs in the kernel's notation,
 * with its NUL: an element ("1000-1001,") takes at most 10 characters and
 * covers at least 3 CPUs with the gap after it, so 1024 CPUs take at most
 * 3414.
 */
#define TS_CPUSET_TEXT_MAX	4096

int ts_cpuset_parse(struct ts_cpuset *set, const char *list);
int ts_opt_given_value(const char *arg);
size_t ts_cpuset_format(const struct ts_cpuset *set, char *buf, size_t len);
int ts_cpuset_format_from(const struct ts_cpuset *set, int from, char *buf, size_t len);
int ts_cpuset_has(const struct ts_cpuset *set, int cpu);
void ts_cpuset_add(struct ts_cpuset *set, int cpu);
int ts_cpuset_empty(const struct ts_cpuset *set);
int ts_cpuset_count(const struct ts_cpuset *set);
int ts_cpuset_max(const struct ts_cpuset *set);

/*
 * A pid -> index map for a table of at most TS_PIDMAP_MAX entries (the
 * cgroup quotas of co-runners, looked up at every switch): open addressing
 * at no more than half load, so a lookup or an insertion probes O(1) slots
 * expected, where a scan of the table was O(n).  An all-zero map is empty;
 * pids are > 0.  Entries are never removed.
 */
#define TS_PIDMAP_MAX	512
#define TS_PIDMAP_SLOTS	(2 * TS_PIDMAP_MAX)	/* a power of two */
struct ts_pidmap {
	int nr;
	struct { int pid; int idx; } slot[TS_PIDMAP_SLOTS];
};

int ts_pidmap_find(const struct ts_pidmap *m, int pid);
int ts_pidmap_insert(struct ts_pidmap *m, int pid, int *added);

int ts_parse_u64(const char *s, uint64_t *val);
int ts_parse_dec(const char *s, uint64_t *val);
int ts_parse_double(const char *s, double *val);
int ts_parse_duration(const char *s, uint64_t *ns);
void ts_json_pretty(FILE *f, const char *json, size_t len);
uint64_t ts_now_ns(void);
int ts_is_boot_id(const char *s);

#endif
