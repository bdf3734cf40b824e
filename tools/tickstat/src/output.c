// SPDX-License-Identifier: GPL-2.0
/*
 * output.c - the report formats.  All of them read the same metrics
 * (metrics.c); a value a kernel cannot provide is "-" in the table and
 * null in JSON, never 0.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "causeout.h"
#include "diagnosis.h"
#include "docrec.h"
#include "metrics.h"
#include "output.h"
#include "text.h"
#include "util.h"

/* room for a task name or symbol with every byte escaped (\xHH) */
#define SAFE_LEN	(4 * 64 + 1)

static const char *pct(char *buf, size_t len, double share)
{
	if (share < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f%%", share * 100.0);
	return buf;
}

#define dur ts_text_dur

static int from_probes(const struct ts_caps *c, int part)
{
	return c->probes.parts & 1 << part;
}

static void caps_line(FILE *f, const struct ts_caps *c)
{
	fprintf(f, "# events: tick_stop%s%s%s%s%s%s%s%s%s%s\n", c->scopes ? " +scopes" : "",
		c->check_scopes ? " +first-scope(probes)" : "",
		c->retain ? " tick_retain" : "",
		from_probes(c, TS_PART_RETAIN) ? "(probes)" : "", c->restart ? " tick_restart" : "",
		from_probes(c, TS_PART_RESTART) ? "(probes)" : "",
		c->dep_events ? " tick_dep_set/clear" : "",
		from_probes(c, TS_PART_DEPS) ? "(probes)" : "",
		c->sched_switch ? " sched_switch" : " (no sched_switch: idle/busy unknown)",
		c->tick_expiry ? " hrtimer_expire_entry" : " (no hrtimer events: tick count unknown)");
}

/* What the probes stood in for, what they could not, and what stays unknown. */
static void probes_lines(FILE *f, const struct ts_probe_info *p, uint64_t checks_unmatched)
{
	char group[SAFE_LEN];
	int placed = 0;

	if (!p->used)
		return;
	for (int i = 0; i < TS_NR_PROBES; i++)
		placed += p->why[i] == TS_PW_PLACED;
	fprintf(f, "# probes: kprobe events %s%s on a kernel without the patched events",
		p->group[0] ? "of group " : "", ts_text_safe(group, sizeof(group), p->group));
	if (placed)
		fprintf(f, ", %d placed", placed);
	fputc('\n', f);
	for (int i = 0; i < TS_NR_PROBES; i++)
		if (p->why[i] > TS_PW_PLACED)
			fprintf(f, "# probes: %s not probed (%s): %s unknown\n",
				ts_probe_label(i), ts_probe_why_text(p->why[i]),
				ts_probe_part_name(ts_probe_defs[i].part));
	for (int g = 0; g < TS_NR_GAPS; g++)
		if (p->gap[g])
			fprintf(f, "# probes: unknown: %s (%s)\n", ts_probe_gap_text(g),
				ts_probe_why_text(p->gap[g]));
	if (p->unfiltered)
		fprintf(f, "# probes: %" PRIu64 " dependency calls counted as changes (the mask before them unknown)\n",
			p->unfiltered);
	if (checks_unmatched)
		fprintf(f, "# probes: %" PRIu64 " decisions whose scope the probes did not see (UNKNOWN)\n",
			checks_unmatched);
}

static void table_summary(FILE *f, const struct ts_analysis *an)
{
	char a[16], b[16], c1[16], d[16], e[16], g[16], h[16];

	fprintf(f, "# %3s %9s %9s %9s %8s %9s %7s %9s %9s %9s %5s %7s %8s\n", "CPU",
		"tickless", "busy", "idle", "ticks", "ticks/s", "stops", "p50", "p99",
		"max", "open", "lost", "unknown");
	for (int i = 0; i < an->nr_cpus; i++) {
		const struct ts_cpu *c = an->cpus[i];
		struct ts_metrics m;

		if (!c || !c->active)
			continue;
		ts_metrics_of(an, c, &m);
		fprintf(f, "  %3d %9s %9s %9s ", c->cpu, pct(a, 16, m.tickless_share),
			pct(b, 16, m.busy_tickless_share), pct(c1, 16, m.idle_tickless_share));
		if (an->caps.tick_expiry && m.tick_rate_hz >= 0)
			fprintf(f, "%8" PRIu64 " %9.1f ", c->ticks, m.tick_rate_hz);
		else if (an->caps.tick_expiry)
			fprintf(f, "%8" PRIu64 " %9s ", c->ticks, "-");
		else
			fprintf(f, "%8s %9s ", "-", "-");
		if (c->stopped.count)
			fprintf(f, "%7" PRIu64 " %9s %9s %9s ", c->stopped.count,
				dur(d, 16, ts_hist_percentile(&c->stopped, 50)),
				dur(e, 16, ts_hist_percentile(&c->stopped, 99)),
				dur(g, 16, c->stopped.max));
		else
			fprintf(f, "%7d %9s %9s %9s ", 0, "-", "-", "-");
		fprintf(f, "%5" PRIu64 " %7" PRIu64 " %8s\n", c->stopped_open,
			c->lost_events + c->lost_unknown, pct(h, 16, m.state_unknown_share));
	}
}

/* the rows of a CPU (-1: all CPUs) that --top left out of a table, if any */
static void more_not_shown(FILE *f, int cpu, int rows, int top)
{
	char name[8];

	if (rows <= top)
		return;
	snprintf(name, sizeof(name), cpu < 0 ? "all" : "%d", cpu);
	fprintf(f, "  %3s (%d more not shown: --top)\n", name, rows - top);
}

static void table_reasons(FILE *f, const struct ts_analysis *an, const struct ts_output_opts *o)
{
	int order[TS_MAX_REASONS];
	char name[48], t[16], s[16];

	fprintf(f, "#\n# why the tick ran (time it held the tick, share of running time, decisions)\n");
	fprintf(f, "# %3s %-16s %-8s %-9s %10s %8s %9s\n", "CPU", "reason", "scope", "detail",
		"time", "share", "events");
	for (int i = 0; i < an->nr_cpus; i++) {
		const struct ts_cpu *c = an->cpus[i];
		uint64_t running;
		int n, sched;

		if (!c || !c->active)
			continue;
		running = ts_cpu_tick_ns(c, TS_TICK_RUNNING);
		n = ts_reason_order(c, order);
		sched = ts_sched_detail(an, c);
		for (int k = 0; k < n && k < o->top; k++) {
			const struct ts_reason *r = &c->reasons[order[k]];
			const char *detail = "-";

			if (ts_reason_is_sched(r) && sched >= 0)
				detail = ts_sched_name(sched);
			fprintf(f, "  %3d %-16s %-8s %-9s %10s %8s %9" PRIu64 "\n", c->cpu,
				ts_reason_name(r, name, sizeof(name)),
				r->class == TS_RC_DEP ? ts_scope_name(r->scope) : "-", detail,
				dur(t, 16, r->time_ns), pct(s, 16, ts_share(r->time_ns, running)),
				r->events);
			if (ts_reason_is_sched(r)) {
				struct ts_diagnosis why;

				ts_explain_sched(an, c, &why);
				fprintf(f, "  %3d   why SCHED (%s): %s; %s [#%s]\n", c->cpu, why.why,
					why.detail, why.remedy, why.anchor);
			}
		}
		more_not_shown(f, c->cpu, n, o->top);
		if (c->reasons_dropped)
			fprintf(f, "  %3d (%" PRIu64 " events of reasons beyond the first %d)\n",
				c->cpu, c->reasons_dropped, TS_MAX_REASONS);
	}
}

/*
 * What would fill a section the kernel's events leave unknown: the probes
 * where they were not used, else only the patched kernel.  A report that
 * stops at "unknown" leaves the reader nowhere to go.
 */
static void next_step(FILE *f, const struct ts_analysis *an, const char *what)
{
	if (!an->caps.probes.used)
		fprintf(f, "# next: to see %s, record with --probes auto, or on the patched kernel (docs/tickstat.md, Stock kernels: probes)\n",
			what);
	else
		fprintf(f, "# next: to see %s, record on the patched kernel: the probes could not stand in here\n",
			what);
}

static void table_restarts(FILE *f, const struct ts_analysis *an)
{
	fprintf(f, "#\n# restarts of a stopped tick, by cause\n");
	if (!an->caps.restart) {
		fprintf(f, "# unknown: this kernel has no timer:tick_restart event\n");
		next_step(f, an, "restarts");
		return;
	}
	fprintf(f, "# %3s %10s %10s %10s %10s\n", "CPU", "IDLE_EXIT", "IDLE_TICK",
		"DEPENDENCY", "other");
	for (int i = 0; i < an->nr_cpus; i++) {
		const struct ts_cpu *c = an->cpus[i];

		if (!c || !c->active)
			continue;
		fprintf(f, "  %3d %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64 "\n", c->cpu,
			c->restarts[TS_RESTART_IDLE_EXIT], c->restarts[TS_RESTART_IDLE_TICK],
			c->restarts[TS_RESTART_DEPENDENCY],
			c->restarts[TS_RESTART_UNKNOWN] + c->restarts[TS_NR_RESTART_CAUSES]);
	}
}

/* Culprits that concern a reported CPU: its own, or global ones. */
static int culprit_reported(const struct ts_analysis *an, const struct ts_culprit *k)
{
	return k->cpu < 0 || (k->cpu < an->nr_cpus && an->cpus[k->cpu] &&
			      an->cpus[k->cpu]->active);
}

static void table_culprits(FILE *f, const struct ts_analysis *an, const struct ts_output_opts *o)
{
	int order[TS_MAX_CULPRITS], n, shown = 0, last_cpu = -2;

	fprintf(f, "#\n# who set tick dependencies (CPU: the one affected; all: every CPU)\n");
	if (!an->caps.dep_events) {
		fprintf(f, "# unknown: this kernel has no timer:tick_dep_set event\n");
		next_step(f, an, "who set dependencies");
		return;
	}
	fprintf(f, "# %3s %-14s %-8s %7s %-22s %-36s %6s %6s\n", "CPU", "dependency", "scope",
		"target", "task", "caller", "sets", "clears");
	n = ts_culprit_order(an, order);
	for (int i = 0; i < n; i++) {
		const struct ts_culprit *k = &an->culprits[order[i]];
		const char *comm = ts_comm_get(an, k->pid);
		const char *caller = ts_caller_get(an, k->caller);
		char task[SAFE_LEN + 16], cal[SAFE_LEN], cpu[8], dep[32], target[16], safe[SAFE_LEN];

		if (!culprit_reported(an, k))
			continue;
		if (k->cpu != last_cpu) {
			more_not_shown(f, last_cpu, shown, o->top);
			shown = 0;
			last_cpu = k->cpu;
		}
		if (shown++ >= o->top)
			continue;
		snprintf(task, sizeof(task), "%s(%d)",
			 comm ? ts_text_safe(safe, sizeof(safe), comm) : "?", k->pid);
		if (caller)
			ts_text_safe(cal, sizeof(cal), caller);
		else
			snprintf(cal, sizeof(cal), "0x%" PRIx64, k->caller);
		snprintf(cpu, sizeof(cpu), k->cpu < 0 ? "all" : "%d", k->cpu);
		if (k->target == TS_TARGET_UNKNOWN)
			snprintf(target, sizeof(target), "-");
		else
			snprintf(target, sizeof(target), "%d", k->target);
		snprintf(dep, sizeof(dep), "%s%s%s", ts_dep_name(k->bit),
			 k->bit == 2 && k->sched > 0 ? "/" : "",
			 k->bit == 2 && k->sched > 0 ? ts_sched_name(k->sched) : "");
		fprintf(f, "  %3s %-14s %-8s %7s %-22s %-36s %6" PRIu64 " %6" PRIu64 "\n", cpu, dep,
			ts_scope_name(k->scope), target, task, cal, k->sets, k->clears);
	}
	more_not_shown(f, last_cpu, shown, o->top);
	if (an->culprits_dropped)
		fprintf(f, "# %" PRIu64 " dependency events beyond the first %d culprits not shown\n",
			an->culprits_dropped, TS_MAX_CULPRITS);
}

/*
 * A co-runner's cgroup CPU quota for the table: "" when the recording has
 * none of them, "-" unknown, "max", or QUOTA/PERIOD (us).
 */
static const char *quota_text(const struct ts_analysis *an, int pid, char *buf, size_t len)
{
	const struct ts_quota *q = ts_analysis_quota(an, pid);

	if (!an->nr_quotas)
		snprintf(buf, len, "%s", "");
	else if (!q)
		snprintf(buf, len, "  %s", "-");
	else if (q->quota_us < 0)
		snprintf(buf, len, "  %s", "max");
	else
		snprintf(buf, len, "  %" PRId64 "/%" PRIu64, q->quota_us, q->period_us);
	return buf;
}

/* Tasks that ran while the tick ran: who shared the CPU when SCHED held it. */
static void table_co_runners(FILE *f, const struct ts_analysis *an,
			     const struct ts_output_opts *o)
{
	int order[TS_MAX_TASKS];
	char held[16], sched[16], ran[16], task[SAFE_LEN + 16], safe[SAFE_LEN], quota[48];

	fprintf(f, "#\n# tasks that ran while the tick ran (co-runners; SCHED: while SCHED held it)\n");
	if (!an->caps.sched_switch) {
		fprintf(f, "# unknown: no sched:sched_switch events\n");
		return;
	}
	fprintf(f, "# %3s %-26s %10s %10s %10s%s\n", "CPU", "task", "held", "SCHED", "ran",
		an->nr_quotas ? "  cpu.max (cgroup quota)" : "");
	for (int i = 0; i < an->nr_cpus; i++) {
		const struct ts_cpu *c = an->cpus[i];
		int n, shown = 0;

		if (!c || !c->active)
			continue;
		n = ts_task_order(c, order);
		for (int k = 0; k < n; k++) {
			const struct ts_task_time *t = &c->tasks[order[k]];
			const char *comm = ts_comm_get(an, t->pid);

			if (!t->held_ns)
				break;		/* the rest never ran with the tick on */
			if (shown++ >= o->top)
				continue;
			snprintf(task, sizeof(task), "%s(%d)",
				 comm ? ts_text_safe(safe, sizeof(safe), comm) : "?", t->pid);
			fprintf(f, "  %3d %-26s %10s %10s %10s%s\n", c->cpu, task,
				dur(held, 16, t->held_ns), dur(sched, 16, t->sched_ns),
				dur(ran, 16, t->run_ns),
				quota_text(an, t->pid, quota, sizeof(quota)));
		}
		more_not_shown(f, c->cpu, shown, o->top);
		if (c->tasks_other.held_ns)
			fprintf(f, "  %3d %-26s %10s %10s %10s\n", c->cpu, "(other tasks)",
				dur(held, 16, c->tasks_other.held_ns),
				dur(sched, 16, c->tasks_other.sched_ns),
				dur(ran, 16, c->tasks_other.run_ns));
	}
}

/* ts_output_table - the human report */
void ts_output_table(FILE *f, const struct ts_analysis *an, const struct ts_output_opts *o)
{
	char w[16];

	if (!o->no_header) {
		char path[4 * sizeof(an->source_path)], kernel[SAFE_LEN], clock[SAFE_LEN];

		/* all from the file or the command line: escaped, one line each */
		fprintf(f, "# tickstat report: %s %s, kernel %s, clock %s, window %s\n",
			an->source_kind, an->source_path[0] ?
			ts_text_safe(path, sizeof(path), an->source_path) : "(live)",
			an->kernel[0] ? ts_text_safe(kernel, sizeof(kernel), an->kernel) : "unknown",
			an->clock[0] ? ts_text_safe(clock, sizeof(clock), an->clock) : "unknown",
			dur(w, sizeof(w), ts_cpu_window_ns(an)));
		caps_line(f, &an->caps);
		probes_lines(f, &an->caps.probes, an->checks_unmatched);
		fprintf(f, "# tickless: share of the known time with the tick stopped (busy, idle: of that time)\n");
		fprintf(f, "# stops: complete stopped intervals; open: cut by the window or a gap\n");
		fprintf(f, "# unknown: share of the window whose tick or idle state is unknown; busy and idle time cover the rest\n");
	}
	ts_table_diagnosis(f, an);
	table_summary(f, an);
	table_reasons(f, an, o);
	table_restarts(f, an);
	table_culprits(f, an, o);
	table_co_runners(f, an, o);
	ts_table_causes(f, an, o->top);
	ts_doctor_table(f, an);
	if (an->overrun)
		fprintf(f, "#\n# WARNING: the ring buffer overwrote %" PRIu64 " events\n", an->overrun);
	if (an->unplaced)
		fprintf(f, "#\n# WARNING: the ring buffer dropped %" PRIu64
			" events without marking where (commit overruns, or a full buffer that does not overwrite): counted as lost\n",
			an->unplaced);
	if (an->bad_records || an->bad_pages)
		fprintf(f, "#\n# WARNING: %" PRIu64 " records and %" PRIu64
			" ring-buffer pages could not be decoded (counted as lost)\n",
			an->bad_records, an->bad_pages);
	if (!ts_cpu_window_ns(an))
		fprintf(f, "#\n# WARNING: the window is empty (0 ns): no events, nothing measured\n");
	if (an->lost_uncounted)
		fprintf(f, "#\n# WARNING: lost events cannot all be counted: %s\n", an->lost_uncounted);
	if (an->backward_pages)
		fprintf(f, "# WARNING: in %" PRIu64 " of those pages time goes back (first: %s)\n",
			an->backward_pages, an->backward_first);
}

/* FNV-1a, 64 bits, over a string and the newline after it */
static uint64_t fnv1a(uint64_t h, const char *s)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	h ^= '\n';
	return h * 0x100000001b3ULL;
}

/* The CPUs a report shows, as a list like 1-3,5 */
static void reported_cpus(const struct ts_analysis *an, char *buf, size_t len)
{
	struct ts_cpuset set = { 0 };

	for (int i = 0; i < an->nr_cpus; i++)
		if (an->cpus[i] && an->cpus[i]->active)
			ts_cpuset_add(&set, i);
	ts_cpuset_format(&set, buf, len);
}

/*
 * ts_report_id - the identity of what a report covers, 16 hex digits, the
 * same in its JSON (window.id) and its CSV timeline (the window row): the
 * data (the boot of the kernel that made it, when the source says, the
 * kernel, the clock, the span the data covers), the window cut from it
 * (--time-range), and each CPU reported with whether it is nohz_full (-C,
 * --nohz-full).  Not the path, nor the file's format: the live report, its
 * recording and trace-cmd's conversion of it are one data set, with one
 * identity.  A hash (FNV-1a, 64 bits) that tells runs apart, not a secret.
 */
void ts_report_id(const struct ts_analysis *an, char *buf, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	char part[64];

	h = fnv1a(h, "tickstat-report-id/1");
	h = fnv1a(h, an->boot_id);
	h = fnv1a(h, an->kernel);
	h = fnv1a(h, an->clock);
	snprintf(part, sizeof(part), "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64,
		 an->data_start, an->data_end, an->win_start, an->win_end);
	h = fnv1a(h, part);
	for (int i = 0; i < an->nr_cpus; i++) {
		if (!an->cpus[i] || !an->cpus[i]->active)
			continue;
		snprintf(part, sizeof(part), "%d:%d", i, an->cpus[i]->nohz_full);
		h = fnv1a(h, part);
	}
	snprintf(buf, len, "%016" PRIx64, h);
}

static void json_str(FILE *f, const char *s)
{
	ts_json_string(f, s);
}

static void json_share(FILE *f, double share)
{
	if (share < 0)
		fputs("null", f);
	else
		fprintf(f, "%.6f", share);
}

static void json_intervals(FILE *f, const struct ts_cpu *c)
{
	const struct ts_hist *h = &c->stopped;
	int first = 1;

	fprintf(f, "\"stopped_intervals\":{\"count\":%" PRIu64 ",\"total_ns\":%" PRIu64
		",\"open\":%" PRIu64 ",\"open_total_ns\":%" PRIu64 ",", h->count, h->total,
		c->stopped_open, c->open_total_ns);
	if (h->count)
		fprintf(f, "\"min_ns\":%" PRIu64 ",\"p50_ns\":%" PRIu64 ",\"p90_ns\":%" PRIu64
			",\"p99_ns\":%" PRIu64 ",\"max_ns\":%" PRIu64 ",", h->min,
			ts_hist_percentile(h, 50), ts_hist_percentile(h, 90),
			ts_hist_percentile(h, 99), h->max);
	else
		fputs("\"min_ns\":null,\"p50_ns\":null,\"p90_ns\":null,\"p99_ns\":null,\"max_ns\":null,", f);
	fputs("\"log2_histogram\":[", f);
	for (int p = 0; p <= 64; p++) {
		uint64_t n = ts_hist_log2_count(h, p);

		if (!n)
			continue;
		/* power 64: the bucket below 2^64, written without overflow */
		if (p == 64)
			fprintf(f, "%s{\"lt_ns\":18446744073709551616,\"count\":%" PRIu64 "}",
				first ? "" : ",", n);
		else
			fprintf(f, "%s{\"lt_ns\":%" PRIu64 ",\"count\":%" PRIu64 "}",
				first ? "" : ",", (uint64_t)1 << p, n);
		first = 0;
	}
	fputs("]}", f);
}

/*
 * SCHED's time per sub-reason: how long the bit was set for each in the
 * window, or null where the source cannot time them (ts_sched_split).
 */
static void json_sched_split(FILE *f, const struct ts_analysis *an, const struct ts_cpu *c)
{
	uint64_t ns[TS_NR_SCHED_SPLIT];
	int first = 1;

	fputs(",\"detail_ns\":", f);
	if (!ts_sched_split(an, c, ns)) {
		fputs("null", f);
		return;
	}
	fputc('{', f);
	for (int k = 0; k < TS_NR_SCHED_SPLIT; k++) {
		if (!ns[k])
			continue;
		fprintf(f, "%s\"%s\":%" PRIu64, first ? "" : ",", ts_sched_name(k), ns[k]);
		first = 0;
	}
	fputc('}', f);
}

/* Why SCHED held the tick: never a bare SCHED (ts_explain_sched) */
static void json_sched_why(FILE *f, const struct ts_analysis *an, const struct ts_cpu *c)
{
	struct ts_diagnosis why;

	ts_explain_sched(an, c, &why);
	fprintf(f, ",\"why\":{\"label\":\"%s\",\"detail\":", why.why);
	json_str(f, why.detail);
	fputs(",\"remedy\":", f);
	json_str(f, why.remedy);
	fprintf(f, ",\"cookbook\":\"docs/cookbook.md#%s\"}", why.anchor);
}

static void json_reasons(FILE *f, const struct ts_analysis *an, const struct ts_cpu *c)
{
	int order[TS_MAX_REASONS], n = ts_reason_order(c, order);
	int detail = ts_sched_detail(an, c);
	char name[48];

	fputs("\"reasons\":[", f);
	for (int k = 0; k < n; k++) {
		const struct ts_reason *r = &c->reasons[order[k]];
		static const char * const cls[] = { "none", "dependency", "retain" };

		fprintf(f, "%s{\"reason\":", k ? "," : "");
		json_str(f, ts_reason_name(r, name, sizeof(name)));
		fprintf(f, ",\"class\":\"%s\",\"scope\":", cls[r->class]);
		if (r->class == TS_RC_DEP)
			json_str(f, ts_scope_name(r->scope));
		else
			fputs("null", f);
		fputs(",\"detail\":", f);
		if (ts_reason_is_sched(r) && detail >= 0)
			json_str(f, ts_sched_name(detail));
		else
			fputs("null", f);
		if (ts_reason_is_sched(r)) {
			json_sched_split(f, an, c);
			json_sched_why(f, an, c);
		} else {
			fputs(",\"detail_ns\":null,\"why\":null", f);
		}
		fprintf(f, ",\"value\":%d,\"time_ns\":%" PRIu64 ",\"events\":%" PRIu64 "}",
			r->value, r->time_ns, r->events);
	}
	fputs("]", f);
}

static void json_culprits(FILE *f, const struct ts_analysis *an, int cpu)
{
	int order[TS_MAX_CULPRITS], n = ts_culprit_order(an, order), first = 1;

	if (!an->caps.dep_events) {
		fputs("\"culprits\":null", f);
		return;
	}
	fputs("\"culprits\":[", f);
	for (int i = 0; i < n; i++) {
		const struct ts_culprit *k = &an->culprits[order[i]];
		const char *caller = ts_caller_get(an, k->caller);

		if (k->cpu != cpu && k->cpu >= 0)
			continue;
		fprintf(f, "%s{\"dependency\":", first ? "" : ",");
		json_str(f, ts_dep_name(k->bit));
		fputs(",\"scope\":", f);
		json_str(f, ts_scope_name(k->scope));
		if (k->target == TS_TARGET_UNKNOWN)
			fputs(",\"target\":null,\"sched\":", f);
		else
			fprintf(f, ",\"target\":%d,\"sched\":", k->target);
		if (k->sched == TS_SCHED_UNKNOWN)
			fputs("null", f);
		else
			json_str(f, ts_sched_name(k->sched));
		fprintf(f, ",\"pid\":%d,\"comm\":", k->pid);
		if (ts_comm_get(an, k->pid))
			json_str(f, ts_comm_get(an, k->pid));
		else
			fputs("null", f);
		fprintf(f, ",\"caller_addr\":\"0x%" PRIx64 "\",\"caller\":", k->caller);
		if (caller)
			json_str(f, caller);
		else
			fputs("null", f);
		fprintf(f, ",\"sets\":%" PRIu64 ",\"clears\":%" PRIu64 "}", k->sets, k->clears);
		first = 0;
	}
	fputs("]", f);
}

/* ,"cpu_max": a co-runner's cgroup CPU quota, "max" without one, null unknown */
static void json_quota(FILE *f, const struct ts_quota *q)
{
	if (!q)
		fputs(",\"cpu_max\":null", f);
	else if (q->quota_us < 0)
		fputs(",\"cpu_max\":\"max\"", f);
	else
		fprintf(f, ",\"cpu_max\":{\"quota_us\":%" PRId64 ",\"period_us\":%" PRIu64 "}",
			q->quota_us, q->period_us);
}

/* The co-runners of a CPU, most time with the tick held first; null without switches. */
static void json_co_runners(FILE *f, const struct ts_analysis *an, const struct ts_cpu *c)
{
	const struct ts_task_time *o = &c->tasks_other;
	int order[TS_MAX_TASKS], n = ts_task_order(c, order);

	if (!an->caps.sched_switch) {
		fputs("\"co_runners\":null,\"co_runners_other\":null", f);
		return;
	}
	fputs("\"co_runners\":[", f);
	for (int i = 0; i < n; i++) {
		const struct ts_task_time *t = &c->tasks[order[i]];

		fprintf(f, "%s{\"pid\":%d,\"comm\":", i ? "," : "", t->pid);
		if (ts_comm_get(an, t->pid))
			json_str(f, ts_comm_get(an, t->pid));
		else
			fputs("null", f);
		fprintf(f, ",\"run_ns\":%" PRIu64 ",\"held_ns\":%" PRIu64 ",\"sched_ns\":%" PRIu64,
			t->run_ns, t->held_ns, t->sched_ns);
		json_quota(f, ts_analysis_quota(an, t->pid));
		fputc('}', f);
	}
	fprintf(f, "],\"co_runners_other\":{\"run_ns\":%" PRIu64 ",\"held_ns\":%" PRIu64
		",\"sched_ns\":%" PRIu64 "}", o->run_ns, o->held_ns, o->sched_ns);
}

static void json_cpu(FILE *f, const struct ts_analysis *an, const struct ts_cpu *c)
{
	struct ts_metrics m;

	ts_metrics_of(an, c, &m);
	fprintf(f, "{\"cpu\":%d,\"nohz_full\":%s,", c->cpu,
		c->nohz_full < 0 ? "null" : c->nohz_full ? "true" : "false");
	ts_json_diagnosis(f, an, c);
	fputc(',', f);
	fprintf(f, "\"window_ns\":%" PRIu64 ",\"unknown_ns\":%" PRIu64 ",\"stopped_ns\":%" PRIu64
		",\"running_ns\":%" PRIu64 ",", m.window_ns, m.unknown_ns, m.stopped_ns, m.running_ns);
	fprintf(f, "\"busy_ns\":%" PRIu64 ",\"busy_stopped_ns\":%" PRIu64 ",\"idle_ns\":%" PRIu64
		",\"idle_stopped_ns\":%" PRIu64 ",\"idle_state_unknown_ns\":%" PRIu64 ",",
		m.busy_ns, m.busy_stopped_ns, m.idle_ns, m.idle_stopped_ns, m.idle_unknown_ns);
	fputs("\"tickless_share\":", f);
	json_share(f, m.tickless_share);
	fputs(",\"busy_tickless_share\":", f);
	json_share(f, m.busy_tickless_share);
	fputs(",\"idle_tickless_share\":", f);
	json_share(f, m.idle_tickless_share);
	fputs(",\"unknown_share\":", f);
	json_share(f, m.unknown_share);
	fprintf(f, ",\"state_unknown_ns\":%" PRIu64 ",\"state_unknown_share\":", m.state_unknown_ns);
	json_share(f, m.state_unknown_share);
	if (an->caps.tick_expiry && m.tick_rate_hz >= 0)
		fprintf(f, ",\"ticks\":%" PRIu64 ",\"ticks_while_stopped\":%" PRIu64
			",\"tick_rate_hz\":%.3f,", c->ticks, c->ticks_stopped, m.tick_rate_hz);
	else if (an->caps.tick_expiry)
		fprintf(f, ",\"ticks\":%" PRIu64 ",\"ticks_while_stopped\":%" PRIu64
			",\"tick_rate_hz\":null,", c->ticks, c->ticks_stopped);
	else
		fputs(",\"ticks\":null,\"ticks_while_stopped\":null,\"tick_rate_hz\":null,", f);
	fprintf(f, "\"tick_stop_success\":%" PRIu64 ",\"tick_stop_fail\":%" PRIu64 ",",
		c->stop_success, c->stop_fail);
	json_reasons(f, an, c);
	fputc(',', f);
	json_intervals(f, c);
	if (an->caps.restart)
		fprintf(f, ",\"restarts\":{\"IDLE_EXIT\":%" PRIu64 ",\"IDLE_TICK\":%" PRIu64
			",\"DEPENDENCY\":%" PRIu64 ",\"other\":%" PRIu64 "}",
			c->restarts[TS_RESTART_IDLE_EXIT], c->restarts[TS_RESTART_IDLE_TICK],
			c->restarts[TS_RESTART_DEPENDENCY],
			c->restarts[TS_RESTART_UNKNOWN] + c->restarts[TS_NR_RESTART_CAUSES]);
	else
		fputs(",\"restarts\":null", f);
	fputc(',', f);
	json_culprits(f, an, c->cpu);
	fputc(',', f);
	json_co_runners(f, an, c);
	fputc(',', f);
	ts_json_causes(f, an, c);
	fprintf(f, ",\"lost_events\":%" PRIu64 ",\"lost_gaps_unknown_size\":%" PRIu64
		",\"lost_gaps_sized_by_overrun\":%" PRIu64 "}",
		c->lost_events, c->lost_unknown, c->missed_gaps_sized);
}

static void json_verdict(FILE *f, const struct ts_verdict *v)
{
	fprintf(f, ",\"check\":{\"verdict\":\"%s\",\"failed\":%d,\"results\":[",
		v->failed ? "FAIL" : "PASS", v->failed);
	for (int i = 0; i < v->nr; i++) {
		fprintf(f, "%s{\"cpu\":%d,\"threshold\":", i ? "," : "", v->items[i].cpu);
		json_str(f, v->items[i].name);
		fprintf(f, ",\"result\":\"%s\",\"detail\":", ts_status_name(v->items[i].status));
		json_str(f, v->items[i].detail);
		fputc('}', f);
	}
	fputs("]}", f);
}

/*
 * The probes (probes.c), null when none: the parts of "events" that come
 * from them, each probe asked for and why it is (not) there, what stays
 * unknown.
 */
static void json_probes(FILE *f, const struct ts_probe_info *p, uint64_t checks_unmatched)
{
	int first = 1;

	if (!p->used) {
		fputs(",\"probes\":null", f);
		return;
	}
	fputs(",\"probes\":{\"group\":", f);
	json_str(f, p->group);
	fputs(",\"events\":[", f);
	for (int i = 0; i < TS_NR_PARTS; i++) {
		if (!(p->parts & 1 << i))
			continue;
		fprintf(f, "%s\"%s\"", first ? "" : ",", ts_probe_part_name(i));
		first = 0;
	}
	fputs("],\"functions\":{", f);
	first = 1;
	for (int i = 0; i < TS_NR_PROBES; i++) {
		if (p->why[i] == TS_PW_NONE)
			continue;
		fprintf(f, "%s\"%s\":\"%s\"", first ? "" : ",", ts_probe_label(i),
			ts_probe_why_name(p->why[i]));
		first = 0;
	}
	fputs("},\"unknown\":{", f);
	first = 1;
	for (int g = 0; g < TS_NR_GAPS; g++) {
		if (!p->gap[g])
			continue;
		fprintf(f, "%s\"%s\":\"%s\"", first ? "" : ",", ts_probe_gap_name(g),
			ts_probe_why_name(p->gap[g]));
		first = 0;
	}
	fprintf(f, "},\"unfiltered_dependency_calls\":%" PRIu64
		",\"unchanged_dependency_calls\":%" PRIu64 ",\"decisions_scope_unseen\":%" PRIu64 "}",
		p->unfiltered, p->unchanged, checks_unmatched);
}

/* ts_output_json - the versioned machine-readable report (docs/json-schema.md) */
void ts_output_json(FILE *f, const struct ts_analysis *an, const struct ts_output_opts *o,
		    const struct ts_verdict *v)
{
	const struct ts_caps *c = &an->caps;
	char id[TS_REPORT_ID_LEN];
	int first = 1;

	(void)o;
	fprintf(f, "{\"schema\":\"%s\",\"source\":{\"kind\":", TS_JSON_SCHEMA);
	json_str(f, an->source_kind);
	fputs(",\"path\":", f);
	json_str(f, an->source_path);
	fputs(",\"kernel\":", f);
	json_str(f, an->kernel);
	fputs(",\"clock\":", f);
	json_str(f, an->clock);
	fputs(",\"nohz_full\":", f);
	json_str(f, an->nohz_full);
	fputs(",\"boot_id\":", f);
	if (an->boot_id[0])
		json_str(f, an->boot_id);
	else
		fputs("null", f);
	fprintf(f, ",\"events\":{\"tick_stop\":%s,\"tick_stop_scopes\":%s,\"tick_retain\":%s,"
		"\"tick_restart\":%s,\"tick_dep\":%s,\"sched_switch\":%s,\"tick_expiry\":%s,"
		"\"tick_stop_first_scope\":%s}",
		c->tick_stop ? "true" : "false", c->scopes ? "true" : "false",
		c->retain ? "true" : "false", c->restart ? "true" : "false",
		c->dep_events ? "true" : "false", c->sched_switch ? "true" : "false",
		c->tick_expiry ? "true" : "false", c->check_scopes ? "true" : "false");
	json_probes(f, &c->probes, an->checks_unmatched);
	fprintf(f, ",\"ring_buffer_overrun\":%" PRIu64 ",\"bad_records\":%" PRIu64
		",\"bad_pages\":%" PRIu64 ",\"bad_pages_time_back\":%" PRIu64 "},",
		an->overrun, an->bad_records, an->bad_pages, an->backward_pages);
	fprintf(f, "\"window\":{\"start_ns\":%" PRIu64 ",\"end_ns\":%" PRIu64
		",\"duration_ns\":%" PRIu64 ",\"snapshot_ns\":", an->win_start, an->win_end,
		ts_cpu_window_ns(an));
	if (an->snapshot_ts)
		fprintf(f, "%" PRIu64, an->snapshot_ts);
	else
		fputs("null", f);
	ts_report_id(an, id, sizeof(id));
	fprintf(f, ",\"id\":\"%s\"},\"cpus\":[", id);
	for (int i = 0; i < an->nr_cpus; i++) {
		if (!an->cpus[i] || !an->cpus[i]->active)
			continue;
		if (!first)
			fputc(',', f);
		json_cpu(f, an, an->cpus[i]);
		first = 0;
	}
	fputc(']', f);
	fputs(",\"doctor\":", f);
	ts_doctor_json(f, an);
	if (v)
		json_verdict(f, v);
	fputs("}\n", f);
}

/*
 * ts_output_prometheus - node_exporter textfile collector format.  The
 * numbers of one report's window, written once: gauges, never counters,
 * and all named tickstat_report_*, apart from the cumulative counters of
 * tickstat monitor (monitor.c), so that one collector can take both.
 */
void ts_output_prometheus(FILE *f, const struct ts_analysis *an, const struct ts_verdict *v)
{
	static const struct { const char *name, *help, *type; } m[] = {
		{ "tickstat_report_window_seconds", "Length of the report's window.", "gauge" },
		{ "tickstat_report_tickless_ratio", "Share of the window's known time with the tick stopped.", "gauge" },
		{ "tickstat_report_busy_tickless_ratio", "Share of the window's busy time with the tick stopped.", "gauge" },
		{ "tickstat_report_idle_tickless_ratio", "Share of the window's idle time with the tick stopped.", "gauge" },
		{ "tickstat_report_unknown_ratio", "Share of the window whose tick state is unknown.", "gauge" },
		{ "tickstat_report_ticks", "Expiries of the tick's hrtimer (tick_sched_timer or tick_nohz_handler) in the window.", "gauge" },
		{ "tickstat_report_lost_events", "Events the ring buffer lost in the window.", "gauge" },
		{ "tickstat_report_reason_seconds", "Time a reason held the tick in the window.", "gauge" },
		{ "tickstat_report_check_failed", "Thresholds failed by the check.", "gauge" },
	};
	char name[48];

	for (unsigned int k = 0; k < sizeof(m) / sizeof(m[0]); k++) {
		if (k == 8 && !v)
			continue;
		fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", m[k].name, m[k].help, m[k].name, m[k].type);
		for (int i = 0; i < an->nr_cpus; i++) {
			const struct ts_cpu *c = an->cpus[i];
			struct ts_metrics mt;
			double val = 0;

			if (!c || !c->active)
				continue;
			ts_metrics_of(an, c, &mt);
			switch (k) {
			case 0: val = mt.window_ns / 1e9; break;
			case 1: val = mt.tickless_share; break;
			case 2: val = mt.busy_tickless_share; break;
			case 3: val = mt.idle_tickless_share; break;
			case 4: val = mt.unknown_share; break;
			case 5:
				if (!an->caps.tick_expiry)
					continue;
				val = (double)c->ticks;
				break;
			case 6: val = (double)(c->lost_events + c->lost_unknown); break;
			case 7:
				for (int r = 0; r < c->nr_reasons; r++) {
					const struct ts_reason *rs = &c->reasons[r];

					fprintf(f, "%s{cpu=\"%d\",reason=\"%s\",scope=\"%s\"} %.9f\n",
						m[k].name, c->cpu, ts_reason_name(rs, name, sizeof(name)),
						rs->class == TS_RC_DEP ? ts_scope_name(rs->scope) : "",
						rs->time_ns / 1e9);
				}
				continue;
			case 8:
				val = 0;
				for (int t = 0; t < v->nr; t++)
					val += v->items[t].cpu == c->cpu && v->items[t].status == TS_FAIL;
				break;
			}
			if (val < 0)	/* undefined share: leave the sample out */
				continue;
			fprintf(f, "%s{cpu=\"%d\"} %.9g\n", m[k].name, c->cpu, val);
		}
	}
}

/*
 * A cause row: cause,CPU,START,END,,,TYPE:NAME,PID.  END is empty when its
 * exit was not seen; NAME is the report's (a function, "IRQ NAME", a
 * softirq), "other" past the CPU's table of causes.
 */
static void csv_cause(FILE *f, const struct ts_analysis *an, const struct ts_segment *s,
		      const struct ts_tl_cause *t)
{
	uint64_t base = an->win_start;
	char name[160], field[192];

	if (t->ts < base)	/* not in the window: no row (the state machine keeps none) */
		return;
	if (t->idx >= 0 && t->idx < s->owner->nr_causes)
		ts_cause_name(an, &s->owner->causes[t->idx], name, sizeof(name));
	else
		snprintf(name, sizeof(name), "other");
	snprintf(field, sizeof(field), "%s:%s", ts_cause_type_name(t->type), name);
	fprintf(f, "cause,%d,%" PRIu64 ",", s->cpu, t->ts - base);
	if (t->end >= t->ts)
		fprintf(f, "%" PRIu64, t->end - base);
	fputs(",,,", f);
	ts_csv_field(f, field);
	fprintf(f, ",%d\n", t->pid);
}

static void csv_segment(FILE *f, const struct ts_analysis *an, const struct ts_segment *s)
{
	uint64_t base = an->win_start;
	char name[48], reasons[TS_MAX_ACTIVE * 64 + 1];

	if (!s->no_span) {
		size_t len = 0;

		fprintf(f, "span,%d,%" PRIu64 ",%" PRIu64 ",%s,%s,", s->cpu, s->start - base,
			s->end - base, ts_tick_state_name(s->tick), ts_idle_state_name(s->idle));
		reasons[0] = '\0';
		for (int i = 0; i < s->nr_reasons; i++) {
			const struct ts_reason *r;

			if (s->reasons[i] < 0 || s->reasons[i] >= s->owner->nr_reasons)
				continue;
			r = &s->owner->reasons[s->reasons[i]];
			len += snprintf(reasons + len, len < sizeof(reasons) ? sizeof(reasons) - len : 0,
					"%s%s%s%s", i ? "+" : "", ts_reason_name(r, name, sizeof(name)),
					r->class == TS_RC_DEP ? "@" : "",
					r->class == TS_RC_DEP ? ts_scope_name(r->scope) : "");
		}
		ts_csv_field(f, reasons);
		if (s->task >= 0)
			fprintf(f, ",%d\n", s->task);
		else
			fputs(",\n", f);
	}
	/* the ticks and the causes that began in the span, merged in time order */
	for (int i = 0, k = 0; i < s->nr_ticks || k < s->nr_causes;) {
		if (k == s->nr_causes || (i < s->nr_ticks && s->ticks[i] <= s->causes[k].ts)) {
			fprintf(f, "tick,%d,%" PRIu64 ",%" PRIu64 ",,,,\n", s->cpu,
				s->ticks[i] - base, s->ticks[i] - base);
			i++;
		} else {
			csv_cause(f, an, s, &s->causes[k++]);
		}
	}
}

/*
 * The CSV's first row: the window (absolute trace-clock times, as the
 * JSON's window.start_ns and end_ns), the CPUs reported, the identity.
 */
static void csv_window(FILE *f, const struct ts_analysis *an)
{
	char cpus[4096], id[TS_REPORT_ID_LEN];

	reported_cpus(an, cpus, sizeof(cpus));
	ts_report_id(an, id, sizeof(id));
	fputs("window,", f);
	ts_csv_field(f, cpus);
	fprintf(f, ",%" PRIu64 ",%" PRIu64 ",,,%s,\n", an->win_start, an->win_end, id);
}

/*
 * A reported CPU's verdict after its timeline, as bounded labels: the
 * diagnosis's cause, and when a SCHED reason held the tick, what explains
 * it (ts_sched_whys).  Both are stamped at the window's end, where the
 * verdict is given, which keeps every row's times numbers in time order.
 * The texts stay in the table and the JSON.
 */
static void csv_verdict(FILE *f, const struct ts_analysis *an, const struct ts_cpu *c)
{
	uint64_t end = an->win_end > an->win_start ? an->win_end - an->win_start : 0;
	struct ts_diagnosis d;

	ts_diagnose(an, c, &d);
	fprintf(f, "diagnosis,%d,%" PRIu64 ",%" PRIu64 ",,,", c->cpu, end, end);
	ts_csv_field(f, d.cause);
	fputs(",\n", f);
	for (int i = 0; i < c->nr_reasons; i++) {
		if (!ts_reason_is_sched(&c->reasons[i]))
			continue;
		ts_explain_sched(an, c, &d);
		fprintf(f, "why,%d,%" PRIu64 ",%" PRIu64 ",,,SCHED:%s,\n", c->cpu, end, end,
			d.why);
		break;
	}
}

/*
 * ts_output_csv - the timeline of the finished analysis as CSV:
 * kind,cpu,start_ns,end_ns,tick,idle,reasons,task.  A window row first
 * (csv_window), then the spans, ticks and causes of the CPUs the report
 * shows and no other, with times from the window start, each CPU's rows
 * in time order; task is the pid running (0 idle, empty when unknown);
 * last, each CPU's verdict (csv_verdict) at the window's end.  The
 * analysis must have kept its timeline (ts_analysis_keep_timeline), which
 * may hold CPUs the report no longer shows (-C narrows a recording's
 * monitored CPUs after reading; a CPU without data is dropped).  Returns 0,
 * or -1 when it cannot be read.
 */
int ts_output_csv(FILE *f, const struct ts_analysis *an)
{
	struct ts_timeline_iter *it = calloc(1, sizeof(*it));
	struct ts_segment seg;
	int r = -1;

	if (!it)
		return -1;
	fprintf(f, "kind,cpu,start_ns,end_ns,tick,idle,reasons,task\n");
	csv_window(f, an);
	while (it && (r = ts_timeline_next(an, it, &seg)) == 1)
		if (seg.owner->active)
			csv_segment(f, an, &seg);
	free(it);
	for (int i = 0; !r && i < an->nr_cpus; i++)
		if (an->cpus[i] && an->cpus[i]->active)
			csv_verdict(f, an, an->cpus[i]);
	for (int i = 0; !r && i < an->nr_cpus; i++)
		if (an->cpus[i] && an->cpus[i]->active && an->cpus[i]->tl_causes_dropped)
			err_msg("warning: CPU %d: %llu causes began while its state was still open, past the %d that wait for it: the report counts them, the CSV timeline has no row for them\n",
				i, (unsigned long long)an->cpus[i]->tl_causes_dropped,
				TS_SEG_MAX_CAUSES);
	return r;
}
