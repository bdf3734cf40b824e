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

/*
 * Also finds the tick's hrtimer callback, by the name the running kernel
 * gives it: tick_sched_timer up to Linux 6.8, tick_nohz_handler from 6.9
 * (before 6.9 a function of that name exists too, the low-resolution
 * clockevent handler, so tick_sched_timer wins when both are there).
 */
static void load_ksyms(struct ksyms *k, uint64_t *tick_fn, const char **tick_name)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[256], name[128], type;
	unsigned long long addr, handler = 0;
	int cap = 0;

	*tick_fn = 0;
	*tick_name = NULL;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %127s", &addr, &type, name) != 3 || !addr)
			continue;
		if (type != 't' && type != 'T')
			continue;
		if (!strcmp(name, "tick_sched_timer")) {
			*tick_fn = addr;
			*tick_name = "tick_sched_timer";
		} else if (!strcmp(name, "tick_nohz_handler")) {
			handler = addr;
		}
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
	if (!*tick_fn && handler) {
		*tick_fn = handler;
		*tick_name = "tick_nohz_handler";
	}
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
 * The tick state of each CPU when recording starts, from /proc/timer_list
 * (.tick_stopped), and whether a task runs there, from /proc/<pid>/stat.
 */
static void snapshot(struct text *meta, const struct ts_cpuset *online)
{
	int stopped[TS_MAX_CPUS], busy[TS_MAX_CPUS];
	char line[256], path[300];
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
		char state, *p;
		int proc;

		if (!e)
			break;
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		p = fgets(line, sizeof(line), f) ? strrchr(line, ')') : NULL;
		fclose(f);
		/* state is field 3; processor is field 39 */
		if (!p || sscanf(p + 2, "%c", &state) != 1 || state != 'R')
			continue;
		for (int field = 2; p && field < 39; field++)
			p = strchr(p + 1, ' ');
		if (p && sscanf(p + 1, "%d", &proc) == 1 && proc >= 0 && proc < TS_MAX_CPUS)
			busy[proc] = 1;
	}
	if (d)
		closedir(d);
	for (int c = 0; c < TS_MAX_CPUS; c++) {
		if (!ts_cpuset_has(online, c))
			continue;
		text_add(meta, "initial.%d=%s,%s\n", c,
			 stopped[c] < 0 ? "unknown" : stopped[c] ? "stopped" : "running",
			 busy[c] ? "busy" : "idle");
	}
}

static int enable_events(struct tracefs_instance *inst, uint64_t tick_fn, int *present)
{
	for (int i = 0; i < NR_EVENTS; i++) {
		present[i] = tracefs_event_file_exists(NULL, events[i].system, events[i].name,
						       "format");
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

/* The END section: window end, ring-buffer losses, names of culprits. */
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
		int pid = an->culprits[i].pid;
		char path[64], comm[64];

		if (s)
			text_add(t, "sym.0x%llx=%s+0x%llx\n",
				 (unsigned long long)an->culprits[i].caller, s->name,
				 (unsigned long long)(an->culprits[i].caller - s->addr));
		snprintf(path, sizeof(path), "/proc/%d/comm", pid);
		if (!ts_comm_get(an, pid) && !read_file(path, comm, sizeof(comm))) {
			comm[strcspn(comm, "\n")] = '\0';
			text_add(t, "comm.%d=%s\n", pid, comm);
		}
	}
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
int ts_record(const struct ts_record_opts *o, struct ts_analysis *an, int *cmd_status)
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
	const char *tick_name;
	pid_t child = -1;
	FILE *out = NULL;

	*cmd_status = -1;
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
	if (o->output) {
		out = fopen(o->output, "wb");
		if (!out) {
			err_msg("%s: %s\n", o->output, strerror(errno));
			return -1;
		}
	}
	load_ksyms(&ksyms, &tick_fn, &tick_name);
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
	/*
	 * tick_sched_timer= is the key's first name, which tickstat 0.1 reads:
	 * the same address under it keeps such a reader counting ticks.
	 */
	if (tick_fn) {
		text_add(&meta, "tick_timer=0x%llx\ntick_timer_function=%s\n",
			 (unsigned long long)tick_fn, tick_name);
		text_add(&meta, "tick_sched_timer=0x%llx\n", (unsigned long long)tick_fn);
	}
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
			*cmd_status = status;
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
	ts_analysis_finish(an, an->win_end);
	if (s.out_error) {
		err_msg("%s: write error: %s\n", o->output, strerror(s.out_error));
		goto out;
	}
	ret = 0;
out:
	if (child > 0) {
		int status;

		if (go_fd >= 0)
			close(go_fd);
		kill(child, SIGTERM);
		waitpid(child, &status, 0);
		if (*cmd_status < 0)
			*cmd_status = status;
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
	if (out && fclose(out) && !ret) {
		err_msg("%s: %s\n", o->output, strerror(errno));
		ret = -1;
	}
	free(meta.buf);
	free(end.buf);
	free(ksyms.sym);
	return ret;
}
