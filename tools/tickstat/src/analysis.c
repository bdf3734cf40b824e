// SPDX-License-Identifier: GPL-2.0
/*
 * analysis.c - per-CPU tick state machine and metric aggregation.
 *
 * Time is charged lazily: when an event arrives on a CPU, the stretch since
 * that CPU's previous event is charged to the state that held during it,
 * then the event moves the state.  The rules, and what a stock kernel can
 * and cannot tell, are in docs/metrics.md.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <stdio.h>

#include "analysis.h"
#include "ksym.h"
#include "util.h"

void ts_analysis_init(struct ts_analysis *an)
{
	memset(an, 0, sizeof(*an));
	an->nohz_default = -1;
	an->causes_recorded = -1;
	an->armers_recorded = -1;
}

void ts_analysis_free(struct ts_analysis *an)
{
	ts_analysis_drop_held(an);
	ts_analysis_drop_doctor(an);
	if (an->timeline)
		fclose(an->timeline);
	for (int i = 0; i < TS_MAX_CPUS; i++) {
		if (an->cpus[i]) {
			free(an->cpus[i]->seg_ticks);
			free(an->cpus[i]->open_ticks);
			free(an->cpus[i]->open_more);
			free(an->cpus[i]->tl_causes);
		}
		free(an->cpus[i]);
		free(an->spare[i]);
	}
	for (int i = 0; i < an->nr_callers; i++)
		free(an->callers[i].name);
	free(an->comms);
	memset(an, 0, sizeof(*an));
}

/* Each cause type's "other", empty: the causes beyond a CPU's table. */
static void init_causes_other(struct ts_cpu *c)
{
	memset(c->causes_other, 0, sizeof(c->causes_other));
	for (int t = 0; t < TS_NR_CAUSE_TYPES; t++) {
		c->causes_other[t].type = t;
		c->causes_other[t].queuer_pid = -1;
		c->causes_other[t].queuer_cpu = -1;
	}
}

static struct ts_cpu *new_cpu_state(struct ts_analysis *an, int cpu);

/*
 * The state of a CPU, created on first use; NULL if out of range or out of
 * memory.  Inline: every event looks its CPU up.
 */
static inline struct ts_cpu *cpu_state(struct ts_analysis *an, int cpu)
{
	if (cpu < 0 || cpu >= TS_MAX_CPUS)
		return NULL;
	return an->cpus[cpu] ? an->cpus[cpu] : new_cpu_state(an, cpu);
}

/* cpu_state()'s first use of a CPU */
static struct ts_cpu *new_cpu_state(struct ts_analysis *an, int cpu)
{
	struct ts_cpu *c = an->spare[cpu] ? an->spare[cpu] : calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	an->spare[cpu] = NULL;
	c->cpu = cpu;
	c->nohz_full = an->nohz_default;
	c->last_ts = an->win_start;
	c->sched_detail = -1;
	c->check_pos = -1;
	c->cur_pid = -1;
	c->tick_open = 1;
	c->idle_open = 1;
	init_causes_other(c);
	an->cpus[cpu] = c;
	if (cpu >= an->nr_cpus)
		an->nr_cpus = cpu + 1;
	if (!an->restrict_cpus)
		c->active = 1;
	return c;
}

/*
 * ts_analysis_reserve_cpu - allocate a CPU's state ahead of its first use,
 * its pages written to, so that they are in memory.  A live session does
 * so for every online CPU before tracing starts: at 64 vCPUs, the page
 * faults of 64 states (34 KiB each) when the start mark named the CPUs
 * took 70 ms of the window under the emulator.  The state is set up at
 * the first use, as without.  Returns 0, or -1 if out of range or out of
 * memory.
 */
int ts_analysis_reserve_cpu(struct ts_analysis *an, int cpu)
{
	if (cpu < 0 || cpu >= TS_MAX_CPUS)
		return -1;
	if (an->cpus[cpu] || an->spare[cpu])
		return 0;
	an->spare[cpu] = malloc(sizeof(*an->spare[cpu]));
	if (!an->spare[cpu])
		return -1;
	/* zeroed by a write the compiler cannot drop: every page faulted in now */
	explicit_bzero(an->spare[cpu], sizeof(*an->spare[cpu]));
	return 0;
}

/* ts_analysis_find_cpu - the state of a CPU, to read; NULL if the analysis has none */
const struct ts_cpu *ts_analysis_find_cpu(const struct ts_analysis *an, int cpu)
{
	return cpu >= 0 && cpu < TS_MAX_CPUS ? an->cpus[cpu] : NULL;
}

/*
 * ts_analysis_add_cpu - report this CPU even without any event of its (it
 * is then unknown throughout).  Returns 0, or -1 if out of range or out of
 * memory.
 */
int ts_analysis_add_cpu(struct ts_analysis *an, int cpu)
{
	return cpu_state(an, cpu) ? 0 : -1;
}

/*
 * ts_analysis_set_start - the first instant the stream covers.  The window
 * starts there, or at the time range's start if that is later.  CPUs named
 * before this was known start there too.
 */
void ts_analysis_set_start(struct ts_analysis *an, uint64_t start)
{
	an->data_start = start;
	an->win_start = an->range_end && an->range_start > start ? an->range_start : start;
	an->win_start_known = 1;
	for (int i = 0; i < an->nr_cpus; i++) {
		struct ts_cpu *c = an->cpus[i];

		if (c && !c->started) {
			c->last_ts = start;
			c->stop_start = start;
		}
	}
}

/*
 * ts_analysis_set_range - report only [start, end) of the stream, before
 * the stream starts: events before it still move the state, but only time
 * and events inside count.  The window is the part of the range the
 * stream covers.
 */
void ts_analysis_set_range(struct ts_analysis *an, uint64_t start, uint64_t end)
{
	an->range_start = start;
	an->range_end = end;
	an->win_start = start;
}

/*
 * ts_analysis_set_snapshot - when the start snapshot was read (0: none):
 * the states ts_analysis_set_initial() gives hold from the window start
 * unless an event before ts changed them.
 */
void ts_analysis_set_snapshot(struct ts_analysis *an, uint64_t ts)
{
	an->snapshot_ts = ts;
}

static int in_range(const struct ts_analysis *an, uint64_t ts)
{
	return !an->range_end || (ts >= an->range_start && ts < an->range_end);
}

/* ts_analysis_monitor - report this CPU (and, once called, only the CPUs named so) */
void ts_analysis_monitor(struct ts_analysis *an, int cpu)
{
	struct ts_cpu *c;

	if (!an->restrict_cpus) {
		an->restrict_cpus = 1;
		for (int i = 0; i < an->nr_cpus; i++)
			if (an->cpus[i])
				an->cpus[i]->active = 0;
	}
	c = cpu_state(an, cpu);
	if (c)
		c->active = 1;
}

/*
 * ts_analysis_cover - the source has data of this CPU: it was online when
 * a recording started, it has a data section in a trace.dat, or events
 * came from it.  A CPU covered may have had no event at all (a quiet CPU
 * is data too); one not covered is absent, and naming it is a mistake.
 */
void ts_analysis_cover(struct ts_analysis *an, int cpu)
{
	if (cpu >= 0 && cpu < TS_MAX_CPUS)
		an->covered[cpu / 64] |= 1ULL << (cpu % 64);
}

/*
 * ts_analysis_tick_data - the recorder kept this CPU's tick events, where
 * it kept some CPUs' only (a start mark's ticks=: tickstat monitor).  The
 * others' sched_switch events do not make them CPUs the source has data
 * of: without their ticks, a row of them would be made up.
 */
void ts_analysis_tick_data(struct ts_analysis *an, int cpu)
{
	ts_cpuset_add(&an->tick_data, cpu);
}

/* ts_analysis_covers - does the source have data of this CPU? */
int ts_analysis_covers(const struct ts_analysis *an, int cpu)
{
	if (cpu < 0 || cpu >= TS_MAX_CPUS)
		return 0;
	/* empty: every CPU's tick events were kept */
	if (!ts_cpuset_empty(&an->tick_data) && !ts_cpuset_has(&an->tick_data, cpu))
		return 0;
	return an->covered[cpu / 64] >> (cpu % 64) & 1;
}

/*
 * ts_analysis_report_covered - report no CPU the source has no data of.
 * Such a CPU has a state only because an event named it (a dependency set
 * for it from another CPU): a row for it would be made up.
 */
void ts_analysis_report_covered(struct ts_analysis *an)
{
	for (int i = 0; i < an->nr_cpus; i++)
		if (an->cpus[i] && !ts_analysis_covers(an, i))
			an->cpus[i]->active = 0;
	ts_doctor_settle_again(an);
}

/*
 * ts_analysis_lost_uncounted - the source cannot count every event it lost
 * (why: a static string): no loss seen does not mean none happened.
 */
void ts_analysis_lost_uncounted(struct ts_analysis *an, const char *why)
{
	an->lost_uncounted = why;
}

/*
 * ts_analysis_time_backwards - a page whose events go back in time was
 * dropped (the stream counts it as a bad page too); where says where, the
 * first one is kept for the reports.
 */
void ts_analysis_time_backwards(struct ts_analysis *an, const char *where)
{
	if (!an->backward_pages++)
		snprintf(an->backward_first, sizeof(an->backward_first), "%s", where);
}

/*
 * ts_analysis_select_cpus - of the CPUs the analysis has, report only
 * those in cpus (a recording's -C: it keeps only the named CPUs).
 */
void ts_analysis_select_cpus(struct ts_analysis *an, const struct ts_cpuset *cpus)
{
	for (int i = 0; i < an->nr_cpus; i++)
		if (an->cpus[i])
			an->cpus[i]->active = ts_cpuset_has(cpus, i);
	ts_doctor_settle_again(an);
}

/*
 * ts_analysis_set_nohz_full - the CPU is (1) or is not (0) in nohz_full,
 * which decides what a stock kernel's silent restarts are.  Returns 0, or
 * -1 if the CPU is out of range.
 */
int ts_analysis_set_nohz_full(struct ts_analysis *an, int cpu, int nohz_full)
{
	struct ts_cpu *c = cpu_state(an, cpu);

	if (!c)
		return -1;
	c->nohz_full = nohz_full;
	return 0;
}

/*
 * ts_analysis_cpu_online - the CPU was online when recording started: it
 * is reported, and a housekeeping CPU unless named nohz_full (before or
 * after).  Returns 0, or -1 if the CPU is out of range.
 */
int ts_analysis_cpu_online(struct ts_analysis *an, int cpu)
{
	struct ts_cpu *c = cpu_state(an, cpu);

	if (!c)
		return -1;
	if (c->nohz_full < 0)
		c->nohz_full = 0;
	return 0;
}

/*
 * ts_analysis_set_nohz_default - whether a CPU not named so far is in
 * nohz_full (-1 unknown, 0 not: the user named the nohz_full CPUs).
 */
void ts_analysis_set_nohz_default(struct ts_analysis *an, int nohz_full)
{
	an->nohz_default = nohz_full;
}

static void set_text(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src ? src : "");
}

/*
 * A name into a buffer, cut to fit: as set_text(), but on the event path
 * (every arming by a task), where snprintf() cost about 570 instructions
 * a call.
 */
static void copy_name(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* ts_analysis_set_source_kind - "live", "recording" or "trace.dat" */
void ts_analysis_set_source_kind(struct ts_analysis *an, const char *kind)
{
	set_text(an->source_kind, sizeof(an->source_kind), kind);
}

/* ts_analysis_set_source_path - the file read or written */
void ts_analysis_set_source_path(struct ts_analysis *an, const char *path)
{
	set_text(an->source_path, sizeof(an->source_path), path);
}

/* ts_analysis_set_kernel - the release of the kernel that made the stream ("" unknown) */
void ts_analysis_set_kernel(struct ts_analysis *an, const char *release)
{
	set_text(an->kernel, sizeof(an->kernel), release);
}

/* ts_analysis_set_clock - the trace clock of the stream's times */
void ts_analysis_set_clock(struct ts_analysis *an, const char *clock)
{
	set_text(an->clock, sizeof(an->clock), clock);
}

/* ts_analysis_set_nohz_full_list - the nohz_full CPU list, as the source gave it */
void ts_analysis_set_nohz_full_list(struct ts_analysis *an, const char *list)
{
	set_text(an->nohz_full, sizeof(an->nohz_full), list);
}

/* ts_analysis_add_nohz_full_list - the next piece of a list given in pieces */
void ts_analysis_add_nohz_full_list(struct ts_analysis *an, const char *piece)
{
	size_t len = strlen(an->nohz_full);

	if (!piece || !piece[0])
		return;
	snprintf(an->nohz_full + len, sizeof(an->nohz_full) - len, "%s%s", len ? "," : "", piece);
}

/*
 * ts_analysis_set_boot_id - the boot of the kernel that made the stream
 * (its /proc/sys/kernel/random/boot_id), part of a report's identity.
 * Returns 0, or -1 for what is not a boot id (then nothing is set).
 */
int ts_analysis_set_boot_id(struct ts_analysis *an, const char *id)
{
	if (!ts_is_boot_id(id))
		return -1;
	set_text(an->boot_id, sizeof(an->boot_id), id);
	return 0;
}

/*
 * ts_analysis_count_overrun - events a CPU's ring buffer overwrote, as the
 * kernel counted them by the end of the recording (its "end" mark)
 */
void ts_analysis_count_overrun(struct ts_analysis *an, int cpu, uint64_t n)
{
	an->overrun += n;
	if (cpu < 0 || cpu >= TS_MAX_CPUS)
		return;
	an->cpu_overrun[cpu] += n;
	an->overrun_known[cpu] = 1;
}

/*
 * ts_analysis_lost_unplaced - events a CPU's ring buffer dropped without
 * marking any page, as its statistics count them: "commit overrun" (a
 * writer that overran the page still being committed) and "dropped
 * events" (a full buffer that does not overwrite).  No gap says where, so
 * the CPU's state stays as its events tell; they count as lost (check
 * fails on them), in a time range too, as they may be in it.
 */
void ts_analysis_lost_unplaced(struct ts_analysis *an, int cpu, uint64_t n)
{
	struct ts_cpu *c = cpu_state(an, cpu);

	if (!c || !n)
		return;
	an->unplaced += n;
	c->lost_events += n;
}

/*
 * ts_analysis_keep_gaps_unsized - a watcher's: the gaps the ring buffer
 * left unsized stay so at the end (size_missed_gaps()), for its counters
 * never go down
 */
void ts_analysis_keep_gaps_unsized(struct ts_analysis *an)
{
	an->gaps_stay_unsized = 1;
}

/*
 * ts_analysis_count_quotas_dropped - n switches went to tasks past the
 * recorder's quota table: their cgroup quota is unknown.  A file's end mark
 * says it; a live session counts each as it comes, for a watcher's
 * diagnosis while it runs.
 */
void ts_analysis_count_quotas_dropped(struct ts_analysis *an, uint64_t n)
{
	an->quotas_dropped += n;
}

/*
 * ts_analysis_bad_page - a ring-buffer page of a CPU failed its checks:
 * counted, and a gap of unknown size from the CPU's last event on.
 * Returns what feeding the gap returned (ts_analysis_event()).
 */
int ts_analysis_bad_page(struct ts_analysis *an, int cpu)
{
	struct ts_cpu *c = cpu_state(an, cpu);
	struct ts_event ev = { .kind = TS_EV_LOST, .cpu = cpu, .ts = c ? c->last_ts : 0,
			       .lost.open_end = 1 };

	/* its gap came after an event past the range: stamped there */
	if (c && c->past_range)
		ev.ts = an->range_end;

	an->bad_pages++;
	return ts_analysis_event(an, &ev);
}

/* ts_analysis_set_initial - the state at the window start, from a snapshot */
void ts_analysis_set_initial(struct ts_analysis *an, int cpu,
			     enum ts_tick_state tick, enum ts_idle_state idle)
{
	struct ts_cpu *c = cpu_state(an, cpu);

	if (!c || c->started)
		return;
	c->tick = tick;
	c->idle = idle;
	if (tick == TS_TICK_STOPPED) {
		c->stop_start = an->win_start;
		c->stop_censored = 1;
	}
}

static int find_reason(struct ts_cpu *c, int class, int scope, int value)
{
	struct ts_reason *r;

	for (int i = 0; i < c->nr_reasons; i++) {
		r = &c->reasons[i];
		if (r->class == class && r->scope == scope && r->value == value)
			return i;
	}
	if (c->nr_reasons == TS_MAX_REASONS) {
		c->reasons_dropped++;
		return -1;
	}
	r = &c->reasons[c->nr_reasons];
	r->class = class;
	r->scope = scope;
	r->value = value;
	return c->nr_reasons++;
}

/* The reason charged when the tick runs and nothing said why. */
static int none_reason(struct ts_cpu *c, enum ts_idle_state idle)
{
	int why = TS_NONE_UNREPORTED;

	if (c->nohz_full == 0 && idle == TS_IDLE_BUSY)
		why = TS_NONE_NOT_NOHZ_FULL;
	return find_reason(c, TS_RC_NONE, TS_SCOPE_UNKNOWN, why);
}

/* The state a stretch of a CPU's time is charged to. */
struct stretch {
	enum ts_tick_state tick;
	enum ts_idle_state idle;
	int pid;			/* 0 idle, -1 unknown */
	const int *reasons;		/* the current reasons, while the tick runs */
	int nr;
};

static int same_segment(const struct ts_segment *s, const struct stretch *st,
			const int *reasons, int nr)
{
	return s->tick == st->tick && s->idle == st->idle && s->task == st->pid &&
	       s->nr_reasons == nr && !memcmp(s->reasons, reasons, nr * sizeof(int));
}

/*
 * ts_analysis_keep_timeline - keep the timeline of the CPUs' states, for
 * the CSV formatter to read once the analysis is finished.  It goes to an
 * unlinked temporary file, so memory stays bounded.  Returns 0 or -1.
 */
int ts_analysis_keep_timeline(struct ts_analysis *an)
{
	an->timeline = tmpfile();
	return an->timeline ? 0 : -1;
}

/* A segment as kept: fixed fields, then its reasons, ticks and causes. */
struct seg_record {
	int32_t cpu, tick, idle, task, nr_reasons, nr_ticks, no_span, nr_causes;
	uint64_t start, end;
};

/* Write a segment; returns where its causes begin in the timeline, -1 on error. */
static long keep_segment(struct ts_analysis *an, const struct ts_segment *s)
{
	struct seg_record r = {
		.cpu = s->cpu, .tick = s->tick, .idle = s->idle, .task = s->task,
		.nr_reasons = s->nr_reasons, .nr_ticks = s->nr_ticks, .no_span = s->no_span,
		.nr_causes = s->nr_causes, .start = s->start, .end = s->end,
	};
	int32_t reasons[TS_MAX_ACTIVE];
	long at = s->nr_causes ? ftell(an->timeline) : 0;

	for (int i = 0; i < s->nr_reasons; i++)
		reasons[i] = s->reasons[i];
	if (at < 0 || fwrite(&r, sizeof(r), 1, an->timeline) != 1 ||
	    fwrite(reasons, sizeof(int32_t), s->nr_reasons, an->timeline) !=
	    (size_t)s->nr_reasons ||
	    /* none: the arrays may be NULL, which fwrite must not get even for 0 */
	    (s->nr_ticks &&
	     fwrite(s->ticks, sizeof(uint64_t), s->nr_ticks, an->timeline) !=
	     (size_t)s->nr_ticks) ||
	    (s->nr_causes &&
	     fwrite(s->causes, sizeof(*s->causes), s->nr_causes, an->timeline) !=
	     (size_t)s->nr_causes)) {
		an->timeline_error = 1;
		return -1;
	}
	return at + sizeof(r) + sizeof(int32_t) * s->nr_reasons + sizeof(uint64_t) * s->nr_ticks;
}

/*
 * ts_timeline_next - the next kept segment, in the order the state machine
 * wrote them (each CPU's in time order).  Returns 1, 0 at the end, -1 on a
 * read error.  seg's arrays live in it.
 */
int ts_timeline_next(const struct ts_analysis *an, struct ts_timeline_iter *it,
		     struct ts_segment *seg)
{
	struct seg_record r;
	int32_t reasons[TS_MAX_ACTIVE];

	if (!an->timeline || an->timeline_error)
		return -1;
	if (fseek(an->timeline, it->pos, SEEK_SET))
		return -1;
	if (fread(&r, sizeof(r), 1, an->timeline) != 1)
		return feof(an->timeline) ? 0 : -1;
	if (r.cpu < 0 || r.cpu >= an->nr_cpus || !an->cpus[r.cpu] || r.nr_reasons < 0 ||
	    r.nr_reasons > TS_MAX_ACTIVE || r.nr_ticks < 0 || r.nr_ticks > TS_SEG_MAX_TICKS ||
	    r.nr_causes < 0 || r.nr_causes > TS_SEG_MAX_CAUSES ||
	    fread(reasons, sizeof(int32_t), r.nr_reasons, an->timeline) != (size_t)r.nr_reasons ||
	    fread(it->ticks, sizeof(uint64_t), r.nr_ticks, an->timeline) != (size_t)r.nr_ticks ||
	    fread(it->causes, sizeof(it->causes[0]), r.nr_causes, an->timeline) !=
	    (size_t)r.nr_causes)
		return -1;
	it->pos = ftell(an->timeline);
	for (int i = 0; i < r.nr_reasons; i++)
		it->reasons[i] = reasons[i];
	memset(seg, 0, sizeof(*seg));
	seg->cpu = r.cpu;
	seg->tick = r.tick;
	seg->idle = r.idle;
	seg->task = r.task;
	seg->start = r.start;
	seg->end = r.end;
	seg->no_span = r.no_span;
	seg->owner = an->cpus[r.cpu];
	seg->reasons = it->reasons;
	seg->nr_reasons = r.nr_reasons;
	seg->ticks = it->ticks;
	seg->nr_ticks = r.nr_ticks;
	seg->causes = it->causes;
	seg->nr_causes = r.nr_causes;
	return 1;
}

/*
 * The first n timeline causes were written from at: an open cause among
 * them has its end patched there when its exit comes (cause_ends), the
 * others move down.  O(TS_CAUSE_DEPTH) plus the move.
 */
static void causes_written(struct ts_cpu *c, int n, long at)
{
	if (!n)
		return;
	for (int i = 0; i < c->nr_cause_open; i++) {
		struct ts_cause_open *o = &c->cause_open[i];

		if (o->pend < 0)
			continue;
		if (o->pend >= n) {
			o->pend -= n;
			continue;
		}
		if (at >= 0)
			o->row = at + (long)(o->pend * sizeof(struct ts_tl_cause) +
					     offsetof(struct ts_tl_cause, end));
		o->pend = -1;
	}
	c->nr_tl_causes -= n;
	memmove(c->tl_causes, c->tl_causes + n, c->nr_tl_causes * sizeof(*c->tl_causes));
}

/*
 * Timeline: one segment per stretch of unchanged state, with the ticks
 * and the causes that fell into it, so that a CPU's rows come in time
 * order.  A cause after the segment's end waits for the next one; at the
 * CPU's end (all) every cause left goes out.
 */
static void flush_segment_causes(struct ts_analysis *an, struct ts_cpu *c, int all)
{
	struct ts_segment *s = &c->seg;
	int n = 0;
	long at;

	if (!an->timeline || !c->active) {
		c->seg_valid = 0;
		c->nr_seg_ticks = 0;
		causes_written(c, c->nr_tl_causes, -1);	/* none: their exits find none */
		return;
	}
	if (!c->seg_valid && !c->nr_seg_ticks && !(all && c->nr_tl_causes))
		return;
	if (!c->seg_valid) {
		/* ticks (or causes) with no stretch of time after them: the window's edge */
		memset(s, 0, sizeof(*s));
		s->cpu = c->cpu;
		s->owner = c;
		s->start = s->end = c->nr_seg_ticks ? c->seg_ticks[0] : c->tl_causes[0].ts;
		s->no_span = 1;
	}
	/* they began in time order: the ones in the segment are a prefix */
	while (n < c->nr_tl_causes && (all || c->tl_causes[n].ts <= s->end))
		n++;
	s->ticks = c->seg_ticks;
	s->nr_ticks = c->nr_seg_ticks;
	s->causes = c->tl_causes;
	s->nr_causes = n;
	at = keep_segment(an, s);
	if (n)
		causes_written(c, n, at);
	c->seg_valid = 0;
	c->nr_seg_ticks = 0;
}

static void flush_segment(struct ts_analysis *an, struct ts_cpu *c)
{
	flush_segment_causes(an, c, 0);
}

/* A tick interrupt for the timeline; a long stretch is split when full. */
static void timeline_tick(struct ts_analysis *an, struct ts_cpu *c, uint64_t ts)
{
	if (!an->timeline || !c->active)
		return;
	if (!c->seg_ticks) {
		c->seg_ticks = malloc(TS_SEG_MAX_TICKS * sizeof(*c->seg_ticks));
		if (!c->seg_ticks)
			return;
	}
	if (c->nr_seg_ticks == TS_SEG_MAX_TICKS)
		flush_segment(an, c);
	c->seg_ticks[c->nr_seg_ticks++] = ts;
}

static void emit_segment(struct ts_analysis *an, struct ts_cpu *c, uint64_t from,
			 uint64_t to, const struct stretch *st, const int *reasons, int nr)
{
	struct ts_segment *s = &c->seg;

	if (!an->timeline || to <= from)
		return;
	if (c->seg_valid && s->end == from && same_segment(s, st, reasons, nr)) {
		s->end = to;
		return;
	}
	flush_segment(an, c);
	memset(s, 0, sizeof(*s));
	s->cpu = c->cpu;
	s->start = from;
	s->end = to;
	s->tick = st->tick;
	s->idle = st->idle;
	s->task = st->pid;
	s->owner = c;
	memcpy(c->seg_reasons, reasons, nr * sizeof(int));
	s->reasons = c->seg_reasons;
	s->nr_reasons = nr;
	c->seg_valid = 1;
}

/* The co-runner entry of a task on a CPU; "other" once the table is full. */
static struct ts_task_time *task_time(struct ts_cpu *c, int pid)
{
	struct ts_task_time *t = &c->tasks[c->last_task];

	if (c->nr_tasks && t->pid == pid)
		return t;
	for (int i = 0; i < c->nr_tasks; i++) {
		if (c->tasks[i].pid == pid) {
			c->last_task = i;
			return &c->tasks[i];
		}
	}
	if (c->nr_tasks == TS_MAX_TASKS)
		return &c->tasks_other;
	t = &c->tasks[c->nr_tasks];
	t->pid = pid;
	c->last_task = c->nr_tasks++;
	return t;
}

static int holds_sched(const struct ts_cpu *c, const int *reasons, int nr)
{
	for (int i = 0; i < nr; i++)
		if (ts_reason_is_sched(&c->reasons[reasons[i]]))
			return 1;
	return 0;
}

/* Charge [from, to) to a state: its times, reasons, co-runner and timeline. */
static void charge(struct ts_analysis *an, struct ts_cpu *c, uint64_t from, uint64_t to,
		   const struct stretch *st)
{
	int none[1], nr = st->nr;
	const int *reasons = st->reasons;
	uint64_t d = to - from;

	c->time[st->tick][st->idle] += d;
	if (st->tick == TS_TICK_RUNNING) {
		if (!nr) {
			none[0] = none_reason(c, st->idle);
			reasons = none;
			nr = none[0] >= 0;
		}
		for (int i = 0; i < nr; i++)
			c->reasons[reasons[i]].time_ns += d;
	} else {
		nr = 0;
	}
	if (st->pid > 0) {
		struct ts_task_time *t = task_time(c, st->pid);

		t->run_ns += d;
		if (st->tick == TS_TICK_RUNNING) {
			t->held_ns += d;
			if (holds_sched(c, reasons, nr))
				t->sched_ns += d;
		}
	}
	emit_segment(an, c, from, to, st, reasons, nr);
}

/*
 * The start.  The state at the window start is not in the trace, but the
 * first events tell it: the task a CPU's first event names ran since the
 * window start (sched_switch is traced: no switch came before), and some
 * tick events say what the tick was before them (start_says()).  Until an
 * event tells, each part of the state is open: the stretches are kept, not
 * charged, and charged once it tells.  An event that may have changed the
 * part without telling what it was, the window's end, or a full list of
 * kept stretches settle it to the fallback: the snapshot's value, unless an
 * event before the snapshot may have changed it (then unknown).
 * docs/metrics.md, "The start", lists the inferences.
 */
enum start_word {
	SAYS_NOTHING,		/* the part is as it was */
	SAYS_STOPPED,		/* the tick was stopped since the window start */
	SAYS_RUNNING,		/* the tick was running since the window start */
	SAYS_CHANGED,		/* it may have changed, but not what it was: the fallback */
	SAYS_LATER,		/* the next event tells (a failed decision) */
};

/*
 * tick_nohz_next_event() reasons (1-5) are only traced while the tick
 * runs, and so is the idle loop's own choice to keep it (IDLE_LOOP, 11).
 */
#define RETAIN_IMPLIES_RUNNING(r)	(((r) >= 1 && (r) <= 5) || (r) == 11)

/*
 * What an event says of the tick since the window start, when no event
 * before it did.  Only where every restart is traced (caps.restart) does a
 * running tick say it ran since the start: a stock kernel restarts a
 * stopped tick silently.
 */
static enum start_word start_says(const struct ts_analysis *an, const struct ts_cpu *c,
				  const struct ts_event *ev)
{
	switch (ev->kind) {
	case TS_EV_TICK_RESTART:	/* only a stopped tick restarts */
		return SAYS_STOPPED;
	case TS_EV_TICK_STOP:
		if (!an->caps.restart)
			return SAYS_CHANGED;
		/*
		 * A stop is traced when a running tick stops.  A failed decision
		 * is followed at once by the restart of a stopped tick, and by
		 * nothing else: the next event tells.
		 */
		return ev->stop.success ? SAYS_RUNNING : SAYS_LATER;
	case TS_EV_TICK_RETAIN:
		return an->caps.restart && RETAIN_IMPLIES_RUNNING(ev->retain.reason) ?
		       SAYS_RUNNING : SAYS_CHANGED;
	case TS_EV_SWITCH:
		/* a stock kernel's switch out of idle restarts the tick silently */
		return !an->caps.restart && c->nohz_full != 1 ? SAYS_CHANGED : SAYS_NOTHING;
	case TS_EV_LOST:
		return SAYS_CHANGED;
	default:			/* a tick interrupt: a stopped tick's timer fires too */
		return SAYS_NOTHING;
	}
}

/* The snapshot holds from the window start if nothing could change it before it was read. */
static int snapshot_holds(const struct ts_analysis *an, uint64_t changed)
{
	return changed >= an->snapshot_ts;
}

/* The i-th stretch kept open: in the CPU's state, then in open_more. */
static struct ts_open_stretch *open_at(struct ts_cpu *c, int i)
{
	return i < TS_MAX_OPEN ? &c->open[i] : &c->open_more[i - TS_MAX_OPEN];
}

/*
 * The causes that began while the start's tick state was open found the
 * state it settles to: nothing changed it in between (an event that could
 * have settles it first).
 */
static void settle_causes(struct ts_cpu *c, enum ts_tick_state state)
{
	for (int i = 0; i < c->nr_causes + TS_NR_CAUSE_TYPES; i++) {
		struct ts_cause *k = i < c->nr_causes ? &c->causes[i] :
				     &c->causes_other[i - c->nr_causes];

		if (state == TS_TICK_STOPPED)
			k->stopped += k->open;
		else if (state == TS_TICK_RUNNING)
			k->held += k->open;
		k->open = 0;
	}
}

/* The tick part of the start is known: charge what was kept open. */
static void settle_tick(struct ts_analysis *an, struct ts_cpu *c, enum ts_tick_state state)
{
	const uint64_t *t = c->open_ticks;

	if (!c->tick_open)
		return;
	c->tick_open = 0;
	c->open_failed = 0;
	c->tick = state;
	if (state == TS_TICK_STOPPED) {
		c->stop_start = an->win_start;
		c->stop_censored = 1;
		c->ticks_stopped += c->open_tick_count;
	}
	for (int k = 0; k < c->open_lead_ticks; k++)
		timeline_tick(an, c, *t++);
	for (int i = 0; i < c->nr_open; i++) {
		const struct ts_open_stretch *e = open_at(c, i);
		struct stretch st = {
			.tick = state, .idle = e->idle, .pid = e->pid,
			.reasons = c->active_reasons, .nr = e->with_reasons ? c->nr_active : 0,
		};

		charge(an, c, e->from, e->to, &st);
		for (int k = 0; k < e->nr_ticks; k++)
			timeline_tick(an, c, *t++);
	}
	c->nr_open = 0;
	free(c->open_more);
	c->open_more = NULL;
	c->open_more_cap = 0;
	free(c->open_ticks);
	c->open_ticks = NULL;
	c->open_ticks_cap = 0;
	c->nr_open_ticks = 0;
	c->open_lead_ticks = 0;
	c->open_tick_count = 0;
	settle_causes(c, state);
}

/* The idle part of the start is known (pid: who ran, -1 unknown). */
static void settle_idle(struct ts_cpu *c, enum ts_idle_state state, int pid)
{
	if (!c->idle_open)
		return;
	c->idle_open = 0;
	c->idle = state;
	c->cur_pid = state == TS_IDLE_IDLE ? 0 : state == TS_IDLE_BUSY ? pid : -1;
}

/*
 * Settle what is still open to the fallback, the part having been safe from
 * change up to changed.  Without sched_switch nothing says when the idle
 * state changes: the snapshot's holds only at the instant it was read.
 */
static void settle_fallback(struct ts_analysis *an, struct ts_cpu *c, uint64_t changed)
{
	uint64_t tick_changed = c->open_failed && c->open_failed_ts < changed ?
				c->open_failed_ts : changed;

	settle_idle(c, an->caps.sched_switch && snapshot_holds(an, changed) ? c->idle :
		    TS_IDLE_UNKNOWN, -1);
	settle_tick(an, c, snapshot_holds(an, tick_changed) ? c->tick : TS_TICK_UNKNOWN);
}

/* What an event tells of the start, before it is charged. */
static void settle_start(struct ts_analysis *an, struct ts_cpu *c, const struct ts_event *ev)
{
	int pid = ev->kind == TS_EV_SWITCH ? ev->sw.prev_pid : ev->pid;

	if (ev->kind == TS_EV_LOST) {
		/* the gap starts at the CPU's last event */
		settle_fallback(an, c, c->last_ts);
		return;
	}
	if (an->caps.sched_switch)
		settle_idle(c, pid ? TS_IDLE_BUSY : TS_IDLE_IDLE, pid);
	else	/* nothing says when it changes */
		settle_idle(c, TS_IDLE_UNKNOWN, -1);
	if (!c->tick_open)
		return;
	if (c->open_failed) {
		settle_tick(an, c, ev->kind == TS_EV_TICK_RESTART ? TS_TICK_STOPPED :
			    TS_TICK_RUNNING);
		return;
	}
	switch (start_says(an, c, ev)) {
	case SAYS_STOPPED:
		settle_tick(an, c, TS_TICK_STOPPED);
		break;
	case SAYS_RUNNING:
		settle_tick(an, c, TS_TICK_RUNNING);
		break;
	case SAYS_CHANGED:
		settle_tick(an, c, snapshot_holds(an, ev->ts) ? c->tick : TS_TICK_UNKNOWN);
		break;
	case SAYS_LATER:
		c->open_failed = 1;
		c->open_failed_ts = ev->ts;
		break;
	case SAYS_NOTHING:
		break;
	}
}

/*
 * A tick interrupt while the tick part of the start is open: counted, and
 * kept for the timeline.  Too many settle it to the fallback (with or
 * without a timeline: the numbers do not depend on it): TS_SEG_MAX_TICKS,
 * or up to TS_MAX_OPEN_TICKS_PENDING before the snapshot was read, as
 * open_room() allows more stretches.
 */
static void open_tick_add(struct ts_analysis *an, struct ts_cpu *c, uint64_t ts)
{
	uint64_t most = ts < an->snapshot_ts ? TS_MAX_OPEN_TICKS_PENDING : TS_SEG_MAX_TICKS;

	if (c->open_tick_count >= most) {
		settle_tick(an, c, snapshot_holds(an, ts) ? c->tick : TS_TICK_UNKNOWN);
		if (c->tick == TS_TICK_STOPPED)
			c->ticks_stopped++;
		timeline_tick(an, c, ts);
		return;
	}
	c->open_tick_count++;
	if (!an->timeline || !c->active)
		return;
	if (c->nr_open_ticks == c->open_ticks_cap) {
		int cap = c->open_ticks_cap ? 2 * c->open_ticks_cap : TS_SEG_MAX_TICKS;
		uint64_t *more = realloc(c->open_ticks, cap * sizeof(*more));

		if (!more)
			return;
		c->open_ticks = more;
		c->open_ticks_cap = cap;
	}
	c->open_ticks[c->nr_open_ticks++] = ts;
	if (c->nr_open)
		open_at(c, c->nr_open - 1)->nr_ticks++;
	else
		c->open_lead_ticks++;
}

/*
 * Room for one more open stretch ending at to.  Past TS_MAX_OPEN only
 * before the snapshot: until it was read, falling back on it would say
 * nothing (snapshot_holds()), though nothing may have changed the tick.
 */
static int open_room(const struct ts_analysis *an, struct ts_cpu *c, uint64_t to)
{
	struct ts_open_stretch *more;
	int cap;

	if (c->nr_open < TS_MAX_OPEN)
		return 1;
	if (to >= an->snapshot_ts || c->nr_open == TS_MAX_OPEN_PENDING)
		return 0;
	if (c->nr_open - TS_MAX_OPEN < c->open_more_cap)
		return 1;
	cap = c->open_more_cap ? 2 * c->open_more_cap : TS_MAX_OPEN;
	if (cap > TS_MAX_OPEN_PENDING - TS_MAX_OPEN)
		cap = TS_MAX_OPEN_PENDING - TS_MAX_OPEN;
	more = realloc(c->open_more, cap * sizeof(*more));
	if (!more)
		return 0;
	c->open_more = more;
	c->open_more_cap = cap;
	return 1;
}

/* Keep [from, to) while the tick part is open; 0 when there is no room. */
static int open_add(const struct ts_analysis *an, struct ts_cpu *c, uint64_t from, uint64_t to,
		    const struct stretch *st)
{
	struct ts_open_stretch *e = c->nr_open ? open_at(c, c->nr_open - 1) : NULL;
	int with_reasons = st->nr > 0;

	if (e && e->to == from && e->idle == st->idle && e->pid == st->pid &&
	    e->with_reasons == with_reasons) {
		e->to = to;
		return 1;
	}
	if (!open_room(an, c, to))
		return 0;
	*open_at(c, c->nr_open++) = (struct ts_open_stretch){
		.from = from, .to = to, .idle = st->idle, .pid = st->pid,
		.with_reasons = with_reasons,
	};
	return 1;
}

/* Charge the stretch since the CPU's last event to the state that held. */
static void account(struct ts_analysis *an, struct ts_cpu *c, uint64_t to)
{
	uint64_t from = c->last_ts;
	struct stretch st;

	if (to <= c->last_ts)
		return;
	c->last_ts = to;
	if (an->range_end) {
		if (from < an->range_start)
			from = an->range_start;
		if (to > an->range_end)
			to = an->range_end;
		if (to <= from)
			return;
	}
	/* every caller settles the idle part first: its first event tells */
	settle_idle(c, TS_IDLE_UNKNOWN, -1);
	st = (struct stretch){
		.tick = c->tick, .idle = c->idle,
		.pid = c->idle == TS_IDLE_UNKNOWN ? -1 : c->cur_pid,	/* who ran is unknown too */
		.reasons = c->active_reasons, .nr = c->nr_active,
	};
	if (c->tick_open && open_add(an, c, from, to, &st))
		return;
	/* too many stretches before any tick event said anything: the fallback now */
	if (c->tick_open) {
		settle_tick(an, c, snapshot_holds(an, to) ? c->tick : TS_TICK_UNKNOWN);
		st.tick = c->tick;
	}
	charge(an, c, from, to, &st);
}

static void clear_reasons(struct ts_cpu *c)
{
	c->nr_active = 0;
}

static void add_active(struct ts_cpu *c, int idx)
{
	if (idx < 0 || c->nr_active == TS_MAX_ACTIVE)
		return;
	for (int i = 0; i < c->nr_active; i++)
		if (c->active_reasons[i] == idx)
			return;
	c->active_reasons[c->nr_active++] = idx;
}

static void start_stopped(struct ts_cpu *c, uint64_t ts)
{
	c->tick = TS_TICK_STOPPED;
	c->stop_start = ts;
	c->stop_censored = 0;
	clear_reasons(c);
}

/*
 * A stopped interval cut by the window, or by a gap in the stream: counted
 * as open, with only its part inside the window.
 */
static void add_open(struct ts_analysis *an, struct ts_cpu *c, uint64_t end)
{
	uint64_t from = c->stop_start > an->win_start ? c->stop_start : an->win_start;

	c->stopped_open++;
	if (end > from)
		c->open_total_ns += end - from;
}

/* End a stopped interval at ts; cut intervals count as open, not measured. */
static void end_stopped(struct ts_analysis *an, struct ts_cpu *c, uint64_t ts, int known_end)
{
	if (c->tick != TS_TICK_STOPPED)
		return;
	c->tick = TS_TICK_RUNNING;
	if (!an->counting)
		return;
	if (c->stop_censored || !known_end || c->stop_start < an->win_start)
		add_open(an, c, ts);
	else
		ts_hist_add(&c->stopped, ts - c->stop_start);
}

/*
 * Probes on a stock kernel: the masks the decision read (on_dep_check()),
 * the last of which made it fail.  Its bits are charged at its scope when
 * it is the mask tick_stop names; the scopes after it were not read.
 */
static void add_checked(struct ts_analysis *an, struct ts_cpu *c, const struct ts_event *ev)
{
	unsigned int known = c->check_mask & ((1u << TS_DEP_BITS) - 1);

	if (c->check_pos >= 0 && known && (known & -known) == ev->stop.dependency) {
		for (unsigned int m = known; m; m &= m - 1)
			add_active(c, find_reason(c, TS_RC_DEP, c->check_pos, __builtin_ctz(m)));
	} else if (an->counting) {
		an->checks_unmatched++;
	}
	c->check_pos = -1;
}

static void on_tick_stop(struct ts_analysis *an, struct ts_cpu *c,
			 const struct ts_event *ev)
{
	if (ev->stop.success) {
		c->stop_success += an->counting;
		if (c->tick == TS_TICK_STOPPED)
			end_stopped(an, c, ev->ts, 0);	/* a restart we did not see */
		start_stopped(c, ev->ts);
		return;
	}

	c->stop_fail += an->counting;
	c->last_failed = 1;
	clear_reasons(c);
	if (ev->stop.has_scopes) {
		for (int s = 0; s < 4; s++)
			for (unsigned int m = ev->stop.deps[s]; m; m &= m - 1)
				add_active(c, find_reason(c, TS_RC_DEP, s, __builtin_ctz(m)));
	} else if (an->caps.check_scopes && ev->stop.dependency) {
		add_checked(an, c, ev);
	}
	if (!c->nr_active && ev->stop.dependency) {
		unsigned int b = __builtin_ctz(ev->stop.dependency);

		add_active(c, find_reason(c, TS_RC_DEP, TS_SCOPE_UNKNOWN, b));
	}
	for (int i = 0; i < c->nr_active && an->counting; i++)
		c->reasons[c->active_reasons[i]].events++;

	/*
	 * The patched kernel reports the restart itself, right after this
	 * event; a stock kernel restarts the tick silently at this point.
	 */
	if (c->tick == TS_TICK_STOPPED && !an->caps.restart)
		end_stopped(an, c, ev->ts, 1);
	else if (c->tick == TS_TICK_UNKNOWN && !c->tick_open)
		c->tick = TS_TICK_RUNNING;
}

static void on_tick_retain(struct ts_analysis *an, struct ts_cpu *c,
			   const struct ts_event *ev)
{
	int idx = find_reason(c, TS_RC_RETAIN, TS_SCOPE_UNKNOWN, ev->retain.reason);

	if (idx >= 0 && an->counting)
		c->reasons[idx].events++;
	if (c->tick == TS_TICK_STOPPED)
		return;
	/*
	 * An idle refusal leaves a stopped tick stopped, and only a CPU
	 * outside nohz_full is sure to enter idle with its tick running.
	 */
	if (c->tick == TS_TICK_UNKNOWN && !RETAIN_IMPLIES_RUNNING(ev->retain.reason) &&
	    c->nohz_full != 0)
		return;
	c->tick = TS_TICK_RUNNING;
	clear_reasons(c);
	add_active(c, idx);
}

/*
 * A probe's restart whose cause the caller did not settle (probedec.c):
 * leaving idle restarts a CPU outside nohz_full; on a nohz_full CPU, and
 * from a caller of no known cause, only a failed decision right before.
 */
static int inferred_cause(const struct ts_cpu *c, const struct ts_event *ev, int after_failure)
{
	switch (ev->restart.infer) {
	case TS_INFER_CPU_KIND:
		return c->nohz_full == 1 ? TS_RESTART_DEPENDENCY :
		       c->nohz_full == 0 ? TS_RESTART_IDLE_EXIT : TS_RESTART_UNKNOWN;
	case TS_INFER_DECISION:
		return after_failure ? TS_RESTART_DEPENDENCY : TS_RESTART_UNKNOWN;
	}
	return ev->restart.cause;
}

static void on_tick_restart(struct ts_analysis *an, struct ts_cpu *c,
			    const struct ts_event *ev, int after_failure)
{
	int cause = inferred_cause(c, ev, after_failure);

	if (cause < 0 || cause >= TS_NR_RESTART_CAUSES)
		cause = TS_NR_RESTART_CAUSES;
	c->restarts[cause] += an->counting;
	if (c->tick == TS_TICK_STOPPED)
		end_stopped(an, c, ev->ts, 1);
	else if (c->tick == TS_TICK_UNKNOWN && an->counting)
		c->stopped_open++;	/* stopped since before we knew: no length */
	c->tick = TS_TICK_RUNNING;
	/* A dependency restart keeps the reasons its tick_stop just gave. */
	if (cause != TS_RESTART_DEPENDENCY)
		clear_reasons(c);
}

/*
 * A switch's name of a task (16 bytes): most switches name a task as the
 * table has it already, which then costs two compares here rather than a
 * copy of the name (ts_comm_seen()).  The kernel pads the names it writes
 * with NULs, as the table does; a name with other bytes after its NUL only
 * takes the longer way.
 */
static void comm_seen_again(struct ts_analysis *an, int pid, const char comm[16], uint64_t ts)
{
	struct ts_comm *e;

	if (an->comms && pid > 0) {
		e = &an->comms[(unsigned int)pid % an->comm_slots];
		if (e->pid == pid && ts >= e->ts && !memcmp(e->comm, comm, sizeof(e->comm))) {
			e->ts = ts;
			return;
		}
	}
	ts_comm_seen(an, pid, comm, ts);
}

static void on_switch(struct ts_analysis *an, struct ts_cpu *c,
		      const struct ts_event *ev)
{
	enum ts_idle_state next = ev->sw.next_pid ? TS_IDLE_BUSY : TS_IDLE_IDLE;

	c->cur_pid = ev->sw.next_pid;
	if (ev->sw.next_pid)
		comm_seen_again(an, ev->sw.next_pid, ev->sw.next_comm, ev->ts);
	if (ev->sw.prev_pid)
		comm_seen_again(an, ev->sw.prev_pid, ev->sw.prev_comm, ev->ts);
	if (next == c->idle)
		return;
	/*
	 * Leaving idle restarts a stopped tick on a CPU outside nohz_full; a
	 * stock kernel does it silently.  On a nohz_full CPU the tick stays
	 * stopped unless a tick_stop failure says otherwise.  Without knowing
	 * which kind of CPU this is, the state becomes unknown.
	 */
	if (next == TS_IDLE_BUSY && c->idle == TS_IDLE_IDLE &&
	    c->tick == TS_TICK_STOPPED && !an->caps.restart) {
		if (c->nohz_full == 0) {
			end_stopped(an, c, ev->ts, 1);
		} else if (c->nohz_full < 0) {
			end_stopped(an, c, ev->ts, 0);
			c->tick = TS_TICK_UNKNOWN;
		}
	}
	c->idle = next;
	clear_reasons(c);
}

/* One edge of a stretch of a SCHED sub-reason: its start, or its end. */
static void stretch_edge(struct ts_sched_stretches *s, uint64_t ts, int start)
{
	if (start) {
		s->span -= ts;
		s->open++;
	} else {
		s->span += ts;
		s->open--;
	}
	if (!s->seen || ts < s->first) {
		s->first = ts;
		s->first_ends = !start;
	}
	if (!s->seen || ts >= s->last) {
		s->last = ts;
		s->last_starts = start;
	}
	s->seen = 1;
}

/*
 * SCHED at CPU scope changed at the target CPU: a stretch of one sub-reason
 * ends (a clear, or a change) or starts (a set, or a change), struct
 * ts_sched_stretches; and a set is the CPU's last sub-reason if it is the
 * last in time, whatever order the CPUs are read in.
 */
static void sched_stretch(struct ts_analysis *an, const struct ts_event *ev)
{
	struct ts_cpu *t = cpu_state(an, ev->dep.target);
	int set = ev->kind == TS_EV_DEP_SET;
	int ends = set ? (ev->dep.sched_change ? ev->dep.prev_sched : -1) : ev->dep.sched;
	int starts = set ? ev->dep.sched : -1;

	if (!t)
		return;
	if (set && ev->ts >= t->sched_detail_ts) {
		t->sched_detail = ev->dep.sched;
		t->sched_detail_ts = ev->ts;
	}
	if ((set && (starts < 0 || starts >= TS_NR_SCHED_SPLIT)) ||
	    ((!set || ev->dep.sched_change) && (ends < 0 || ends >= TS_NR_SCHED_SPLIT))) {
		t->sched_split_bad = 1;
		return;
	}
	if (ends >= 0)
		stretch_edge(&t->sched_stretches[ends], ev->ts, 0);
	if (starts >= 0)
		stretch_edge(&t->sched_stretches[starts], ev->ts, 1);
}

static void on_dependency(struct ts_analysis *an, const struct ts_event *ev)
{
	int set = ev->kind == TS_EV_DEP_SET;
	unsigned int bit = ev->dep.dependency ? __builtin_ctz(ev->dep.dependency) : 0;
	int cpu = ev->cpu;
	struct ts_culprit *k;

	if (ev->dep.scope == TS_SCOPE_GLOBAL) {
		cpu = -1;
	} else if (ev->dep.scope == TS_SCOPE_CPU) {
		/* no CPU: a damaged record, not a dependency of every CPU */
		if (ev->dep.target < 0 || ev->dep.target >= TS_MAX_CPUS) {
			struct ts_cpu *c = cpu_state(an, ev->cpu);

			an->bad_records++;
			if (c)
				c->lost_events++;
			return;
		}
		cpu = ev->dep.target;
	}
	if (bit == 2 && ev->dep.scope == TS_SCOPE_CPU)
		sched_stretch(an, ev);
	for (int i = 0; i < an->nr_culprits; i++) {
		k = &an->culprits[i];
		if (k->cpu == cpu && k->bit == bit && k->scope == ev->dep.scope &&
		    k->target == ev->dep.target && k->pid == ev->pid &&
		    k->caller == ev->dep.caller && k->sched == ev->dep.sched)
			goto found;
	}
	if (an->nr_culprits == TS_MAX_CULPRITS) {
		an->culprits_dropped++;
		return;
	}
	k = &an->culprits[an->nr_culprits++];
	k->cpu = cpu;
	k->bit = bit;
	k->scope = ev->dep.scope;
	k->target = ev->dep.target;
	k->pid = ev->pid;
	k->caller = ev->dep.caller;
	k->sched = ev->dep.sched;
found:
	if (set)
		k->sets++;
	else
		k->clears++;
}

/*
 * The stretch before a lost-events gap is unknown: anything may have
 * happened.  The loss is counted when the gap reaches into the time range
 * (the caller sets an->counting so); a gap that ended before the range only
 * leaves the state unknown.
 */
static void on_lost(struct ts_analysis *an, struct ts_cpu *c,
		    const struct ts_event *ev)
{
	/* a bad page's gap, from before the range: its end tells (gap_pending) */
	if (!an->counting && ev->lost.open_end)
		c->gap_pending = 1;
	if (an->counting) {
		if (ev->lost.count)
			c->lost_events += ev->lost.count;
		else
			c->lost_unknown++;
		if (ev->lost.missed && ev->lost.count)
			c->missed_events += ev->lost.count;
		else if (ev->lost.missed)
			c->missed_gaps++;
	}
	c->check_pos = -1;
	c->nr_cause_open = 0;	/* their exits may be lost: their time stays unknown */
	end_stopped(an, c, c->last_ts, 0);
	c->tick = TS_TICK_UNKNOWN;
	c->idle = TS_IDLE_UNKNOWN;
	clear_reasons(c);
	account(an, c, ev->ts);
}

/*
 * Close a CPU at the window's end: charge the time up to it, count a
 * stopped interval still in progress as open, emit the last segment.
 */
static void close_cpu(struct ts_analysis *an, struct ts_cpu *c, uint64_t end)
{
	if (c->cut)
		return;
	an->counting = 1;
	if (c->gap_pending)	/* a bad page's gap ran to the end: into the range */
		c->lost_unknown++;
	c->gap_pending = 0;
	/* no restart followed a failed decision: the tick was running */
	if (c->open_failed)
		settle_tick(an, c, TS_TICK_RUNNING);
	settle_fallback(an, c, UINT64_MAX);	/* nothing told it: the snapshot held */
	account(an, c, end);
	if (c->tick == TS_TICK_STOPPED)
		add_open(an, c, end);
	flush_segment_causes(an, c, 1);
	c->cut = 1;
}

/*
 * A probe read one of the masks a tick decision checks (can_stop_full_tick()):
 * the global one, then the CPU's, the task's and the process's, stopping
 * at the first that holds a bit.  The position in that run is the scope;
 * a run starts at the global mask, which the decoder knows by its address.
 */
static void on_dep_check(struct ts_cpu *c, const struct ts_event *ev)
{
	if (ev->check.global)
		c->check_pos = TS_SCOPE_GLOBAL;
	else if (c->check_pos >= 0 && c->check_pos < TS_SCOPE_PROCESS && !c->check_mask)
		c->check_pos++;
	else
		c->check_pos = -1;
	c->check_mask = ev->check.mask;
}

/* ---- causes (docs/metrics.md, "Causes") ---- */

/* The entry of a cause on a CPU; its type's "other" once the table is full. */
static struct ts_cause *cause_entry(struct ts_cpu *c, int type, uint64_t key, int *idx)
{
	struct ts_cause *k;

	for (int i = 0; i < c->nr_causes; i++) {
		if (c->causes[i].type == type && c->causes[i].key == key) {
			*idx = i;
			return &c->causes[i];
		}
	}
	if (c->nr_causes == TS_MAX_CAUSES) {
		*idx = -1;
		return &c->causes_other[type];
	}
	*idx = c->nr_causes;
	k = &c->causes[c->nr_causes++];
	k->type = type;
	k->key = key;
	k->queuer_pid = -1;
	k->queuer_cpu = -1;
	return k;
}

static struct ts_cause *open_cause(struct ts_cpu *c, const struct ts_cause_open *o)
{
	return o->idx >= 0 ? &c->causes[o->idx] : &c->causes_other[o->type];
}

/*
 * A cause begins: count it, and whether it found the tick stopped (then it
 * interrupted a tickless CPU) or running.  While the tick state is not
 * known (the start, after a loss) it counts in neither.
 */
/*
 * A cause for the timeline (kept only with it): it waits in tl_causes for
 * the segment it began in.  A full buffer flushes the segment up to here
 * (account(): the state is charged in two parts, the same sums) when the
 * state is known; while it is open, the cause is left off and counted.
 * Returns its index in tl_causes, -1 when it has none.
 */
static int timeline_cause(struct ts_analysis *an, struct ts_cpu *c, const struct ts_event *ev,
			  int idx)
{
	struct ts_tl_cause *t;

	if (!an->timeline || !c->active)
		return -1;
	if (!c->tl_causes) {
		c->tl_causes = malloc(TS_SEG_MAX_CAUSES * sizeof(*c->tl_causes));
		if (!c->tl_causes) {
			c->tl_causes_dropped++;
			return -1;
		}
	}
	if (c->nr_tl_causes == TS_SEG_MAX_CAUSES) {
		if (c->tick_open || c->idle_open || c->idle == TS_IDLE_UNKNOWN) {
			c->tl_causes_dropped++;
			return -1;
		}
		account(an, c, ev->ts);
		flush_segment(an, c);
		if (c->nr_tl_causes == TS_SEG_MAX_CAUSES) {
			c->tl_causes_dropped++;
			return -1;
		}
	}
	t = &c->tl_causes[c->nr_tl_causes];
	*t = (struct ts_tl_cause){ .ts = ev->ts, .type = ev->cause.type, .idx = idx,
				   .pid = ev->pid };
	return c->nr_tl_causes++;
}

static void cause_begins(struct ts_analysis *an, struct ts_cpu *c, const struct ts_event *ev)
{
	struct ts_cause_open *o;
	struct ts_cause *k;
	int idx, pend;

	if (ev->cause.type < 0 || ev->cause.type >= TS_NR_CAUSE_TYPES)
		return;
	k = cause_entry(c, ev->cause.type, ev->cause.key, &idx);
	if (ev->cause.type == TS_CAUSE_IRQ && ev->cause.name[0])
		memcpy(k->name, ev->cause.name, sizeof(k->name));
	k->count++;
	if (c->tick_open)
		k->open++;		/* settle_causes() tells, with the tick */
	else if (c->tick == TS_TICK_STOPPED)
		k->stopped++;
	else if (c->tick == TS_TICK_RUNNING)
		k->held++;
	pend = timeline_cause(an, c, ev, idx);
	/* the oldest open entry makes room: its exit will find nothing */
	if (c->nr_cause_open == TS_CAUSE_DEPTH) {
		memmove(c->cause_open, c->cause_open + 1,
			sizeof(c->cause_open[0]) * (TS_CAUSE_DEPTH - 1));
		c->nr_cause_open--;
	}
	o = &c->cause_open[c->nr_cause_open++];
	o->type = ev->cause.type;
	o->idx = idx;
	o->inst = ev->cause.inst;
	o->ts = ev->ts;
	o->pend = pend;
	o->row = 0;
}

/* The end of a cause on the timeline: waiting, or patched where it was written. */
static void timeline_cause_end(struct ts_analysis *an, struct ts_cpu *c,
			       const struct ts_cause_open *o, uint64_t end)
{
	long here;

	if (o->pend >= 0 && o->pend < c->nr_tl_causes) {
		c->tl_causes[o->pend].end = end;
		return;
	}
	if (o->row <= 0 || !an->timeline || an->timeline_error)
		return;
	/* once per cause a segment's end cut: a span ended inside it */
	here = ftell(an->timeline);
	if (here < 0 || fseek(an->timeline, o->row, SEEK_SET) ||
	    fwrite(&end, sizeof(end), 1, an->timeline) != 1 ||
	    fseek(an->timeline, here, SEEK_SET))
		an->timeline_error = 1;
}

/*
 * A cause ends: its time is the entry's to here.  The exit names the
 * instance its entry named; entries above it lost their exits (their time
 * stays unknown).  An exit without its entry (the tick's own hrtimer, an
 * entry before the window) is ignored.
 */
static void cause_ends(struct ts_analysis *an, struct ts_cpu *c, const struct ts_event *ev)
{
	for (int i = c->nr_cause_open - 1; i >= 0; i--) {
		struct ts_cause_open *o = &c->cause_open[i];
		struct ts_cause *k;

		if (o->type != ev->cause.type || o->inst != ev->cause.inst)
			continue;
		k = open_cause(c, o);
		if (ev->ts >= o->ts) {
			k->time_ns += ev->ts - o->ts;
			k->timed++;
			timeline_cause_end(an, c, o, ev->ts);
		}
		c->nr_cause_open = i;
		return;
	}
}

static void on_cause(struct ts_analysis *an, struct ts_cpu *c, const struct ts_event *ev)
{
	/* an hrtimer that returns HRTIMER_RESTART is queued again right after its exit */
	c->hrtimer_exit_inst = ev->cause.exit && ev->cause.type == TS_CAUSE_HRTIMER ?
			       ev->cause.inst : 0;
	if (ev->cause.exit)
		cause_ends(an, c, ev);
	else if (an->counting)
		cause_begins(an, c, ev);
}

/*
 * Work queued to run on a CPU, seen on the CPU that queued it: the target
 * CPU's entry of that function counts it, with the task and CPU that
 * queued it last (or the interrupt, which names the CPU only).
 */
static void on_queue(struct ts_analysis *an, const struct ts_event *ev)
{
	struct ts_cause *k;
	struct ts_cpu *c;
	int idx;

	if (!an->counting || ev->queue.target < 0 || ev->queue.target >= TS_MAX_CPUS)
		return;
	c = an->cpus[ev->queue.target];
	if (!c && (an->restrict_cpus || !ts_analysis_covers(an, ev->queue.target)))
		return;		/* a CPU the report leaves out */
	c = cpu_state(an, ev->queue.target);
	if (!c)
		return;
	k = cause_entry(c, TS_CAUSE_WORK, ev->queue.function, &idx);
	k->queued++;
	k->queuer_pid = ev->pid;
	k->queuer_cpu = ev->cpu;
	k->queuer_irq = ev->queue.in_irq;
}

/* ---- who armed a timer (docs/metrics.md, "Who armed a timer") ---- */

/*
 * The cause an arming ran in on the arming CPU: the innermost one still
 * open, of a kind that can arm in that context (a work item in a task, the
 * others in interrupt context), and only of a type whose exits are traced
 * (else an entry stays open for good).  NULL when none.
 */
static const struct ts_cause_open *arming_in(const struct ts_analysis *an,
					     const struct ts_cpu *at, int in_irq)
{
	for (int i = at ? at->nr_cause_open - 1 : -1; i >= 0; i--) {
		const struct ts_cause_open *o = &at->cause_open[i];

		if (!(an->caps.cause_exits & (1u << o->type)))
			continue;
		if ((o->type == TS_CAUSE_WORK) != !in_irq)
			continue;
		return o;
	}
	return NULL;
}

/*
 * Who armed it: the timer itself (its callback re-armed it, or an hrtimer
 * returned HRTIMER_RESTART: queued again right after its exit, nothing in
 * between on that CPU), the cause it was armed in, interrupt context with
 * no cause traced there (a housekeeping CPU), or the task.
 */
static void arm_context(const struct ts_analysis *an, const struct ts_cpu *at,
			const struct ts_event *ev, uint64_t restarted, struct ts_armer *who)
{
	const struct ts_cause_open *o = arming_in(an, at, ev->arm.in_irq);
	const char *comm;

	memset(who, 0, sizeof(*who));
	who->cpu = ev->cpu;
	who->count = 1;
	if ((ev->arm.type == TS_CAUSE_HRTIMER && restarted && restarted == ev->arm.inst) ||
	    (o && o->type == ev->arm.type && o->inst == ev->arm.inst)) {
		who->ctx = TS_ARM_SELF;
	} else if (o) {
		const struct ts_cause *k = open_cause((struct ts_cpu *)at, o);

		who->ctx = TS_ARM_CAUSE;
		who->ctx_type = k->type;
		who->ctx_key = k->key;
		memcpy(who->ctx_name, k->name, sizeof(who->ctx_name));
	} else if (ev->arm.in_irq) {
		who->ctx = TS_ARM_IRQ;
	} else {
		who->ctx = TS_ARM_TASK;
		who->pid = ev->pid;
		comm = ts_comm_get(an, ev->pid);
		if (comm)
			copy_name(who->comm, sizeof(who->comm), comm);
	}
}

/* The same armer: the same CPU and context; a task by its name (else its pid). */
static int same_armer(const struct ts_armer *a, const struct ts_armer *b)
{
	if (a->ctx != b->ctx || a->cpu != b->cpu)
		return 0;
	switch (a->ctx) {
	case TS_ARM_TASK:
		if (a->comm[0] && b->comm[0])
			return !strcmp(a->comm, b->comm);
		return !a->comm[0] && !b->comm[0] && a->pid == b->pid;
	case TS_ARM_CAUSE:
		return a->ctx_type == b->ctx_type && a->ctx_key == b->ctx_key;
	default:
		return 1;
	}
}

/* Count an arming for its armer: the first TS_MAX_ARMERS have an entry, the rest are summed. */
static void add_armer(struct ts_cause *k, const struct ts_armer *who)
{
	for (int i = 0; i < k->nr_armers; i++) {
		if (same_armer(&k->armers[i], who)) {
			k->armers[i].count++;
			k->armers[i].pid = who->pid;	/* a task's name: its last pid */
			return;
		}
	}
	if (k->nr_armers == TS_MAX_ARMERS) {
		k->armers_other++;
		return;
	}
	k->armers[k->nr_armers++] = *who;
}

/*
 * A timer armed to fire on a CPU (timer_start on any CPU, its target in
 * its flags; hrtimer_start on the CPU that arms it): the target CPU's entry
 * of its function counts it, with who armed it.  Counts, not an order
 * across CPUs: a file is read CPU by CPU (tracedat.c), as the queue is.
 */
static void on_arm(struct ts_analysis *an, const struct ts_event *ev)
{
	struct ts_cpu *at = ev->cpu >= 0 && ev->cpu < TS_MAX_CPUS ? an->cpus[ev->cpu] : NULL;
	uint64_t restarted = at ? at->hrtimer_exit_inst : 0;
	struct ts_armer who;
	struct ts_cause *k;
	struct ts_cpu *c;
	int idx;

	if (at)
		at->hrtimer_exit_inst = 0;
	if (!an->counting || ev->arm.target < 0 || ev->arm.target >= TS_MAX_CPUS ||
	    (ev->arm.type != TS_CAUSE_TIMER && ev->arm.type != TS_CAUSE_HRTIMER))
		return;
	c = an->cpus[ev->arm.target];
	if (!c && (an->restrict_cpus || !ts_analysis_covers(an, ev->arm.target)))
		return;		/* a CPU the report leaves out */
	c = cpu_state(an, ev->arm.target);
	if (!c)
		return;
	arm_context(an, at, ev, restarted, &who);
	k = cause_entry(c, ev->arm.type, ev->arm.function, &idx);
	k->armed++;
	add_armer(k, &who);
}

/*
 * ts_analysis_want_symbols - ask q for every address a report names by
 * symbol: the callers of tick dependencies and the causes that are
 * functions (work, timer, hrtimer).  Returns how many; q NULL only counts.
 */
int ts_analysis_want_symbols(const struct ts_analysis *an, struct ts_ksym_query *q)
{
	int n = 0;

	for (int i = 0; q && i < an->nr_culprits; i++)
		ts_ksym_want(q, an->culprits[i].caller);
	n += an->nr_culprits;
	for (int cpu = 0; cpu < an->nr_cpus; cpu++) {
		const struct ts_cpu *c = an->cpus[cpu];

		for (int i = 0; c && i < c->nr_causes + TS_NR_CAUSE_TYPES; i++) {
			const struct ts_cause *k = i < c->nr_causes ? &c->causes[i] :
						   &c->causes_other[i - c->nr_causes];

			if (i < c->nr_causes && k->type <= TS_CAUSE_HRTIMER) {
				if (q)
					ts_ksym_want(q, k->key);
				n++;
			}
			/* the work, timer or hrtimer an arming ran in */
			for (int a = 0; a < k->nr_armers; a++) {
				if (k->armers[a].ctx != TS_ARM_CAUSE ||
				    k->armers[a].ctx_type > TS_CAUSE_HRTIMER)
					continue;
				if (q)
					ts_ksym_want(q, k->armers[a].ctx_key);
				n++;
			}
		}
	}
	return n;
}

/*
 * The symbol q found for addr, kept for the reports (the first name wins).
 * A caller is named "symbol+0xoff"; a function (a cause, exact) only by a
 * symbol at its very address: the nearest symbol below a function that
 * kallsyms no longer has (a module unloaded before the recorder read it)
 * would name another function, "_einittext+0x1dcd6df4", where the address
 * is the truth.
 */
static void name_symbol(struct ts_analysis *an, const struct ts_ksym_query *q, uint64_t addr,
			int exact)
{
	const struct ts_ksym *s = ts_ksym_get(q, addr);
	char name[TS_KSYM_NAME + 24];

	if (!s || ts_caller_get(an, addr) || (exact && s->addr != addr))
		return;
	if (s->addr == addr)
		snprintf(name, sizeof(name), "%s", s->name);
	else
		ts_ksym_format(s, name, sizeof(name));
	ts_caller_set(an, addr, name);
}

/* ts_analysis_name_symbols - name what ts_analysis_want_symbols() asked, from q's answers */
void ts_analysis_name_symbols(struct ts_analysis *an, const struct ts_ksym_query *q)
{
	for (int i = 0; i < an->nr_culprits; i++)
		name_symbol(an, q, an->culprits[i].caller, 0);
	for (int cpu = 0; cpu < an->nr_cpus; cpu++) {
		const struct ts_cpu *c = an->cpus[cpu];

		for (int i = 0; c && i < c->nr_causes + TS_NR_CAUSE_TYPES; i++) {
			const struct ts_cause *k = i < c->nr_causes ? &c->causes[i] :
						   &c->causes_other[i - c->nr_causes];

			if (i < c->nr_causes && k->type <= TS_CAUSE_HRTIMER)
				name_symbol(an, q, k->key, 1);
			for (int a = 0; a < k->nr_armers; a++)
				if (k->armers[a].ctx == TS_ARM_CAUSE &&
				    k->armers[a].ctx_type <= TS_CAUSE_HRTIMER)
					name_symbol(an, q, k->armers[a].ctx_key, 1);
		}
	}
}

/*
 * ts_analysis_set_quota - a co-runner's cgroup CPU quota (quota_us -1: none,
 * "max").  Returns 0, or -1 for a bad value or a full table (the pid is
 * then unknown, and counted in quotas_dropped).  O(1) expected: quota_map.
 */
int ts_analysis_set_quota(struct ts_analysis *an, int pid, int64_t quota_us, uint64_t period_us)
{
	struct ts_quota *q;
	int i, added;

	if (pid <= 0 || quota_us < -1 || (quota_us >= 0 && !period_us))
		return -1;
	i = ts_pidmap_insert(&an->quota_map, pid, &added);
	if (i < 0) {
		an->quotas_dropped++;
		return -1;
	}
	q = &an->quotas[i];
	if (added)
		an->nr_quotas++;
	q->pid = pid;
	q->quota_us = quota_us;
	q->period_us = period_us;
	return 0;
}

/*
 * ts_analysis_forget_quotas - every quota unknown again (a watcher's table
 * trimmed: ts_session_trim_quotas sets those it keeps again); quotas_dropped
 * keeps its count.
 */
void ts_analysis_forget_quotas(struct ts_analysis *an)
{
	memset(&an->quota_map, 0, sizeof(an->quota_map));
	an->nr_quotas = 0;
}

/* ts_analysis_quota - a task's cgroup CPU quota as recorded, or NULL when unknown */
const struct ts_quota *ts_analysis_quota(const struct ts_analysis *an, int pid)
{
	int i = ts_pidmap_find(&an->quota_map, pid);

	return i < 0 ? NULL : &an->quotas[i];
}

/* ts_analysis_set_causes_recorded - the cause types a tickstat recorder enabled */
void ts_analysis_set_causes_recorded(struct ts_analysis *an, int mask)
{
	an->causes_recorded = mask;
}

/*
 * ts_analysis_causes_known - the cause types whose counts the report can
 * trust (bits of enum ts_cause_type): the source carries their events, and
 * a tickstat recorder enabled them on the monitored CPUs.
 */
unsigned int ts_analysis_causes_known(const struct ts_analysis *an)
{
	unsigned int known = an->caps.causes;

	if (an->causes_recorded >= 0)
		known &= (unsigned int)an->causes_recorded;
	return known;
}

/* ts_analysis_set_armers_recorded - the cause types whose arming a tickstat recorder traced */
void ts_analysis_set_armers_recorded(struct ts_analysis *an, int mask)
{
	an->armers_recorded = mask;
}

/*
 * ts_analysis_armers_known - the cause types (timer, hrtimer) whose armings
 * the report can count: the type is known, the source carries its arming
 * event, and a tickstat recorder traced it for the monitored CPUs.
 */
unsigned int ts_analysis_armers_known(const struct ts_analysis *an)
{
	unsigned int known = an->caps.armers & ts_analysis_causes_known(an);

	if (an->armers_recorded >= 0)
		known &= (unsigned int)an->armers_recorded;
	return known;
}

/* ts_analysis_vectors_known - the x86 vector kinds the report counts (enum ts_vector bits) */
unsigned int ts_analysis_vectors_known(const struct ts_analysis *an)
{
	return ts_analysis_causes_known(an) & (1u << TS_CAUSE_VECTOR) ? an->caps.vectors : 0;
}

/*
 * ts_cause_name - what a cause is, for the reports: a function's symbol
 * (its address when the source cannot name it), "IRQ NAME", a softirq's
 * vector name, an x86 vector's kind.  Returns what snprintf() returns.
 */
int ts_cause_name(const struct ts_analysis *an, const struct ts_cause *k, char *buf, size_t len)
{
	const char *sym;

	switch (k->type) {
	case TS_CAUSE_IRQ:
		return snprintf(buf, len, "%llu %s", (unsigned long long)k->key,
				k->name[0] ? k->name : "?");
	case TS_CAUSE_SOFTIRQ:
		return snprintf(buf, len, "%s", ts_softirq_name((unsigned int)k->key));
	case TS_CAUSE_VECTOR:
		return snprintf(buf, len, "%s", ts_vector_name((unsigned int)k->key));
	default:
		sym = ts_caller_get(an, k->key);
		if (sym)
			return snprintf(buf, len, "%s", sym);
		return snprintf(buf, len, "0x%llx", (unsigned long long)k->key);
	}
}

/*
 * ts_armer_name - who armed a timer, for the reports: "comm(pid)@CPU" (a
 * task), "itself" (its own callback), "TYPE NAME@CPU" (in a cause there:
 * "softirq TIMER@2"), "interrupt@CPU".  Not escaped.  Returns what
 * snprintf() returns.
 */
int ts_armer_name(const struct ts_analysis *an, const struct ts_armer *a, char *buf, size_t len)
{
	struct ts_cause k = { .type = a->ctx_type, .key = a->ctx_key };
	char name[160];
	const char *comm;

	switch (a->ctx) {
	case TS_ARM_SELF:
		return snprintf(buf, len, "itself");
	case TS_ARM_CAUSE:
		memcpy(k.name, a->ctx_name, sizeof(k.name));
		ts_cause_name(an, &k, name, sizeof(name));
		return snprintf(buf, len, "%s %s@%d", ts_cause_type_name(a->ctx_type), name, a->cpu);
	case TS_ARM_IRQ:
		return snprintf(buf, len, "interrupt@%d", a->cpu);
	default:
		comm = a->comm[0] ? a->comm : ts_comm_get(an, a->pid);
		return snprintf(buf, len, "%s(%d)@%d", comm ? comm : "?", a->pid, a->cpu);
	}
}

/*
 * ts_analysis_apply - the state machine takes one event (ts_analysis_event
 * in hold.c is the door to it).
 * Returns 0, or -1 when the CPU number is out of range.
 */
int ts_analysis_apply(struct ts_analysis *an, const struct ts_event *ev)
{
	struct ts_cpu *c;
	int after_failure, pid;

	an->counting = in_range(an, ev->ts);
	if (ev->kind == TS_EV_DEP_CHECK) {
		c = cpu_state(an, ev->cpu);
		if (!c)
			return -1;
		on_dep_check(c, ev);
		return 0;
	}
	if (ev->kind == TS_EV_DEP_SET || ev->kind == TS_EV_DEP_CLEAR) {
		if (an->counting)
			on_dependency(an, ev);
		return 0;
	}
	if (ev->kind == TS_EV_QUEUE) {
		on_queue(an, ev);
		return 0;
	}
	if (ev->kind == TS_EV_ARM) {
		on_arm(an, ev);
		return 0;
	}
	c = cpu_state(an, ev->cpu);
	if (!c)
		return -1;
	/* a bad page's gap before the range ends here: did it reach into it? */
	if (c->gap_pending && ev->ts >= an->range_start) {
		c->gap_pending = 0;
		c->lost_unknown++;
	}
	c->gap_pending = 0;
	/*
	 * Past the range: the CPU's part of the report is complete, but for
	 * what its first events after the range say of the time since the
	 * window start, which holds inside the range too: they are read
	 * until one tells (after a failed decision, the event after it).
	 * A loss is stamped with the first event after its gap, and the gap
	 * began after the CPU's last event: inside the range, unless an
	 * event after the range came first.  From there to the range's end
	 * the CPU is unknown, and the events lost may be in it.
	 */
	if (an->range_end && ev->ts >= an->range_end) {
		if (c->cut || ev->kind == TS_EV_CAUSE)
			return 0;
		if (ev->kind == TS_EV_LOST && c->past_range) {
			settle_start(an, c, ev);	/* after the range: the start falls back */
		} else if (ev->kind == TS_EV_LOST) {
			struct ts_event in = *ev;

			in.ts = an->range_end - 1;
			if (ts_analysis_apply(an, &in))
				return -1;
		} else if (c->open_failed) {
			settle_tick(an, c, ev->kind == TS_EV_TICK_RESTART ? TS_TICK_STOPPED :
				    TS_TICK_RUNNING);
		} else {
			c->past_range = 1;
			settle_start(an, c, ev);
			if (c->open_failed || c->tick_open)
				return 0;
		}
		close_cpu(an, c, an->range_end);
		return 0;
	}
	if (c->cut)
		return 0;
	/* a cause tells nothing of the tick or the task: the state stays */
	if (ev->kind == TS_EV_CAUSE) {
		on_cause(an, c, ev);
		return 0;
	}
	settle_start(an, c, ev);
	if (ev->kind != TS_EV_TICK)
		c->started = 1;
	c->events += an->counting;
	if (ev->kind == TS_EV_LOST) {
		c->cur_pid = -1;
		on_lost(an, c, ev);
		return 0;
	}
	/*
	 * Every event names the task running when it fired (common_pid; for a
	 * switch, the one leaving).  With sched_switch in the stream, no switch
	 * came since the CPU's last event, so that task ran all along, unless
	 * the CPU's state is unknown since a gap: then from this event on.
	 */
	pid = ev->kind == TS_EV_SWITCH ? ev->sw.prev_pid : ev->pid;
	if (an->caps.sched_switch && c->idle != TS_IDLE_UNKNOWN)
		c->cur_pid = pid;
	account(an, c, ev->ts);
	if (an->caps.sched_switch && c->idle == TS_IDLE_UNKNOWN) {
		c->idle = pid ? TS_IDLE_BUSY : TS_IDLE_IDLE;
		c->cur_pid = pid;
	}
	after_failure = c->last_failed;
	c->last_failed = 0;

	switch (ev->kind) {
	case TS_EV_TICK_STOP:
		on_tick_stop(an, c, ev);
		break;
	case TS_EV_TICK_RETAIN:
		on_tick_retain(an, c, ev);
		break;
	case TS_EV_TICK_RESTART:
		on_tick_restart(an, c, ev, after_failure);
		break;
	case TS_EV_SWITCH:
		on_switch(an, c, ev);
		break;
	case TS_EV_TICK:
		if (!an->counting)
			break;
		c->ticks++;
		if (c->tick_open) {
			open_tick_add(an, c, ev->ts);
			break;
		}
		if (c->tick == TS_TICK_STOPPED)
			c->ticks_stopped++;
		timeline_tick(an, c, ev->ts);
		break;
	default:
		break;
	}
	return 0;
}

/*
 * ts_analysis_lost_after - count events of a CPU were lost from ts on, to
 * the end (a file that ends early for that CPU): what came before stands,
 * the rest is unknown.  A loss after the time range changes nothing.
 * Returns 1 when the loss counts, 0 when not, -1 when the CPU is out of range.
 */
int ts_analysis_lost_after(struct ts_analysis *an, int cpu, uint64_t ts, uint64_t count)
{
	struct ts_cpu *c = cpu_state(an, cpu);
	struct ts_event ev = { .kind = TS_EV_LOST, .cpu = cpu, .ts = ts, .lost.count = count };

	if (!c)
		return -1;
	if ((an->range_end && ts >= an->range_end) || c->cut)
		return 0;
	an->counting = 1;	/* the gap runs to the end: into the range */
	settle_fallback(an, c, ts);
	account(an, c, ts);
	on_lost(an, c, &ev);
	return 1;
}

/*
 * ts_analysis_advance - charge every CPU up to ts without closing it, so
 * that the numbers describe [window start, ts) while the stream goes on (a
 * watcher reading them at intervals).  An event that arrives later with an
 * older time changes the state from ts on.
 */
void ts_analysis_advance(struct ts_analysis *an, uint64_t ts)
{
	an->counting = 1;
	for (int i = 0; i < an->nr_cpus; i++) {
		struct ts_cpu *c = an->cpus[i];

		if (!c || c->cut)
			continue;
		/*
		 * A watcher's numbers are final at each poll: the start is
		 * settled at the first poll after the snapshot, except just
		 * after a failed decision, which the next event settles.
		 */
		if (c->open_failed || ((c->tick_open || c->idle_open) && ts < an->snapshot_ts))
			continue;
		settle_fallback(an, c, ts);
		account(an, c, ts);
	}
	if (ts > an->win_end)
		an->win_end = ts;
}

/*
 * ts_analysis_offline - a CPU left the online mask at ts, or at its last
 * event if that came later (a watcher saw it go): from then on it neither
 * runs nor ticks, so its state is unknown, as after lost events, but
 * nothing was lost.  The stopped interval in progress is cut (open).  Its
 * events set the state again once it is back.
 */
void ts_analysis_offline(struct ts_analysis *an, int cpu, uint64_t ts)
{
	struct ts_cpu *c = cpu_state(an, cpu);

	/* what it did before it went, held back or not, comes first */
	ts_analysis_release_cpu(an, cpu);
	if (!c || c->cut)
		return;
	if (ts < c->last_ts)
		ts = c->last_ts;
	an->counting = in_range(an, ts);
	settle_fallback(an, c, ts);
	account(an, c, ts);
	end_stopped(an, c, ts, 0);
	c->tick = TS_TICK_UNKNOWN;
	c->idle = TS_IDLE_UNKNOWN;
	c->cur_pid = -1;
	clear_reasons(c);
}

/*
 * ts_analysis_bad_record - a record of a CPU that could not be decoded:
 * whatever it said is unknown, so it counts as one lost event.
 */
void ts_analysis_bad_record(struct ts_analysis *an, int cpu, uint64_t ts)
{
	struct ts_event ev = { .kind = TS_EV_LOST, .cpu = cpu, .ts = ts, .lost.count = 1 };

	an->bad_records++;
	ts_analysis_event(an, &ev);
}

/*
 * ts_analysis_restart_interval - a watcher took the culprits and the
 * co-runners of the last interval: they start again from zero (the
 * analysis fills a new entry without zeroing its counts).
 */
/*
 * Empty a CPU's causes for the next interval (the monitor's series hold
 * what they counted).  A cause still open keeps an entry, counted 0, so
 * that its exit adds its time to it.  No timeline is kept meanwhile (a
 * monitor keeps none): its rows name entries by index.
 */
static void restart_causes(struct ts_cpu *c)
{
	struct ts_cause keep[TS_CAUSE_DEPTH];
	int n = c->nr_cause_open;

	for (int i = 0; i < n; i++)
		keep[i] = *open_cause(c, &c->cause_open[i]);
	memset(c->causes, 0, c->nr_causes * sizeof(c->causes[0]));
	init_causes_other(c);		/* each keeps its type: the series label it so */
	c->nr_causes = 0;
	for (int i = 0; i < n; i++) {
		struct ts_cause_open *o = &c->cause_open[i];
		struct ts_cause *k;

		if (o->idx < 0)
			continue;	/* its type's other, emptied in place */
		k = cause_entry(c, keep[i].type, keep[i].key, &o->idx);
		memcpy(k->name, keep[i].name, sizeof(k->name));
	}
}

void ts_analysis_restart_interval(struct ts_analysis *an)
{
	memset(an->culprits, 0, an->nr_culprits * sizeof(an->culprits[0]));
	an->nr_culprits = 0;
	an->culprits_dropped = 0;
	for (int i = 0; i < an->nr_cpus; i++) {
		struct ts_cpu *c = an->cpus[i];

		if (!c)
			continue;
		memset(c->tasks, 0, sizeof(c->tasks));
		memset(&c->tasks_other, 0, sizeof(c->tasks_other));
		c->nr_tasks = 0;
		c->last_task = 0;
		restart_causes(c);
	}
}

/*
 * ts_analysis_trim_comms - empty the comm table once it is half full, so
 * that a watcher's table never fills: names come back with the next
 * sched_switch.  Returns 1 when it was emptied.
 */
int ts_analysis_trim_comms(struct ts_analysis *an)
{
	if (!an->comms || an->nr_comms < an->comm_slots / 2)
		return 0;
	memset(an->comms, 0, an->comm_slots * sizeof(*an->comms));
	an->nr_comms = 0;
	return 1;
}

/*
 * The gaps a CPU's ring buffer left unsized, sized by the kernel's overrun
 * counter at the end of the recording: it counts every event the buffer
 * overwrote, in the gaps the pages sized and in the others alike (the
 * recorder's instance is its own, made for it, and holds no event from
 * before its window).  Not for a part of the recording (a time range: the
 * counter is the whole's), nor when the counter is below what the pages
 * said (one event a gap at least), nor for a watcher (gaps_stay_unsized):
 * the gaps then stay of unknown size.
 */
static void size_missed_gaps(struct ts_analysis *an)
{
	if (an->range_start || an->range_end || an->gaps_stay_unsized)
		return;
	for (int i = 0; i < an->nr_cpus; i++) {
		struct ts_cpu *c = an->cpus[i];

		if (!c || !c->missed_gaps || !an->overrun_known[i] ||
		    an->cpu_overrun[i] < c->missed_events + c->missed_gaps)
			continue;
		c->lost_events += an->cpu_overrun[i] - c->missed_events;
		c->lost_unknown -= c->missed_gaps;
		c->missed_gaps_sized += c->missed_gaps;
		c->missed_events = an->cpu_overrun[i];
		c->missed_gaps = 0;
	}
}

/*
 * ts_analysis_finish - the stream ended at end: charge every CPU up to the
 * window's end and close it.  The window is the stream's span, cut by the
 * time range; when the two do not overlap it is empty (win_end == win_start).
 * Then the gaps the ring buffer left unsized get their size, where the
 * kernel's counter tells it (size_missed_gaps()).
 */
void ts_analysis_finish(struct ts_analysis *an, uint64_t end)
{
	ts_analysis_unhold(an);
	an->data_end = end;
	if (an->range_end && an->range_end < end)
		end = an->range_end;
	if (end < an->win_start)
		end = an->win_start;
	an->win_end = end;
	for (int i = 0; i < an->nr_cpus; i++)
		if (an->cpus[i])
			close_cpu(an, an->cpus[i], end);
	size_missed_gaps(an);
	ts_doctor_settle(an);
}

/* Were events lost anywhere?  A stretch's edges can come from any CPU. */
static int lost_anywhere(const struct ts_analysis *an)
{
	if (an->overrun || an->bad_records || an->bad_pages)
		return 1;
	for (int i = 0; i < an->nr_cpus; i++)
		if (an->cpus[i] && (an->cpus[i]->lost_events || an->cpus[i]->lost_unknown))
			return 1;
	return 0;
}

/*
 * ts_sched_split - the time SCHED was set at CPU c for each sub-reason
 * (TICK_DEP_SCHED_*) in the window, after ts_analysis_finish().  A
 * stretch held from before the window starts at its start, one still held
 * ends at its end.  Returns 1 with ns filled, or 0 when that cannot be
 * told: the source has no tick_dep_sched (a change of sub-reason would
 * pass unseen), events were lost, no event of SCHED at c came in the
 * window (held throughout, or never), a sub-reason is past the table, or
 * the stretches do not add up (events missing): at most one sub-reason
 * holds the bit at a time, so more than one stretch held at an edge, a
 * count of edges that does not match, a negative time, or more time than
 * the window is refused.
 */
int ts_sched_split(const struct ts_analysis *an, const struct ts_cpu *c,
		   uint64_t ns[TS_NR_SCHED_SPLIT])
{
	uint64_t window = an->win_end - an->win_start;
	int held_start = 0, held_end = 0, seen = 0;
	__int128 total = 0;

	if (!an->caps.sched_split || c->sched_split_bad || an->win_end < an->win_start ||
	    lost_anywhere(an))
		return 0;
	for (int k = 0; k < TS_NR_SCHED_SPLIT; k++) {
		const struct ts_sched_stretches *s = &c->sched_stretches[k];
		__int128 t = s->span;

		ns[k] = 0;
		if (!s->seen)
			continue;
		seen = 1;
		if (s->open != s->last_starts - s->first_ends)
			return 0;
		t += (__int128)s->last_starts * an->win_end - (__int128)s->first_ends * an->win_start;
		held_start += s->first_ends;
		held_end += s->last_starts;
		if (t < 0 || t > window)
			return 0;
		ns[k] = (uint64_t)t;
		total += t;
	}
	return seen && held_start <= 1 && held_end <= 1 && total <= window;
}

/*
 * ts_sched_detail - SCHED's sub-reason at CPU c for the reports: the one
 * that held the bit longest in the window, or, where the source cannot
 * time them, the last one set; -1 none.
 */
int ts_sched_detail(const struct ts_analysis *an, const struct ts_cpu *c)
{
	uint64_t ns[TS_NR_SCHED_SPLIT];
	int best = -1;

	if (!ts_sched_split(an, c, ns))
		return c->sched_detail;
	for (int k = 0; k < TS_NR_SCHED_SPLIT; k++)
		if (ns[k] && (best < 0 || ns[k] > ns[best]))
			best = k;
	return best >= 0 ? best : c->sched_detail;
}

/*
 * Comms: an open-addressing table, bounded; the oldest name wins on
 * overflow.  A task can change its name (exec): the name seen last in
 * time wins, whatever order the CPUs are read in.
 */
void ts_comm_seen(struct ts_analysis *an, int pid, const char *comm, uint64_t ts)
{
	int slot;

	if (pid <= 0 || !comm || !comm[0])
		return;
	if (!an->comms) {
		an->comm_slots = 8192;
		an->comms = calloc(an->comm_slots, sizeof(*an->comms));
		if (!an->comms)
			return;
	}
	slot = (unsigned int)pid % an->comm_slots;
	for (int n = 0; n < an->comm_slots; n++) {
		struct ts_comm *e = &an->comms[(slot + n) % an->comm_slots];

		if (e->pid == pid || !e->pid) {
			if (!e->pid)
				an->nr_comms++;
			else if (ts < e->ts)
				return;
			size_t n = strnlen(comm, sizeof(e->comm) - 1);

			e->pid = pid;
			e->ts = ts;
			memcpy(e->comm, comm, n);	/* no printf */
			/* NUL-padded, as a switch's name is (comm_seen_again()) */
			memset(e->comm + n, 0, sizeof(e->comm) - n);
			return;
		}
		if (an->nr_comms >= an->comm_slots * 3 / 4)
			return;
	}
}

/* ts_comm_set - a task's name as it is now (read at the end): it wins */
void ts_comm_set(struct ts_analysis *an, int pid, const char *comm)
{
	ts_comm_seen(an, pid, comm, UINT64_MAX);
}

const char *ts_comm_get(const struct ts_analysis *an, int pid)
{
	int slot;

	if (!an->comms || pid <= 0)
		return pid == 0 ? "<idle>" : NULL;
	slot = (unsigned int)pid % an->comm_slots;
	for (int n = 0; n < an->comm_slots; n++) {
		const struct ts_comm *e = &an->comms[(slot + n) % an->comm_slots];

		if (e->pid == pid)
			return e->comm;
		if (!e->pid)
			return NULL;
	}
	return NULL;
}

void ts_caller_set(struct ts_analysis *an, uint64_t addr, const char *name)
{
	for (int i = 0; i < an->nr_callers; i++)
		if (an->callers[i].addr == addr)
			return;
	if (an->nr_callers == TS_MAX_CALLERS || !name)
		return;
	an->callers[an->nr_callers].addr = addr;
	an->callers[an->nr_callers].name = strdup(name);
	if (an->callers[an->nr_callers].name)
		an->nr_callers++;
}

const char *ts_caller_get(const struct ts_analysis *an, uint64_t addr)
{
	for (int i = 0; i < an->nr_callers; i++)
		if (an->callers[i].addr == addr)
			return an->callers[i].name;
	return NULL;
}

static const char * const none_names[] = { "UNREPORTED", "NOT_NOHZ_FULL" };

/* ts_reason_name - "SCHED", "TIMER_DUE", "UNREPORTED", ... */
const char *ts_reason_name(const struct ts_reason *r, char *buf, int len)
{
	switch (r->class) {
	case TS_RC_DEP:
		snprintf(buf, len, "%s", ts_dep_name(r->value));
		break;
	case TS_RC_RETAIN:
		snprintf(buf, len, "%s", ts_retain_name(r->value));
		break;
	default:
		snprintf(buf, len, "%s", none_names[r->value == TS_NONE_NOT_NOHZ_FULL]);
		break;
	}
	return buf;
}

/*
 * A number after a prefix, as names.c writes values it has no name for
 * ("DEP_BIT7"): written as reports write it (no sign, no leading zero), and
 * only in [min, max], the values a kernel can send that have no name.  A
 * name outside that range could never match anything: a typo, not a reason.
 */
static int numbered(const char *name, const char *prefix, int min, int max, int *val)
{
	const char *d = name + strlen(prefix);
	long v = 0;

	if (strncasecmp(name, prefix, strlen(prefix)) || !isdigit((unsigned char)*d) ||
	    (d[0] == '0' && d[1]))
		return 0;
	for (; isdigit((unsigned char)*d); d++) {
		v = v * 10 + (*d - '0');
		if (v > max)
			return 0;
	}
	if (*d || v < min)
		return 0;
	*val = (int)v;
	return 1;
}

/*
 * ts_reason_spec_parse - "NAME" or "NAME@SCOPE", any case: a dependency
 * (with an optional scope), a retain reason, UNREPORTED or NOT_NOHZ_FULL,
 * or a value named by number as reports show them.  Returns 0, or -1 when
 * the text names no reason.
 */
int ts_reason_spec_parse(const char *text, struct ts_reason_spec *spec)
{
	char name[64], *at;

	if (snprintf(name, sizeof(name), "%s", text) >= (int)sizeof(name))
		return -1;
	spec->scope = -1;
	at = strchr(name, '@');
	if (at) {
		*at++ = '\0';
		for (spec->scope = 0; spec->scope < TS_NR_SCOPES; spec->scope++)
			if (!strcasecmp(at, ts_scope_name(spec->scope)))
				break;
		if (spec->scope == TS_NR_SCOPES)
			return -1;
	}
	spec->dep = ts_dep_from_name(name);
	if (spec->dep < 0 && !numbered(name, "DEP_BIT", TS_DEP_BITS, TS_DEP_BIT_MAX, &spec->dep))
		spec->dep = -1;
	spec->retain = spec->none = -1;
	if (at)		/* only dependencies have a scope */
		return spec->dep >= 0 ? 0 : -1;
	spec->retain = ts_retain_from_name(name);
	if (spec->retain < 0 && !numbered(name, "RETAIN_", ts_retain_numbered_min(),
					  TS_RETAIN_NUMBERED_MAX, &spec->retain))
		spec->retain = -1;
	for (int v = 0; v < (int)(sizeof(none_names) / sizeof(none_names[0])); v++)
		if (!strcasecmp(name, none_names[v]))
			spec->none = v;
	return spec->dep >= 0 || spec->retain >= 0 || spec->none >= 0 ? 0 : -1;
}

/* ts_reason_spec_matches - does a parsed spec name this reason? */
int ts_reason_spec_matches(const struct ts_reason *r, const struct ts_reason_spec *spec)
{
	switch (r->class) {
	case TS_RC_DEP:
		return r->value == spec->dep && (spec->scope < 0 || r->scope == spec->scope);
	case TS_RC_RETAIN:
		return r->value == spec->retain;
	default:
		return r->value == spec->none;
	}
}

/* ts_reason_matches - does "NAME" or "NAME@SCOPE" (any case) name this reason? */
int ts_reason_matches(const struct ts_reason *r, const char *text)
{
	struct ts_reason_spec spec;

	return !ts_reason_spec_parse(text, &spec) && ts_reason_spec_matches(r, &spec);
}

/* ts_reason_name_list - every reason name and scope, for error messages */
void ts_reason_name_list(char *buf, size_t len)
{
	size_t used = 0;

#define ADD(...) (used += snprintf(buf + used, used < len ? len - used : 0, __VA_ARGS__))
	buf[0] = '\0';
	for (int i = 0; i < TS_DEP_BITS; i++)
		ADD("%s%s", used ? ", " : "", ts_dep_name(i));
	for (int i = 1; ts_retain_from_name(ts_retain_name(i)) == i; i++)
		if (ts_dep_from_name(ts_retain_name(i)) < 0)	/* RCU is both */
			ADD(", %s", ts_retain_name(i));
	ADD(", %s", ts_retain_name(TS_RETAIN_IDLE_REFUSED));
	for (size_t i = 0; i < sizeof(none_names) / sizeof(none_names[0]); i++)
		ADD(", %s", none_names[i]);
	ADD("; a dependency may take @SCOPE, one of ");
	for (int i = 0; i < TS_NR_SCOPES; i++)
		ADD("%s%s", i ? ", " : "", ts_scope_name(i));
	ADD("; values without a name are DEP_BIT%d to DEP_BIT%d and RETAIN_%d to RETAIN_%d",
	    TS_DEP_BITS, TS_DEP_BIT_MAX, ts_retain_numbered_min(), TS_RETAIN_NUMBERED_MAX);
#undef ADD
}

/* The one table of state names: reports, the CSV and the start marks use it. */
static const char * const tick_state_names[TS_NR_TICK] = { "unknown", "running", "stopped" };
static const char * const idle_state_names[TS_NR_IDLE] = { "unknown", "busy", "idle" };

const char *ts_tick_state_name(enum ts_tick_state s)
{
	return s < TS_NR_TICK ? tick_state_names[s] : "?";
}

const char *ts_idle_state_name(enum ts_idle_state s)
{
	return s < TS_NR_IDLE ? idle_state_names[s] : "?";
}

/* ts_parse_state_pair - "TICK,IDLE" as ts_*_state_name() write them; 0 or -1 */
int ts_parse_state_pair(const char *text, enum ts_tick_state *tick, enum ts_idle_state *idle)
{
	const char *comma = strchr(text, ',');
	int t = -1, i = -1;

	if (!comma)
		return -1;
	for (int k = 0; k < TS_NR_TICK; k++)
		if (strlen(tick_state_names[k]) == (size_t)(comma - text) &&
		    !strncmp(text, tick_state_names[k], comma - text))
			t = k;
	for (int k = 0; k < TS_NR_IDLE; k++)
		if (!strcmp(comma + 1, idle_state_names[k]))
			i = k;
	if (t < 0 || i < 0)
		return -1;
	*tick = t;
	*idle = i;
	return 0;
}

uint64_t ts_cpu_window_ns(const struct ts_analysis *an)
{
	return an->win_end > an->win_start ? an->win_end - an->win_start : 0;
}

uint64_t ts_cpu_tick_ns(const struct ts_cpu *c, enum ts_tick_state t)
{
	uint64_t n = 0;

	for (int i = 0; i < TS_NR_IDLE; i++)
		n += c->time[t][i];
	return n;
}

uint64_t ts_cpu_idle_ns(const struct ts_cpu *c, enum ts_idle_state i)
{
	uint64_t n = 0;

	for (int t = 0; t < TS_NR_TICK; t++)
		n += c->time[t][i];
	return n;
}

/* ts_share - part/whole, or -1 when whole is 0 (undefined) */
double ts_share(uint64_t part, uint64_t whole)
{
	return whole ? (double)part / (double)whole : -1.0;
}
