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
#include <dirent.h>
#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <tracefs.h>

#include "session.h"
#include "stream.h"

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
	{ "sched", "sched_switch", 0 },
	{ "timer", "hrtimer_expire_entry", 0 },
};

#define NR_EVENTS (int)(sizeof(events) / sizeof(events[0]))

/* A growable text buffer for the META and END sections. */
struct text {
	char *buf;
	size_t len, cap;
};

static void text_add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void text_add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
		va_end(ap);
		if (n >= 0 && t->len + n < t->cap)
			break;
		t->cap = t->cap * 2 + n + 256;
		t->buf = realloc(t->buf, t->cap);
		if (!t->buf) {
			t->len = t->cap = 0;
			return;
		}
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

/* Kernel text symbols, sorted, to name the callers of tick_dep_set. */
struct ksym {
	uint64_t addr;
	char name[64];
};

struct ksyms {
	struct ksym *sym;
	int nr;
};

static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void load_ksyms(struct ksyms *k, uint64_t *tick_fn)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[256], name[128], type;
	unsigned long long addr;
	int cap = 0;

	*tick_fn = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %127s", &addr, &type, name) != 3 || !addr)
			continue;
		if (type != 't' && type != 'T')
			continue;
		if (!strcmp(name, "tick_sched_timer"))
			*tick_fn = addr;
		if (k->nr == cap) {
			struct ksym *s = realloc(k->sym, (cap = cap * 2 + 4096) * sizeof(*s));

			if (!s)
				break;
			k->sym = s;
		}
		k->sym[k->nr].addr = addr;
		snprintf(k->sym[k->nr].name, sizeof(k->sym[0].name), "%.63s", name);
		k->nr++;
	}
	fclose(f);
	qsort(k->sym, k->nr, sizeof(*k->sym), by_addr);
}

static const struct ksym *ksym_of(const struct ksyms *k, uint64_t addr)
{
	int lo = 0, hi = k->nr - 1, best = -1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (k->sym[mid].addr <= addr)
			best = mid, lo = mid + 1;
		else
			hi = mid - 1;
	}
	return best < 0 ? NULL : &k->sym[best];
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
		     struct ts_cpuset *online, char *nohz, size_t nohz_len)
{
	struct ts_cpuset full;
	char buf[4096];

	if (read_file("/sys/devices/system/cpu/online", buf, sizeof(buf)) ||
	    ts_cpuset_parse(online, buf)) {
		err_msg("cannot read /sys/devices/system/cpu/online\n");
		return -1;
	}
	nohz[0] = '\0';
	if (!read_file("/sys/devices/system/cpu/nohz_full", buf, sizeof(buf)) &&
	    !ts_cpuset_parse(&full, buf) && !strstr(buf, "null"))
		ts_cpuset_format(&full, nohz, nohz_len);
	else
		memset(&full, 0, sizeof(full));
	if (!ts_cpuset_empty(&o->cpus))
		*mon = o->cpus;
	else if (!ts_cpuset_empty(&full))
		*mon = full;
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

/* Pin the recorder to the online CPUs it does not monitor. */
static void pin_away(const struct ts_cpuset *mon)
{
	cpu_set_t online, set;
	int n = 0;

	CPU_ZERO(&set);
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
				tracefs_instance_destroy(inst);
				tracefs_instance_free(inst);
			}
		}
	}
	tracefs_list_free(names);
}

/*
 * A thread that is running: state R in /proc/PID/task/TID/stat.  Returns
 * its CPU (field 39), or -1.
 */
static int running_on(const char *pid, const char *tid)
{
	char line[1024], path[600], state, *p;
	int cpu;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/task/%s/stat", pid, tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	p = fgets(line, sizeof(line), f) ? strrchr(line, ')') : NULL;
	fclose(f);
	/* state is field 3; processor is field 39 */
	if (!p || sscanf(p + 2, "%c", &state) != 1 || state != 'R')
		return -1;
	for (int field = 2; p && field < 39; field++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%d", &cpu) != 1 || cpu < 0 || cpu >= TS_MAX_CPUS)
		return -1;
	return cpu;
}

/*
 * Mark the CPUs on which a thread of process pid runs.  Every thread, not
 * only the main one: a worker spinning on an isolated CPU while its main
 * thread sleeps (the DPDK pattern) makes that CPU busy.
 */
static void mark_busy_threads(const char *pid, int *busy)
{
	char path[300];
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%s/task", pid);
	d = opendir(path);
	while (d) {
		struct dirent *e = readdir(d);
		int cpu;

		if (!e)
			break;
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		cpu = running_on(pid, e->d_name);
		if (cpu >= 0)
			busy[cpu] = 1;
	}
	if (d)
		closedir(d);
}

/*
 * The tick state of each CPU when recording starts, from /proc/timer_list
 * (.tick_stopped), and whether a task runs there, from the state of every
 * thread in /proc/PID/task/TID/stat.
 */
static void snapshot(struct text *meta, const struct ts_cpuset *online)
{
	int stopped[TS_MAX_CPUS], busy[TS_MAX_CPUS];
	char line[256];
	int cpu = -1, v;
	DIR *d;
	FILE *f;

	for (int i = 0; i < TS_MAX_CPUS; i++)
		stopped[i] = -1, busy[i] = 0;
	f = fopen("/proc/timer_list", "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "cpu: %d", &cpu) == 1)
			continue;
		if (cpu >= 0 && cpu < TS_MAX_CPUS && sscanf(line, " .tick_stopped : %d", &v) == 1)
			stopped[cpu] = v;
	}
	if (f)
		fclose(f);
	d = opendir("/proc");
	while (d) {
		struct dirent *e = readdir(d);

		if (!e)
			break;
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9')
			mark_busy_threads(e->d_name, busy);
	}
	if (d)
		closedir(d);
	for (int c = 0; c < TS_MAX_CPUS; c++) {
		if (!ts_cpuset_has(online, c))
			continue;
		text_add(meta, "initial.%d=%s,%s\n", c,
			 stopped[c] < 0 ? "unknown" : stopped[c] ? "stopped" : "running",
			 busy[c] ? "busy" : "idle");
		debug_msg("tickstat: CPU %d at the start: tick %s, %s\n", c,
			  stopped[c] < 0 ? "unknown" : stopped[c] ? "stopped" : "running",
			  busy[c] ? "busy" : "idle");
	}
}

static int enable_events(struct tracefs_instance *inst, uint64_t tick_fn, int *present)
{
	for (int i = 0; i < NR_EVENTS; i++) {
		present[i] = tracefs_event_file_exists(NULL, events[i].system, events[i].name,
						       "format");
		debug_msg("tickstat: event %s:%s %s\n", events[i].system, events[i].name,
			  present[i] ? "present" : "absent");
		if (!present[i]) {
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
		if (!strcmp(events[i].name, "hrtimer_expire_entry")) {
			char filter[64];

			if (!tick_fn) {
				present[i] = 0;	/* cannot tell the tick's timer apart */
				debug_msg("tickstat: no tick_sched_timer in /proc/kallsyms: tick count unknown\n");
				continue;
			}
			/* only the tick's own timer: keeps the stream small */
			snprintf(filter, sizeof(filter), "function == 0x%llx",
				 (unsigned long long)tick_fn);
			tracefs_event_file_write(inst, events[i].system, events[i].name,
						 "filter", filter);
		}
		if (tracefs_event_enable(inst, events[i].system, events[i].name)) {
			err_msg("cannot enable %s:%s\n", events[i].system, events[i].name);
			return -1;
		}
	}
	return 0;
}

static int save_formats(struct ts_stream *s, const int *present)
{
	char *text;
	int size;

	text = tracefs_instance_file_read(NULL, "events/header_page", &size);
	if (!text || ts_stream_header_page(s, text, size)) {
		free(text);
		err_msg("cannot read events/header_page: %s\n", s->err);
		return -1;
	}
	free(text);
	for (int i = 0; i < NR_EVENTS; i++) {
		struct text t = { 0 };
		char *fmt;

		if (!present[i])
			continue;
		fmt = tracefs_event_file_read(NULL, events[i].system, events[i].name, "format",
					      &size);
		if (!fmt) {
			err_msg("cannot read the format of %s:%s\n", events[i].system, events[i].name);
			return -1;
		}
		text_add(&t, "%s\n%.*s", events[i].system, size, fmt);
		free(fmt);
		if (!t.buf || ts_stream_format(s, t.buf, t.len)) {
			err_msg("%s\n", s->err);
			free(t.buf);
			return -1;
		}
		free(t.buf);
	}
	return 0;
}

struct reader {
	int fd[TS_MAX_CPUS];
	int nr;
	char *page;
	int page_size;
};

/* Drain every CPU's buffer with non-blocking reads: never sleep on one. */
static int drain(struct reader *r, struct ts_stream *s)
{
	for (int c = 0; c < r->nr; c++) {
		if (r->fd[c] < 0)
			continue;
		for (;;) {
			ssize_t n = read(r->fd[c], r->page, r->page_size);

			if (n <= 0)
				break;
			if (n < r->page_size)
				memset(r->page + n, 0, r->page_size - n);
			if (ts_stream_page(s, c, r->page, r->page_size)) {
				err_msg("CPU %d: %s\n", c, s->err);
				return -1;
			}
		}
	}
	return 0;
}

static int open_readers(struct reader *r, struct tracefs_instance *inst,
			const struct ts_cpuset *online)
{
	r->nr = 0;
	for (int c = 0; c < TS_MAX_CPUS; c++) {
		char *path;

		r->fd[c] = -1;
		if (!ts_cpuset_has(online, c))
			continue;
		r->nr = c + 1;
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
	return r->page ? 0 : -1;
}

static void close_readers(struct reader *r)
{
	for (int c = 0; c < r->nr; c++)
		if (r->fd[c] >= 0)
			close(r->fd[c]);
	free(r->page);
}

/* The name of a task the stream did not name, from /proc, for the END section. */
static void add_comm(struct text *t, struct ts_analysis *an, int pid)
{
	char path[64], comm[64];

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	if (pid > 0 && !ts_comm_get(an, pid) && !read_file(path, comm, sizeof(comm))) {
		comm[strcspn(comm, "\n")] = '\0';
		text_add(t, "comm.%d=%s\n", pid, comm);
		ts_comm_set(an, pid, comm);
	}
}

/* The END section: window end, ring-buffer losses, names of culprits and co-runners. */
static void end_text(struct text *t, struct tracefs_instance *inst, struct ts_analysis *an,
		     const struct ksyms *k, const struct ts_cpuset *online, uint64_t end)
{
	text_add(t, "end_ns=%llu\n", (unsigned long long)end);
	for (int c = 0; c < TS_MAX_CPUS; c++) {
		char *stats, *p, path[64];
		unsigned long long n;

		if (!ts_cpuset_has(online, c))
			continue;
		snprintf(path, sizeof(path), "per_cpu/cpu%d/stats", c);
		stats = tracefs_instance_file_read(inst, path, NULL);
		p = stats ? strstr(stats, "overrun:") : NULL;
		if (p && sscanf(p, "overrun: %llu", &n) == 1)
			text_add(t, "overrun.%d=%llu\n", c, n);
		free(stats);
	}
	for (int i = 0; i < an->nr_culprits; i++) {
		const struct ksym *s = ksym_of(k, an->culprits[i].caller);

		if (s)
			text_add(t, "sym.0x%llx=%s+0x%llx\n",
				 (unsigned long long)an->culprits[i].caller, s->name,
				 (unsigned long long)(an->culprits[i].caller - s->addr));
		add_comm(t, an, an->culprits[i].pid);
	}
	for (int c = 0; c < an->nr_cpus; c++)
		for (int i = 0; an->cpus[c] && i < an->cpus[c]->nr_tasks; i++)
			add_comm(t, an, an->cpus[c]->tasks[i].pid);
}

static int setup_instance(struct tracefs_instance **instp, const struct ts_session_opts *o,
			  uint64_t tick_fn, int *present)
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
	*instp = inst;
	tracefs_trace_off(inst);
	if (tracefs_instance_file_write(inst, "trace_clock", "mono") < 0) {
		err_msg("cannot select the mono trace clock\n");
		return -1;
	}
	snprintf(kb, sizeof(kb), "%d", o->buffer_kb);
	if (tracefs_instance_file_write(inst, "buffer_size_kb", kb) < 0) {
		err_msg("cannot set buffer_size_kb to %s\n", kb);
		return -1;
	}
	return enable_events(inst, tick_fn, present);
}

/*
 * ts_record - record until the duration ends, the command exits or the
 * user interrupts; feed the analysis, and write the recording if asked.
 * Returns 0, or -1 after printing why.  *cmd_status gets the command's
 * wait status (or -1).
 */

struct ts_session {
	struct ts_analysis *an;
	struct tracefs_instance *inst;
	struct reader rd;
	struct ts_stream s;
	int stream_ok;
	struct ksyms ksyms;
	struct ts_cpuset mon, online;
	char nohz[256];
	int present[NR_EVENTS];
	uint64_t start;
};

/*
 * ts_session_start - set up the instance, take the start snapshot and
 * switch tracing on.  out, when set, gets the recording.  Returns the
 * session, or NULL after saying why (nothing is left behind).
 */
struct ts_session *ts_session_start(const struct ts_session_opts *o, struct ts_analysis *an,
				    FILE *out)
{
	struct ts_session *ss = calloc(1, sizeof(*ss));
	struct text meta = { 0 };
	struct utsname uts;
	uint64_t tick_fn;
	char list[512];

	if (!ss) {
		err_msg("out of memory\n");
		return NULL;
	}
	ss->an = an;
	ss->rd.nr = 0;
	if (geteuid()) {
		err_msg("recording needs root (it creates a tracing instance)\n");
		goto fail;
	}
	if (!tracefs_mounted() || !tracefs_tracing_dir()) {
		err_msg("tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)\n");
		goto fail;
	}
	if (pick_cpus(o, &ss->mon, &ss->online, ss->nohz, sizeof(ss->nohz)))
		goto fail;
	if (o->pin_away)
		pin_away(&ss->mon);
	load_ksyms(&ss->ksyms, &tick_fn);
	if (setup_instance(&ss->inst, o, tick_fn, ss->present))
		goto fail;
	if (ts_stream_init(&ss->s, an, out)) {
		err_msg("%s\n", ss->s.err);
		goto fail;
	}
	ss->stream_ok = 1;

	ss->start = ts_now_ns();
	tracefs_trace_on(ss->inst);
	uname(&uts);
	text_add(&meta, "start_ns=%llu\n", (unsigned long long)ss->start);
	snapshot(&meta, &ss->online);
	text_add(&meta, "snapshot_ns=%llu\n", (unsigned long long)ts_now_ns());
	ts_cpuset_format(&ss->online, list, sizeof(list));
	text_add(&meta, "cpus=%s\nnohz_full=%s\n", list, ss->nohz);
	ts_cpuset_format(&ss->mon, list, sizeof(list));
	text_add(&meta, "monitored=%s\nkernel=%s\nclock=mono\npage_size=%d\nlong_size=%d\n",
		 list, uts.release, (int)getpagesize(), (int)sizeof(long));
	if (tick_fn)
		text_add(&meta, "tick_sched_timer=0x%llx\n", (unsigned long long)tick_fn);
	text_add(&meta, "recorder=tickstat %s\n", TICKSTAT_VERSION);
	snprintf(an->source_kind, sizeof(an->source_kind), "live");
	if (!meta.buf || ts_stream_meta(&ss->s, meta.buf, meta.len)) {
		err_msg("%s\n", ss->s.err);
		free(meta.buf);
		goto fail;
	}
	free(meta.buf);
	if (save_formats(&ss->s, ss->present))
		goto fail;
	ss->rd.page_size = getpagesize();
	if (open_readers(&ss->rd, ss->inst, &ss->online))
		goto fail;
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

/* ts_session_start_ns - when tracing was switched on (CLOCK_MONOTONIC) */
uint64_t ts_session_start_ns(const struct ts_session *ss)
{
	return ss->start;
}

/*
 * ts_session_symbol - the kernel function that holds addr (a caller of
 * tick_dep_set), from /proc/kallsyms as read at the start; NULL if none
 */
const char *ts_session_symbol(const struct ts_session *ss, uint64_t addr)
{
	const struct ksym *s = ksym_of(&ss->ksyms, addr);

	return s ? s->name : NULL;
}

/*
 * ts_session_poll - move what the ring buffers hold into the analysis
 * (and the recording).  Returns 0, or -1 after saying why.
 */
int ts_session_poll(struct ts_session *ss)
{
	return drain(&ss->rd, &ss->s);
}

/*
 * ts_session_stop - switch tracing off, take the rest, write the end of
 * the recording and close the analysis at this moment.  Returns 0, or -1
 * after saying why.
 */
int ts_session_stop(struct ts_session *ss)
{
	struct ts_analysis *an = ss->an;
	struct text end = { 0 };
	uint64_t stop;
	int ret = -1;

	tracefs_trace_off(ss->inst);
	stop = ts_now_ns();
	if (drain(&ss->rd, &ss->s))
		return -1;
	end_text(&end, ss->inst, an, &ss->ksyms, &ss->online, stop);
	if (!end.buf || ts_stream_end(&ss->s, end.buf, end.len)) {
		err_msg("%s\n", ss->s.err);
		goto out;
	}
	ts_analysis_finish(an, ss->s.end_ns);
	debug_msg("tickstat: %llu pages, %llu records, %llu undecodable records, %llu bad pages\n",
		  (unsigned long long)ss->s.pages, (unsigned long long)ss->s.records,
		  (unsigned long long)an->bad_records, (unsigned long long)an->bad_pages);
	if (ss->s.out_error) {
		err_msg("write error: %s\n", strerror(ss->s.out_error));
		goto out;
	}
	ret = 0;
out:
	free(end.buf);
	return ret;
}

/* ts_session_free - destroy the instance (on every path) and free the session */
void ts_session_free(struct ts_session *ss)
{
	if (!ss)
		return;
	close_readers(&ss->rd);
	if (ss->inst) {
		tracefs_trace_off(ss->inst);
		tracefs_event_disable(ss->inst, NULL, NULL);
		tracefs_instance_destroy(ss->inst);
		tracefs_instance_free(ss->inst);
	}
	if (ss->stream_ok)
		ts_stream_free(&ss->s);
	free(ss->ksyms.sym);
	free(ss);
}
