// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat.c - every input file is a trace.dat: read it into the analysis.
 *
 * One path for all: the container (datfile.c) gives each CPU's pages in
 * order, the stream (stream.c) decodes them into the state machine, CPU by
 * CPU.  A tickstat recording is a trace.dat whose first event on one CPU is
 * tickstat's start mark: its start marks (the snapshot) are read first, from
 * that CPU's first pages, and applied before any event; its end marks say
 * how many pages each CPU wrote and their sum, which must match.  A
 * trace.dat of trace-cmd has no marks: every CPU starts unknown, and the
 * window is the span of its events.
 *
 * trace-cmd record can stop before its readers have written everything
 * (seen under emulation with the host busy): the last events of a CPU are
 * missing, and nothing in the data says so.  The buffer statistics trace-cmd
 * saves (trace-cmd report --stat) count them; see account_unrecorded().
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datfile.h"
#include "ksym.h"
#include "stream.h"
#include "tracedat.h"
#include "util.h"

struct cpu_read {
	uint64_t pages, records, last_ts, first_ts;
	struct ts_sum sum;		/* of its pages so far, of the recording's kind */
	struct ts_sum sum_at_count;	/* after as many pages as the end marks count */
	uint64_t pages_before_end;	/* the end marks' CPU: pages before them */
	struct ts_sum sum_before_end;
	int saw_end;
	uint64_t bad_pages;		/* that failed their checks: records uncounted */
};

struct reading {
	struct ts_analysis *an;
	struct ts_datfile df;
	struct ts_stream s;
	int stream_ok;
	const char *path;
	unsigned char *page;
	struct cpu_read cpu[TS_MAX_CPUS];
	int start_cpu;
	char err[256];
};

static int fail(struct reading *r, const char *what)
{
	if (!r->err[0])
		snprintf(r->err, sizeof(r->err), "%s", what);
	return -1;
}

/* The stream, once the file's page shape and header_page are known. */
static int init_stream(struct reading *r)
{
	if (r->stream_ok)
		return 0;
	if (ts_stream_init(&r->s, r->an, r->df.page_size, r->df.long_size))
		return fail(r, r->s.err);
	r->stream_ok = 1;
	if (!r->df.header_page)
		return fail(r, "corrupt file: no header_page");
	return ts_stream_header_page(&r->s, r->df.header_page, r->df.header_page_len) ?
	       fail(r, r->s.err) : 0;
}

static int on_format(void *ctx, const char *system, const char *text, size_t len)
{
	struct reading *r = ctx;

	if (init_stream(r))
		return -1;
	return ts_stream_format(&r->s, system, text, len) ? fail(r, r->s.err) : 0;
}

/*
 * A text part of the file (kallsyms, command lines): its length field,
 * then the text, handed on in pieces.
 */
static int read_text(struct reading *r, const struct ts_region *reg, int lenbytes,
		     void (*fn)(void *ctx, const char *text, size_t len), void *ctx)
{
	unsigned char b[8];
	char buf[16384];
	uint64_t left = 0;
	struct ts_zin z;
	int ret = -1;

	if (!reg->size)
		return 0;
	if (ts_zin_open(&z, &r->df, reg) || ts_zin_read(&z, b, lenbytes) != lenbytes)
		goto out;
	for (int i = lenbytes - 1; i >= 0; i--)
		left = left << 8 | b[i];
	while (left) {
		ssize_t n = ts_zin_read(&z, buf, left < sizeof(buf) ? left : sizeof(buf));

		if (n <= 0)
			goto out;
		fn(ctx, buf, n);
		left -= n;
	}
	ret = 0;
out:
	if (ret && !r->df.err[0])
		snprintf(r->df.err, sizeof(r->df.err), "truncated file: a text section ends early");
	ts_zin_close(&z);
	return ret ? fail(r, r->df.err) : 0;
}

static void feed_ksyms(void *ctx, const char *text, size_t len)
{
	ts_ksym_feed(ctx, text, len);
}

/* The symbols wanted (the tick's function, callers), from the file's kallsyms. */
static int scan_kallsyms(struct reading *r, struct ts_ksym_query *q)
{
	if (read_text(r, &r->df.kallsyms, 4, feed_ksyms, q))
		return -1;
	ts_ksym_end(q);
	return 0;
}

/*
 * Command lines "PID COMM": names for culprits and co-runners not named yet.
 * trace-cmd saves up to 32768 of them and a report can hold 64 co-runners
 * on each of 1024 CPUs: the pids wanted are sorted once, and each line is
 * a binary search, where a scan of every CPU's table per line grew with
 * the lines times the CPUs.
 */
struct cmdlines {
	struct ts_analysis *an;
	int *wanted;			/* sorted */
	int nr_wanted;
	char line[64];
	size_t len;
};

static int pid_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* The pids a name is wanted for: the culprits and every CPU's co-runners. */
static int wanted_pids(struct cmdlines *cl)
{
	const struct ts_analysis *an = cl->an;
	size_t n = an->nr_culprits;

	for (int c = 0; c < an->nr_cpus; c++)
		n += an->cpus[c] ? an->cpus[c]->nr_tasks : 0;
	cl->wanted = malloc((n ? n : 1) * sizeof(*cl->wanted));
	if (!cl->wanted)
		return -1;
	for (int i = 0; i < an->nr_culprits; i++)
		cl->wanted[cl->nr_wanted++] = an->culprits[i].pid;
	for (int c = 0; c < an->nr_cpus; c++)
		for (int i = 0; an->cpus[c] && i < an->cpus[c]->nr_tasks; i++)
			cl->wanted[cl->nr_wanted++] = an->cpus[c]->tasks[i].pid;
	qsort(cl->wanted, cl->nr_wanted, sizeof(*cl->wanted), pid_cmp);
	return 0;
}

static void cmdline(struct cmdlines *cl)
{
	char comm[17];
	int pid;

	cl->line[cl->len < sizeof(cl->line) ? cl->len : sizeof(cl->line) - 1] = '\0';
	if (sscanf(cl->line, "%d %16[^\n]", &pid, comm) == 2 && pid > 0 &&
	    !ts_comm_get(cl->an, pid) &&
	    bsearch(&pid, cl->wanted, cl->nr_wanted, sizeof(*cl->wanted), pid_cmp))
		ts_comm_set(cl->an, pid, comm);
	cl->len = 0;
}

static void feed_cmdlines(void *ctx, const char *text, size_t len)
{
	struct cmdlines *cl = ctx;

	for (size_t i = 0; i < len; i++) {
		if (text[i] == '\n')
			cmdline(cl);
		else if (cl->len < sizeof(cl->line) - 1)
			cl->line[cl->len++] = text[i];
	}
}

/* Read the pages of one CPU; fn gets each. */
static int each_page(struct reading *r, int i, int (*fn)(struct reading *r, int i, int n))
{
	struct ts_zin z;
	int n = 0, ret = 0;

	if (ts_zin_open(&z, &r->df, &r->df.cpus[i].data)) {
		ts_zin_close(&z);
		return fail(r, r->df.err);
	}
	while (!ret) {
		ssize_t k = ts_zin_read(&z, r->page, r->df.page_size);

		if (k < 0) {
			ret = fail(r, r->df.err);
			break;
		}
		if (!k)
			break;
		if (k != r->df.page_size) {
			ret = fail(r, "corrupt file: a CPU's data ends inside a page");
			break;
		}
		ret = fn(r, i, n++);
	}
	ts_zin_close(&z);
	return ret < 0 ? -1 : 0;
}

/* The pre-pass: the first event of each CPU, and the start marks. */
static int look_for_start(struct reading *r, int i, int n)
{
	int cpu = r->df.cpus[i].cpu;
	struct cpu_read *c = &r->cpu[cpu];
	int mode = c->first_ts ? TS_START_MORE : r->s.start_seen ? TS_START_FIRST_TS : TS_START_LOOK;
	uint64_t first;

	(void)n;
	if (mode == TS_START_MORE && (r->start_cpu != cpu || r->s.have_start))
		return 1;
	if (ts_stream_start_marks(&r->s, cpu, r->page, r->df.page_size, mode, &first))
		return fail(r, r->s.err);
	if (!c->first_ts) {
		c->first_ts = first;
		if (!first)
			return 0;	/* an empty page: the next one */
	}
	if (mode == TS_START_LOOK && r->s.start_seen) {
		r->start_cpu = cpu;
		return r->s.have_start;
	}
	return mode == TS_START_MORE ? r->s.have_start : 1;
}

/* The main pass: every page into the analysis, counted and summed. */
static int analyse_page(struct reading *r, int i, int n)
{
	int cpu = r->df.cpus[i].cpu;
	struct cpu_read *c = &r->cpu[cpu];
	uint64_t records = r->s.records, bad = r->an->bad_pages;
	int had_end = r->s.end_cpu >= 0;

	r->s.where = (struct ts_page_where){
		.set = 1, .compressed = r->df.cpus[i].data.chunked, .page = n,
		.offset = r->df.cpus[i].data.off + (uint64_t)n * r->df.page_size,
	};
	if (!had_end || r->s.end_cpu != cpu) {
		c->pages_before_end = c->pages;
		c->sum_before_end = c->sum;
	}
	if (ts_stream_page(&r->s, cpu, r->page, r->df.page_size))
		return fail(r, r->s.err);
	if (!had_end && r->s.end_cpu >= 0)
		c->saw_end = 1;
	c->bad_pages += r->an->bad_pages - bad;
	c->pages++;
	/* only a recording's pages are checked: trace-cmd's go unsummed */
	if (r->s.have_start)
		ts_sum_add(r->s.page_sum, &c->sum, r->page,
			   ts_page_used(r->page, r->df.page_size, r->df.long_size));
	if (r->s.sums[cpu].known && c->pages == r->s.sums[cpu].count)
		c->sum_at_count = c->sum;
	c->records += r->s.records - records;
	if (c->records)		/* a CPU that came online during a recording */
		ts_analysis_cover(r->an, cpu);
	if (r->s.records > records)
		c->last_ts = r->s.last_ts;
	return 0;
}

/*
 * Do the pages match what the end marks say?  The marks' CPU must have
 * exactly the pages they count before the page that holds them; another
 * CPU may have more (pages the kernel handed out only after the count was
 * taken), but the ones counted must be there and match their sum.
 */
static int check_marks(struct reading *r)
{
	char msg[200];

	if (r->s.page_sum_unknown[0]) {
		snprintf(msg, sizeof(msg),
			 "a newer tickstat's recording: its pages are summed with %s, which this tickstat does not know",
			 r->s.page_sum_unknown);
		return fail(r, msg);
	}
	if (r->s.marks_bad)
		return fail(r, "corrupt recording: a tickstat mark does not parse");
	if (!r->s.done)
		return fail(r, "unfinished recording: no end marks (was the recorder killed?)");
	if (!r->s.end_ns)
		return fail(r, "corrupt recording: its end mark has no end_ns (the window's end)");
	for (int i = 0; i < r->df.nr_cpus; i++) {
		int cpu = r->df.cpus[i].cpu, end = cpu == r->s.end_cpu;
		const struct cpu_read *c = &r->cpu[cpu];
		const struct ts_page_sum *sum = &r->s.sums[cpu];
		uint64_t pages = end ? c->pages_before_end : c->pages;

		if (!sum->known && !pages)
			continue;
		if (!sum->known || (end ? sum->count != pages : sum->count > pages)) {
			snprintf(msg, sizeof(msg), "corrupt recording: CPU %d has %llu pages, its end mark says %llu",
				 cpu, (unsigned long long)pages, (unsigned long long)sum->count);
			return fail(r, msg);
		}
#ifndef TS_FUZZING	/* let the fuzzer reach the reports behind the check */
		if (!ts_sum_same(&sum->sum, end ? &c->sum_before_end :
				 sum->count ? &c->sum_at_count : &(struct ts_sum){ 0 })) {
			snprintf(msg, sizeof(msg), "corrupt recording: CPU %d's pages fail their %s check",
				 cpu, ts_sum_name(r->s.page_sum));
			return fail(r, msg);
		}
#endif
	}
	return 0;
}

/* A CPU's losses its statistics count and no page marks (ts_stats_unplaced()). */
static void account_unplaced(struct reading *r, int cpu, const char *block)
{
	uint64_t n = cpu >= 0 && cpu < TS_MAX_CPUS ? ts_stats_unplaced(block) : 0;

	if (!n)
		return;
	fprintf(stderr, "tickstat: %s: CPU %d: %" PRIu64
		" events lost where no page marks them: counted\n", r->path, cpu, n);
	ts_analysis_lost_unplaced(r->an, cpu, n);
}

/*
 * Events trace-cmd did not write.  The statistics it saved at stop are text,
 * a block per CPU from "CPU: n", with the events the reader had taken
 * ("read events: n") and those still in the buffer ("entries: n").  It
 * saves them before its readers' last flush, so the file normally holds
 * both; when it holds fewer, the last events of that CPU are missing, and
 * the CPU is unknown after its last recorded event.
 */
static void account_unrecorded(struct reading *r)
{
	uint64_t *saved = calloc(TS_MAX_CPUS, sizeof(*saved));
	const char *stats = r->df.cpustats;
	unsigned long long v;
	int cpu = -1;

	if (!saved)
		return;
	for (const char *line = stats; line && *line; line = strchr(line, '\n'), line += !!line) {
		if (sscanf(line, "CPU: %d", &cpu) == 1) {
			account_unplaced(r, cpu, line);
			continue;
		}
		if (cpu < 0 || cpu >= TS_MAX_CPUS)
			continue;
		if (sscanf(line, "entries: %llu", &v) == 1 ||
		    sscanf(line, "read events: %llu", &v) == 1)
			saved[cpu] += v;
	}
	for (cpu = 0; cpu < TS_MAX_CPUS; cpu++) {
		const struct cpu_read *c = &r->cpu[cpu];
		uint64_t missing = saved[cpu] - c->records;
		uint64_t from = c->last_ts ? c->last_ts : r->an->win_start;

		if (saved[cpu] <= c->records)
			continue;
		/*
		 * A bad page's records are not counted, and its gap says its
		 * loss: whether trace-cmd also stopped early is unknown, so
		 * the CPU's end is a gap of unknown size.
		 */
		if (c->bad_pages) {
			ts_analysis_lost_after(r->an, cpu, from, 0);
			continue;
		}
		if (ts_analysis_lost_after(r->an, cpu, from, missing) != 1)
			continue;
		fprintf(stderr, "tickstat: %s: CPU %d: trace-cmd stopped before writing its last %"
			PRIu64 " events: counted as lost\n", r->path, cpu, missing);
	}
	free(saved);
}

/* The kernel release (third word of the saved uname). */
static void file_identity(struct reading *r)
{
	char release[128];

	if (sscanf(r->df.uname, "%*s %*s %127s", release) != 1)
		release[0] = '\0';
	ts_analysis_set_kernel(r->an, release);
	ts_analysis_set_clock(r->an, r->df.clock);
	ts_analysis_set_source_path(r->an, r->path);
}

/* The index in the file's CPU table of the start marks' CPU, or -1. */
static int start_index(const struct reading *r)
{
	for (int i = 0; r->s.have_start && i < r->df.nr_cpus; i++)
		if (r->df.cpus[i].cpu == r->start_cpu)
			return i;
	return -1;
}

static int read_all(struct reading *r)
{
	struct ts_analysis *an = r->an;
	struct ts_ksym_query *q = calloc(1, sizeof(*q));
	struct cmdlines cl = { .an = an };
	uint64_t first = 0, last = 0;
	int ret = -1;

	if (!q)
		return fail(r, "out of memory");
	ts_ksym_query_init(q);
	if (init_stream(r) || scan_kallsyms(r, q))
		goto out;
	r->s.tick_fn = q->tick_fn;
	if (ts_stream_ready(&r->s)) {
		fail(r, r->s.err);
		goto out;
	}
	r->page = malloc(r->df.page_size);
	if (!r->page) {
		fail(r, "out of memory");
		goto out;
	}
	for (int i = 0; i < r->df.nr_cpus; i++)
		if (each_page(r, i, look_for_start))
			goto out;
	if (r->s.start_seen && !r->s.have_start) {
		fail(r, "corrupt recording: its start marks are incomplete");
		goto out;
	}
	if (!r->s.have_start && !strncmp(r->df.recorder, "tickstat", 8)) {
		fail(r, "corrupt recording: written by tickstat, but without its start marks");
		goto out;
	}
	file_identity(r);
	ts_analysis_set_source_kind(an, r->s.have_start ? "recording" : "trace.dat");
	for (int i = 0; i < r->df.nr_cpus; i++) {
		uint64_t f = r->cpu[r->df.cpus[i].cpu].first_ts;

		if (f && (!first || f < first))
			first = f;
		/*
		 * CPUs without any event are reported too, as unknown: a
		 * trace.dat has data of each CPU it has a section for (a
		 * recording, of the CPUs its start mark lists).
		 */
		if (!r->s.have_start) {
			ts_analysis_add_cpu(an, r->df.cpus[i].cpu);
			ts_analysis_cover(an, r->df.cpus[i].cpu);
		}
	}
	if (!r->s.have_start)
		ts_analysis_set_start(an, first);
	/* the marks' CPU first: its end marks count the others' pages */
	for (int k = -1; k < r->df.nr_cpus; k++) {
		int i = k < 0 ? start_index(r) : k;

		if (i < 0 || (k >= 0 && i == start_index(r)))
			continue;
		r->s.last_ts = 0;
		if (each_page(r, i, analyse_page))
			goto out;
		if (r->cpu[r->df.cpus[i].cpu].last_ts > last)
			last = r->cpu[r->df.cpus[i].cpu].last_ts;
		if (k < 0 && r->s.end_cpu >= 0 && r->s.end_cpu != r->start_cpu) {
			fail(r, "corrupt recording: its end marks are not on its start marks' CPU");
			goto out;
		}
	}
	if (r->s.have_start && check_marks(r))
		goto out;
	if (ts_analysis_want_symbols(an, q) && scan_kallsyms(r, q))
		goto out;
	ts_analysis_name_symbols(an, q);
	if (wanted_pids(&cl)) {
		fail(r, "out of memory");
		goto out;
	}
	if (read_text(r, &r->df.cmdlines, 8, feed_cmdlines, &cl))
		goto out;
	if (cl.len)
		cmdline(&cl);
	if (!r->s.have_start && !r->df.cpustats_len)
		ts_analysis_lost_uncounted(an, "the file has no buffer statistics (trace-cmd's CPUSTAT options): events its writer did not write cannot be counted");
	else if (!r->s.have_start)
		account_unrecorded(r);
	ts_analysis_finish(an, r->s.have_start ? r->s.end_ns : (last > first ? last : first));
	for (int i = 0; i < r->df.nr_cpus; i++)
		debug_msg("tickstat: %s: CPU %d: %llu pages, %llu records\n", r->path,
			  r->df.cpus[i].cpu, (unsigned long long)r->cpu[r->df.cpus[i].cpu].pages,
			  (unsigned long long)r->cpu[r->df.cpus[i].cpu].records);
	debug_msg("tickstat: %s: %llu pages, %llu records, %llu undecodable records, %llu bad pages\n",
		  r->path, (unsigned long long)r->s.pages, (unsigned long long)r->s.records,
		  (unsigned long long)an->bad_records, (unsigned long long)an->bad_pages);
	ret = 0;
out:
	free(cl.wanted);
	free(q);
	return ret;
}

/*
 * ts_read_file - run a trace.dat (a tickstat recording or trace-cmd's)
 * through the analysis.  Returns 0, or -1 with a one-line reason in err.
 */
int ts_read_file(const char *path, struct ts_analysis *an, char *err, size_t errlen)
{
	struct reading *r = calloc(1, sizeof(*r));
	int ret = -1;

	if (!r) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	r->an = an;
	r->path = path;
	r->start_cpu = -1;
	if (ts_dat_open(&r->df, path, on_format, r))
		fail(r, r->df.err);
	else
		ret = read_all(r);
	if (ret)
		snprintf(err, errlen, "%s: %s", path, r->err);
	if (r->stream_ok)
		ts_stream_free(&r->s);
	ts_dat_close(&r->df);
	free(r->page);
	free(r);
	return ret;
}

/* ts_is_tickstat_recording - is this a trace.dat that tickstat wrote? */
int ts_is_tickstat_recording(const char *path)
{
	struct ts_datfile df;
	int yes;

	if (ts_dat_open(&df, path, NULL, NULL)) {
		ts_dat_close(&df);
		return 0;
	}
	yes = !strncmp(df.recorder, "tickstat", 8);
	ts_dat_close(&df);
	return yes;
}
