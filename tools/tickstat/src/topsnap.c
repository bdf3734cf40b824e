// SPDX-License-Identifier: GPL-2.0
/*
 * topsnap.c - tickstat top's numbers, per CPU, over the last interval.
 *
 * The analysis only adds: times, ticks, each reason's time and each
 * cause's entries grow, and a reason or a cause keeps its slot once it has
 * one.  So the interval's numbers are differences of two readings, and
 * the top reason and cause are the slots that grew most.  Nothing here
 * changes the analysis: top and the monitor can watch the same state
 * machine the same way.
 */
#include <stdlib.h>
#include <string.h>

#include "event.h"
#include "text.h"
#include "topsnap.h"

struct ts_top_prev {
	uint64_t stopped_ns;
	uint64_t running_ns;
	uint64_t ticks;
	uint64_t reason_ns[TS_MAX_REASONS];
	uint64_t cause[TS_MAX_CAUSES];
};

void ts_topsnap_init(struct ts_topsnap *t)
{
	memset(t, 0, sizeof(*t));
}

void ts_topsnap_free(struct ts_topsnap *t)
{
	for (int i = 0; i < TS_MAX_CPUS; i++)
		free(t->prev[i]);
	ts_topsnap_init(t);
}

/* The reason that held the tick longest in the interval, or "". */
static void top_reason(const struct ts_cpu *c, const struct ts_top_prev *p, char *buf,
		       size_t len)
{
	uint64_t best = 0;
	int at = -1;
	char name[48];

	for (int i = 0; i < c->nr_reasons; i++) {
		uint64_t d = c->reasons[i].time_ns - p->reason_ns[i];

		if (d > best) {
			best = d;
			at = i;
		}
	}
	buf[0] = '\0';
	if (at < 0)
		return;
	ts_reason_name(&c->reasons[at], name, sizeof(name));
	if (c->reasons[at].class == TS_RC_DEP)
		snprintf(buf, len, "%s@%s", name, ts_scope_name(c->reasons[at].scope));
	else
		snprintf(buf, len, "%s", name);
}

/*
 * The cause that began most often in the interval ("KIND NAME"), or "":
 * a function by the symbol it is in (sym), else by its address.  The
 * local APIC timer's vector, which every tick and timer comes through, is
 * named only when nothing else began.
 */
static void top_cause(const struct ts_analysis *an, const struct ts_cpu *c,
		      const struct ts_top_prev *p, ts_symbol_fn sym, void *sym_ctx, char *buf,
		      size_t len)
{
	char name[160], safe[4 * 64 + 1];
	const struct ts_cause *k;
	const char *s = NULL;
	uint64_t best = 0;
	int at = -1;

	for (int pass = 0; pass < 2 && at < 0; pass++) {
		for (int i = 0; i < c->nr_causes; i++) {
			uint64_t d = c->causes[i].count - p->cause[i];
			int carrier = c->causes[i].type == TS_CAUSE_VECTOR &&
				      c->causes[i].key == TS_VEC_LOCAL_TIMER;

			if (carrier == pass && d > best) {
				best = d;
				at = i;
			}
		}
	}
	buf[0] = '\0';
	if (at < 0)
		return;
	k = &c->causes[at];
	if (k->type <= TS_CAUSE_HRTIMER && sym)
		s = sym(sym_ctx, k->key);
	if (s)
		snprintf(name, sizeof(name), "%s", s);
	else
		ts_cause_name(an, k, name, sizeof(name));
	snprintf(buf, len, "%s %s", ts_cause_type_name(k->type),
		 ts_text_safe(safe, sizeof(safe), name));
}

static void remember(struct ts_top_prev *p, const struct ts_cpu *c)
{
	p->stopped_ns = ts_cpu_tick_ns(c, TS_TICK_STOPPED);
	p->running_ns = ts_cpu_tick_ns(c, TS_TICK_RUNNING);
	p->ticks = c->ticks;
	for (int i = 0; i < c->nr_reasons; i++)
		p->reason_ns[i] = c->reasons[i].time_ns;
	for (int i = 0; i < c->nr_causes; i++)
		p->cause[i] = c->causes[i].count;
}

/* One CPU's numbers since the last snapshot (p: all zero at the first). */
static void take_cpu(const struct ts_analysis *an, const struct ts_cpu *c,
		     const struct ts_top_prev *p, uint64_t interval_ns, ts_symbol_fn sym,
		     void *sym_ctx, struct ts_top_cpu *o)
{
	uint64_t stopped = ts_cpu_tick_ns(c, TS_TICK_STOPPED) - p->stopped_ns;
	uint64_t running = ts_cpu_tick_ns(c, TS_TICK_RUNNING) - p->running_ns;

	o->cpu = c->cpu;
	o->tick = c->tick;
	o->tick_rate = interval_ns ? (double)(c->ticks - p->ticks) * 1e9 / interval_ns : -1;
	o->tickless = ts_share(stopped, stopped + running);
	top_reason(c, p, o->reason, sizeof(o->reason));
	top_cause(an, c, p, sym, sym_ctx, o->cause, sizeof(o->cause));
	o->lost = c->lost_events;
	o->lost_unknown = c->lost_unknown > 0;
}

/*
 * ts_topsnap_take - each watched CPU's numbers since the previous call
 * (since the start at the first), in CPU order; online: the CPUs online
 * (NULL: all).  Returns 0, or -1 when out of memory.
 */
int ts_topsnap_take(struct ts_topsnap *t, const struct ts_analysis *an,
		    const struct ts_cpuset *online, ts_symbol_fn sym, void *sym_ctx,
		    struct ts_top_snap *out)
{
	uint64_t window = ts_cpu_window_ns(an);

	out->interval_ns = window - t->window_ns;
	out->elapsed_ns = window;
	out->nr = 0;
	for (int i = 0; i < an->nr_cpus; i++) {
		const struct ts_cpu *c = an->cpus[i];
		struct ts_top_cpu *o = &out->cpus[out->nr];

		if (!c || !c->active)
			continue;
		if (!t->prev[i]) {
			t->prev[i] = calloc(1, sizeof(*t->prev[i]));
			if (!t->prev[i])
				return -1;
		}
		memset(o, 0, sizeof(*o));
		take_cpu(an, c, t->prev[i], out->interval_ns, sym, sym_ctx, o);
		o->online = !online || ts_cpuset_has(online, i);
		remember(t->prev[i], c);
		out->nr++;
	}
	t->window_ns = window;
	return 0;
}
