// SPDX-License-Identifier: GPL-2.0
/*
 * check.c - thresholds over the metrics, per CPU, and their verdicts.
 *
 * A threshold that cannot be evaluated on a CPU (no busy time to take a
 * share of, no tick events to count) is NOT_APPLICABLE there: it neither
 * passes nor fails, and JUnit shows it as skipped.  A threshold that no CPU
 * could evaluate is an error, not a pass: the data is not what the user
 * meant.  Too much unknown time or lost events fail the check, because a
 * verdict on a partial stream would be a guess.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
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

/*
 * ts_check_add_forbid - one --forbid item, NAME or NAME@SCOPE.  Returns 0,
 * -1 when the name is not a reason, -2 when there are too many.
 */
int ts_check_add_forbid(struct ts_check_opts *o, const char *text)
{
	struct ts_forbid *f;

	if (o->nr_forbid == TS_MAX_FORBID)
		return -2;
	f = &o->forbid[o->nr_forbid];
	if (ts_reason_spec_parse(text, &f->spec))
		return -1;
	snprintf(f->text, sizeof(f->text), "%s", text);
	o->nr_forbid++;
	return 0;
}

const char *ts_status_name(enum ts_status s)
{
	return s == TS_PASS ? "PASS" : s == TS_FAIL ? "FAIL" : "N/A";
}

static struct ts_verdict_item *add(struct ts_verdict *v, int cpu, const char *name,
				   enum ts_status st)
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
	it->status = st;
	if (st == TS_FAIL)
		v->failed++;
	return it;
}

/* A "share at least PCT" predicate; share < 0 means undefined. */
static int min_share(struct ts_verdict *v, int cpu, const char *name, double share,
		     double min_pct, const char *what)
{
	struct ts_verdict_item *it;

	if (min_pct < 0)
		return 0;
	if (share < 0) {
		it = add(v, cpu, name, TS_NOT_APPLICABLE);
		if (it)
			snprintf(it->detail, sizeof(it->detail), "no %s time observed", what);
	} else {
		it = add(v, cpu, name, share * 100.0 >= min_pct ? TS_PASS : TS_FAIL);
		if (it)
			snprintf(it->detail, sizeof(it->detail),
				 "tickless %.3f%% of %s time, minimum %.3f%%",
				 share * 100.0, what, min_pct);
	}
	return it ? 0 : -1;
}

static int check_cpu(const struct ts_analysis *an, const struct ts_cpu *c,
		     const struct ts_check_opts *o, struct ts_verdict *v)
{
	struct ts_verdict_item *it;
	struct ts_metrics m;
	char name[48];
	uint64_t lost = c->lost_events + c->lost_unknown;

	ts_metrics_of(an, c, &m);
	if (min_share(v, c->cpu, "min-busy-tickless", m.busy_tickless_share,
		      o->min_busy_share, "busy") ||
	    min_share(v, c->cpu, "min-idle-tickless", m.idle_tickless_share,
		      o->min_idle_share, "idle") ||
	    min_share(v, c->cpu, "min-tickless", m.tickless_share,
		      o->min_window_share, "known"))
		return -1;
	if (o->max_tick_rate >= 0 && !an->caps.tick_expiry) {
		/* without tick events the count is unknown: never a pass */
		it = add(v, c->cpu, "max-tick-rate", TS_NOT_APPLICABLE);
		if (!it)
			return -1;
		snprintf(it->detail, sizeof(it->detail),
			 "no tick events (hrtimer_expire_entry of the tick's timer): count unknown");
	} else if (o->max_tick_rate >= 0) {
		it = add(v, c->cpu, "max-tick-rate",
			 m.tick_rate_hz <= o->max_tick_rate ? TS_PASS : TS_FAIL);
		if (!it)
			return -1;
		snprintf(it->detail, sizeof(it->detail), "%llu ticks, %.3f Hz, maximum %.3f Hz",
			 (unsigned long long)c->ticks, m.tick_rate_hz, o->max_tick_rate);
	}
	for (int i = 0; i < o->nr_forbid; i++) {
		uint64_t t = 0, n = 0;

		for (int r = 0; r < c->nr_reasons; r++) {
			if (ts_reason_spec_matches(&c->reasons[r], &o->forbid[i].spec)) {
				t += c->reasons[r].time_ns;
				n += c->reasons[r].events;
			}
		}
		it = add(v, c->cpu, "forbid", t || n ? TS_FAIL : TS_PASS);
		if (!it)
			return -1;
		snprintf(it->detail, sizeof(it->detail), "%s: held the tick %.6f s in %llu decisions",
			 o->forbid[i].text, t / 1e9, (unsigned long long)n);
	}
	it = add(v, c->cpu, "max-unknown",
		 m.state_unknown_share * 100.0 <= o->max_unknown ? TS_PASS : TS_FAIL);
	if (!it)
		return -1;
	snprintf(it->detail, sizeof(it->detail),
		 "tick or idle state unknown %.3f%% of the window, maximum %.3f%%",
		 m.state_unknown_share < 0 ? 0 : m.state_unknown_share * 100.0, o->max_unknown);
	snprintf(name, sizeof(name), "lost-events");
	it = add(v, c->cpu, name, lost && !o->allow_lost ? TS_FAIL : TS_PASS);
	if (!it)
		return -1;
	snprintf(it->detail, sizeof(it->detail), "%llu events lost, %llu gaps of unknown size%s",
		 (unsigned long long)c->lost_events, (unsigned long long)c->lost_unknown,
		 o->allow_lost ? " (--allow-lost)" : "");
	return 0;
}

/*
 * A threshold that was not applicable on any CPU gives no verdict: name it
 * in v->error, with what every CPU said.
 */
static void find_unevaluated(struct ts_verdict *v)
{
	static const char * const names[] = {
		"min-busy-tickless", "min-idle-tickless", "min-tickless", "max-tick-rate",
	};

	for (unsigned int k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		const struct ts_verdict_item *na = NULL;
		int seen = 0, evaluated = 0;

		for (int i = 0; i < v->nr; i++) {
			if (strcmp(v->items[i].name, names[k]))
				continue;
			seen++;
			if (v->items[i].status == TS_NOT_APPLICABLE)
				na = &v->items[i];
			else
				evaluated++;
		}
		if (seen && !evaluated) {
			snprintf(v->error, sizeof(v->error),
				 "--%s could not be evaluated on any of the %d CPUs checked (CPU %d: %s)",
				 names[k], seen, na->cpu, na->detail);
			return;
		}
	}
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

static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
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
			xml_text(f, it->detail);
			fputs("\"/>", f);
		} else if (it->status == TS_NOT_APPLICABLE) {
			fputs("<skipped message=\"", f);
			xml_text(f, it->detail);
			fputs("\"/>", f);
		} else {
			fputs("<system-out>", f);
			xml_text(f, it->detail);
			fputs("</system-out>", f);
		}
		fputs("</testcase>\n", f);
	}
	fputs("</testsuite>\n", f);
}
