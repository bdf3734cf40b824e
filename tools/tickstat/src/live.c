// SPDX-License-Identifier: GPL-2.0
/*
 * live.c - record tick events without causing what we measure.
 *
 * The recorder works in a private tracing instance that it destroys on
 * every exit path, so the system's tracing state is left as found.  It pins
 * itself to CPUs it does not monitor, uses no perf events (a frequency-mode
 * perf event would set PERF_EVENTS on every nohz_full CPU), and reads the
 * per-CPU ring buffers with non-blocking reads at a fixed period: a reader
 * that never sleeps on a buffer never makes the kernel queue wake-up
 * irq_work on the CPU that writes it.
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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "live.h"
#include "stream.h"

#define POLL_MS		100
#define INSTANCE_PREFIX	"tickstat_"
#define TERM_GRACE_MS	5000	/* a command gets this long to obey SIGTERM */

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

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested++;
}

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
static int pick_cpus(const struct ts_record_opts *o, struct ts_cpuset *mon,
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
static void pin_away(const struct ts_cpuset *mon, const struct ts_cpuset *online)
{
	cpu_set_t set;
	int n = 0;

	CPU_ZERO(&set);
	for (int c = 0; c < CPU_SETSIZE && c < TS_CPUSET_WORDS * 64; c++) {
		if (ts_cpuset_has(online, c) && !ts_cpuset_has(mon, c)) {
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

static pid_t start_command(char **argv, int *ready_pipe)
{
	int go[2];
	pid_t pid;

	if (pipe(go))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		char c;

		close(go[1]);
		/* wait until tracing runs, so the whole command is recorded */
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, "tickstat: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(go[0]);
	*ready_pipe = go[1];
	return pid;
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

static int setup_instance(struct tracefs_instance **instp, const struct ts_record_opts *o,
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
/*
 * End the command: SIGTERM, then SIGKILL when it has not obeyed within
 * TERM_GRACE_MS or when the user presses Ctrl-C again.  Returns its wait
 * status.
 */
static int stop_command(pid_t child)
{
	sig_atomic_t asked = stop_requested;
	int status = 0;

	kill(child, SIGTERM);
	for (int ms = 0; ; ms += 50) {
		struct timespec nap = { 0, 50 * 1000000L };

		if (waitpid(child, &status, WNOHANG) == child)
			return status;
		if (ms >= TERM_GRACE_MS || stop_requested > asked) {
			info_msg("tickstat: the command %s: killing it\n",
				 ms >= TERM_GRACE_MS ? "ignored SIGTERM" : "is still running");
			kill(child, SIGKILL);
			waitpid(child, &status, 0);
			return status;
		}
		nanosleep(&nap, NULL);
	}
}

int ts_record(const struct ts_record_opts *o, struct ts_analysis *an, struct ts_command_end *cmd)
{
	struct ts_cpuset mon, online;
	struct tracefs_instance *inst = NULL;
	struct reader rd = { .nr = 0 };
	struct ts_stream s = { 0 };
	struct text meta = { 0 }, end = { 0 };
	struct ksyms ksyms = { 0 };
	struct sigaction sa = { .sa_handler = on_signal };
	struct utsname uts;
	char nohz[256], list[512];
	int present[NR_EVENTS], go_fd = -1, ret = -1, stream_ok = 0;
	uint64_t tick_fn, start, deadline;
	pid_t child = -1;
	FILE *out = o->output_file;

	cmd->status = -1;
	cmd->stopped = 0;
	if (geteuid()) {
		err_msg("record needs root (it creates a tracing instance)\n");
		return -1;
	}
	if (!tracefs_mounted() || !tracefs_tracing_dir()) {
		err_msg("tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)\n");
		return -1;
	}
	if (pick_cpus(o, &mon, &online, nohz, sizeof(nohz)))
		return -1;
	load_ksyms(&ksyms, &tick_fn);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if (o->command) {
		child = start_command(o->command, &go_fd);
		if (child < 0) {
			err_msg("cannot start the command: %s\n", strerror(errno));
			goto out;
		}
	}
	pin_away(&mon, &online);
	if (setup_instance(&inst, o, tick_fn, present))
		goto out;
	if (ts_stream_init(&s, an, out)) {
		err_msg("%s\n", s.err);
		goto out;
	}
	stream_ok = 1;

	start = ts_now_ns();
	tracefs_trace_on(inst);
	uname(&uts);
	text_add(&meta, "start_ns=%llu\n", (unsigned long long)start);
	snapshot(&meta, &online);
	text_add(&meta, "snapshot_ns=%llu\n", (unsigned long long)ts_now_ns());
	ts_cpuset_format(&online, list, sizeof(list));
	text_add(&meta, "cpus=%s\nnohz_full=%s\n", list, nohz);
	ts_cpuset_format(&mon, list, sizeof(list));
	text_add(&meta, "monitored=%s\nkernel=%s\nclock=mono\npage_size=%d\nlong_size=%d\n",
		 list, uts.release, (int)getpagesize(), (int)sizeof(long));
	if (tick_fn)
		text_add(&meta, "tick_sched_timer=0x%llx\n", (unsigned long long)tick_fn);
	text_add(&meta, "recorder=tickstat %s\n", TICKSTAT_VERSION);
	snprintf(an->source_kind, sizeof(an->source_kind), "live");
	if (o->output)
		snprintf(an->source_path, sizeof(an->source_path), "%s", o->output);
	if (!meta.buf || ts_stream_meta(&s, meta.buf, meta.len)) {
		err_msg("%s\n", s.err);
		goto out;
	}
	if (save_formats(&s, present))
		goto out;
	rd.page_size = getpagesize();
	if (open_readers(&rd, inst, &online))
		goto out;

	info_msg("tickstat: recording CPUs %s%s\n", list,
		 o->duration > 0 ? "" : o->command ? " until the command exits" : " until Ctrl-C");
	if (go_fd >= 0) {
		if (write(go_fd, "g", 1) != 1)
			err_msg("cannot start the command\n");
		close(go_fd);
		go_fd = -1;
	}
	deadline = o->duration > 0 ? start + (uint64_t)(o->duration * 1e9) : 0;
	while (!stop_requested) {
		struct timespec nap = { 0, POLL_MS * 1000000L };
		int status;

		if (drain(&rd, &s))
			goto out;
		if (child > 0 && waitpid(child, &status, WNOHANG) == child) {
			cmd->status = status;
			child = -1;
			if (!deadline)
				break;
		}
		if (deadline && ts_now_ns() >= deadline)
			break;
		nanosleep(&nap, NULL);
	}
	tracefs_trace_off(inst);
	{
		uint64_t stop = ts_now_ns();

		if (drain(&rd, &s))
			goto out;
		end_text(&end, inst, an, &ksyms, &online, stop);
	}
	if (!end.buf || ts_stream_end(&s, end.buf, end.len)) {
		err_msg("%s\n", s.err);
		goto out;
	}
	ts_analysis_finish(an, s.end_ns);
	debug_msg("tickstat: %llu pages, %llu records, %llu undecodable records, %llu bad pages\n",
		  (unsigned long long)s.pages, (unsigned long long)s.records,
		  (unsigned long long)an->bad_records, (unsigned long long)an->bad_pages);
	if (s.out_error) {
		err_msg("%s: write error: %s\n", o->output, strerror(s.out_error));
		goto out;
	}
	ret = 0;
out:
	if (child > 0) {
		if (go_fd >= 0)
			close(go_fd);
		cmd->status = stop_command(child);
		cmd->stopped = 1;
	}
	close_readers(&rd);
	if (inst) {
		tracefs_trace_off(inst);
		tracefs_event_disable(inst, NULL, NULL);
		tracefs_instance_destroy(inst);
		tracefs_instance_free(inst);
	}
	if (stream_ok)
		ts_stream_free(&s);
	free(meta.buf);
	free(end.buf);
	free(ksyms.sym);
	return ret;
}
