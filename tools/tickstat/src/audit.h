/* SPDX-License-Identifier: GPL-2.0 */
/*
 * audit.h - tickstat doctor's audit of a host's CPU isolation.
 *
 * The audit reads what the running system exposes under a root prefix
 * (--root, "/" by default, a captured tree in the tests) and turns it into
 * findings.  It never writes.  A finding is plain data: the kind (a fixed
 * table: id, class, severity, kernel versions, cookbook anchor), the CPUs,
 * the evidence (file and value read), the remedy, and the keys a recording
 * can be joined on (an IRQ number, a task), so that a later step can store
 * it in a trace.dat and mark it seen with the count of what happened.
 */
#ifndef TICKSTAT_AUDIT_H
#define TICKSTAT_AUDIT_H

#include <stdint.h>
#include <stdio.h>

#include "util.h"

#define TS_DOCTOR_SCHEMA	"tickstat-doctor/1"

enum ts_severity { TS_SEV_INFO, TS_SEV_WARNING, TS_SEV_ERROR };

/* a kernel version as one number: KVER(6, 12, 0) */
#define KVER(a, b, c)	(((a) << 16) | ((b) << 8) | (c))

/* What every finding of an id shares: docs/cookbook.md has an anchor per id. */
struct ts_finding_kind {
	const char *id;			/* "irq-on-isolated": the cookbook anchor too */
	const char *class;		/* the cookbook section: "irq", "rcu", ... */
	enum ts_severity severity;
	unsigned int min_kver;		/* applies from this version on; 0: any */
	unsigned int max_kver;		/* applies before this version; 0: any */
	const char *kernels;		/* the versions in words: "all", "6.6+" */
	const char *title;		/* one line, for JUnit and the skip notes */
};

#define TS_MAX_EVIDENCE	3

struct ts_evidence {
	char file[160];			/* as under the root: "/proc/irq/4/smp_affinity_list" */
	char value[160];		/* what was read, one line, cut to fit */
};

/* What a recording can confirm a finding by: -1 and "" when not given. */
struct ts_finding_key {
	int irq;			/* an IRQ that may fire on the CPUs */
	int pid;			/* a task allowed on them */
	char name[64];			/* the IRQ's action names, or the task's comm */
	char cgroup[160];		/* a cgroup with a quota */
};

struct ts_finding {
	const struct ts_finding_kind *kind;
	struct ts_cpuset cpus;		/* the CPUs it concerns; empty: the whole host */
	char message[256];
	char remedy[256];
	struct ts_evidence ev[TS_MAX_EVIDENCE];
	int nr_ev;
	struct ts_finding_key key;
	int64_t seen;			/* what a recording saw; -1: not joined, or it cannot tell */
	const char *seen_unit;		/* "events" or "ns"; NULL while seen is -1 */
	char seen_how[160];		/* the words: what was seen, or why it cannot be; "" not joined */
};

/* A check that does not apply to this kernel, or could not be made. */
struct ts_audit_note {
	const struct ts_finding_kind *kind;
	char text[200];
};

struct ts_audit_unread {
	char file[160];
	char error[64];
};

#define TS_AUDIT_MAX_NOTES	64
#define TS_AUDIT_MAX_UNREAD	64

struct ts_audit {
	const char *root;		/* no trailing slash; "" for "/" */
	char rootbuf[512];
	char release[128];		/* /proc/sys/kernel/osrelease */
	unsigned int kver;		/* 0: unknown */
	char cmdline[4096];
	int x86;			/* /proc/cpuinfo has x86 flags */

	/* CPU sets: as the kernel took them, else as the command line asked */
	struct ts_cpuset online;
	struct ts_cpuset nohz_full;
	struct ts_cpuset isolated;	/* /sys/devices/system/cpu/isolated (isolcpus domain) */
	struct ts_cpuset isol;		/* both: the CPUs the noise checks look at */
	struct ts_cpuset housekeeping;	/* online and not nohz_full */
	int have_online;

	char *config;			/* the kernel config, NULL when unread */
	char config_file[160];

	struct ts_finding *f;
	int nr, alloc;
	struct ts_audit_note notes[TS_AUDIT_MAX_NOTES];
	int nr_notes;
	struct ts_audit_unread unread[TS_AUDIT_MAX_UNREAD];
	int nr_unread;
	int unread_more;		/* not listed: the list was full */
	int oom;
};

/* reading under the root: TS_READ_OPTIONAL does not list the file as unread */
#define TS_READ_OPTIONAL	1

int ts_audit_read(struct ts_audit *a, const char *file, char *buf, size_t len, int flags);
int ts_audit_read_line(struct ts_audit *a, const char *file, char *buf, size_t len,
		       int flags);
int ts_audit_read_cpus(struct ts_audit *a, const char *file, struct ts_cpuset *set,
		       char *raw, size_t rawlen, int flags);
int ts_audit_read_mask(struct ts_audit *a, const char *file, struct ts_cpuset *set,
		       char *raw, size_t rawlen, int flags);
int ts_audit_read_long(struct ts_audit *a, const char *file, long *val, char *raw,
		       size_t rawlen);
char *ts_audit_path(const struct ts_audit *a, const char *file, char *buf, size_t len);
void ts_audit_unreadable(struct ts_audit *a, const char *file, int err);

/* the kernel command line and config */
int ts_cmdline_param(const struct ts_audit *a, const char *name, char *val, size_t len);
int ts_cmdline_all(const struct ts_audit *a, const char *name, char *val, size_t len);
int ts_config_value(const struct ts_audit *a, const char *opt, char *val, size_t len);
int ts_config_enabled(const struct ts_audit *a, const char *opt);

/* findings */
const struct ts_finding_kind *ts_finding_kind(const char *id);
int ts_finding_kinds(const struct ts_finding_kind **kinds);
int ts_audit_applies(struct ts_audit *a, const char *id);
struct ts_finding *ts_audit_add(struct ts_audit *a, const char *id,
				const struct ts_cpuset *cpus, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void ts_finding_evidence(struct ts_finding *f, const char *file, const char *value);
void ts_finding_remedy(struct ts_finding *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
const char *ts_severity_name(enum ts_severity s);
int ts_severity_parse(const char *s);
const char *ts_cpus_named(const struct ts_cpuset *set, char *buf, size_t len);
const char *ts_cpus_text(const struct ts_cpuset *set, char *buf, size_t len);

/* the audit: ts_audit_run fills a; returns 0, -1 when it could not audit (said) */
int ts_audit_run(struct ts_audit *a, const char *root);
void ts_audit_free(struct ts_audit *a);
int *ts_audit_order(const struct ts_audit *a);
void ts_audit_count(const struct ts_audit *a, int *by_sev);
int ts_audit_failing(const int *by_sev, int fail_on);

/* the JSON of an audit (schema tickstat-doctor/1), for doctor and the report */
void ts_audit_json(FILE *out, const struct ts_audit *a, const int *idx, int fail_on,
		   const char *indent);

/* the checks, by class (audit_boot.c, audit_noise.c) */
void ts_audit_config(struct ts_audit *a);
void ts_audit_cmdline(struct ts_audit *a);
void ts_audit_housekeeping(struct ts_audit *a);
void ts_audit_rcu(struct ts_audit *a);
void ts_audit_clock(struct ts_audit *a);
void ts_audit_cpuidle(struct ts_audit *a);
void ts_audit_irqs(struct ts_audit *a);
void ts_audit_workqueues(struct ts_audit *a);
void ts_audit_tasks(struct ts_audit *a);
void ts_audit_sysctls(struct ts_audit *a);
void ts_audit_fair_server(struct ts_audit *a);

#endif
