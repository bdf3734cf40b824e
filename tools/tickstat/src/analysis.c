// SPDX-License-Identifier: GPL-2.0
/*
 * analysis.c - per-CPU tick state machine and metric aggregation.
 *
 * Time is charged lazily: when an event arrives on a CPU, the stretch since
 * that CPU's previous event is charged to the state that held during it,
 * then the event moves the state.  The rules, and what a stock kernel can
 * and cannot tell, are in docs/metrics.md.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <stdio.h>

#include "analysis.h"

/* Reasons used when the tick runs and no decision said why. */
#define NONE_UNREPORTED		0
#define NONE_NOT_NOHZ_FULL	1

void ts_analysis_init(struct ts_analysis *an)
{
	memset(an, 0, sizeof(*an));
}

void ts_analysis_free(struct ts_analysis *an)
{
	for (int i = 0; i < TS_MAX_CPUS; i++)
		free(an->cpus[i]);
	for (int i = 0; i < an->nr_callers; i++)
		free(an->callers[i].name);
	free(an->comms);
	memset(an, 0, sizeof(*an));
}

/* ts_analysis_cpu - the state of a CPU, created on first use; NULL if out of range */
struct ts_cpu *ts_analysis_cpu(struct ts_analysis *an, int cpu)
{
	struct ts_cpu *c;

	if (cpu < 0 || cpu >= TS_MAX_CPUS)
		return NULL;
	c = an->cpus[cpu];
	if (c)
		return c;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->cpu = cpu;
	c->nohz_full = -1;
	c->last_ts = an->win_start;
	c->sched_detail = -1;
	an->cpus[cpu] = c;
	if (cpu >= an->nr_cpus)
		an->nr_cpus = cpu + 1;
	if (!an->restrict_cpus)
		c->active = 1;
	return c;
}

/*
 * ts_analysis_set_start - the first instant the stream covers.  CPUs named
 * before this was known start there too.
 */
void ts_analysis_set_start(struct ts_analysis *an, uint64_t start)
{
	an->win_start = an->range_end ? an->range_start : start;
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
 * ts_analysis_set_range - report only [start, end) of the stream: events
 * outside still move the state, but only time and events inside count.
 */
void ts_analysis_set_range(struct ts_analysis *an, uint64_t start, uint64_t end)
{
	an->range_start = start;
	an->range_end = end;
	an->win_start = start;
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
	c = ts_analysis_cpu(an, cpu);
	if (c)
		c->active = 1;
}

/* ts_analysis_set_initial - the state at the window start, from a snapshot */
void ts_analysis_set_initial(struct ts_analysis *an, int cpu,
			     enum ts_tick_state tick, enum ts_idle_state idle)
{
	struct ts_cpu *c = ts_analysis_cpu(an, cpu);

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
static int none_reason(struct ts_cpu *c)
{
	int why = NONE_UNREPORTED;

	if (c->nohz_full == 0 && c->idle == TS_IDLE_BUSY)
		why = NONE_NOT_NOHZ_FULL;
	return find_reason(c, TS_RC_NONE, TS_SCOPE_UNKNOWN, why);
}

static int same_segment(const struct ts_cpu *c, const struct ts_segment *s,
			const int *reasons, int nr)
{
	return s->tick == c->tick && s->idle == c->idle && s->nr_reasons == nr &&
	       !memcmp(s->reasons, reasons, nr * sizeof(int));
}

/* Timeline output: one segment per stretch of unchanged state. */
static void flush_segment(struct ts_analysis *an, struct ts_cpu *c)
{
	if (c->seg_valid && an->on_segment && c->active)
		an->on_segment(an->out_ctx, &c->seg);
	c->seg_valid = 0;
}

static void emit_segment(struct ts_analysis *an, struct ts_cpu *c, uint64_t from,
			 uint64_t to, const int *reasons, int nr)
{
	struct ts_segment *s = &c->seg;

	if (!an->on_segment || to <= from)
		return;
	if (c->seg_valid && s->end == from && same_segment(c, s, reasons, nr)) {
		s->end = to;
		return;
	}
	flush_segment(an, c);
	s->cpu = c->cpu;
	s->start = from;
	s->end = to;
	s->tick = c->tick;
	s->idle = c->idle;
	s->owner = c;
	memcpy(c->seg_reasons, reasons, nr * sizeof(int));
	s->reasons = c->seg_reasons;
	s->nr_reasons = nr;
	c->seg_valid = 1;
}

/* Charge the stretch since the CPU's last event to the state that held. */
static void account(struct ts_analysis *an, struct ts_cpu *c, uint64_t to)
{
	int none[1], *reasons = c->active_reasons, nr = c->nr_active;
	uint64_t from = c->last_ts, d;

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
	d = to - from;
	c->time[c->tick][c->idle] += d;
	if (c->tick == TS_TICK_RUNNING) {
		if (!nr) {
			none[0] = none_reason(c);
			reasons = none;
			nr = none[0] >= 0;
		}
		for (int i = 0; i < nr; i++)
			c->reasons[reasons[i]].time_ns += d;
	} else {
		nr = 0;
	}
	emit_segment(an, c, from, to, reasons, nr);
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

/* End a stopped interval at ts; cut intervals count as open, not measured. */
static void end_stopped(struct ts_analysis *an, struct ts_cpu *c, uint64_t ts, int known_end)
{
	if (c->tick != TS_TICK_STOPPED)
		return;
	c->tick = TS_TICK_RUNNING;
	if (!an->counting)
		return;
	if (c->stop_censored || !known_end || c->stop_start < an->range_start)
		c->stopped_open++, c->open_total_ns += ts - c->stop_start;
	else
		ts_hist_add(&c->stopped, ts - c->stop_start);
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
	clear_reasons(c);
	if (ev->stop.has_scopes) {
		for (int s = 0; s < 4; s++)
			for (unsigned int m = ev->stop.deps[s]; m; m &= m - 1)
				add_active(c, find_reason(c, TS_RC_DEP, s, __builtin_ctz(m)));
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
	else if (c->tick == TS_TICK_UNKNOWN)
		c->tick = TS_TICK_RUNNING;
}

/*
 * tick_nohz_next_event() reasons (1-5) are only traced while the tick
 * runs, and so is the idle loop's own choice to keep it (IDLE_LOOP, 11).
 */
#define RETAIN_IMPLIES_RUNNING(r)	(((r) >= 1 && (r) <= 5) || (r) == 11)

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

static void on_tick_restart(struct ts_analysis *an, struct ts_cpu *c,
			    const struct ts_event *ev)
{
	int cause = ev->restart.cause;

	if (cause < 0 || cause >= TS_NR_RESTART_CAUSES)
		cause = TS_NR_RESTART_CAUSES;
	c->restarts[cause] += an->counting;
	if (c->tick == TS_TICK_STOPPED)
		end_stopped(an, c, ev->ts, 1);
	else if (c->tick == TS_TICK_UNKNOWN && an->counting)
		c->stopped_open++;	/* stopped since before we knew */
	c->tick = TS_TICK_RUNNING;
	/* A dependency restart keeps the reasons its tick_stop just gave. */
	if (cause != TS_RESTART_DEPENDENCY)
		clear_reasons(c);
}

static void on_switch(struct ts_analysis *an, struct ts_cpu *c,
		      const struct ts_event *ev)
{
	enum ts_idle_state next = ev->sw.next_pid ? TS_IDLE_BUSY : TS_IDLE_IDLE;

	if (ev->sw.next_pid)
		ts_comm_set(an, ev->sw.next_pid, ev->sw.next_comm);
	if (ev->sw.prev_pid)
		ts_comm_set(an, ev->sw.prev_pid, ev->sw.prev_comm);
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

static void on_dependency(struct ts_analysis *an, const struct ts_event *ev)
{
	int set = ev->kind == TS_EV_DEP_SET;
	unsigned int bit = ev->dep.dependency ? __builtin_ctz(ev->dep.dependency) : 0;
	int cpu = ev->cpu;
	struct ts_culprit *k;

	if (ev->dep.scope == TS_SCOPE_GLOBAL)
		cpu = -1;
	else if (ev->dep.scope == TS_SCOPE_CPU)
		cpu = ev->dep.target;
	if (set && bit == 2 && ev->dep.scope == TS_SCOPE_CPU) {
		struct ts_cpu *t = ts_analysis_cpu(an, ev->dep.target);

		if (t)
			t->sched_detail = ev->dep.sched;
	}
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

/* The stretch before a lost-events gap is unknown: anything may have happened. */
static void on_lost(struct ts_analysis *an, struct ts_cpu *c,
		    const struct ts_event *ev)
{
	if (ev->lost.count)
		c->lost_events += ev->lost.count;
	else
		c->lost_unknown++;
	an->counting = 1;	/* a loss always counts: it taints the report */
	end_stopped(an, c, c->last_ts, 0);
	c->tick = TS_TICK_UNKNOWN;
	c->idle = TS_IDLE_UNKNOWN;
	clear_reasons(c);
	account(an, c, ev->ts);
}

/*
 * The start snapshot gave the state read a moment after tracing began.  An
 * event before that moment may have changed one of its two parts: the
 * first such event for a part makes that part unknown up to the event (the
 * event itself then sets the state from there on).  Tick interrupts change
 * nothing.  On a stock kernel a switch restarts a stopped tick silently, but
 * only outside nohz_full (see on_switch()): on a nohz_full CPU a switch
 * leaves the tick part of the snapshot standing.
 */
static void snapshot_check(struct ts_analysis *an, struct ts_cpu *c, const struct ts_event *ev)
{
	int tick = 0, idle = 0;

	switch (ev->kind) {
	case TS_EV_TICK_STOP:
	case TS_EV_TICK_RETAIN:
	case TS_EV_TICK_RESTART:
		tick = 1;
		break;
	case TS_EV_SWITCH:
		idle = 1;
		tick = !an->caps.restart && c->nohz_full != 1;
		break;
	case TS_EV_LOST:
		tick = idle = 1;
		break;
	default:
		break;
	}
	if (tick && !c->snap_tick_checked) {
		c->snap_tick_checked = 1;
		if (c->tick == TS_TICK_STOPPED)
			c->stop_censored = 1;
		c->tick = TS_TICK_UNKNOWN;
	}
	if (idle && !c->snap_idle_checked) {
		c->snap_idle_checked = 1;
		c->idle = TS_IDLE_UNKNOWN;
	}
}

/*
 * ts_analysis_event - feed one decoded event.
 * Returns 0, or -1 when the CPU number is out of range.
 */
int ts_analysis_event(struct ts_analysis *an, const struct ts_event *ev)
{
	struct ts_cpu *c;

	an->counting = in_range(an, ev->ts);
	if (ev->kind == TS_EV_DEP_SET || ev->kind == TS_EV_DEP_CLEAR) {
		if (an->counting)
			on_dependency(an, ev);
		return 0;
	}
	c = ts_analysis_cpu(an, ev->cpu);
	if (!c)
		return -1;
	if (an->snapshot_ts && ev->ts < an->snapshot_ts)
		snapshot_check(an, c, ev);
	if (ev->kind != TS_EV_TICK)
		c->started = 1;
	c->events += an->counting;
	if (ev->kind == TS_EV_LOST) {
		on_lost(an, c, ev);
		return 0;
	}
	account(an, c, ev->ts);

	switch (ev->kind) {
	case TS_EV_TICK_STOP:
		on_tick_stop(an, c, ev);
		break;
	case TS_EV_TICK_RETAIN:
		on_tick_retain(an, c, ev);
		break;
	case TS_EV_TICK_RESTART:
		on_tick_restart(an, c, ev);
		break;
	case TS_EV_SWITCH:
		on_switch(an, c, ev);
		break;
	case TS_EV_TICK:
		if (!an->counting)
			break;
		c->ticks++;
		if (c->tick == TS_TICK_STOPPED)
			c->ticks_stopped++;
		if (an->on_tick && c->active)
			an->on_tick(an->out_ctx, c->cpu, ev->ts);
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
	struct ts_cpu *c = ts_analysis_cpu(an, cpu);
	struct ts_event ev = { .kind = TS_EV_LOST, .cpu = cpu, .ts = ts, .lost.count = count };

	if (!c)
		return -1;
	if (an->range_end && ts >= an->range_end)
		return 0;
	an->counting = in_range(an, ts);
	account(an, c, ts);
	on_lost(an, c, &ev);
	return 1;
}

/* ts_analysis_finish - charge every CPU up to the window end and close */
void ts_analysis_finish(struct ts_analysis *an, uint64_t end)
{
	if (an->range_end)
		end = an->range_end;
	an->win_end = end;
	an->counting = 1;
	for (int i = 0; i < an->nr_cpus; i++) {
		struct ts_cpu *c = an->cpus[i];

		if (!c)
			continue;
		account(an, c, end);
		if (c->tick == TS_TICK_STOPPED) {
			c->stopped_open++;
			c->open_total_ns += end - c->stop_start;
		}
		flush_segment(an, c);
	}
}

/* Comms: an open-addressing table, bounded; the oldest name wins on overflow. */
void ts_comm_set(struct ts_analysis *an, int pid, const char *comm)
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
			e->pid = pid;
			snprintf(e->comm, sizeof(e->comm), "%s", comm);
			return;
		}
		if (an->nr_comms >= an->comm_slots * 3 / 4)
			return;
	}
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
		snprintf(buf, len, "%s", r->value == NONE_NOT_NOHZ_FULL ?
			 "NOT_NOHZ_FULL" : "UNREPORTED");
		break;
	}
	return buf;
}

/* ts_reason_matches - does "NAME" or "NAME@SCOPE" (any case) name this reason? */
int ts_reason_matches(const struct ts_reason *r, const char *spec)
{
	char name[48], want[64], *at;

	snprintf(want, sizeof(want), "%s", spec);
	at = strchr(want, '@');
	if (at)
		*at++ = '\0';
	ts_reason_name(r, name, sizeof(name));
	if (strcasecmp(name, want))
		return 0;
	if (!at)
		return 1;
	return r->class == TS_RC_DEP && !strcasecmp(at, ts_scope_name(r->scope));
}

const char *ts_tick_state_name(enum ts_tick_state s)
{
	static const char * const names[] = { "unknown", "running", "stopped" };

	return s < TS_NR_TICK ? names[s] : "?";
}

const char *ts_idle_state_name(enum ts_idle_state s)
{
	static const char * const names[] = { "unknown", "busy", "idle" };

	return s < TS_NR_IDLE ? names[s] : "?";
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
