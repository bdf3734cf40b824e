// SPDX-License-Identifier: GPL-2.0
/*
 * check.c - thresholds over the metrics, per CPU, and their verdicts.
 *
 * A threshold that the data cannot show on a CPU (no busy time to take a
 * share of, no tick events to count, a reason the kernel does not report or
 * may hide) is NOT_APPLICABLE there: it neither passes nor fails, and JUnit
 * shows it as skipped.  A threshold that no CPU could evaluate is an error,
 * not a pass: the data is not what the user meant, or cannot tell.  So is
 * data with nothing to check (an empty window, CPUs without data) or with
 * damage that could flip a verdict (time going back).  Too much unknown
 * time or lost events fail the check, because a verdict on a partial
 * stream would be a guess.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "text.h"
#include "metrics.h"

void ts_check_opts_init(struct ts_check_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->min_busy_share = -1;
	o->min_idle_share = -1;
	o->min_window_share = -1;
	o->max_tick_rate = -1;
	o->max_unknown = 5.0;
}

/* ts_check_forbidden - the --forbid item that names exactly this, or NULL */
const struct ts_forbid *ts_check_forbidden(const struct ts_check_opts *o,
					   const struct ts_reason_spec *spec)
{
	for (int i = 0; i < o->nr_forbid; i++)
		if (!memcmp(&o->forbid[i].spec, spec, sizeof(*spec)))
			return &o->forbid[i];
	return NULL;
}

/*
 * ts_check_add_forbid - one --forbid item, NAME or NAME@SCOPE.  Returns 0,
 * -1 when the name is not a reason, -2 when there are too many, -3 when an
 * item given before names the same (in another case, say): a list with
 * the same item twice is a mistake in it, and two verdict lines would say
 * the same.  Items that overlap (SCHED and SCHED@CPU) are different items.
 */
int ts_check_add_forbid(struct ts_check_opts *o, const char *text)
{
	struct ts_reason_spec spec;
	struct ts_forbid *f;

	if (ts_reason_spec_parse(text, &spec))
		return -1;
	if (ts_check_forbidden(o, &spec))
		return -3;
	if (o->nr_forbid == TS_MAX_FORBID)
		return -2;
	f = &o->forbid[o->nr_forbid];
	f->spec = spec;
	snprintf(f->text, sizeof(f->text), "%s", text);
	o->nr_forbid++;
	return 0;
}

const char *ts_status_name(enum ts_status s)
{
	return s == TS_PASS ? "PASS" : s == TS_FAIL ? "FAIL" : "N/A";
}

static struct ts_verdict_item *add(struct ts_verdict *v, int cpu, const char *name,
				   const char *option, enum ts_status st)
{
	struct ts_verdict_item *it, *items;

	items = realloc(v->items, (v->nr + 1) * sizeof(*items));
	if (!items)
		return NULL;
	v->items = items;
	it = &v->items[v->nr++];
	memset(it, 0, sizeof(*it));
	it->cpu = cpu;
	snprintf(it->name, sizeof(it->name), "%s", name);
	snprintf(it->option, sizeof(it->option), "%s", option);
	it->status = st;
	if (st == TS_FAIL)
		v->failed++;
	return it;
}

#define DETAIL(it, ...) snprintf((it)->detail, sizeof((it)->detail), __VA_ARGS__)

/*
 * A CPU the source covers but that gave no event and whose tick state was
 * never known (a trace.dat's CPU without records): there is nothing to
 * evaluate there, whatever the thresholds.
 */
static int no_data(const struct ts_cpu *c, const struct ts_metrics *m)
{
	return !c->events && !m->stopped_ns && !m->running_ns;
}

/*
 * A "share at least PCT" predicate; share < 0 means undefined.  Busy and
 * idle time are told apart by sched_switch: without it, a busy or idle
 * share is not shown by the data, even where a snapshot gave the state at
 * the start.
 */
static int min_share(const struct ts_analysis *an, struct ts_verdict *v, int cpu,
		     const char *name, double share, double min_pct, const char *what,
		     int needs_switch)
{
	struct ts_verdict_item *it;
	char option[40];

	if (min_pct < 0)
		return 0;
	snprintf(option, sizeof(option), "--%s", name);
	if (needs_switch && !an->caps.sched_switch) {
		it = add(v, cpu, name, option, TS_NOT_APPLICABLE);
		if (it)
			DETAIL(it, "no sched:sched_switch events: %s time unknown", what);
	} else if (share < 0) {
		it = add(v, cpu, name, option, TS_NOT_APPLICABLE);
		if (it)
			DETAIL(it, "no %s time observed", what);
	} else {
		it = add(v, cpu, name, option, share * 100.0 >= min_pct ? TS_PASS : TS_FAIL);
		if (it)
			DETAIL(it, "tickless %.3f%% of %s time, minimum %.3f%%", share * 100.0, what,
			       min_pct);
	}
	return it ? 0 : -1;
}

static int max_rate(const struct ts_analysis *an, const struct ts_cpu *c,
		    const struct ts_metrics *m, const struct ts_check_opts *o,
		    struct ts_verdict *v)
{
	struct ts_verdict_item *it;

	if (o->max_tick_rate < 0)
		return 0;
	if (!an->caps.tick_expiry || no_data(c, m)) {
		/* without tick events the count is unknown: never a pass */
		it = add(v, c->cpu, "max-tick-rate", "--max-tick-rate", TS_NOT_APPLICABLE);
		if (it && !an->caps.tick_expiry)
			DETAIL(it, "no tick events (hrtimer_expire_entry of the tick's timer): count unknown");
		else if (it)
			DETAIL(it, "no events from this CPU: count unknown");
		return it ? 0 : -1;
	}
	it = add(v, c->cpu, "max-tick-rate", "--max-tick-rate",
		 m->tick_rate_hz <= o->max_tick_rate ? TS_PASS : TS_FAIL);
	if (it)
		DETAIL(it, "%llu ticks, %.3f Hz, maximum %.3f Hz", (unsigned long long)c->ticks,
		       m->tick_rate_hz, o->max_tick_rate);
	return it ? 0 : -1;
}

/* What a --forbid item found on a CPU. */
struct forbid_eval {
	uint64_t held_ns, decisions;		/* the reasons it names exactly */
	uint64_t unknown_scope_ns;		/* its dependency, scope not reported */
	uint64_t hiding;			/* decisions that named another dependency first */
	char hider[32];
	const char *blind;			/* why the data cannot show it, or NULL */
	int unsure;				/* and what was charged to it is a guess */
	int never_checked;			/* blind: a dependency outside nohz_full */
};

static int held(const struct ts_reason *r)
{
	return r->time_ns || r->events;
}

/*
 * Could this reason have hidden the dependency spec names?  A kernel
 * without the per-scope masks reports one dependency per decision: the
 * first it finds, scope by scope (global, CPU, task, process) and bit by
 * bit.  At an unknown scope, any other dependency may sit before the one
 * named; with the probes' first scope, all bits of that scope are known
 * and only the later scopes are unread.
 */
static int may_hide(const struct ts_caps *caps, const struct ts_reason *r,
		    const struct ts_reason_spec *spec)
{
	int scope = spec->scope < 0 || spec->scope == TS_SCOPE_UNKNOWN ? TS_SCOPE_PROCESS + 1 :
		    spec->scope;

	if (caps->scopes || r->class != TS_RC_DEP || !held(r) || r->value == spec->dep)
		return 0;
	return r->scope == TS_SCOPE_UNKNOWN || r->scope < scope;
}

/* A retain reason the idle-entry probes can tell (probedec.c), or IDLE_REFUSED. */
static int probes_tell_retain(int reason)
{
	return (reason >= 6 && reason <= 10) || reason == TS_RETAIN_IDLE_REFUSED;
}

/* Why the data cannot show a retain reason on this kernel, or NULL. */
static const char *retain_blind(const struct ts_analysis *an, const struct ts_cpu *c,
				const struct ts_reason_spec *spec)
{
	const struct ts_caps *caps = &an->caps;

	if (!caps->retain)
		return "this kernel has no timer:tick_retain event";
	if (!(caps->probes.parts & 1 << TS_PART_RETAIN))
		return NULL;
	if (!probes_tell_retain(spec->retain))
		return "the probes see only why idle entry kept the tick, not this reason";
	for (int i = 0; i < c->nr_reasons; i++)
		if (c->reasons[i].class == TS_RC_RETAIN &&
		    c->reasons[i].value == TS_RETAIN_IDLE_REFUSED && held(&c->reasons[i]) &&
		    spec->retain != TS_RETAIN_IDLE_REFUSED)
			return "the probes could not tell why idle entry kept the tick (IDLE_REFUSED) at times";
	return NULL;
}

/* Why the data cannot show a dependency on this CPU, or NULL. */
static const char *dep_blind(const struct ts_cpu *c)
{
	if (c->nohz_full == 0)
		return "not a nohz_full CPU: the kernel checks tick dependencies only on those";
	return NULL;
}

/*
 * Why the data cannot show UNREPORTED or NOT_NOHZ_FULL on this CPU, or
 * NULL.  On a housekeeping CPU the two split the tick's unexplained time
 * by busy (NOT_NOHZ_FULL) and idle (UNREPORTED): without sched_switch that
 * split is a guess, even where time was charged to one of them.
 */
static const char *none_blind(const struct ts_analysis *an, const struct ts_cpu *c,
			      const struct ts_reason_spec *spec, int *unsure)
{
	if (spec->none == TS_NONE_NOT_NOHZ_FULL && c->nohz_full < 0)
		return "whether this CPU is nohz_full is unknown (--nohz-full)";
	if (c->nohz_full == 0 && !an->caps.sched_switch) {
		*unsure = 1;
		return "no sched:sched_switch events: busy time unknown, which tells NOT_NOHZ_FULL from UNREPORTED";
	}
	return NULL;
}

static void forbid_eval(const struct ts_analysis *an, const struct ts_cpu *c,
			const struct ts_reason_spec *spec, struct forbid_eval *e)
{
	memset(e, 0, sizeof(*e));
	for (int i = 0; i < c->nr_reasons; i++) {
		const struct ts_reason *r = &c->reasons[i];

		if (ts_reason_spec_matches(r, spec)) {
			e->held_ns += r->time_ns;
			e->decisions += r->events;
		} else if (r->class == TS_RC_DEP && r->value == spec->dep &&
			   r->scope == TS_SCOPE_UNKNOWN && held(r)) {
			e->unknown_scope_ns += r->time_ns;
		} else if (spec->dep >= 0 && may_hide(&an->caps, r, spec)) {
			if (!e->hiding)
				ts_reason_name(r, e->hider, sizeof(e->hider));
			e->hiding += r->events;
		}
	}
	if (spec->retain >= 0)
		e->blind = retain_blind(an, c, spec);
	if (!e->blind && spec->dep >= 0) {
		e->blind = dep_blind(c);
		e->never_checked = !!e->blind;
	}
	if (!e->blind && spec->none >= 0)
		e->blind = none_blind(an, c, spec, &e->unsure);
}

/*
 * A forbidden reason: FAIL when it held the tick; N/A when the data cannot
 * show whether it did (the kernel does not report it, or reports something
 * that may hide it, or only at an unknown scope where a scope was named);
 * PASS only when it would have been seen.
 */
static int forbid_one(const struct ts_analysis *an, const struct ts_cpu *c,
		      const struct ts_metrics *m, const struct ts_forbid *f,
		      struct ts_verdict *v)
{
	struct ts_verdict_item *it;
	struct forbid_eval e;
	char option[80];
	enum ts_status st;

	snprintf(option, sizeof(option), "--forbid %s", f->text);
	forbid_eval(an, c, &f->spec, &e);
	if (e.unsure)
		st = TS_NOT_APPLICABLE;
	else if (e.held_ns || e.decisions)
		st = TS_FAIL;
	else if (e.blind || e.unknown_scope_ns || e.hiding || no_data(c, m) ||
		 !(m->stopped_ns + m->running_ns))
		st = TS_NOT_APPLICABLE;
	else
		st = TS_PASS;
	it = add(v, c->cpu, "forbid", option, st);
	if (!it)
		return -1;
	/*
	 * The reason may have held the tick here unseen; not so on a CPU
	 * the kernel never checks dependencies on, nor where nothing is
	 * known (--max-unknown judges that).
	 */
	it->may_have = st == TS_NOT_APPLICABLE && (e.unsure || e.unknown_scope_ns || e.hiding ||
						    (e.blind && !e.never_checked));
	if (st != TS_NOT_APPLICABLE)
		DETAIL(it, "%s: held the tick %.6f s in %llu decisions", f->text, e.held_ns / 1e9,
		       (unsigned long long)e.decisions);
	else if (e.blind)
		DETAIL(it, "%s: %s", f->text, e.blind);
	else if (e.unknown_scope_ns)
		DETAIL(it, "%s: %s held the tick %.6f s at a scope this kernel does not report",
		       f->text, ts_dep_name(f->spec.dep), e.unknown_scope_ns / 1e9);
	else if (e.hiding)
		DETAIL(it, "%s: %llu decisions named %s, and this kernel names only the first dependency it finds",
		       f->text, (unsigned long long)e.hiding, e.hider);
	else
		DETAIL(it, "%s: tick state unknown all along", f->text);
	return 0;
}

/*
 * Too much unknown time: the share of the window whose tick or idle state
 * is unknown, the table's unknown column.  Without sched_switch the data
 * cannot show the idle state anywhere (the thresholds that need it are
 * N/A): counting it would fail every CPU whatever the tick did, so only the
 * tick state's unknown time counts there, and the detail says so.
 */
static int max_unknown(const struct ts_analysis *an, const struct ts_metrics *m,
		       const struct ts_check_opts *o, struct ts_verdict *v, int cpu)
{
	int with_idle = an->caps.sched_switch;
	double share = with_idle ? m->state_unknown_share : m->unknown_share;
	struct ts_verdict_item *it;

	if (share < 0) {	/* an empty window: ts_check_run() refuses it */
		it = add(v, cpu, "max-unknown", "--max-unknown", TS_NOT_APPLICABLE);
		if (it)
			DETAIL(it, "an empty window: no share of it");
		return it ? 0 : -1;
	}
	it = add(v, cpu, "max-unknown", "--max-unknown",
		 share * 100.0 <= o->max_unknown ? TS_PASS : TS_FAIL);
	if (it && with_idle)
		DETAIL(it, "tick or idle state unknown %.3f%% of the window, maximum %.3f%%",
		       share * 100.0, o->max_unknown);
	else if (it)
		DETAIL(it, "tick state unknown %.3f%% of the window (no sched:sched_switch events: the idle state is not counted), maximum %.3f%%",
		       share * 100.0, o->max_unknown);
	return it ? 0 : -1;
}

/*
 * Lost events fail the check unless allowed.  A source that cannot count
 * them all (a trace.dat without trace-cmd's buffer statistics) cannot show
 * that none were lost.
 */
static int lost_events(const struct ts_analysis *an, const struct ts_cpu *c,
		       const struct ts_check_opts *o, struct ts_verdict *v)
{
	uint64_t lost = c->lost_events + c->lost_unknown;
	struct ts_verdict_item *it;
	enum ts_status st;

	if (lost)
		st = o->allow_lost ? TS_PASS : TS_FAIL;
	else
		st = an->lost_uncounted && !o->allow_lost ? TS_NOT_APPLICABLE : TS_PASS;
	it = add(v, c->cpu, "lost-events", "lost-events", st);
	if (!it)
		return -1;
	if (st == TS_NOT_APPLICABLE)
		DETAIL(it, "none seen, but %s", an->lost_uncounted);
	else
		DETAIL(it, "%llu events lost, %llu gaps of unknown size%s",
		       (unsigned long long)c->lost_events, (unsigned long long)c->lost_unknown,
		       o->allow_lost ? " (--allow-lost)" : "");
	return 0;
}

static int check_cpu(const struct ts_analysis *an, const struct ts_cpu *c,
		     const struct ts_check_opts *o, struct ts_verdict *v)
{
	struct ts_metrics m;

	ts_metrics_of(an, c, &m);
	if (min_share(an, v, c->cpu, "min-busy-tickless", m.busy_tickless_share,
		      o->min_busy_share, "busy", 1) ||
	    min_share(an, v, c->cpu, "min-idle-tickless", m.idle_tickless_share,
		      o->min_idle_share, "idle", 1) ||
	    min_share(an, v, c->cpu, "min-tickless", m.tickless_share, o->min_window_share,
		      "known", 0) ||
	    max_rate(an, c, &m, o, v))
		return -1;
	for (int i = 0; i < o->nr_forbid; i++)
		if (forbid_one(an, c, &m, &o->forbid[i], v))
			return -1;
	if (max_unknown(an, &m, o, v, c->cpu) || lost_events(an, c, o, v))
		return -1;
	return 0;
}

/*
 * A threshold that was not applicable on any CPU gives no verdict, nor one
 * that was not applicable on a CPU where what it forbids may have happened
 * unseen: name it in v->error, with what a CPU said.  Thresholds are told
 * apart by the option that asked for them (each --forbid item is one).
 */
static void find_unevaluated(struct ts_verdict *v)
{
	for (int k = 0; k < v->nr && !v->error[0]; k++) {
		const struct ts_verdict_item *na = NULL;
		int seen = 0, evaluated = 0;

		if (v->items[k].status != TS_NOT_APPLICABLE)
			continue;
		for (int i = 0; i < v->nr; i++) {
			if (strcmp(v->items[i].option, v->items[k].option))
				continue;
			seen++;
			if (v->items[i].status == TS_NOT_APPLICABLE)
				na = na ? na : &v->items[i];
			else
				evaluated++;
		}
		/* a FAIL elsewhere stands: only a pass needs every CPU */
		if (evaluated && v->items[k].may_have && !v->failed) {
			na = &v->items[k];
			snprintf(v->error, sizeof(v->error),
				 "%s could not be evaluated on CPU %d, where it may have held the tick: %s",
				 na->option, na->cpu, na->detail);
		}
		if (evaluated)
			continue;
		snprintf(v->error, sizeof(v->error),
			 "%s could not be evaluated on any of the %d CPUs checked (CPU %d: %s)%s",
			 na->option, seen, na->cpu, na->detail,
			 !strcmp(na->option, "lost-events") ? ": give --allow-lost to accept that" :
			 "");
	}
}

/*
 * Is there anything to check?  An empty window, or CPUs none of which has
 * data, would let every threshold pass on nothing.
 */
static void find_no_data(const struct ts_analysis *an, struct ts_verdict *v)
{
	int checked = 0, empty = 0, first = -1;

	if (!ts_cpu_window_ns(an)) {
		snprintf(v->error, sizeof(v->error),
			 "the data's window is empty (0 ns): there is nothing to check");
		return;
	}
	if (an->backward_pages) {
		/* events that cannot be placed in time: any verdict could be flipped */
		snprintf(v->error, sizeof(v->error),
			 "time goes back in %llu ring-buffer page%s (first: %s): the data is damaged",
			 (unsigned long long)an->backward_pages, an->backward_pages > 1 ? "s" : "",
			 an->backward_first);
		return;
	}
	for (int i = 0; i < an->nr_cpus; i++) {
		const struct ts_cpu *c = an->cpus[i];
		struct ts_metrics m;

		if (!c || !c->active)
			continue;
		ts_metrics_of(an, c, &m);
		checked++;
		if (no_data(c, &m)) {
			empty++;
			first = first < 0 ? c->cpu : first;
		}
	}
	if (checked && empty == checked)
		snprintf(v->error, sizeof(v->error),
			 "no data of the CPUs checked (CPU %d: no event, its tick state unknown all along)",
			 first);
}

/*
 * ts_check_run - evaluate every threshold on every reported CPU.
 * Returns 0 (see v->failed; v->error says when there is no verdict), or
 * -1 when out of memory.
 */
int ts_check_run(const struct ts_analysis *an, const struct ts_check_opts *o,
		 struct ts_verdict *v)
{
	memset(v, 0, sizeof(*v));
	for (int i = 0; i < an->nr_cpus; i++) {
		const struct ts_cpu *c = an->cpus[i];

		if (c && c->active && check_cpu(an, c, o, v))
			return -1;
	}
	find_no_data(an, v);
	if (!v->error[0])
		find_unevaluated(v);
	return 0;
}

void ts_verdict_free(struct ts_verdict *v)
{
	free(v->items);
	memset(v, 0, sizeof(*v));
}

/* ts_verdict_table - one line per predicate, then the overall verdict */
void ts_verdict_table(FILE *f, const struct ts_verdict *v)
{
	fprintf(f, "# check\n# %3s  %-18s %-6s %s\n", "CPU", "threshold", "result", "measured");
	for (int i = 0; i < v->nr; i++)
		fprintf(f, "  %3d  %-18s %-6s %s\n", v->items[i].cpu, v->items[i].name,
			ts_status_name(v->items[i].status), v->items[i].detail);
	fprintf(f, "# verdict: %s (%d of %d thresholds failed)\n",
		v->failed ? "FAIL" : "PASS", v->failed, v->nr);
}

/* ts_verdict_junit - JUnit XML: a testcase per CPU and threshold */
void ts_verdict_junit(FILE *f, const struct ts_verdict *v)
{
	int skipped = 0;

	for (int i = 0; i < v->nr; i++)
		skipped += v->items[i].status == TS_NOT_APPLICABLE;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<testsuite name=\"tickstat\" tests=\"%d\" failures=\"%d\" skipped=\"%d\">\n",
		v->nr, v->failed, skipped);
	for (int i = 0; i < v->nr; i++) {
		const struct ts_verdict_item *it = &v->items[i];

		fprintf(f, "  <testcase classname=\"tickstat.cpu%d\" name=\"%s\">", it->cpu, it->name);
		if (it->status == TS_FAIL) {
			fputs("<failure message=\"", f);
			ts_xml_text(f, it->detail);
			fputs("\"/>", f);
		} else if (it->status == TS_NOT_APPLICABLE) {
			fputs("<skipped message=\"", f);
			ts_xml_text(f, it->detail);
			fputs("\"/>", f);
		} else {
			fputs("<system-out>", f);
			ts_xml_text(f, it->detail);
			fputs("</system-out>", f);
		}
		fputs("</testcase>\n", f);
	}
	fputs("</testsuite>\n", f);
}
