// SPDX-License-Identifier: GPL-2.0
/*
 * series.c - tickstat monitor's cumulative series (see series.h) and their
 * Prometheus exposition.  docs/monitoring.md lists every metric.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "series.h"

#define OTHER			"other"
#define CULPRIT_MIN_SETS	1			/* a culprit is named from its first set */
#define TASK_MIN_HELD_NS	1000000ULL		/* a co-runner once it held the tick 1 ms */
#define CAUSE_MIN_ENTRIES	1			/* a cause is named from its first entry */
#define RETIRE_NS		(3600 * 1000000000ULL)	/* a named series unchanged this long goes */

void ts_series_init(struct ts_series *s, int top)
{
	memset(s, 0, sizeof(*s));
	s->top = top;
	s->culprits.sig = 0;		/* sets */
	s->tasks.sig = 1;		/* held ns */
	s->causes.sig = 0;		/* entries */
	for (int c = 0; c < TS_MAX_CPUS; c++) {
		s->ratio[c] = -1;
		s->online[c] = 1;
	}
}

void ts_series_free(struct ts_series *s)
{
	free(s->culprits.row);
	free(s->culprits.pend);
	free(s->tasks.row);
	free(s->tasks.pend);
	free(s->causes.row);
	free(s->causes.pend);
	memset(&s->culprits, 0, sizeof(s->culprits));
	memset(&s->tasks, 0, sizeof(s->tasks));
	memset(&s->causes, 0, sizeof(s->causes));
}

static int same_group(const struct ts_row *a, const struct ts_row *b)
{
	return a->cpu == b->cpu && a->bit == b->bit && a->scope == b->scope;
}

static int same_key(const struct ts_row *a, const struct ts_row *b)
{
	return same_group(a, b) && !strcmp(a->comm, b->comm) && !strcmp(a->caller, b->caller);
}

static int by_key(const void *x, const void *y)
{
	const struct ts_row *a = x, *b = y;

	if (a->cpu != b->cpu)
		return a->cpu - b->cpu;
	if (a->bit != b->bit)
		return a->bit - b->bit;
	if (a->scope != b->scope)
		return a->scope - b->scope;
	if (strcmp(a->comm, b->comm))
		return strcmp(a->comm, b->comm);
	return strcmp(a->caller, b->caller);
}

static const struct ts_rows *sort_rows;

/* By group, then most significant first: sets (culprits), held time (co-runners). */
static int by_group_then_sig(const void *x, const void *y)
{
	const struct ts_row *a = x, *b = y;
	int k = sort_rows->sig;

	if (!same_group(a, b))
		return by_key(a, b);
	if (a->v[k] != b->v[k])
		return a->v[k] < b->v[k] ? 1 : -1;
	return by_key(a, b);
}

/* One interval's numbers of a key, summed in later (pids that share a name). */
static void pend(struct ts_rows *t, int cpu, int bit, int scope, const char *comm,
		 const char *caller, const uint64_t *v)
{
	struct ts_row *r;

	if (t->nr_pend == t->cap_pend) {
		int cap = t->cap_pend ? t->cap_pend * 2 : 64;
		struct ts_row *more = realloc(t->pend, cap * sizeof(*more));

		if (!more)
			return;
		t->pend = more;
		t->cap_pend = cap;
	}
	r = &t->pend[t->nr_pend++];
	memset(r, 0, sizeof(*r));
	r->cpu = cpu;
	r->bit = bit;
	r->scope = scope;
	snprintf(r->comm, sizeof(r->comm), "%s", comm);
	snprintf(r->caller, sizeof(r->caller), "%s", caller);
	memcpy(r->v, v, sizeof(r->v));
}

static struct ts_row *new_row(struct ts_rows *t, const struct ts_row *like, const char *comm,
			      const char *caller)
{
	struct ts_row *r;

	if (t->nr == t->cap) {
		int cap = t->cap ? t->cap * 2 : 32;
		struct ts_row *more = realloc(t->row, cap * sizeof(*more));

		if (!more)
			return NULL;
		t->row = more;
		t->cap = cap;
	}
	r = &t->row[t->nr++];
	memset(r, 0, sizeof(*r));
	r->cpu = like->cpu;
	r->bit = like->bit;
	r->scope = like->scope;
	snprintf(r->comm, sizeof(r->comm), "%s", comm);
	snprintf(r->caller, sizeof(r->caller), "%s", caller);
	return r;
}

static void add_to(struct ts_row *r, const struct ts_row *p, uint64_t now)
{
	for (int k = 0; k < 3; k++)
		r->v[k] += p->v[k];
	if (p->v[0] || p->v[1] || p->v[2])
		r->changed = now;
}

static void drop_row(struct ts_rows *t, int j)
{
	t->row[j] = t->row[--t->nr];
	t->retired++;
}

/*
 * Place one key's numbers of an interval: in its series if it has one;
 * else in a new one if it reaches min and its group has room, or can make
 * room: the group's smallest named series (by its whole life) gives way to
 * a key that did more in this one interval.  Else in the group's "other".
 */
static void place(struct ts_rows *t, const struct ts_row *p, int top, uint64_t min,
		  uint64_t now)
{
	struct ts_row *named = NULL, *other = NULL;
	int k = t->sig, in_group = 0, smallest = -1;

	for (int j = 0; j < t->nr; j++) {
		struct ts_row *r = &t->row[j];

		if (!same_group(r, p))
			continue;
		if (same_key(r, p)) {
			named = r;
		} else if (strcmp(r->comm, OTHER)) {
			in_group++;
			if (smallest < 0 || r->v[k] < t->row[smallest].v[k])
				smallest = j;
		}
	}
	if (!named && strcmp(p->comm, OTHER) && p->v[k] >= min) {
		if (in_group >= top && smallest >= 0 && t->row[smallest].v[k] < p->v[k]) {
			drop_row(t, smallest);
			in_group--;
		}
		if (in_group < top)
			named = new_row(t, p, p->comm, p->caller);
	}
	if (!named) {
		for (int j = 0; j < t->nr && !other; j++)
			if (same_group(&t->row[j], p) && !strcmp(t->row[j].comm, OTHER))
				other = &t->row[j];
		if (!other)
			other = new_row(t, p, OTHER, p->caller[0] ? OTHER : "");
	}
	if (named || other)
		add_to(named ? named : other, p, now);
}

/*
 * Move an interval's numbers into the series, the most significant keys of
 * each group first (see place()).  A named series that has not grown for
 * RETIRE_NS is removed too (Prometheus has long marked it stale by then), so
 * that the slots of a monitor that runs for weeks go to what happens now.
 */
static void commit(struct ts_rows *t, int top, uint64_t min, uint64_t now)
{
	int n = 0;

	/* sum the pids that share a name */
	if (t->nr_pend)
		qsort(t->pend, t->nr_pend, sizeof(*t->pend), by_key);
	for (int i = 0; i < t->nr_pend; i++) {
		if (n && same_key(&t->pend[n - 1], &t->pend[i])) {
			for (int k = 0; k < 3; k++)
				t->pend[n - 1].v[k] += t->pend[i].v[k];
			continue;
		}
		t->pend[n++] = t->pend[i];
	}
	sort_rows = t;
	if (n)
		qsort(t->pend, n, sizeof(*t->pend), by_group_then_sig);
	for (int i = 0; i < n; i++)
		place(t, &t->pend[i], top, min, now);
	t->nr_pend = 0;
	for (int j = t->nr - 1; j >= 0; j--)
		if (strcmp(t->row[j].comm, OTHER) && now - t->row[j].changed > RETIRE_NS)
			drop_row(t, j);
}

/* A task's name: from sched_switch, else /proc, else "unknown". */
static const char *comm_of(const struct ts_analysis *an, int pid, char *buf, size_t len)
{
	const char *known = ts_comm_get(an, pid);
	char path[64];
	FILE *f;

	if (known)
		return known;
	snprintf(buf, len, "unknown");
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = pid > 0 ? fopen(path, "r") : NULL;
	if (f) {
		if (fgets(buf, len, f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
	return buf;
}

static int reported(const struct ts_analysis *an, int cpu)
{
	return cpu >= 0 && cpu < an->nr_cpus && an->cpus[cpu] && an->cpus[cpu]->active;
}

static void take_culprits(struct ts_series *s, const struct ts_analysis *an, ts_symbol_fn sym,
			  void *sym_ctx)
{
	char comm[32];

	for (int i = 0; i < an->nr_culprits; i++) {
		const struct ts_culprit *k = &an->culprits[i];
		const char *fn = sym ? sym(sym_ctx, k->caller) : NULL;
		uint64_t v[3] = { k->sets, k->clears, 0 };

		if (k->cpu >= 0 && !reported(an, k->cpu))
			continue;	/* a CPU the monitor does not watch */
		pend(&s->culprits, k->cpu, (int)k->bit, k->scope,
		     comm_of(an, k->pid, comm, sizeof(comm)), fn ? fn : "unknown", v);
	}
	s->culprits_dropped += an->culprits_dropped;
}

static void pend_task(struct ts_series *s, int cpu, const char *comm, const struct ts_task_time *t)
{
	uint64_t v[3] = { t->run_ns, t->held_ns, t->sched_ns };

	if (t->run_ns)
		pend(&s->tasks, cpu, -1, -1, comm, "", v);
}

/* Copy a CPU's co-runners into the series, if reported. */
static void take_tasks(struct ts_series *s, const struct ts_analysis *an, const struct ts_cpu *c)
{
	char comm[32];

	for (int i = 0; i < c->nr_tasks && c->active; i++)
		pend_task(s, c->cpu, comm_of(an, c->tasks[i].pid, comm, sizeof(comm)), &c->tasks[i]);
	if (c->active)
		pend_task(s, c->cpu, OTHER, &c->tasks_other);
}

/* A cause's name for its label: a function (sym), "IRQ NAME", a softirq or an x86 vector. */
static void cause_label(const struct ts_analysis *an, const struct ts_cause *k, ts_symbol_fn sym,
			void *sym_ctx, char *buf, size_t len)
{
	const char *fn = NULL;

	if (k->type <= TS_CAUSE_HRTIMER && sym)
		fn = sym(sym_ctx, k->key);
	if (fn)
		snprintf(buf, len, "%s", fn);
	else
		ts_cause_name(an, k, buf, len);
}

static void pend_cause(struct ts_series *s, int cpu, const char *comm, const char *name,
		       const struct ts_cause *k)
{
	uint64_t v[3] = { k->count, k->time_ns, k->stopped };

	if (k->count || k->time_ns)
		pend(&s->causes, cpu, k->type, -1, comm, name, v);
}

/* Copy a CPU's causes into the series, if reported: each by name, then each type's rest. */
static void take_causes(struct ts_series *s, const struct ts_analysis *an, const struct ts_cpu *c,
			ts_symbol_fn sym, void *sym_ctx)
{
	char name[64];

	if (!c->active)
		return;
	for (int i = 0; i < c->nr_causes; i++) {
		cause_label(an, &c->causes[i], sym, sym_ctx, name, sizeof(name));
		pend_cause(s, c->cpu, "", name, &c->causes[i]);
	}
	for (int t = 0; t < TS_NR_CAUSE_TYPES; t++)
		pend_cause(s, c->cpu, OTHER, OTHER, &c->causes_other[t]);
}

/*
 * SCHED's time in the interval, charged to what explains it there
 * (ts_explain_sched_interval): before the interval's co-runners and causes
 * are emptied.
 */
static void take_sched_why(struct ts_series *s, const struct ts_analysis *an,
			   const struct ts_cpu *c)
{
	struct ts_diagnosis d;
	uint64_t sched = 0;
	int why;

	for (int k = 0; k < c->nr_reasons; k++)
		if (ts_reason_is_sched(&c->reasons[k]))
			sched += c->reasons[k].time_ns;
	if (sched <= s->prev_sched[c->cpu])
		return;
	ts_explain_sched_interval(an, c, &d);
	why = ts_sched_why_of(d.why);
	if (why >= 0)
		s->sched_why_ns[c->cpu][why] += sched - s->prev_sched[c->cpu];
	s->prev_sched[c->cpu] = sched;
}

/*
 * ts_series_take - bring the series up to the analysis' numbers (already
 * charged up to the moment wanted): the last interval's share, and the
 * culprit, co-runner and cause tables, which are emptied.  The comm table is
 * emptied when half full; names come back with the next sched_switch, or
 * from /proc.
 */
void ts_series_take(struct ts_series *s, struct ts_analysis *an, ts_symbol_fn sym,
		    void *sym_ctx)
{
	take_culprits(s, an, sym, sym_ctx);
	commit(&s->culprits, s->top, CULPRIT_MIN_SETS, an->win_end);
	for (int i = 0; i < an->nr_cpus; i++) {
		const struct ts_cpu *c = an->cpus[i];
		uint64_t stopped, running, d_stopped, d_running;

		if (!c)
			continue;
		stopped = c->time[TS_TICK_STOPPED][TS_IDLE_BUSY];
		running = c->time[TS_TICK_RUNNING][TS_IDLE_BUSY];
		d_stopped = stopped - s->prev_busy[i][0];
		d_running = running - s->prev_busy[i][1];
		s->ratio[i] = ts_share(d_stopped, d_stopped + d_running);
		s->prev_busy[i][0] = stopped;
		s->prev_busy[i][1] = running;
		take_sched_why(s, an, c);
		take_tasks(s, an, c);
		take_causes(s, an, c, sym, sym_ctx);
	}
	commit(&s->tasks, s->top, TASK_MIN_HELD_NS, an->win_end);
	commit(&s->causes, s->top, CAUSE_MIN_ENTRIES, an->win_end);
	s->causes_known = ts_analysis_causes_known(an);
	ts_analysis_restart_interval(an);
	if (ts_analysis_trim_comms(an))
		s->comm_resets++;
}

/* A family whose samples are one number per reported CPU. */
struct cpu_family {
	const char *name, *type, *help;
	uint64_t (*value)(const struct ts_cpu *c);
	int seconds;
	int need;		/* a capability it needs: 1 tick expiry */
};

static uint64_t v_ticks(const struct ts_cpu *c) { return c->ticks; }
static uint64_t v_ticks_stopped(const struct ts_cpu *c) { return c->ticks_stopped; }
static uint64_t v_lost(const struct ts_cpu *c) { return c->lost_events; }
static uint64_t v_gaps(const struct ts_cpu *c) { return c->lost_unknown; }

static const struct cpu_family cpu_families[] = {
	{ "tickstat_ticks_total", "counter",
	  "Expiries of the tick's hrtimer (tick_sched_timer).", v_ticks, 0, 1 },
	{ "tickstat_ticks_while_stopped_total", "counter",
	  "Tick hrtimer expiries while the tick was stopped.", v_ticks_stopped, 0, 1 },
	{ "tickstat_lost_events_total", "counter",
	  "Events the ring buffer dropped on this CPU (the state is unknown across each gap).",
	  v_lost, 0, 0 },
	{ "tickstat_lost_gaps_total", "counter",
	  "Gaps of an unknown number of lost events, and undecodable pages.", v_gaps, 0, 0 },
};

static void cpu_label(char *buf, size_t len, int cpu)
{
	if (cpu < 0)
		snprintf(buf, len, "all");
	else
		snprintf(buf, len, "%d", cpu);
}

static void write_cpu_families(const struct ts_analysis *an, struct ts_prom *p)
{
	char cpu[16];

	for (size_t k = 0; k < sizeof(cpu_families) / sizeof(cpu_families[0]); k++) {
		const struct cpu_family *f = &cpu_families[k];

		if (f->need == 1 && !an->caps.tick_expiry)
			continue;
		ts_prom_family(p, f->name, f->type, f->help);
		for (int i = 0; i < an->nr_cpus; i++) {
			const struct ts_cpu *c = an->cpus[i];
			const char *l[] = { "cpu", cpu, NULL };

			if (!c || !c->active)
				continue;
			cpu_label(cpu, sizeof(cpu), c->cpu);
			ts_prom_u64(p, f->name, l, f->value(c));
		}
	}
}

static void write_time(const struct ts_series *s, const struct ts_analysis *an, struct ts_prom *p)
{
	char cpu[16];

	ts_prom_family(p, "tickstat_cpu_online", "gauge",
		       "1 while the CPU is online; offline time counts as unknown.");
	for (int i = 0; i < an->nr_cpus; i++) {
		const char *l[] = { "cpu", cpu, NULL };

		if (!an->cpus[i] || !an->cpus[i]->active)
			continue;
		cpu_label(cpu, sizeof(cpu), i);
		ts_prom_u64(p, "tickstat_cpu_online", l, s->online[i]);
	}
	ts_prom_family(p, "tickstat_cpu_nohz_full", "gauge",
		       "1 for a CPU in nohz_full= (isolated), 0 for a housekeeping CPU.");
	for (int i = 0; i < an->nr_cpus; i++) {
		const char *l[] = { "cpu", cpu, NULL };

		if (!an->cpus[i] || !an->cpus[i]->active || an->cpus[i]->nohz_full < 0)
			continue;
		cpu_label(cpu, sizeof(cpu), i);
		ts_prom_u64(p, "tickstat_cpu_nohz_full", l, an->cpus[i]->nohz_full);
	}
	ts_prom_family(p, "tickstat_cpu_seconds_total", "counter",
		       "Time in each tick state (stopped, running, unknown) and activity (busy, idle, unknown).");
	for (int i = 0; i < an->nr_cpus; i++) {
		const struct ts_cpu *c = an->cpus[i];

		if (!c || !c->active)
			continue;
		cpu_label(cpu, sizeof(cpu), i);
		for (int t = 0; t < TS_NR_TICK; t++) {
			for (int a = 0; a < TS_NR_IDLE; a++) {
				const char *l[] = { "cpu", cpu, "tick", ts_tick_state_name(t),
						    "activity", ts_idle_state_name(a), NULL };

				ts_prom_seconds(p, "tickstat_cpu_seconds_total", l, c->time[t][a]);
			}
		}
	}
	ts_prom_family(p, "tickstat_busy_tickless_ratio", "gauge",
		       "Share of the last interval's busy time with the tick stopped (absent without busy time).");
	for (int i = 0; i < an->nr_cpus; i++) {
		const char *l[] = { "cpu", cpu, NULL };

		if (!an->cpus[i] || !an->cpus[i]->active || s->ratio[i] < 0)
			continue;
		cpu_label(cpu, sizeof(cpu), i);
		ts_prom_double(p, "tickstat_busy_tickless_ratio", l, s->ratio[i]);
	}
}

/* SCHED's time by its explanation: a label of ts_sched_whys, bounded, where the text is not */
static void write_sched_why(const struct ts_series *s, const struct ts_analysis *an,
			    struct ts_prom *p)
{
	char cpu[16];

	ts_prom_family(p, "tickstat_sched_why_seconds_total", "counter",
		       "Time the tick ran with SCHED among the reasons, by what explained SCHED in the interval.");
	for (int i = 0; i < an->nr_cpus; i++) {
		if (!an->cpus[i] || !an->cpus[i]->active)
			continue;
		cpu_label(cpu, sizeof(cpu), i);
		for (int w = 0; w < TS_NR_SCHED_WHY; w++) {
			const char *l[] = { "cpu", cpu, "why", ts_sched_whys[w], NULL };

			if (s->sched_why_ns[i][w])
				ts_prom_seconds(p, "tickstat_sched_why_seconds_total", l,
						s->sched_why_ns[i][w]);
		}
	}
}

static void write_reasons(const struct ts_analysis *an, struct ts_prom *p, int decisions)
{
	const char *name = decisions ? "tickstat_reason_decisions_total" :
				       "tickstat_reason_seconds_total";
	char cpu[16], reason[48];

	ts_prom_family(p, name, "counter", decisions ?
		       "Decisions (tick_stop refusals, tick_retain) that gave the reason." :
		       "Time the tick ran with the reason among the current ones.");
	for (int i = 0; i < an->nr_cpus; i++) {
		const struct ts_cpu *c = an->cpus[i];

		if (!c || !c->active)
			continue;
		cpu_label(cpu, sizeof(cpu), i);
		for (int r = 0; r < c->nr_reasons; r++) {
			const struct ts_reason *rs = &c->reasons[r];
			const char *l[] = { "cpu", cpu, "reason",
					    ts_reason_name(rs, reason, sizeof(reason)), "scope",
					    rs->class == TS_RC_DEP ? ts_scope_name(rs->scope) : "",
					    NULL };

			if (decisions)
				ts_prom_u64(p, name, l, rs->events);
			else
				ts_prom_seconds(p, name, l, rs->time_ns);
		}
	}
}

static void write_decisions(const struct ts_analysis *an, struct ts_prom *p)
{
	char cpu[16];

	ts_prom_family(p, "tickstat_decisions_total", "counter",
		       "tick_stop decisions: the tick stopped, or it was refused.");
	for (int i = 0; i < an->nr_cpus; i++) {
		const struct ts_cpu *c = an->cpus[i];
		const char *stopped[] = { "cpu", cpu, "result", "stopped", NULL };
		const char *refused[] = { "cpu", cpu, "result", "refused", NULL };

		if (!c || !c->active)
			continue;
		cpu_label(cpu, sizeof(cpu), i);
		ts_prom_u64(p, "tickstat_decisions_total", stopped, c->stop_success);
		ts_prom_u64(p, "tickstat_decisions_total", refused, c->stop_fail);
	}
	if (!an->caps.restart)
		return;
	ts_prom_family(p, "tickstat_restarts_total", "counter",
		       "Restarts of a stopped tick, by cause (tick_restart).");
	for (int i = 0; i < an->nr_cpus; i++) {
		const struct ts_cpu *c = an->cpus[i];

		if (!c || !c->active)
			continue;
		cpu_label(cpu, sizeof(cpu), i);
		for (int k = 0; k <= TS_NR_RESTART_CAUSES; k++) {
			const char *l[] = { "cpu", cpu, "cause",
					    k < TS_NR_RESTART_CAUSES ? ts_restart_name(k) : OTHER,
					    NULL };

			ts_prom_u64(p, "tickstat_restarts_total", l, c->restarts[k]);
		}
	}
}

static void write_culprits(const struct ts_series *s, struct ts_prom *p)
{
	static const char * const names[] = { "tickstat_culprit_sets_total",
					      "tickstat_culprit_clears_total" };
	static const char * const helps[] = {
		"tick_dep_set calls by command and kernel function, for the CPUs they affect (all: a global dependency).",
		"tick_dep_clear calls by command and kernel function.",
	};
	char cpu[16];

	for (int k = 0; k < 2; k++) {
		ts_prom_family(p, names[k], "counter", helps[k]);
		for (int i = 0; i < s->culprits.nr; i++) {
			const struct ts_row *r = &s->culprits.row[i];
			const char *l[] = { "cpu", cpu, "reason", ts_dep_name(r->bit), "scope",
					    ts_scope_name(r->scope), "comm", r->comm, "caller",
					    r->caller, NULL };

			cpu_label(cpu, sizeof(cpu), r->cpu);
			ts_prom_u64(p, names[k], l, r->v[k]);
		}
	}
	ts_prom_family(p, "tickstat_culprits_dropped_total", "counter",
		       "Dependency events whose culprit did not fit in the table of one interval.");
	ts_prom_u64(p, "tickstat_culprits_dropped_total", NULL, s->culprits_dropped);
}

static void write_tasks(const struct ts_series *s, struct ts_prom *p)
{
	static const char * const names[] = { "tickstat_corunner_seconds_total",
					      "tickstat_corunner_held_seconds_total",
					      "tickstat_corunner_sched_seconds_total" };
	static const char * const helps[] = {
		"Time a task (by command name) ran on the CPU.",
		"Part of it with the tick running.",
		"Part of it with SCHED (more than one task) among the reasons.",
	};
	char cpu[16];

	for (int k = 0; k < 3; k++) {
		ts_prom_family(p, names[k], "counter", helps[k]);
		for (int i = 0; i < s->tasks.nr; i++) {
			const struct ts_row *r = &s->tasks.row[i];
			const char *l[] = { "cpu", cpu, "comm", r->comm, NULL };

			cpu_label(cpu, sizeof(cpu), r->cpu);
			ts_prom_seconds(p, names[k], l, r->v[k]);
		}
	}
}

/*
 * Causes by CPU, type and name (top per CPU and type, the rest "other"),
 * and which types the source can tell: a type it cannot has no series, and
 * its known gauge says 0 (unknown, not zero).
 */
static void write_causes(const struct ts_series *s, struct ts_prom *p)
{
	static const char * const names[] = { "tickstat_cause_events_total",
					      "tickstat_cause_seconds_total",
					      "tickstat_cause_while_stopped_total" };
	static const char * const helps[] = {
		"Entries of a cause (work function, timer or hrtimer function, IRQ, softirq, x86 vector) on the CPU.",
		"Time from its entries to their exits (those whose exit came).",
		"Entries that found the tick stopped: they interrupted a tickless CPU.",
	};
	char cpu[16];

	ts_prom_family(p, "tickstat_cause_type_known", "gauge",
		       "1 when the events of the cause type are traced (its counters are complete), 0 when unknown.");
	for (int t = 0; t < TS_NR_CAUSE_TYPES; t++) {
		const char *l[] = { "type", ts_cause_type_name(t), NULL };

		ts_prom_u64(p, "tickstat_cause_type_known", l, s->causes_known >> t & 1);
	}
	for (int k = 0; k < 3; k++) {
		ts_prom_family(p, names[k], "counter", helps[k]);
		for (int i = 0; i < s->causes.nr; i++) {
			const struct ts_row *r = &s->causes.row[i];
			const char *l[] = { "cpu", cpu, "type", ts_cause_type_name(r->bit), "name",
					    r->caller, NULL };

			if (!(s->causes_known >> r->bit & 1))
				continue;
			cpu_label(cpu, sizeof(cpu), r->cpu);
			if (k == 1)
				ts_prom_seconds(p, names[k], l, r->v[k]);
			else
				ts_prom_u64(p, names[k], l, r->v[k]);
		}
	}
}

static void write_self(const struct ts_series *s, const struct ts_analysis *an,
		       const struct ts_monitor_self *self, struct ts_prom *p)
{
	const char *info[] = { "version", TICKSTAT_VERSION, "kernel", self->kernel, "nohz_full",
			       an->nohz_full, NULL };

	ts_prom_family(p, "tickstat_monitor_info", "gauge",
		       "The monitor's version, the kernel and its nohz_full CPUs.");
	ts_prom_u64(p, "tickstat_monitor_info", info, 1);
	ts_prom_family(p, "tickstat_monitor_clock_seconds", "gauge",
		       "CLOCK_MONOTONIC up to which the counters are charged (the trace clock of tickstat recordings).");
	ts_prom_seconds(p, "tickstat_monitor_clock_seconds", NULL, self->clock_ns);
	ts_prom_family(p, "tickstat_monitor_updates_total", "counter",
		       "Updates of the counters (one per interval).");
	ts_prom_u64(p, "tickstat_monitor_updates_total", NULL, self->updates);
	ts_prom_family(p, "tickstat_monitor_scrapes_total", "counter",
		       "HTTP requests answered.");
	ts_prom_u64(p, "tickstat_monitor_scrapes_total", NULL, self->scrapes);
	ts_prom_family(p, "tickstat_monitor_textfile_errors_total", "counter",
		       "Updates whose textfile could not be written.");
	ts_prom_u64(p, "tickstat_monitor_textfile_errors_total", NULL, self->textfile_errors);
	ts_prom_family(p, "tickstat_monitor_records_total", "counter",
		       "Ring-buffer records read (events and tickstat's marks): with process_cpu_seconds_total, the monitor's cost per event.");
	ts_prom_u64(p, "tickstat_monitor_records_total", NULL, self->records);
	ts_prom_family(p, "process_cpu_seconds_total", "counter",
		       "User and system CPU time the monitor spent.");
	ts_prom_seconds(p, "process_cpu_seconds_total", NULL, self->cpu_ns);
	ts_prom_family(p, "process_resident_memory_bytes", "gauge",
		       "The monitor's resident memory.");
	ts_prom_u64(p, "process_resident_memory_bytes", NULL, self->rss_bytes);
	ts_prom_family(p, "process_start_time_seconds", "gauge",
		       "When the monitor started (Unix time).");
	ts_prom_seconds(p, "process_start_time_seconds", NULL, self->start_unix_ns);
	ts_prom_family(p, "tickstat_bad_records_total", "counter",
		       "Records too short for their event's format (each counted as a lost event).");
	ts_prom_u64(p, "tickstat_bad_records_total", NULL, an->bad_records);
	ts_prom_family(p, "tickstat_bad_pages_total", "counter",
		       "Ring-buffer pages that failed their checks.");
	ts_prom_u64(p, "tickstat_bad_pages_total", NULL, an->bad_pages);
	ts_prom_family(p, "tickstat_comm_table_resets_total", "counter",
		       "Times the table of command names was emptied to stay bounded.");
	ts_prom_u64(p, "tickstat_comm_table_resets_total", NULL, s->comm_resets);
	ts_prom_family(p, "tickstat_series_dropped_total", "counter",
		       "Named culprit, co-runner and cause series dropped: they gave way to a bigger one, or did not grow for an hour.");
	ts_prom_u64(p, "tickstat_series_dropped_total", NULL,
		    s->culprits.retired + s->tasks.retired + s->causes.retired);
}

/*
 * ts_series_write - the whole exposition: the monitor itself, then every
 * reported CPU's counters, culprits, co-runners and causes
 */
void ts_series_write(const struct ts_series *s, const struct ts_analysis *an,
		     const struct ts_monitor_self *self, struct ts_prom *p)
{
	write_self(s, an, self, p);
	write_time(s, an, p);
	write_reasons(an, p, 0);
	write_reasons(an, p, 1);
	write_sched_why(s, an, p);
	write_decisions(an, p);
	write_cpu_families(an, p);
	write_culprits(s, p);
	write_tasks(s, p);
	write_causes(s, p);
}
