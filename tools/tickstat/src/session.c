// SPDX-License-Identifier: GPL-2.0
/*
 * session.c - a recording session: tick events from this machine's kernel,
 * without causing what we measure.
 *
 * The session works in a private tracing instance that it destroys on
 * every exit path, so the system's tracing state is left as found.  Its
 * owner pins itself to CPUs it does not monitor and uses no perf events (a
 * frequency-mode perf event would set PERF_EVENTS on every nohz_full CPU);
 * the session reads the per-CPU ring buffers with non-blocking reads when
 * polled: a reader that never sleeps on a buffer never makes the kernel
 * queue wake-up irq_work on the CPU that writes it.  Pages go to the same
 * stream (stream.c) that reads files, so a live report and a file's report
 * are the same code on the same bytes.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include <zlib.h>

#include "cgroup.h"
#include "datfile.h"
#include "datwrite.h"
#include "docrec.h"
#include "filter.h"
#include "ksym.h"
#include "probes.h"
#include "session.h"
#include "stream.h"
#include "timerlist.h"

#define INSTANCE_PREFIX	"tickstat_"

struct optional_event {
	const char *system;
	const char *name;
	int required;
};

static const struct optional_event events[] = {
	{ "timer", "tick_stop", 1 },
	{ "timer", "tick_retain", 0 },
	{ "timer", "tick_restart", 0 },
	{ "timer", "tick_dep_set", 0 },
	{ "timer", "tick_dep_clear", 0 },
	{ "timer", "tick_dep_sched", 0 },	/* series v3 */
	{ "sched", "sched_switch", 0 },
	/* after the tick's own events: its filter follows theirs (filter_tick_timer()) */
	{ "timer", "hrtimer_expire_entry", 0 },
};

#define NR_EVENTS (int)(sizeof(events) / sizeof(events[0]))

/*
 * The causes' events (docs/metrics.md, "Causes"), on the monitored CPUs
 * only: a filter on the CPU (the generic CPU field) keeps the housekeeping
 * CPUs' work, timers and interrupts out of the buffers.  Work queued for a
 * monitored CPU is seen on the CPU that queues it: its filter is on the
 * target (the event's own cpu field).  A timer_list timer too can be armed
 * for a monitored CPU from another (add_timer_on()): timer_start's filter
 * is on the target its flags carry (timer_target_filter()).  An hrtimer is
 * queued on the CPU that arms it: hrtimer_start's filter is on the CPU,
 * and leaves the tick's own out (re-armed at every tick).
 * hrtimer_expire_entry, the tick's event too, is in events[]
 * (filter_tick_timer() widens its filter to the monitored CPUs' expiries).
 */
enum cause_filter {
	ON_CPU,			/* the generic CPU field: where it runs */
	ON_CPU_FIELD,		/* the event's cpu field: the queue's target */
	ON_TIMER_TARGET,	/* the CPU in timer_start's flags */
	ON_CPU_NOT_TICK,	/* the CPU, and a function other than the tick's */
};

struct cause_event {
	const char *system;
	const char *name;
	int type;		/* enum ts_cause_type of an entry or exit, -1 none */
	int arms;		/* the cause type it arms (timer_start, hrtimer_start), -1 none */
	enum cause_filter filter;
};

#define VECTOR_EVENTS(kind)								\
	{ "irq_vectors", kind "_entry", TS_CAUSE_VECTOR, -1, ON_CPU },			\
	{ "irq_vectors", kind "_exit", TS_CAUSE_VECTOR, -1, ON_CPU }

static const struct cause_event cause_events[] = {
	{ "workqueue", "workqueue_execute_start", TS_CAUSE_WORK, -1, ON_CPU },
	{ "workqueue", "workqueue_execute_end", TS_CAUSE_WORK, -1, ON_CPU },
	{ "workqueue", "workqueue_queue_work", -1, -1, ON_CPU_FIELD },
	{ "timer", "timer_expire_entry", TS_CAUSE_TIMER, -1, ON_CPU },
	{ "timer", "timer_expire_exit", TS_CAUSE_TIMER, -1, ON_CPU },
	{ "timer", "hrtimer_expire_exit", TS_CAUSE_HRTIMER, -1, ON_CPU },
	{ "irq", "irq_handler_entry", TS_CAUSE_IRQ, -1, ON_CPU },
	{ "irq", "irq_handler_exit", TS_CAUSE_IRQ, -1, ON_CPU },
	{ "irq", "softirq_entry", TS_CAUSE_SOFTIRQ, -1, ON_CPU },
	{ "irq", "softirq_exit", TS_CAUSE_SOFTIRQ, -1, ON_CPU },
	/* x86 (enum ts_vector): a kernel has those its configuration builds */
	VECTOR_EVENTS("local_timer"),
	VECTOR_EVENTS("reschedule"),
	VECTOR_EVENTS("call_function"),
	VECTOR_EVENTS("call_function_single"),
	VECTOR_EVENTS("irq_work"),
	VECTOR_EVENTS("x86_platform_ipi"),
	VECTOR_EVENTS("spurious_apic"),
	VECTOR_EVENTS("error_apic"),
	VECTOR_EVENTS("thermal_apic"),
	VECTOR_EVENTS("threshold_apic"),
	VECTOR_EVENTS("deferred_error_apic"),
	/* who armed the timers: after the expiries, whose presence they need */
	{ "timer", "timer_start", -1, TS_CAUSE_TIMER, ON_TIMER_TARGET },
	{ "timer", "hrtimer_start", -1, TS_CAUSE_HRTIMER, ON_CPU_NOT_TICK },
};

#define NR_CAUSE_EVENTS (int)(sizeof(cause_events) / sizeof(cause_events[0]))

/* A growable text buffer for the META and END sections. */
struct text {
	char *buf;
	size_t len, cap;
	int oom;		/* an addition failed: buf is NULL, the text lost */
};

static void text_add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void text_add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	char *more;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
		va_end(ap);
		if (n >= 0 && t->len + n < t->cap)
			break;
		more = realloc(t->buf, t->cap * 2 + n + 256);
		if (!more) {
			free(t->buf);
			t->buf = NULL;
			t->len = t->cap = 0;
			t->oom = 1;
			return;
		}
		t->buf = more;
		t->cap = t->cap * 2 + n + 256;
	}
	t->len += n;
}

static int read_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return 0;
}

/*
 * Is tracefs mounted?  Asked before libtracefs, which would mount it
 * itself: a recorder must not leave a mount behind.
 */
static int tracefs_mounted(void)
{
	char line[512], dev[128], dir[256], type[64];
	FILE *f = fopen("/proc/mounts", "r");
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%127s %255s %63s", dev, dir, type) == 3 &&
			!strcmp(type, "tracefs");
	fclose(f);
	return found;
}

/* Monitored CPUs: -C, else nohz_full, else every online CPU. */
static int pick_cpus(const struct ts_session_opts *o, struct ts_cpuset *mon,
		     struct ts_cpuset *online, struct ts_cpuset *full)
{
	char buf[TS_CPUSET_TEXT_MAX];

	if (read_file("/sys/devices/system/cpu/online", buf, sizeof(buf)) ||
	    ts_cpuset_parse(online, buf)) {
		err_msg("cannot read /sys/devices/system/cpu/online\n");
		return -1;
	}
	if (read_file("/sys/devices/system/cpu/nohz_full", buf, sizeof(buf)) ||
	    ts_cpuset_parse(full, buf) || strstr(buf, "null"))
		memset(full, 0, sizeof(*full));
	if (!ts_cpuset_empty(&o->cpus))
		*mon = o->cpus;
	else if (!ts_cpuset_empty(full))
		*mon = *full;
	else
		*mon = *online;
	for (int c = 0; c < TS_CPUSET_WORDS * 64; c++) {
		if (ts_cpuset_has(mon, c) && !ts_cpuset_has(online, c)) {
			err_msg("CPU %d is not online\n", c);
			return -1;
		}
	}
	return 0;
}

/* Pin the recorder to the online CPUs it does not monitor; set gets them. */
static void pin_away(const struct ts_cpuset *mon, cpu_set_t *away)
{
	cpu_set_t online, set;
	int n = 0;

	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(*away), away))
		CPU_ZERO(away);
	if (sched_getaffinity(0, sizeof(online), &online))
		CPU_ZERO(&online);
	for (int c = 0; c < CPU_SETSIZE && c < TS_CPUSET_WORDS * 64; c++) {
		if (CPU_ISSET(c, &online) && !ts_cpuset_has(mon, c)) {
			CPU_SET(c, &set);
			n++;
		}
	}
	if (!n) {
		info_msg("tickstat: warning: every CPU is monitored; the recorder runs on them too\n");
		return;
	}
	if (sched_setaffinity(0, sizeof(set), &set))
		info_msg("tickstat: warning: cannot pin the recorder: %s\n", strerror(errno));
	else
		*away = set;
}

/* Remove instances left by a recorder that was killed with SIGKILL. */
static void remove_stale_instances(void)
{
	char **names = tracefs_instances(INSTANCE_PREFIX);

	for (int i = 0; names && names[i]; i++) {
		int pid = atoi(names[i] + strlen(INSTANCE_PREFIX));
		struct tracefs_instance *inst;

		if (pid > 0 && kill(pid, 0) && errno == ESRCH) {
			inst = tracefs_instance_alloc(NULL, names[i]);
			if (inst) {
				if (tracefs_instance_destroy(inst))
					err_msg("warning: cannot remove the stale tracing instance %s: %m\n",
						names[i]);
				tracefs_instance_free(inst);
			}
		}
	}
	tracefs_list_free(names);
}

/*
 * Each CPU's idle time in /proc/stat (idle and iowait, in USER_HZ), into
 * idle[]: -1 for a CPU it does not list.  Returns 0, or -1 if unreadable.
 */
static int read_idle_times(long long *idle)
{
	long long user, nice, sys, idl, iow;
	char line[512];
	FILE *f;
	int cpu;

	for (int i = 0; i < TS_MAX_CPUS; i++)
		idle[i] = -1;
	f = fopen("/proc/stat", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		/* "cpuN ...", not the sum of them all on "cpu  ..." */
		if (!strncmp(line, "cpu", 3) && isdigit((unsigned char)line[3]) &&
		    sscanf(line, "cpu%d %lld %lld %lld %lld %lld", &cpu, &user, &nice, &sys, &idl,
			   &iow) == 6 && cpu >= 0 && cpu < TS_MAX_CPUS)
			idle[cpu] = idl + iow;
	}
	fclose(f);
	return 0;
}

/*
 * How long the idle times are watched: long enough that a CPU idle all
 * along gains at least one USER_HZ unit (10 ms at the usual 100), whatever
 * the phase of its counter, and that a kernel without dynticks (which
 * counts idle time tick by tick) ticks at least twice, from HZ=100 up.
 */
#define IDLE_WATCH_NS	21000000ULL

/*
 * The tick state of each CPU when recording starts, from /proc/timer_list
 * (.tick_stopped), and whether it runs a task: "initial.CPU=TICK,IDLE "
 * tokens.  A CPU whose idle time in /proc/stat does not grow over
 * IDLE_WATCH_NS ran a task all along; one whose idle time grew was idle,
 * unless it changed state meanwhile, and then its events before the
 * "ready" mark say so and the analysis leaves the snapshot's idle part
 * unused.  With dynticks active (idle or full), the kernel counts an idle
 * CPU's time up to the read, with or without its tick
 * (get_cpu_idle_time_us()); without (HZ_PERIODIC, nohz=off), each tick on
 * an idle CPU adds to it.  So two reads of one file tell every CPU: the
 * cost grows with the CPUs, not with the tasks, where reading every
 * thread's state took 290 ms among 2000 threads in the 8-vCPU guest.  A
 * CPU whose idle task spends the whole watch in softirqs reads as busy.
 */
static void snapshot(struct text *meta, const struct ts_cpuset *online)
{
	long long idle0[TS_MAX_CPUS], idle1[TS_MAX_CPUS];
	int stopped[TS_MAX_CPUS], known;
	uint64_t until;
	FILE *f;

	known = !read_idle_times(idle0);
	until = ts_now_ns() + IDLE_WATCH_NS;
	for (int i = 0; i < TS_MAX_CPUS; i++)
		stopped[i] = -1;
	f = fopen("/proc/timer_list", "r");
	if (f) {
		ts_timer_list_stopped(f, online, stopped);
		fclose(f);
	}
	for (uint64_t t = ts_now_ns(); known && t < until; t = ts_now_ns()) {
		struct timespec rest = { 0, (long)(until - t) };

		nanosleep(&rest, NULL);
	}
	known = known && !read_idle_times(idle1);
	for (int c = 0; c < TS_MAX_CPUS; c++) {
		enum ts_tick_state t = stopped[c] < 0 ? TS_TICK_UNKNOWN :
				       stopped[c] ? TS_TICK_STOPPED : TS_TICK_RUNNING;
		enum ts_idle_state i = TS_IDLE_UNKNOWN;

		if (!ts_cpuset_has(online, c))
			continue;
		if (known && idle0[c] >= 0 && idle1[c] >= 0)
			i = idle1[c] == idle0[c] ? TS_IDLE_BUSY : TS_IDLE_IDLE;
		text_add(meta, "initial.%d=%s,%s ", c, ts_tick_state_name(t), ts_idle_state_name(i));
		debug_msg("tickstat: CPU %d at the start: tick %s, %s\n", c, ts_tick_state_name(t),
			  ts_idle_state_name(i));
	}
}

/* the most pages one splice() moves, and one spool write takes */
#define SPLICE_PAGES	16

struct reader {
	int fd[TS_MAX_CPUS];
	int nr;
	char *page;
	char *batch;			/* SPLICE_PAGES pages, as one splice gave them */
	int page_size;
	int buffer_pages;		/* of each CPU's ring buffer */
	int most_pages;			/* the most one CPU gave at the last drain */
	/* whole pages (ts_session_opts.whole_pages): spliced through a pipe */
	int pipe[2];			/* -1: read() every page */
	uint64_t last_page_ns[TS_MAX_CPUS];	/* when the CPU last gave a page */
	/* with whole pages, the page in the writing is read after this without a page */
	uint64_t quiet_ns;
	/*
	 * The starts of the last two drains that read the CPU's buffer empty
	 * (ts_session_complete_ns)
	 */
	uint64_t last_empty_ns[TS_MAX_CPUS], prev_empty_ns[TS_MAX_CPUS];
};

/* a caller of tick_dep_set and its function ("": none), for ts_session_symbol */
struct caller_name {
	uint64_t addr;
	char name[TS_KSYM_NAME];
};

/*
 * A co-runner's cgroup CPU quota, looked up when it first runs on a
 * monitored CPU, and read again while it runs there (read_quota_again).
 */
struct task_quota {
	int pid;
	int known;		/* 0: it could not be told (the task was gone) */
	int64_t quota;		/* -1: none */
	uint64_t period;
	uint64_t read_ns;	/* when it was read */
};

/*
 * How long after the last read a task that runs on a monitored CPU has its
 * quota read again: a task moved into a cgroup with a quota after it first
 * ran there (cgexec under taskset, a service moved), or whose cgroup's
 * cpu.max changed (systemctl set-property CPUQuota=), would otherwise keep
 * the quota read then.  At most one read a second for each such task.
 */
#define QUOTA_REREAD_NS		1000000000ULL

/* more than a query holds (TS_KSYM_MAX), so that one pass always fits */
#define MAX_NAMED_CALLERS	(2 * TS_KSYM_MAX)

struct ts_session {
	struct ts_analysis *an;
	struct tracefs_instance *inst;
	struct reader rd;
	struct ts_stream s;
	int stream_ok;
	struct ts_datwrite w;
	int writing;
	FILE *out;
	struct ts_ksym_query ksyms;
	struct caller_name *callers;	/* named by ts_session_symbol */
	int nr_callers;
	struct ts_probes probes;	/* on a kernel without the patched events */
	struct ts_cpuset mon, online, nohz;
	cpu_set_t away;
	int present[NR_EVENTS];
	int cause_present[NR_CAUSE_EVENTS];
	int causes;			/* record the causes (--no-causes: 0) */
	int own_ticks_only;		/* ts_session_opts.monitored_ticks_only */
	int own_ticks_filtered;		/* and every own-tick event was filtered so */
	int tick_timer_own;		/* the tick's timer's filter is on those CPUs */
	int no_vector_causes;		/* leave the x86 vectors out (unknown then) */
	struct task_quota quotas[TS_MAX_QUOTAS];
	int nr_quotas;
	struct ts_pidmap quota_map;	/* pid -> quotas[]: O(1) expected per switch */
	uint64_t quotas_dropped;	/* switches to tasks beyond TS_MAX_QUOTAS: quota unknown */
	int quotas_said;		/* the end mark took the quotas: the live count stops */
	uint64_t drained_ns;		/* when the last drain began (read_quota_again) */
	struct text quota_news;		/* quota tokens for the next "quotas" mark */
	int marks_lost;			/* "quotas" marks the trace_marker refused */
	int hrtimer_causes;		/* hrtimer_expire_entry passes the monitored CPUs' */
	char cpu_filter[1024];		/* "CPU" on the monitored CPUs, FIELD for the field */
	int marker_fd;
	char *doctor;			/* the audit's marks, taken before tracing starts */
	char *header_page, *header_event;
	int header_page_len, header_event_len;
	uint64_t start;
	uint32_t end_crc;
	int end_marks;
	int mark_cpu;			/* where the marks go: the start mark's CPU */
	uint64_t end_pages;		/* its pages before the end mark's page */
	struct ts_sum end_pages_sum;
	/*
	 * The pages read while the start marks are written (MARK_KEEP): in
	 * the recording at once, in the analysis only once the ready mark is
	 * applied (the window's start, the probes and the initial states are
	 * set up by then, as a reader of the file finds them)
	 */
	int ready;
	struct early_page {
		int cpu;
		char *page;
	} *early;
	int nr_early, cap_early;
};

/* write_marks' flags: apply each mark to the live stream; a failed write only warns */
#define MARK_APPLY	1
#define MARK_SOFT	2
/*
 * Into the recording at once, with the page the kernel still writes: left
 * in the buffer until that page is full, a mark went with it when the
 * buffer overran first (the start marks of 64 CPUs, the doctor's and the
 * initial states fill more than a 4 KiB buffer; a recorder stopped for
 * 4 s with such buffers lost them every time, and its file could not be
 * read).  The marks a reader cannot do without: the start's.
 */
#define MARK_KEEP	4

/*
 * Write marks of one kind: the tokens (space-separated) in as few marks as
 * fit the kernel's 1 KiB limit.  End and pages marks count towards "done".
 * With MARK_SOFT, a mark that cannot be written is still applied, and the
 * failure is said once (the recording then lacks it).
 */
static int write_marks(struct ts_session *ss, const char *kind, const char *tokens, int flags)
{
	const char *p = tokens;

	do {
		char mark[TS_MARK_MAX + 1];
		int n = snprintf(mark, sizeof(mark), TS_MARK_PREFIX "%s:", kind);
		const char *start;

		while (*p == ' ')
			p++;
		start = p;
		while (*p) {
			size_t len = strcspn(p, " ");

			if (n + 1 + len > TS_MARK_MAX) {
				if (p == start)
					return -1;	/* a token no mark can hold */
				break;
			}
			mark[n++] = ' ';
			memcpy(mark + n, p, len);
			n += len;
			p += len;
			while (*p == ' ')
				p++;
		}
		mark[n] = '\0';
		if (write(ss->marker_fd, mark, n) != n) {
			if (!(flags & MARK_SOFT)) {
				err_msg("cannot write to the instance's trace_marker: %s\n",
					strerror(errno));
				return -1;
			}
			if (!ss->marks_lost++)
				err_msg("warning: cannot write a %s mark to the instance's trace_marker (%s): the recording lacks it\n",
					kind, strerror(errno));
		}
		if (!strcmp(kind, "end") || !strcmp(kind, "pages")) {
			ss->end_crc = crc32(ss->end_crc, (unsigned char *)mark, n);
			ss->end_marks++;
		}
		if ((flags & MARK_APPLY) && ts_stream_mark(&ss->s, sched_getcpu(), mark, n)) {
			err_msg("internal error: a %s mark does not parse: %s\n", kind, mark);
			return -1;
		}
		if ((flags & MARK_KEEP) && ss->writing && ts_session_drain_cpu(ss, ss->mark_cpu))
			return -1;
	} while (*p);
	return 0;
}

/*
 * All marks land on one CPU, the one the start mark went to, so that a
 * reader finds them together.
 */
static void pin_here(struct ts_session *ss, int on)
{
	cpu_set_t one;

	if (!on) {
		sched_setaffinity(0, sizeof(ss->away), &ss->away);
		return;
	}
	if (ss->mark_cpu < 0)
		ss->mark_cpu = sched_getcpu();
	CPU_ZERO(&one);
	CPU_SET(ss->mark_cpu, &one);
	sched_setaffinity(0, sizeof(one), &one);
}

/* The cause types whose entries are enabled (bits of enum ts_cause_type). */
static unsigned int causes_enabled(const struct ts_session *ss)
{
	unsigned int mask = 0;

	if (!ss->causes)
		return 0;
	for (int i = 0; i < NR_CAUSE_EVENTS; i++)
		if (ss->cause_present[i] && cause_events[i].type >= 0 &&
		    strstr(cause_events[i].name, "exit") == NULL &&
		    strstr(cause_events[i].name, "_end") == NULL)
			mask |= 1u << cause_events[i].type;
	/* hrtimers other than the tick's pass filter_tick_timer()'s filter */
	if (ss->hrtimer_causes)
		mask |= 1u << TS_CAUSE_HRTIMER;
	return mask;
}

/* The cause types whose arming is traced (bits of enum ts_cause_type). */
static unsigned int armers_enabled(const struct ts_session *ss)
{
	unsigned int mask = 0;

	for (int i = 0; ss->causes && i < NR_CAUSE_EVENTS; i++)
		if (ss->cause_present[i] && cause_events[i].arms >= 0)
			mask |= 1u << cause_events[i].arms;
	return mask;
}

/* a filter that passes the monitored CPUs (ts_filter_cpus()), of scattered ones too */
#define CPUS_FILTER_MAX	1100

/* The filter of a cause's event on the monitored CPUs; -1 when it cannot be written. */
static int cause_filter(const struct ts_session *ss, const struct cause_event *e, char *buf,
			size_t len)
{
	char cpus[CPUS_FILTER_MAX];

	switch (e->filter) {
	case ON_CPU_FIELD:
		return ts_filter_cpus(&ss->mon, "cpu", buf, len);
	case ON_TIMER_TARGET:
		return ts_filter_timer_target(&ss->mon, buf, len);
	case ON_CPU_NOT_TICK:
		if (!ss->hrtimer_causes || ts_filter_cpus(&ss->mon, "CPU", cpus, sizeof(cpus)))
			return -1;
		return snprintf(buf, len, "function != 0x%llx && (%s)",
				(unsigned long long)ss->ksyms.tick_fn, cpus) < (int)len ? 0 : -1;
	default:
		return ts_filter_cpus(&ss->mon, "CPU", buf, len);
	}
}

/* Does the type an arming event arms have its expiries recorded? */
static int arms_recorded(const struct ts_session *ss, const struct cause_event *e)
{
	return e->arms < 0 || (causes_enabled(ss) & (1u << e->arms));
}

/*
 * setup_causes - find (enable 0) or enable (1) the causes' events, each
 * filtered on the monitored CPUs.  A kernel without one records the rest;
 * the report then says that cause is unknown.
 */
static int setup_causes(struct ts_session *ss, int enable)
{
	char filter[2048];

	if (!ss->causes)
		return 0;
	for (int i = 0; i < NR_CAUSE_EVENTS; i++) {
		const struct cause_event *e = &cause_events[i];

		if (!enable) {
			ss->cause_present[i] = (e->type != TS_CAUSE_VECTOR || !ss->no_vector_causes) &&
					       tracefs_event_file_exists(NULL, e->system, e->name,
									 "format");
			/* who armed a timer whose expiries are not recorded: of no use */
			if (!ss->cause_present[i] || !arms_recorded(ss, e)) {
				ss->cause_present[i] = 0;
				continue;
			}
			if (cause_filter(ss, e, filter, sizeof(filter)) ||
			    tracefs_event_file_write(ss->inst, e->system, e->name, "filter",
						     filter) < 0) {
				/* unfiltered, it would load the housekeeping CPUs: leave it out */
				err_msg("warning: cannot filter %s:%s on the monitored CPUs: not recorded\n",
					e->system, e->name);
				ss->cause_present[i] = 0;
			}
			continue;
		}
		if (ss->cause_present[i] && tracefs_event_enable(ss->inst, e->system, e->name)) {
			err_msg("cannot enable %s:%s\n", e->system, e->name);
			return -1;
		}
	}
	return 0;
}

/*
 * A monitor keeps the tick's own events of the monitored CPUs only
 * (tick_stop, tick_retain, tick_restart, the tick's timer): it reports no
 * other CPU, and a housekeeping CPU's tick runs and stops far more often
 * than an isolated one's.  All of them or none: where one filter cannot be
 * written, every CPU's are kept and the start mark says none was left out
 * (no ticks=), so that a report of the recording can name the others.
 */
static void own_ticks_unfiltered(struct ts_session *ss, const char *system, const char *name)
{
	if (ss->own_ticks_filtered)
		err_msg("warning: cannot filter %s:%s on the monitored CPUs: every CPU's tick events are recorded\n",
			system, name);
	ss->own_ticks_filtered = 0;
}

/*
 * The tick's hrtimer expiries only, and for the causes every expiry on the
 * monitored CPUs: keeps the stream small.  With the own ticks filtered,
 * the monitored CPUs' only, the tick's with the rest: then returns 1.
 */
static int filter_tick_timer(struct ts_session *ss, const char *system, const char *name)
{
	char filter[CPUS_FILTER_MAX + 100], cpus[CPUS_FILTER_MAX];
	unsigned long long fn = ss->ksyms.tick_fn;
	int cpus_ok = !ts_filter_cpus(&ss->mon, "CPU", cpus, sizeof(cpus));

	/* own_ticks_filtered: the same CPU list went into tick_stop's filter */
	ss->hrtimer_causes = ss->causes && cpus_ok;
	if (ss->hrtimer_causes && ss->own_ticks_filtered)
		snprintf(filter, sizeof(filter), "%s", cpus);
	else if (ss->hrtimer_causes)
		snprintf(filter, sizeof(filter), "function == 0x%llx || %s", fn, cpus);
	else if (ss->own_ticks_filtered)
		snprintf(filter, sizeof(filter), "function == 0x%llx && (%s)", fn, cpus);
	else
		snprintf(filter, sizeof(filter), "function == 0x%llx", fn);
	/* the decoder keeps only the tick's timer too: more data, same numbers */
	if (tracefs_event_file_write(ss->inst, system, name, "filter", filter) < 0) {
		err_msg("warning: cannot filter %s:%s on the tick's timer (%m): every hrtimer expiry is recorded\n",
			system, name);
		ss->hrtimer_causes = 0;
		own_ticks_unfiltered(ss, system, name);
		return 0;
	}
	return ss->own_ticks_filtered;
}

static int own_tick_event(const char *name)
{
	return !strcmp(name, "tick_stop") || !strcmp(name, "tick_retain") ||
	       !strcmp(name, "tick_restart");
}

static void filter_own_ticks(struct ts_session *ss, const char *system, const char *name)
{
	char cpus[CPUS_FILTER_MAX];

	if (ts_filter_cpus(&ss->mon, "CPU", cpus, sizeof(cpus)) ||
	    tracefs_event_file_write(ss->inst, system, name, "filter", cpus) < 0)
		own_ticks_unfiltered(ss, system, name);
}

/*
 * One own-tick filter failed: the others' go too ("0" clears a filter).
 * The tick's timer comes after them in events[], so its filter was written
 * for every CPU already (tick_timer_own 0).  Returns 0, or -1 when a
 * filter stays: the recording would lack the other CPUs' tick events
 * without saying so.
 */
static int unfilter_own_ticks(struct ts_session *ss)
{
	if (ss->tick_timer_own) {
		err_msg("the tick's timer is filtered on the monitored CPUs before the other tick events\n");
		return -1;
	}
	for (int i = 0; i < NR_EVENTS; i++) {
		const char *sys = events[i].system, *name = events[i].name;

		if (ss->present[i] && own_tick_event(name) &&
		    tracefs_event_file_write(ss->inst, sys, name, "filter", "0") < 0) {
			err_msg("cannot clear the filter of %s:%s: %m\n", sys, name);
			return -1;
		}
	}
	return 0;
}

/*
 * setup_events - find (enable 0) and filter, or enable (1), the tick's
 * events.  The tick's hrtimer is found by its function's address.
 */
static int setup_events(struct ts_session *ss, int enable)
{
	struct tracefs_instance *inst = ss->inst;

	for (int i = 0; i < NR_EVENTS; i++) {
		if (!enable) {
			ss->present[i] = tracefs_event_file_exists(NULL, events[i].system,
								   events[i].name, "format");
			debug_msg("tickstat: event %s:%s %s\n", events[i].system, events[i].name,
				  ss->present[i] ? "present" : "absent");
		}
		if (!ss->present[i]) {
			if (events[i].required) {
				/* with tracing working, tick_stop goes with the dynticks code */
				if (tracefs_event_file_exists(NULL, "timer", "hrtimer_expire_entry",
							      "format"))
					err_msg("this kernel cannot stop the tick: it has no %s:%s event, so it was built without CONFIG_NO_HZ_COMMON (a periodic tick)\n",
						events[i].system, events[i].name);
				else
					err_msg("this kernel has no %s:%s event (CONFIG_NO_HZ_COMMON and tracing needed)\n",
						events[i].system, events[i].name);
				return -1;
			}
			continue;
		}
		if (!strcmp(events[i].name, "hrtimer_expire_entry") && !enable) {
			if (!ss->ksyms.tick_fn) {
				ss->present[i] = 0;	/* cannot tell the tick's timer apart */
				debug_msg("tickstat: no tick_sched_timer or tick_nohz_handler in /proc/kallsyms: tick count unknown\n");
				continue;
			}
			ss->tick_timer_own = filter_tick_timer(ss, events[i].system,
							       events[i].name);
		}
		if (!enable && ss->own_ticks_filtered && own_tick_event(events[i].name))
			filter_own_ticks(ss, events[i].system, events[i].name);
		if (enable && tracefs_event_enable(inst, events[i].system, events[i].name)) {
			err_msg("cannot enable %s:%s\n", events[i].system, events[i].name);
			return -1;
		}
	}
	if (!enable && ss->own_ticks_only && !ss->own_ticks_filtered && unfilter_own_ticks(ss))
		return -1;
	if (setup_causes(ss, enable))
		return -1;
	return enable ? ts_probes_enable(&ss->probes, inst) : 0;
}

static int present(const struct ts_session *ss, const char *name)
{
	for (int i = 0; i < NR_EVENTS; i++)
		if (!strcmp(events[i].name, name))
			return ss->present[i];
	return 0;
}

/*
 * Probes for what the kernel's events do not tell (probes.c): dependency
 * changes, restarts, the scope of each decision (tick_stop's per-scope
 * masks), idle-entry refusals.
 */
static int place_probes(struct ts_session *ss, const struct ts_session_opts *o)
{
	int need[TS_NR_PARTS];
	char *stop;

	stop = tracefs_event_file_read(NULL, "timer", "tick_stop", "format", NULL);
	need[TS_PART_DEPS] = !present(ss, "tick_dep_set") || !present(ss, "tick_dep_clear");
	need[TS_PART_RESTART] = !present(ss, "tick_restart");
	need[TS_PART_SCOPES] = !stop || !strstr(stop, "global_deps");
	need[TS_PART_RETAIN] = !present(ss, "tick_retain");
	free(stop);
	ts_probes_remove_stale();
	return ts_probes_place(&ss->probes, o->probes, need, &ss->online);
}

static int extra_events(struct ts_session *ss, const struct ts_session_opts *o, int enable);

/* Hand one format to the stream (it parses what it reads) and to the file. */
static int add_format(struct ts_session *ss, const char *system, const char *name)
{
	char *fmt;
	int size, ret;

	fmt = tracefs_event_file_read(NULL, system, name, "format", &size);
	if (!fmt) {
		err_msg("cannot read the format of %s:%s\n", system, name);
		return -1;
	}
	ret = ts_stream_format(&ss->s, system, fmt, size);
	if (ret)
		err_msg("%s:%s: %s\n", system, name, ss->s.err);
	else if (ss->writing && ts_dw_format(&ss->w, system, fmt, size))
		ret = -1, err_msg("out of memory\n");
	free(fmt);
	return ret;
}

static int save_formats(struct ts_session *ss, const struct ts_session_opts *o)
{
	ss->header_page = tracefs_instance_file_read(NULL, "events/header_page",
						     &ss->header_page_len);
	ss->header_event = tracefs_instance_file_read(NULL, "events/header_event",
						      &ss->header_event_len);
	if (!ss->header_page || !ss->header_event ||
	    ts_stream_header_page(&ss->s, ss->header_page, ss->header_page_len)) {
		err_msg("cannot read events/header_page: %s\n", ss->s.err);
		return -1;
	}
	if (add_format(ss, "ftrace", "print"))
		return -1;
	for (int i = 0; i < NR_EVENTS; i++)
		if (ss->present[i] && add_format(ss, events[i].system, events[i].name))
			return -1;
	for (int i = 0; i < NR_CAUSE_EVENTS; i++)
		if (ss->cause_present[i] &&
		    add_format(ss, cause_events[i].system, cause_events[i].name))
			return -1;
	for (int i = 0; i < TS_NR_PROBES; i++)
		if (ss->probes.dev[i] && add_format(ss, ss->probes.group, ts_probe_defs[i].event))
			return -1;
	return extra_events(ss, o, 0);
}

/*
 * -e SYSTEM:EVENT and SYSTEM:*: more events for the file, for trace-cmd and
 * KernelShark; the analysis does not read them.  With enable 0, check and
 * save their formats; with 1, enable them.
 */
static int extra_events(struct ts_session *ss, const struct ts_session_opts *o, int enable)
{
	for (int i = 0; i < o->nr_extra; i++) {
		char sys[64], ev[128];
		char **names = NULL;
		int n = 0;

		if (sscanf(o->extra[i], "%63[^:]:%127s", sys, ev) != 2) {
			err_msg("-e %s: not SYSTEM:EVENT\n", o->extra[i]);
			return -1;
		}
		names = tracefs_system_events(NULL, sys);
		for (int k = 0; names && names[k]; k++) {
			int dup = 0, cause = 0;

			if (strcmp(ev, "*") && strcmp(ev, names[k]))
				continue;
			for (int e = 0; e < NR_EVENTS; e++)
				dup |= ss->present[e] && !strcmp(events[e].system, sys) &&
				       !strcmp(events[e].name, names[k]);
			/* recorded for the causes, filtered on the monitored CPUs */
			for (int e = 0; e < NR_CAUSE_EVENTS; e++)
				cause |= ss->cause_present[e] &&
					 !strcmp(cause_events[e].system, sys) &&
					 !strcmp(cause_events[e].name, names[k]);
			n++;
			/*
			 * Asked for by name, a cause's event is every CPU's: its
			 * filter goes (the analysis leaves out the CPUs the
			 * report does not show, and the tick's own re-arming).
			 */
			if (cause && !dup && !enable &&
			    tracefs_event_file_write(ss->inst, sys, names[k], "filter", "0") < 0) {
				err_msg("-e %s:%s: cannot clear its filter\n", sys, names[k]);
				tracefs_list_free(names);
				return -1;
			}
			if (dup || cause)
				continue;
			if (enable ? tracefs_event_enable(ss->inst, sys, names[k]) :
				     add_format(ss, sys, names[k])) {
				if (enable)
					err_msg("cannot enable %s:%s\n", sys, names[k]);
				tracefs_list_free(names);
				return -1;
			}
		}
		tracefs_list_free(names);
		if (!n) {
			err_msg("-e %s: this kernel has no such event\n", o->extra[i]);
			return -1;
		}
	}
	return 0;
}

/*
 * A page read before the ready mark, for the analysis once it is applied.
 * Only the start marks' reads come before it: what the mark CPU wrote
 * between tracing on and the ready mark, the start snapshot's 21 ms and
 * more included (a few pages; a buffer's worth at most a read).
 */
static int keep_early(struct ts_session *ss, int cpu, const char *page)
{
	struct early_page *e;

	if (ss->nr_early == ss->cap_early) {
		int cap = ss->cap_early * 2 + 16;

		e = realloc(ss->early, cap * sizeof(*e));
		if (!e) {
			err_msg("out of memory\n");
			return -1;
		}
		ss->early = e;
		ss->cap_early = cap;
	}
	e = &ss->early[ss->nr_early];
	e->page = malloc(ss->rd.page_size);
	if (!e->page) {
		err_msg("out of memory\n");
		return -1;
	}
	memcpy(e->page, page, ss->rd.page_size);
	e->cpu = cpu;
	ss->nr_early++;
	return 0;
}

/* The ready mark is applied: the pages read before it go into the analysis. */
static int take_early(struct ts_session *ss)
{
	int ret = 0;

	ss->ready = 1;
	for (int i = 0; i < ss->nr_early; i++) {
		if (!ret && ts_stream_page(&ss->s, ss->early[i].cpu, ss->early[i].page,
					   ss->rd.page_size)) {
			err_msg("CPU %d: %s\n", ss->early[i].cpu, ss->s.err);
			ret = -1;
		}
		free(ss->early[i].page);
	}
	free(ss->early);
	ss->early = NULL;
	ss->nr_early = 0;
	ss->cap_early = 0;
	return ret;
}

/*
 * One page of a CPU, as read: into the recording and the analysis.  The
 * recording writes it at the next ts_dw_flush(), with the pages read with
 * it (take_pages).
 */
static int take_page(struct ts_session *ss, int c, char *page, ssize_t n)
{
	struct reader *r = &ss->rd;
	int had_end = ss->s.end_cpu >= 0;
	struct ts_sum sum;
	uint64_t pages;

	if (n < r->page_size)
		memset(page + n, 0, r->page_size - n);
	if (ss->writing) {
		ts_dw_sum(&ss->w, c, &pages, &sum);
		if (ts_dw_page(&ss->w, c, page)) {
			err_msg("cannot spool the recording: %s\n", strerror(ss->w.error));
			return -1;
		}
	}
	if (!ss->ready)
		return keep_early(ss, c, page);
	if (ts_stream_page(&ss->s, c, page, r->page_size)) {
		err_msg("CPU %d: %s\n", c, ss->s.err);
		return -1;
	}
	if (ss->writing && !had_end && ss->s.end_cpu >= 0) {
		ss->end_pages = pages;
		ss->end_pages_sum = sum;
	}
	return 0;
}

/* The pages a read or a splice gave, in one buffer: then one spool write. */
static int take_pages(struct ts_session *ss, int c, char *buf, ssize_t n)
{
	struct reader *r = &ss->rd;

	for (ssize_t off = 0; off < n; off += r->page_size) {
		if (take_page(ss, c, buf + off, n - off < r->page_size ? n - off : r->page_size)) {
			/* the buffer is reused: what the writer holds goes now */
			if (ss->writing)
				ts_dw_flush(&ss->w);
			return -1;
		}
	}
	if (ss->writing && ts_dw_flush(&ss->w)) {
		err_msg("cannot spool the recording: %s\n", strerror(ss->w.error));
		return -1;
	}
	return 0;
}

/*
 * read() a CPU's pages, at most max of them; returns how many, or -1.
 * *empty: the last read found the buffer empty (EAGAIN; a read that
 * returns 0 or fails otherwise says nothing of what is left).
 */
static int read_pages(struct ts_session *ss, int c, int max, int *empty)
{
	struct reader *r = &ss->rd;
	int got = 0;

	*empty = 0;
	while (got < max) {
		ssize_t n = read(r->fd[c], r->page, r->page_size);

		if (n <= 0) {
			*empty = n < 0 && errno == EAGAIN;
			break;
		}
		got++;
		if (take_pages(ss, c, r->page, n))
			return -1;
	}
	return got;
}

/*
 * read() a CPU's pages until its buffer is empty, at most max of them (a
 * CPU that writes faster than it is read would keep a reader that reads
 * to the end forever).  A drain that found it empty moves the CPU's last
 * two empty reads (ts_session_complete_ns), once a drain.  Returns how
 * many, or -1.
 */
static int read_to_empty(struct ts_session *ss, int c, uint64_t now, int max)
{
	struct reader *r = &ss->rd;
	int empty, n = read_pages(ss, c, max, &empty);

	if (n >= 0 && empty && now > r->last_empty_ns[c]) {
		r->prev_empty_ns[c] = r->last_empty_ns[c];
		r->last_empty_ns[c] = now;
	}
	return n;
}

/* what a poll reads of one CPU at most: a buffer's worth, and a page */
static int read_limit(const struct reader *r)
{
	return r->buffer_pages > 0 ? r->buffer_pages + 1 : INT_MAX;
}

/*
 * splice() a CPU's whole pages through the pipe: the kernel hands out only
 * pages it has finished writing (of a page read in part, the rest, once
 * written, as ring_buffer_read_page() does in 6.1 and 6.12; a kernel
 * without that leaves the rest to the next read(), and the CPU gives no
 * page until its quiet read).  Up to SPLICE_PAGES at a time, read from the
 * pipe with one read() and spooled with one write.  Returns how many, or
 * -1; a kernel that cannot splice the buffers turns the reader to read()
 * for good.
 */
static int splice_pages(struct ts_session *ss, int c)
{
	struct reader *r = &ss->rd;
	int got = 0;

	for (;;) {
		ssize_t n = splice(r->fd[c], NULL, r->pipe[1], NULL,
				   (size_t)r->page_size * SPLICE_PAGES, SPLICE_F_NONBLOCK);
		ssize_t have = 0;

		if (n < 0 && errno != EAGAIN && errno != EINTR && errno != ENOMEM) {
			debug_msg("tickstat: cannot splice the ring buffers (%s): reading them\n",
				  strerror(errno));
			close(r->pipe[0]);
			close(r->pipe[1]);
			r->pipe[0] = r->pipe[1] = -1;
			return got;
		}
		if (n <= 0)
			return got;
		while (have < n) {
			ssize_t m = read(r->pipe[0], r->batch + have, n - have);

			if (m <= 0) {
				err_msg("cannot read the spliced pages of CPU %d: %s\n", c,
					m < 0 ? strerror(errno) : "end of file");
				return -1;
			}
			have += m;
		}
		got += (n + r->page_size - 1) / r->page_size;
		if (take_pages(ss, c, r->batch, n))
			return -1;
	}
}

/*
 * Drain every CPU's buffer with non-blocking reads: never sleep on one.
 *
 * With whole pages (all == 0 and the pipe open), a CPU gives only the
 * pages the kernel has finished writing: a page read while the kernel
 * still writes it is copied out partly filled, and costs as much to check,
 * checksum and spool as a full one.  The page in the writing is read only
 * once the CPU has given nothing for WHOLE_PAGE_WAIT_NS (so that a quiet
 * CPU's events, and the tasks whose cgroup quota a switch makes us look
 * up, come in within that time); the kernel splices the rest of that page
 * once it has finished writing it.  all: every event, the page in the
 * writing included (the end of a session).
 */
/* record's: a watcher sets its own (quiet_ns) */
#define WHOLE_PAGE_WAIT_NS	(1000 * 1000000ULL)

static int drain_all(struct ts_session *ss, int all)
{
	struct reader *r = &ss->rd;
	uint64_t now = ts_now_ns();

	ss->drained_ns = now;	/* the switches decoded now are this recent */
	r->most_pages = 0;
	for (int c = 0; c < r->nr; c++) {
		int got = 0, n;

		if (r->fd[c] < 0)
			continue;
		if (!all && r->pipe[0] >= 0) {
			n = splice_pages(ss, c);
			if (!n && now - r->last_page_ns[c] >= r->quiet_ns)
				n = read_to_empty(ss, c, now, read_limit(r));
			if (n < 0)
				return -1;
			got = n;
		}
		if (all || r->pipe[0] < 0) {
			n = read_to_empty(ss, c, now, all ? INT_MAX : read_limit(r));
			if (n < 0)
				return -1;
			got += n;
		}
		if (got)
			r->last_page_ns[c] = now;
		if (got > r->most_pages)
			r->most_pages = got;
	}
	return 0;
}

static int drain(struct ts_session *ss)
{
	return drain_all(ss, 1);
}

static int open_readers(struct reader *r, struct tracefs_instance *inst,
			const struct ts_cpuset *online, int whole_pages)
{
	uint64_t now = ts_now_ns();

	r->nr = 0;
	r->pipe[0] = r->pipe[1] = -1;
	r->quiet_ns = WHOLE_PAGE_WAIT_NS;
	if (whole_pages && pipe2(r->pipe, O_CLOEXEC)) {
		err_msg("cannot make a pipe for the ring buffers' pages: %m\n");
		return -1;
	}
	for (int c = 0; c < TS_MAX_CPUS; c++) {
		char *path;

		r->fd[c] = -1;
		if (!ts_cpuset_has(online, c))
			continue;
		r->nr = c + 1;
		r->last_page_ns[c] = now;
		if (asprintf(&path, "per_cpu/cpu%d/trace_pipe_raw", c) < 0)
			return -1;
		r->fd[c] = tracefs_instance_file_open(inst, path, O_RDONLY | O_NONBLOCK);
		free(path);
		if (r->fd[c] < 0) {
			err_msg("cannot open the ring buffer of CPU %d\n", c);
			return -1;
		}
	}
	r->page = malloc(r->page_size);
	r->batch = malloc((size_t)r->page_size * SPLICE_PAGES);
	return r->page && r->batch ? 0 : -1;
}

static void close_readers(struct reader *r)
{
	for (int c = 0; c < r->nr; c++)
		if (r->fd[c] >= 0)
			close(r->fd[c]);
	for (int i = 0; i < 2; i++)
		if (r->pipe[i] >= 0)
			close(r->pipe[i]);
	free(r->page);
	free(r->batch);
}

static int setup_instance(struct ts_session *ss, const struct ts_session_opts *o)
{
	struct tracefs_instance *inst;
	char name[64], kb[32];

	remove_stale_instances();
	snprintf(name, sizeof(name), INSTANCE_PREFIX "%d", (int)getpid());
	inst = tracefs_instance_create(name);
	if (!inst) {
		err_msg("cannot create the tracing instance %s: %s\n", name, strerror(errno));
		return -1;
	}
	ss->inst = inst;
	/* a new instance traces: off until the start, or the window starts unmarked */
	if (tracefs_trace_off(inst)) {
		err_msg("cannot switch tracing off in the instance %s: %m\n", name);
		return -1;
	}
	if (tracefs_instance_file_write(inst, "trace_clock", "mono") < 0) {
		err_msg("cannot select the mono trace clock\n");
		return -1;
	}
	snprintf(kb, sizeof(kb), "%d", o->buffer_kb);
	if (tracefs_instance_file_write(inst, "buffer_size_kb", kb) < 0) {
		err_msg("cannot set buffer_size_kb to %s\n", kb);
		return -1;
	}
	ss->marker_fd = tracefs_instance_file_open(inst, "trace_marker", O_WRONLY);
	if (ss->marker_fd < 0) {
		err_msg("cannot open the instance's trace_marker\n");
		return -1;
	}
	return setup_events(ss, 0) || place_probes(ss, o) ? -1 : 0;
}

/* " causes=work,irq,...": what the report may count (stream.c reads it) */
static void causes_token(struct text *t, unsigned int mask)
{
	const char *sep = "=";

	text_add(t, " causes");
	if (!mask)
		text_add(t, "=none");
	for (int i = 0; i < TS_NR_CAUSE_TYPES; i++) {
		if (mask & (1u << i)) {
			text_add(t, "%s%s", sep, ts_cause_type_name(i));
			sep = ",";
		}
	}
}

/* " armers=timer,hrtimer": whose arming the report may count (stream.c reads it) */
static void armers_token(struct text *t, unsigned int mask)
{
	text_add(t, " armers=%s%s%s", mask & (1u << TS_CAUSE_TIMER) ? "timer" : "",
		 mask == (1u << TS_CAUSE_TIMER | 1u << TS_CAUSE_HRTIMER) ? "," : "",
		 mask & (1u << TS_CAUSE_HRTIMER) ? "hrtimer" : mask ? "" : "none");
}

/*
 * "KEY=LIST" tokens of a CPU list, as many as it takes for each to fit a
 * mark (a reader takes their union, stream.c): a list of a few hundred
 * CPUs fits one, one of every other CPU of 1024 takes four.
 */
static void cpus_tokens(struct text *t, const char *key, const struct ts_cpuset *set)
{
	char piece[512];
	int from = 0;

	do {
		int space = t->len && t->buf && t->buf[t->len - 1] != ' ';

		from = ts_cpuset_format_from(set, from, piece, sizeof(piece));
		text_add(t, "%s%s=%s", space ? " " : "", key, piece);
	} while (from >= 0);
}

/*
 * Switch tracing on and write the start marks, all on one CPU: "start"
 * right away, so that it lands in the first page of that CPU (a reader
 * looks for it there), then, after the snapshot, "initial" and "ready".
 * The events are enabled before, while tracing is still off, so that the
 * window starts when tracing does.
 */
static int start_tracing(struct ts_session *ss, const struct ts_session_opts *o)
{
	struct text t = { 0 };
	char boot_id[64], *probes = NULL;
	int ret = -1;

	if (setup_events(ss, 1) || extra_events(ss, o, 1))
		return -1;
	/*
	 * The sum of the pages the end marks carry (pagesum.h) first: the
	 * first of the start marks a long text is split in holds it, where
	 * every reader looks.
	 */
	if (ss->writing)
		text_add(&t, "page_sum=fletcher128 ");
	cpus_tokens(&t, "cpus", &ss->online);
	cpus_tokens(&t, "nohz_full", &ss->nohz);
	cpus_tokens(&t, "monitored", &ss->mon);
	/* the other CPUs' tick events were left out (filter_own_ticks(), filter_tick_timer()) */
	if (ss->own_ticks_filtered)
		cpus_tokens(&t, "ticks", &ss->mon);
	causes_token(&t, causes_enabled(ss));
	armers_token(&t, armers_enabled(ss));
	/* the boot, for the report's identity: none without /proc (it is then unknown) */
	if (!read_file("/proc/sys/kernel/random/boot_id", boot_id, sizeof(boot_id))) {
		boot_id[strcspn(boot_id, "\n")] = '\0';
		if (ts_is_boot_id(boot_id))
			text_add(&t, " boot_id=%s", boot_id);
	}
	if (!t.buf)
		return -1;
	pin_here(ss, 1);
	ss->start = ts_now_ns();
	if (tracefs_trace_on(ss->inst)) {
		err_msg("cannot switch tracing on in the instance: %m\n");
		goto out;
	}
	if (write_marks(ss, "start", t.buf, MARK_APPLY | MARK_KEEP))
		goto out;
	probes = ts_probes_mark(&ss->probes);
	if (probes && write_marks(ss, "probes", probes, MARK_APPLY | MARK_KEEP))
		goto out;
	if (ss->doctor && write_marks(ss, "doctor", ss->doctor, MARK_APPLY | MARK_KEEP))
		goto out;
	t.len = 0;
	snapshot(&t, &ss->online);
	if (!t.buf || write_marks(ss, "initial", t.buf, MARK_APPLY | MARK_KEEP))
		goto out;
	t.len = 0;
	text_add(&t, "start_ns=%llu snapshot_ns=%llu initial=%d", (unsigned long long)ss->start,
		 (unsigned long long)ts_now_ns(), ts_cpuset_count(&ss->online));
	if (!t.buf || write_marks(ss, "ready", t.buf, MARK_APPLY | MARK_KEEP) || take_early(ss))
		goto out;
	ret = 0;
out:
	pin_here(ss, 0);
	free(t.buf);
	free(probes);
	return ret;
}

static void task_seen(void *ctx, int cpu, int pid);

/*
 * The host's audit (tickstat doctor), for the doctor marks: before tracing
 * starts, so that its reading of /proc and /sys is not in the window.  An
 * audit that cannot be made leaves the recording without one, and says so.
 */
static void audit_host(struct ts_session *ss)
{
	struct ts_audit a;

	if (ts_audit_run(&a, "/")) {
		err_msg("warning: the host's audit failed (above): the recording holds none\n");
	} else {
		ss->doctor = ts_doctor_marks(&a);
		if (!ss->doctor)
			err_msg("warning: out of memory for the host's audit: the recording holds none\n");
	}
	ts_audit_free(&a);
}

/*
 * ts_session_start - set up the instance, take the start snapshot and
 * switch tracing on.  out, when set, gets the recording (a trace.dat;
 * path names it, to spool beside it).  Returns the session, or NULL after
 * saying why (nothing is left behind).
 */
struct ts_session *ts_session_start(const struct ts_session_opts *o, struct ts_analysis *an,
				    FILE *out, const char *path)
{
	struct ts_session *ss = calloc(1, sizeof(*ss));
	struct utsname uts;

	if (!ss) {
		err_msg("out of memory\n");
		return NULL;
	}
	ss->an = an;
	ss->rd.pipe[0] = ss->rd.pipe[1] = -1;
	ss->causes = o->causes;
	ss->own_ticks_only = o->monitored_ticks_only;
	ss->own_ticks_filtered = o->monitored_ticks_only;
	ss->no_vector_causes = o->no_vector_causes;
	ss->rd.nr = 0;
	ss->marker_fd = -1;
	ss->mark_cpu = -1;
	if (geteuid()) {
		err_msg("recording needs root (it creates a tracing instance)\n");
		goto fail;
	}
	if (!tracefs_mounted() || !tracefs_tracing_dir()) {
		err_msg("tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)\n");
		goto fail;
	}
	if (pick_cpus(o, &ss->mon, &ss->online, &ss->nohz))
		goto fail;
	if (sched_getaffinity(0, sizeof(ss->away), &ss->away))
		CPU_ZERO(&ss->away);
	if (o->pin_away)
		pin_away(&ss->mon, &ss->away);
	ts_ksym_query_init(&ss->ksyms);
	ts_ksym_scan_file(&ss->ksyms, "/proc/kallsyms");
	if (ts_stream_init(&ss->s, an, getpagesize(), sizeof(long))) {
		err_msg("%s\n", ss->s.err);
		goto fail;
	}
	ss->stream_ok = 1;
	ss->s.tick_fn = ss->ksyms.tick_fn;
	ss->s.task_seen = task_seen;
	ss->s.quotas_written = 1;	/* quota_marks() applies them */
	ss->s.task_seen_ctx = ss;
	if (out) {
		if (ts_dw_init(&ss->w, out, path, getpagesize(), sizeof(long),
			       ts_cpuset_max(&ss->online) + 1)) {
			err_msg("cannot make a spool file for the recording: %s\n", strerror(errno));
			goto fail;
		}
		ss->writing = 1;
		ss->out = out;
	}
	if (setup_instance(ss, o) || save_formats(ss, o) || ts_stream_ready(&ss->s))
		goto fail;
	uname(&uts);
	ts_analysis_set_kernel(an, uts.release);
	ts_analysis_set_clock(an, "mono");
	ts_analysis_set_source_kind(an, "live");
	ss->rd.page_size = getpagesize();
	ss->rd.buffer_pages = (int)((int64_t)o->buffer_kb * 1024 / ss->rd.page_size);
	if (o->doctor)
		audit_host(ss);
	/* the CPUs' states in memory before the window starts, not in it */
	for (int c = 0; c <= ts_cpuset_max(&ss->online); c++) {
		if (ts_cpuset_has(&ss->online, c) && ts_analysis_reserve_cpu(an, c)) {
			err_msg("out of memory for the CPUs' states\n");
			goto fail;
		}
	}
	if (open_readers(&ss->rd, ss->inst, &ss->online, o->whole_pages) || start_tracing(ss, o))
		goto fail;
	for (int c = 0; c < ss->rd.nr; c++) {	/* nothing was traced before */
		ss->rd.last_empty_ns[c] = ss->start;
		ss->rd.prev_empty_ns[c] = ss->start;
	}
	return ss;
fail:
	ts_session_free(ss);
	return NULL;
}

/* ts_session_monitored - the CPUs the session reports */
const struct ts_cpuset *ts_session_monitored(const struct ts_session *ss)
{
	return &ss->mon;
}

/*
 * ts_session_drain_cpu - read a CPU's buffer empty, the page it still
 * writes included: a watcher saw it go offline, and with whole pages its
 * last events could otherwise come after its state became unknown, and
 * set it again; or a mark a reader needs was just written there
 * (MARK_KEEP).  Before the ready mark, what it reads waits for the
 * analysis (keep_early()).  Returns 0, or -1 after saying why.
 */
int ts_session_drain_cpu(struct ts_session *ss, int cpu)
{
	struct reader *r = &ss->rd;
	uint64_t now = ts_now_ns();
	int empty;

	if (cpu < 0 || cpu >= r->nr || r->fd[cpu] < 0)
		return 0;
	/*
	 * It may still write its last few events (leaving the online mask
	 * comes before its last switch to idle): the read ends.  Not an
	 * empty read of a drain: the drain's own is its last.
	 */
	if (read_pages(ss, cpu, INT_MAX, &empty) < 0)
		return -1;
	r->last_page_ns[cpu] = now;
	return 0;
}

/*
 * ts_session_set_quiet_ns - with whole pages, read the page a CPU still
 * writes once it has given no page for this long (a watcher: half its
 * poll, so that a CPU with few events is read about every poll, one with
 * many gives whole pages; record: WHOLE_PAGE_WAIT_NS)
 */
void ts_session_set_quiet_ns(struct ts_session *ss, uint64_t ns)
{
	ss->rd.quiet_ns = ns;
}

/*
 * ts_session_complete_ns - every event stamped before this moment has been
 * read from every CPU (CLOCK_MONOTONIC), an event committed up to a read
 * late included.  Of each CPU, the later of:
 *
 * - the stamp of the last event read: a CPU's buffer hands its events out
 *   in the order they took room in it, and one whose writer was
 *   interrupted before it committed (hold.c) holds back those after it;
 * - the start of the drain before the last that read its buffer empty:
 *   the last one read what was committed since, an event stamped before
 *   that start included.
 *
 * The second moves every poll for a CPU read at every poll; with whole
 * pages, for one read once it gives no page for quiet_ns.
 */
uint64_t ts_session_complete_ns(const struct ts_session *ss)
{
	uint64_t min = UINT64_MAX;

	for (int c = 0; c < ss->rd.nr; c++) {
		uint64_t done = ss->rd.prev_empty_ns[c];

		if (ss->rd.fd[c] < 0)
			continue;
		if (ss->stream_ok && ss->s.cpu_pages[c].last_ts > done)
			done = ss->s.cpu_pages[c].last_ts;
		if (done < min)
			min = done;
	}
	return min == UINT64_MAX ? ss->start : min;
}

/* ts_session_start_ns - when tracing was switched on (CLOCK_MONOTONIC) */
uint64_t ts_session_start_ns(const struct ts_session *ss)
{
	return ss->start;
}

/* ts_session_records - the ring-buffer records read so far */
uint64_t ts_session_records(const struct ts_session *ss)
{
	return ss->s.records;
}

/* The slot of a caller named before, or NULL */
static struct caller_name *named_caller(struct ts_session *ss, uint64_t addr)
{
	for (int i = 0; i < ss->nr_callers; i++)
		if (ss->callers[i].addr == addr)
			return &ss->callers[i];
	return NULL;
}

/*
 * Name addr and every caller in the analysis' culprit table not named yet,
 * in one pass over /proc/kallsyms (a pass costs far more than a lookup).
 */
static void name_callers(struct ts_session *ss, uint64_t addr)
{
	struct ts_analysis *an = ss->an;
	struct ts_ksym_query *q;

	if (!ss->callers)
		ss->callers = calloc(MAX_NAMED_CALLERS, sizeof(*ss->callers));
	q = malloc(sizeof(*q));
	if (!ss->callers || !q) {
		free(q);
		return;
	}
	ts_ksym_query_init(q);
	ts_ksym_want(q, addr);
	for (int i = 0; i < an->nr_culprits; i++)
		if (!named_caller(ss, an->culprits[i].caller))
			ts_ksym_want(q, an->culprits[i].caller);
	/* the causes' functions too (the monitor's series name them): one pass for all */
	for (int c = 0; c < an->nr_cpus; c++)
		for (int i = 0; an->cpus[c] && i < an->cpus[c]->nr_causes; i++) {
			const struct ts_cause *k = &an->cpus[c]->causes[i];

			if (k->type <= TS_CAUSE_HRTIMER && !named_caller(ss, k->key))
				ts_ksym_want(q, k->key);
		}
	ts_ksym_scan_file(q, "/proc/kallsyms");
	if (ss->nr_callers + q->nr > MAX_NAMED_CALLERS)
		ss->nr_callers = 0;	/* forget them all: they are named again when seen */
	for (int i = 0; i < q->nr; i++) {
		struct caller_name *c = &ss->callers[ss->nr_callers++];

		c->addr = q->sym[i].want;
		snprintf(c->name, sizeof(c->name), "%s", q->sym[i].addr ? q->sym[i].name : "");
	}
	free(q);
}

/*
 * ts_session_symbol - the kernel function that holds addr (a caller of
 * tick_dep_set), from /proc/kallsyms; NULL if none.  Names are kept, so
 * /proc/kallsyms is read again only for callers not seen before.
 */
const char *ts_session_symbol(struct ts_session *ss, uint64_t addr)
{
	struct caller_name *c = named_caller(ss, addr);

	if (!c) {
		name_callers(ss, addr);
		c = named_caller(ss, addr);
	}
	return c && c->name[0] ? c->name : NULL;
}

static void look_up_quotas(struct ts_session *ss);
static int quota_marks(struct ts_session *ss);

/*
 * ts_session_next_wait_ns - how long to wait after a poll, given the wait
 * before it, at most max_ns (TS_SESSION_WAIT_MAX_NS for record; a
 * watcher's poll period).  A read() of a ring buffer ends with the page
 * the kernel is still writing, copied out partly filled, and each page
 * costs as much to read, check and spool whatever it holds: at 64 CPUs and
 * 100 ms, most pages of a recording were a third full
 * (docs/performance.md); and even whole pages (drain_all) cost a syscall
 * per CPU and poll.  So the wait grows while the CPUs give little and
 * shrinks once one gives much (ts_wait_after): a burst that would fill a
 * buffer before the next poll brings the polls closer.  A burst faster
 * than that still overwrites events, which are then counted as lost,
 * never hidden.
 */
uint64_t ts_session_next_wait_ns(const struct ts_session *ss, uint64_t wait_ns, uint64_t max_ns)
{
	return ts_wait_after(ss->rd.most_pages, ss->rd.buffer_pages, wait_ns, max_ns);
}

/*
 * ts_session_poll - move what the ring buffers hold into the analysis
 * (and the recording).  Returns 0, or -1 after saying why.
 */
int ts_session_poll(struct ts_session *ss)
{
	if (drain_all(ss, 0))
		return -1;
	look_up_quotas(ss);
	return quota_marks(ss);
}

/* The name of a task the stream did not name, from /proc. */
static void add_comm(struct ts_analysis *an, int pid)
{
	char path[64], comm[64];

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	if (pid > 0 && !ts_comm_get(an, pid) && !read_file(path, comm, sizeof(comm))) {
		comm[strcspn(comm, "\n")] = '\0';
		ts_comm_set(an, pid, comm);
	}
}

/* " quota.PID=QUOTA/PERIOD" or " quota.PID=max"; nothing for a quota not read */
static void quota_text(struct text *t, const struct task_quota *q)
{
	if (!q->known)
		return;
	if (q->quota < 0)
		text_add(t, " quota.%d=max", q->pid);
	else
		text_add(t, " quota.%d=%lld/%llu", q->pid, (long long)q->quota,
			 (unsigned long long)q->period);
}

/*
 * The quota of a task that runs on a monitored CPU (a switch put it there,
 * or a poll finds it there), read again once the last read is
 * QUOTA_REREAD_NS old, by the time of the last drain (no clock read per
 * switch).  Both ways: a task alone on a nohz_full CPU under a quota it
 * never exhausts does not switch, and the analysis a poll looks at can lag
 * the switches (Debian's 6.12-rt).  A new value goes into the next "quotas"
 * mark and counts for the task's whole window (a reader keeps one quota
 * per task, the last).  A task gone keeps what was read.
 */
static void read_quota_again(struct ts_session *ss, struct task_quota *q)
{
	uint64_t period;
	int64_t quota;

	if (ss->drained_ns - q->read_ns < QUOTA_REREAD_NS)
		return;
	q->read_ns = ss->drained_ns;
	if (ts_cgroup_cpu_max("", q->pid, &quota, &period) ||
	    (q->known && quota == q->quota && (quota < 0 || period == q->period)))
		return;
	if (quota < 0)
		debug_msg("tickstat: task %d's cgroup CPU quota is now max\n", q->pid);
	else
		debug_msg("tickstat: task %d's cgroup CPU quota is now %lld/%llu\n", q->pid,
			  (long long)quota, (unsigned long long)period);
	q->known = 1;
	q->quota = quota;
	q->period = period;
	quota_text(&ss->quota_news, q);
}

/*
 * look_up_quota - the cgroup CPU quota of each task that ran on a
 * monitored CPU and was not looked up yet: at every poll, so that a task
 * that exits before the end is still known (cgroup.c).  Each one read is
 * said in the next "quotas" mark (quota_marks()).  again: it runs on a
 * monitored CPU now, and its quota may be read again (read_quota_again()).
 */
static void look_up_quota(struct ts_session *ss, int pid, int again)
{
	struct task_quota *q;
	int i, added;

	if (pid <= 0)		/* the idle task has no cgroup */
		return;
	i = ts_pidmap_insert(&ss->quota_map, pid, &added);
	if (i < 0) {
		/*
		 * counted for the end mark and said at the end, never silent;
		 * and in the analysis now, so that a watcher's diagnosis says
		 * its table was full while it runs
		 */
		ss->quotas_dropped++;
		/* not past the end mark: a report of the file would not count it */
		if (!ss->quotas_said)
			ts_analysis_count_quotas_dropped(ss->an, 1);
		return;
	}
	q = &ss->quotas[i];
	if (!added) {
		if (again)
			read_quota_again(ss, q);
		return;
	}
	ss->nr_quotas++;
	q->pid = pid;
	q->known = !ts_cgroup_cpu_max("", pid, &q->quota, &q->period);
	q->read_ns = ss->drained_ns;
	quota_text(&ss->quota_news, q);
}

static void look_up_quotas(struct ts_session *ss)
{
	const struct ts_analysis *an = ss->an;

	for (int c = 0; c < an->nr_cpus; c++) {
		const struct ts_cpu *cpu = an->cpus[c];

		if (!cpu || !cpu->active)
			continue;
		for (int i = 0; i < cpu->nr_tasks; i++)
			look_up_quota(ss, cpu->tasks[i].pid, 0);
		if (ts_cpuset_has(&ss->mon, cpu->cpu))
			look_up_quota(ss, cpu->cur_pid, 1);
	}
}

/*
 * A task a switch put on a monitored CPU (stream.c calls it as the switch
 * is decoded, before the analysis may hold it back): looked up now, while
 * it exists, rather than when it shows among the co-runners.
 */
static void task_seen(void *ctx, int cpu, int pid)
{
	struct ts_session *ss = ctx;

	if (ts_cpuset_has(&ss->mon, cpu))
		look_up_quota(ss, pid, 1);
}

/*
 * " quota.PID=QUOTA/PERIOD" (or =max) of each task that ran on a monitored
 * CPU, as far as cgroup v2 tells (cgroup.c): the report explains a SCHED
 * that one task held (6.6+).  The last value read of each pid.
 */
static void quota_tokens(struct ts_session *ss, struct text *t)
{
	look_up_quotas(ss);
	ss->quotas_said = 1;
	if (ss->quotas_dropped) {
		err_msg("warning: more than %d tasks ran on the monitored CPUs: the cgroup quota of the rest is unknown (%llu switches to them)\n",
			TS_MAX_QUOTAS, (unsigned long long)ss->quotas_dropped);
		text_add(t, " quotas_dropped=%llu", (unsigned long long)ss->quotas_dropped);
	}
	for (int i = 0; i < ss->nr_quotas; i++)
		quota_text(t, &ss->quotas[i]);
}

/*
 * The quotas read since the last poll, in a "quotas" mark, applied to the
 * analysis as it is written (so that a watcher's next update explains a
 * lone task's SCHED by its quota) and not again when it comes back through
 * the ring buffer (stream.c); a recording's reader applies it where it
 * meets it.  The end mark still lists the quotas, for readers older than
 * this mark.  A mark the trace_marker refuses is applied all the same and
 * said once (write_marks).
 */
static int quota_marks(struct ts_session *ss)
{
	int ret;

	if (ss->quota_news.oom) {
		err_msg("out of memory\n");
		return -1;
	}
	if (!ss->quota_news.len)
		return 0;
	pin_here(ss, 1);
	ret = write_marks(ss, "quotas", ss->quota_news.buf, MARK_APPLY | MARK_SOFT);
	pin_here(ss, 0);
	ss->quota_news.len = 0;
	ss->quota_news.buf[0] = '\0';
	return ret;
}

/*
 * ts_session_trim_quotas - for a watcher that runs for days (monitor,
 * top), once half the quota table is used: forget the tasks that have
 * exited, here and in the analysis, so that the tables fill only with
 * tasks that live.  A recording keeps every "quotas" mark: its reader
 * keeps every quota it can hold for the diagnosis of its whole window (512;
 * past that unknown, and counted).  A pid freed by a trim is looked up
 * again when a task with it runs (one reused before keeps the old quota
 * until read_quota_again() reads it, a second or more after the last
 * read).  A task that exits within a poll of the trim and is
 * charged after it has its quota unknown for that sliver.
 */
void ts_session_trim_quotas(struct ts_session *ss)
{
	struct task_quota *q = ss->quotas;
	int kept = 0, added;

	if (ss->nr_quotas < TS_MAX_QUOTAS / 2)
		return;
	for (int i = 0; i < ss->nr_quotas; i++)
		if (!kill(q[i].pid, 0) || errno == EPERM)
			q[kept++] = q[i];
	if (kept == ss->nr_quotas)
		return;
	debug_msg("tickstat: forgot the cgroup quotas of %d tasks that exited, kept %d\n",
		  ss->nr_quotas - kept, kept);
	memset(&ss->quota_map, 0, sizeof(ss->quota_map));
	ts_analysis_forget_quotas(ss->an);
	for (int i = 0; i < kept; i++) {
		ts_pidmap_insert(&ss->quota_map, q[i].pid, &added);
		if (q[i].known)
			ts_analysis_set_quota(ss->an, q[i].pid, q[i].quota,
					      q[i].quota < 0 ? 0 : q[i].period);
	}
	ss->nr_quotas = kept;
}

/*
 * The end marks.  "end": the window's end and the ring buffers' overruns.
 * Once it has come back through the ring buffer, "pages": for a recording,
 * how many pages each CPU wrote before it (the mark's CPU: before the page
 * that holds it) and their sum (pagesum.h).  A page the kernel hands out only later
 * (it can hold a partly read page back) is not counted, and a reader allows
 * such pages after the counted ones.  Then "done", which counts and checks
 * the marks before it.
 */
static int end_marks(struct ts_session *ss, uint64_t end)
{
	struct text t = { 0 };
	int ret = -1;

	text_add(&t, "end_ns=%llu", (unsigned long long)end);
	quota_tokens(ss, &t);
	for (int c = 0; c < TS_MAX_CPUS; c++) {
		char *stats, *p, path[64];
		unsigned long long n;

		if (!ts_cpuset_has(&ss->online, c))
			continue;
		snprintf(path, sizeof(path), "per_cpu/cpu%d/stats", c);
		stats = tracefs_instance_file_read(ss->inst, path, NULL);
		p = stats ? strstr(stats, "overrun:") : NULL;
		if (!p || sscanf(p, "overrun: %llu", &n) != 1) {
			/* without it, events the ring buffer overwrote would go unsaid */
			err_msg("cannot read the overruns of CPU %d (%s)\n", c, path);
			free(stats);
			free(t.buf);
			return -1;
		}
		text_add(&t, " overrun.%d=%llu", c, n);
		n = ts_stats_unplaced(stats);
		if (n)
			text_add(&t, " unplaced.%d=%llu", c, n);
		free(stats);
	}
	pin_here(ss, 1);
	if (!t.buf || write_marks(ss, "end", t.buf, 0))
		goto out;
	for (int tries = 0; ss->s.end_cpu < 0 && tries < 100; tries++) {
		struct timespec nap = { 0, 10 * 1000000L };

		if (drain(ss))
			goto out;
		if (ss->s.end_cpu < 0)
			nanosleep(&nap, NULL);
	}
	if (ss->s.end_cpu < 0) {
		err_msg("the end mark did not come back from the ring buffer\n");
		goto out;
	}
	if (ss->writing) {
		t.len = 0;
		for (int c = 0; c < ss->w.nr_cpus; c++) {
			char sum_text[TS_SUM_TEXT];
			struct ts_sum sum;
			uint64_t count;

			ts_dw_sum(&ss->w, c, &count, &sum);
			if (c == ss->s.end_cpu)
				count = ss->end_pages, sum = ss->end_pages_sum;
			ts_sum_text(TS_SUM_FLETCHER128, &sum, sum_text);
			text_add(&t, "%d=%llu:%s ", c, (unsigned long long)count, sum_text);
		}
		if (!t.buf || write_marks(ss, "pages", t.buf, 0))
			goto out;
	}
	t.len = 0;
	text_add(&t, "markers=%d crc=%08x", ss->end_marks, ss->end_crc);
	ret = t.buf ? write_marks(ss, "done", t.buf, 0) : -1;
out:
	pin_here(ss, 0);
	free(t.buf);
	return ret;
}

/* The kallsyms lines a recording needs: the tick's function and the callers. */
static void kallsyms_text(struct text *t, const struct ts_ksym_query *q)
{
	if (q->tick_fn) {
		text_add(t, "%016llx %c %s\n", (unsigned long long)q->tick_fn, q->tick_type,
			 q->tick_name);
		if (q->tick_next)
			text_add(t, "%016llx %c %s\n", (unsigned long long)q->tick_next,
				 q->tick_next_type, q->tick_next_name);
	}
	/* the trace markers' own function, so that they are not named after another */
	if (q->cand[2].addr) {
		text_add(t, "%016llx %c %s\n", (unsigned long long)q->cand[2].addr, q->cand[2].type,
			 q->cand[2].name);
		if (q->cand[2].next)
			text_add(t, "%016llx %c %s\n", (unsigned long long)q->cand[2].next,
				 q->cand[2].next_type, q->cand[2].next_name);
	}
	for (int i = 0; i < q->nr; i++) {
		const struct ts_ksym *s = &q->sym[i];

		if (s->addr)
			text_add(t, "%016llx %c %s\n", (unsigned long long)s->addr, s->type, s->name);
		if (s->next)
			text_add(t, "%016llx %c %s\n", (unsigned long long)s->next, s->next_type,
				 s->next_name);
	}
}

/* Name the callers of tick dependencies and the causes' functions, from /proc/kallsyms. */
static void resolve_callers(struct ts_session *ss)
{
	struct ts_analysis *an = ss->an;
	uint64_t tick = ss->ksyms.tick_fn;
	struct ts_ksym_query *q = &ss->ksyms;

	if (!ts_analysis_want_symbols(an, NULL))
		return;		/* the start's query has the tick's function */
	ts_ksym_query_init(q);
	ts_analysis_want_symbols(an, q);
	ts_ksym_scan_file(q, "/proc/kallsyms");
	if (ss->ksyms.tick_fn != tick)
		ss->ksyms.tick_fn = 0;	/* not the one we filtered on: leave it out */
	ts_analysis_name_symbols(an, q);
}

static int write_file(struct ts_session *ss)
{
	struct ts_analysis *an = ss->an;
	struct text ksyms = { 0 }, cmdlines = { 0 }, uts_text = { 0 };
	char *cpustat[TS_MAX_CPUS] = { 0 };
	struct ts_dw_meta m = { 0 };
	struct utsname uts;
	char *clocks;
	int ret;

	kallsyms_text(&ksyms, &ss->ksyms);
	for (int i = 0; an->comms && i < an->comm_slots; i++)
		if (an->comms[i].pid > 0)
			text_add(&cmdlines, "%d %s\n", an->comms[i].pid, an->comms[i].comm);
	uname(&uts);
	text_add(&uts_text, "%s %s %s %s", uts.sysname, uts.nodename, uts.release, uts.machine);
	clocks = tracefs_instance_file_read(ss->inst, "trace_clock", NULL);
	for (int c = 0; c < ss->w.nr_cpus; c++) {
		char path[64];

		snprintf(path, sizeof(path), "per_cpu/cpu%d/stats", c);
		if (!ts_cpuset_has(&ss->online, c))
			continue;
		cpustat[c] = tracefs_instance_file_read(ss->inst, path, NULL);
		if (!cpustat[c])	/* for trace-cmd; the end marks have the overruns */
			err_msg("warning: cannot read %s: the recording lacks CPU %d's statistics\n",
				path, c);
	}
	m.header_page = ss->header_page;
	m.header_page_len = ss->header_page_len;
	m.header_event = ss->header_event;
	m.header_event_len = ss->header_event_len;
	m.kallsyms = ksyms.buf ? ksyms.buf : "";
	m.kallsyms_len = ksyms.len;
	m.cmdlines = cmdlines.buf ? cmdlines.buf : "";
	m.cmdlines_len = cmdlines.len;
	m.uname = uts_text.buf ? uts_text.buf : "";
	m.trace_clock = clocks ? clocks : "[mono]";
	m.clock = "mono";
	m.recorder = "tickstat " TICKSTAT_VERSION;
	m.cpustat = cpustat;
	if (clocks)
		clocks[strcspn(clocks, "\n")] = '\0';
	ret = ts_dw_finish(&ss->w, &m);
	if (ret)
		err_msg("write error: %s\n", strerror(errno));
	for (int c = 0; c < ss->w.nr_cpus; c++)
		free(cpustat[c]);
	free(clocks);
	free(ksyms.buf);
	free(cmdlines.buf);
	free(uts_text.buf);
	return ret;
}

/*
 * ts_session_stop - switch tracing off, take the rest, write the end
 * marks, close the analysis at this moment and write the recording.
 * Returns 0, or -1 after saying why.
 */
int ts_session_stop(struct ts_session *ss)
{
	struct ts_analysis *an = ss->an;
	uint64_t stop;

	/*
	 * The window ends when tracing goes off.  Then the events are disabled
	 * (one write for all, which still takes long: the kernel waits for RCU)
	 * and tracing goes on again for the end marks alone.
	 */
	if (tracefs_trace_off(ss->inst)) {
		err_msg("cannot switch tracing off: %m\n");
		return -1;
	}
	stop = ts_now_ns();
	/* events after the window's end would be charged to it */
	if (tracefs_instance_file_write(ss->inst, "events/enable", "0") < 0) {
		err_msg("cannot disable the events: %m\n");
		return -1;
	}
	if (drain(ss))
		return -1;
	if (tracefs_trace_on(ss->inst)) {
		err_msg("cannot switch tracing on for the end marks: %m\n");
		return -1;
	}
	if (end_marks(ss, stop))
		return -1;
	for (int tries = 0; !ss->s.done && tries < 100; tries++) {
		struct timespec nap = { 0, 10 * 1000000L };

		if (drain(ss))
			return -1;
		if (!ss->s.done)
			nanosleep(&nap, NULL);
	}
	/* nothing is enabled any more: a failure here costs no events */
	if (tracefs_trace_off(ss->inst))
		err_msg("warning: cannot switch tracing off after the end marks: %m\n");
	if (!ss->s.done) {
		err_msg("the end marks did not come back from the ring buffer\n");
		return -1;
	}
	resolve_callers(ss);
	for (int i = 0; i < an->nr_culprits; i++)
		add_comm(an, an->culprits[i].pid);
	for (int c = 0; c < an->nr_cpus; c++)
		for (int i = 0; an->cpus[c] && i < an->cpus[c]->nr_tasks; i++)
			add_comm(an, an->cpus[c]->tasks[i].pid);
	ts_analysis_finish(an, ss->s.end_ns);
	debug_msg("tickstat: %llu pages, %llu records, %llu undecodable records, %llu bad pages\n",
		  (unsigned long long)ss->s.pages, (unsigned long long)ss->s.records,
		  (unsigned long long)an->bad_records, (unsigned long long)an->bad_pages);
	return ss->writing ? write_file(ss) : 0;
}

/* ts_session_free - destroy the instance (on every path) and free the session */
void ts_session_free(struct ts_session *ss)
{
	if (!ss)
		return;
	close_readers(&ss->rd);
	if (ss->marker_fd >= 0)
		close(ss->marker_fd);
	free(ss->doctor);
	free(ss->quota_news.buf);
	for (int i = 0; i < ss->nr_early; i++)
		free(ss->early[i].page);
	free(ss->early);
	if (ss->inst) {
		const char *name = tracefs_instance_get_name(ss->inst);

		/* the system's tracing state as found: say what could not be undone */
		if (tracefs_trace_off(ss->inst))
			err_msg("warning: cannot switch tracing off in the instance %s: %m\n", name);
		if (tracefs_instance_file_write(ss->inst, "events/enable", "0") < 0)
			err_msg("warning: cannot disable the events of the instance %s: %m\n", name);
		if (tracefs_instance_destroy(ss->inst))
			err_msg("warning: cannot remove the tracing instance %s (%m): remove it with rmdir %s/instances/%s\n",
				name, tracefs_tracing_dir(), name);
		tracefs_instance_free(ss->inst);
	}
	/* the probes after the instance: disabled there, they can go */
	ts_probes_remove(&ss->probes);
	if (ss->stream_ok)
		ts_stream_free(&ss->s);
	if (ss->writing)
		ts_dw_free(&ss->w);
	free(ss->header_page);
	free(ss->header_event);
	free(ss->callers);
	free(ss);
}
