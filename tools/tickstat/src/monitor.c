// SPDX-License-Identifier: GPL-2.0
/*
 * monitor.c - tickstat monitor: watch the tick for days, for Prometheus.
 *
 * One recording session, watched live (watch.c), feeds the same state
 * machine as record and report: at every poll (a quarter of the interval,
 * 250 ms to 1 s: ts_watch_poll_ms) the ring buffers are drained, whole
 * pages only, and every CPU is charged up to the moment every CPU's events
 * have been read to, so that the counters over any span equal a report of
 * the same span, about a poll behind; a CPU that goes offline is unknown
 * until it is back.  Every interval the counters become a Prometheus exposition
 * (series.c), written atomically to the textfile and served over HTTP
 * (httpd.c).
 *
 * The loop is single-threaded: poll() waits for the next poll, update or
 * HTTP client, so the monitor sleeps between them, on CPUs it does not
 * monitor.  SIGINT, SIGTERM and SIGHUP end it: the session's instance is
 * removed, the last numbers written, and the exit status is 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "httpd.h"
#include "monitor.h"
#include "outfile.h"
#include "probes.h"
#include "promtext.h"
#include "series.h"
#include "session.h"
#include "watch.h"

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

struct monitor {
	const struct ts_monitor_opts *o;
	struct ts_analysis an;
	struct ts_watch w;
	struct ts_httpd *httpd;
	struct ts_series series;
	struct ts_prom prom;
	struct ts_monitor_self self;
	struct ts_outfile recording;	/* --output */
	int textfile_failing;
	char kernel[65];
};

static uint64_t realtime_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + t.tv_nsec;
}

/* Poll the session; a CPU that went offline or came back says so in its gauge. */
static int poll_session(struct monitor *m)
{
	if (ts_watch_poll(&m->w))
		return -1;
	for (int i = 0; i < m->an.nr_cpus; i++) {
		const struct ts_cpu *c = m->an.cpus[i];

		if (c && c->active)
			m->series.online[i] = ts_watch_online(&m->w, i);
	}
	m->self.clock_ns = m->w.clock_ns;
	return 0;
}

static const char *symbol(void *ctx, uint64_t addr)
{
	return ts_session_symbol(ctx, addr);
}

static void self_usage(struct ts_monitor_self *self)
{
	struct rusage ru;
	long size, pages;
	FILE *f;

	if (!getrusage(RUSAGE_SELF, &ru))
		self->cpu_ns = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ULL +
			       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ULL;
	f = fopen("/proc/self/statm", "r");
	if (f && fscanf(f, "%ld %ld", &size, &pages) == 2)
		self->rss_bytes = (uint64_t)pages * getpagesize();
	if (f)
		fclose(f);
}

/*
 * Write the exposition: to the textfile (atomically), and keep it for the
 * HTTP server.  A textfile that cannot be written is said once per streak
 * of failures and counted; the monitor goes on.
 */
static int publish(struct monitor *m, int first)
{
	char err[512];

	m->self.scrapes = m->httpd ? ts_httpd_requests(m->httpd) : 0;
	m->self.records = m->w.ss ? ts_session_records(m->w.ss) : 0;
	self_usage(&m->self);
	ts_prom_reset(&m->prom);
	ts_series_write(&m->series, &m->an, &m->self, &m->prom);
	if (m->prom.oom) {
		err_msg("out of memory writing the metrics\n");
		return -1;
	}
	if (!m->o->textfile)
		return 0;
	if (ts_outfile_replace(m->o->textfile, m->prom.buf, m->prom.len, err, sizeof(err))) {
		if (first) {
			err_msg("--textfile: %s\n", err);
			return -1;
		}
		m->self.textfile_errors++;
		if (!m->textfile_failing)
			err_msg("warning: %s (retrying every interval)\n", err);
		m->textfile_failing = 1;
		return 0;
	}
	if (m->textfile_failing)
		info_msg("tickstat: %s written again\n", m->o->textfile);
	m->textfile_failing = 0;
	return 0;
}

/* One update: fresh numbers, the culprit and co-runner tables taken, published. */
static int update(struct monitor *m)
{
	if (poll_session(m))
		return -1;
	ts_series_take(&m->series, &m->an, symbol, m->w.ss);
	/* bounded as the comm table: the quotas of tasks that exited go */
	ts_session_trim_quotas(m->w.ss);
	m->self.updates++;
	return publish(m, 0);
}

static int run_loop(struct monitor *m)
{
	uint64_t interval = (uint64_t)(m->o->interval * 1e9);
	uint64_t start = ts_session_start_ns(m->w.ss);
	uint64_t next_poll = start, next_update = start + interval;
	uint64_t deadline = m->o->duration > 0 ? start + (uint64_t)(m->o->duration * 1e9) : 0;

	while (!stop_requested) {
		struct pollfd fds[TS_HTTPD_MAX_FDS];
		uint64_t now = ts_now_ns(), until = next_poll < next_update ? next_poll : next_update;
		int nfds = m->httpd ? ts_httpd_pollfds(m->httpd, fds) : 0;

		if (deadline && deadline < until)
			until = deadline;
		if (poll(fds, nfds, ts_watch_wait_ms(now, until)) < 0 && errno != EINTR) {
			err_msg("poll: %s\n", strerror(errno));
			return -1;
		}
		if (m->httpd)
			ts_httpd_serve(m->httpd, fds, nfds, m->prom.buf, m->prom.len);
		now = ts_now_ns();
		if (deadline && now >= deadline)
			break;
		if (now >= next_update) {
			if (update(m))
				return -1;
			next_update += interval;
			if (next_update <= now)		/* an update came late: skip, do not bunch */
				next_update = now + interval;
			next_poll = now + m->w.wait_ns;
		} else if (now >= next_poll) {
			if (poll_session(m))
				return -1;
			next_poll = now + m->w.wait_ns;
		}
	}
	return 0;
}

/*
 * The textfile and the recording, before anything starts: what they name
 * can be written (outfile.h; the textfile is no FIFO: a reader that stalls
 * would stall the monitor) and they are not the same file.
 */
static int check_outputs(struct monitor *m)
{
	struct ts_outfile textfile;
	const char *tf = m->o->textfile, *rec = m->o->output;

	if (tf && !strcmp(tf, "-")) {
		err_msg("--textfile -: give a file (standard output is no textfile; a terminal: /dev/stdout)\n");
		return -1;
	}
	if (tf && ts_outfile_check(&textfile, "--textfile", tf, 0))
		return -1;
	if (rec && ts_outfile_check(&m->recording, "--output", rec, TS_OUT_ALLOW_FIFO))
		return -1;
	if (tf && rec && ts_outfile_same(&textfile, &m->recording)) {
		err_msg("--textfile %s and --output %s name the same file: give each its own\n",
			tf, rec);
		return -1;
	}
	return 0;
}

static int start(struct monitor *m)
{
	/*
	 * No kprobes (they crashed Debian's 6.1 in the guest): the patched
	 * events only.  Whole pages: a page the kernel still writes is copied
	 * out an event at a time, 84 kernel instructions an event at 64 CPUs
	 * polled a second apart (docs/performance.md); the numbers stay about
	 * a poll behind (watch.c).
	 * The tick's own events of the watched CPUs only: it reports no other.
	 */
	struct ts_session_opts so = { .cpus = m->o->cpus, .buffer_kb = m->o->buffer_kb,
				      .pin_away = 1, .probes = TS_PROBES_OFF,
				      .causes = !m->o->no_causes, .whole_pages = 1,
				      .monitored_ticks_only = 1 };
	struct utsname uts;
	char list[512], err[256];

	if (check_outputs(m))
		return -1;
	if (m->o->listen) {
		m->httpd = ts_httpd_open(m->o->listen, err, sizeof(err));
		if (!m->httpd) {
			err_msg("%s\n", err);
			return -1;
		}
	}
	if (ts_outfile_open(&m->recording))
		return -1;
	if (ts_watch_start(&m->w, &so, &m->an, m->recording.f,
			   m->o->output ? ts_outfile_spool_hint(&m->recording) : NULL,
			   m->o->interval))
		return -1;
	uname(&uts);
	snprintf(m->kernel, sizeof(m->kernel), "%s", uts.release);
	m->self.kernel = m->kernel;
	m->self.start_unix_ns = realtime_ns();
	if (poll_session(m) || publish(m, 1))
		return -1;
	ts_cpuset_format(ts_session_monitored(m->w.ss), list, sizeof(list));
	info_msg("tickstat: monitoring CPUs %s every %g s%s%s%s%s%s\n", list, m->o->interval,
		 m->o->textfile ? "; textfile " : "", m->o->textfile ? m->o->textfile : "",
		 m->httpd ? "; http://" : "", m->httpd ? ts_httpd_address(m->httpd) : "",
		 m->httpd ? "/metrics" : "");
	return 0;
}

/*
 * ts_monitor - run until a signal (or the duration) ends it.  Returns an
 * exit status: 0 after a signal or the duration, 1 after an error (said).
 */
int ts_monitor(const struct ts_monitor_opts *o)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct monitor *m = calloc(1, sizeof(*m));
	int ret = TS_EXIT_ERROR;

	if (!m) {
		err_msg("out of memory\n");
		return TS_EXIT_ERROR;
	}
	m->o = o;
	ts_analysis_init(&m->an);
	ts_series_init(&m->series, o->top);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (start(m) || run_loop(m))
		goto out;
	/* the last numbers, up to the end of tracing: nothing held back */
	if (ts_watch_stop(&m->w))
		goto out;
	m->self.clock_ns = m->w.clock_ns;
	ts_series_take(&m->series, &m->an, symbol, m->w.ss);
	m->self.updates++;
	if (publish(m, 0) || ts_outfile_commit(&m->recording))
		goto out;
	info_msg("tickstat: monitor stopped after %llu updates\n",
		 (unsigned long long)m->self.updates);
	ret = TS_EXIT_OK;
out:
	ts_outfile_abort(&m->recording);
	ts_watch_free(&m->w);
	ts_httpd_close(m->httpd);
	ts_prom_free(&m->prom);
	ts_series_free(&m->series);
	ts_analysis_free(&m->an);
	free(m);
	return ret;
}
