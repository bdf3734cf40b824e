// SPDX-License-Identifier: GPL-2.0
/*
 * causeout.c - the causes in the reports.
 *
 * A cause type the source cannot tell (its events are missing, or the
 * recorder left them out) is printed as unknown, with why: never as zero.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "causeout.h"
#include "metrics.h"
#include "text.h"

#define SAFE_LEN	(4 * 64 + 1)
#define NAME_LEN	160	/* a symbol and its offset, an IRQ and its name */

static const char * const cause_events[TS_NR_CAUSE_TYPES] = {
	"workqueue:workqueue_execute_start", "timer:timer_expire_entry",
	"timer:hrtimer_expire_entry", "irq:irq_handler_entry", "irq:softirq_entry",
	"irq_vectors:*_entry",
};

static const char * const arm_events[TS_NR_CAUSE_TYPES] = {
	[TS_CAUSE_TIMER] = "timer:timer_start", [TS_CAUSE_HRTIMER] = "timer:hrtimer_start",
};

/*
 * ts_cause_unknown_why - why a cause type is unknown in this report, or
 * NULL when it is known.
 */
const char *ts_cause_unknown_why(const struct ts_analysis *an, int type)
{
	static char buf[160];

	if (ts_analysis_causes_known(an) & (1u << type))
		return NULL;
	if (an->caps.causes & (1u << type))
		return "the recording was made without causes (--no-causes, or a tickstat before them)";
	if (type == TS_CAUSE_HRTIMER && !an->caps.tick_expiry)
		return "the tick's own hrtimer cannot be told apart (no hrtimer_expire_entry, or its function unknown)";
	snprintf(buf, sizeof(buf), "the source has no %s events%s", cause_events[type],
		 type == TS_CAUSE_VECTOR ? " (x86 kernels trace them)" : "");
	return buf;
}

/*
 * ts_armers_unknown_why - why who armed a timer type is unknown in this
 * report (its type known), or NULL when it is known.
 */
const char *ts_armers_unknown_why(const struct ts_analysis *an, int type)
{
	static char buf[160];

	if (ts_analysis_armers_known(an) & (1u << type))
		return NULL;
	if (an->caps.armers & (1u << type))
		return "the recording was made without them (a tickstat before armers)";
	snprintf(buf, sizeof(buf), "the source has no %s events", arm_events[type]);
	return buf;
}

/* The armers of a timer: "usleep(544)@2 (25), itself (3), 2 more (2)", or "" */
static const char *armers(const struct ts_analysis *an, const struct ts_cause *k, char *buf,
			  size_t len)
{
	struct ts_armer by[TS_MAX_ARMERS];
	int n = ts_armers_of(an, k, by);
	char name[TS_CAUSE_NAME + SAFE_LEN], safe[SAFE_LEN];
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && used < len; i++) {
		const struct ts_armer *a = &by[i];

		ts_armer_name(an, a, name, sizeof(name));
		used += snprintf(buf + used, len - used, "%s%s (%" PRIu64 ")", i ? ", " : "",
				 ts_text_safe(safe, sizeof(safe), name), a->count);
	}
	if (k->armers_other && used < len)
		snprintf(buf + used, len - used, "%sothers (%" PRIu64 ")", n ? ", " : "",
			 k->armers_other);
	return buf;
}

/* The queuer of a work item: "comm(pid)@cpu", "interrupt@cpu", or "" */
static const char *queuer(const struct ts_analysis *an, const struct ts_cause *k, char *buf,
			  size_t len)
{
	char safe[SAFE_LEN];
	const char *comm;

	if (!k->queued || k->queuer_pid < 0) {
		snprintf(buf, len, "%s", "");
		return buf;
	}
	if (k->queuer_irq) {
		snprintf(buf, len, "interrupt@%d", k->queuer_cpu);
		return buf;
	}
	comm = ts_comm_get(an, k->queuer_pid);
	snprintf(buf, len, "%s(%d)@%d", comm ? ts_text_safe(safe, sizeof(safe), comm) : "?",
		 k->queuer_pid, k->queuer_cpu);
	return buf;
}

static void table_row(FILE *f, const struct ts_analysis *an, int cpu, const struct ts_cause *k,
		      const char *name)
{
	char t[16], q[24], by[4 * (SAFE_LEN + 48)], safe[SAFE_LEN];
	int armed = ts_analysis_armers_known(an) & (1u << k->type);

	if (an->caps.cause_exits & (1u << k->type))
		ts_text_dur(t, sizeof(t), k->time_ns);
	else
		snprintf(t, sizeof(t), "-");
	if (k->type == TS_CAUSE_WORK && an->caps.queue)
		snprintf(q, sizeof(q), "%" PRIu64, k->queued);
	else if (armed)
		snprintf(q, sizeof(q), "%" PRIu64, k->armed);
	else
		snprintf(q, sizeof(q), "-");
	if (armed)
		armers(an, k, by, sizeof(by));
	else
		queuer(an, k, by, sizeof(by));
	fprintf(f, "  %3d %-8s %-30s %8" PRIu64 " %8" PRIu64 " %10s %7s%s%s\n", cpu,
		ts_cause_type_name(k->type), ts_text_safe(safe, sizeof(safe), name), k->count,
		k->stopped, t, q, by[0] ? " " : "", by);
}

/*
 * The parts of known types that are not: the vector kinds the kernel does
 * not have, who armed the timers.
 */
static void unknown_parts(FILE *f, const struct ts_analysis *an)
{
	unsigned int known = ts_analysis_causes_known(an), kinds = ts_analysis_vectors_known(an);
	const char *sep = "";

	if (known & (1u << TS_CAUSE_VECTOR) && kinds != (1u << TS_NR_VECTORS) - 1) {
		fprintf(f, "# unknown: vector kinds ");
		for (int k = 0; k < TS_NR_VECTORS; k++) {
			if (kinds & (1u << k))
				continue;
			fprintf(f, "%s%s", sep, ts_vector_name(k));
			sep = ", ";
		}
		fprintf(f, ": the source has no irq_vectors events of them (this kernel's configuration)\n");
	}
	for (int t = TS_CAUSE_TIMER; t <= TS_CAUSE_HRTIMER; t++)
		if (known & (1u << t) && ts_armers_unknown_why(an, t))
			fprintf(f, "# unknown: who armed the %ss: %s\n", ts_cause_type_name(t),
				ts_armers_unknown_why(an, t));
}

/* "# unknown: work, irq causes: why", one line per reason */
static void unknown_lines(FILE *f, const struct ts_analysis *an)
{
	unsigned int done = ts_analysis_causes_known(an);

	for (int t = 0; t < TS_NR_CAUSE_TYPES; t++) {
		char why[160];

		if (done & (1u << t))
			continue;
		snprintf(why, sizeof(why), "%s", ts_cause_unknown_why(an, t));
		fprintf(f, "# unknown: %s", ts_cause_type_name(t));
		for (int u = t + 1; u < TS_NR_CAUSE_TYPES; u++) {
			const char *w = ts_cause_unknown_why(an, u);

			if (w && !strcmp(w, why)) {
				fprintf(f, ", %s", ts_cause_type_name(u));
				done |= 1u << u;
			}
		}
		fprintf(f, " causes: %s\n", why);
	}
	unknown_parts(f, an);
}

/* ts_table_causes - the table's section: each CPU's causes, most entries first */
void ts_table_causes(FILE *f, const struct ts_analysis *an, int top)
{
	unsigned int known = ts_analysis_causes_known(an);
	int order[TS_MAX_CAUSES];
	char name[NAME_LEN];

	fprintf(f, "#\n# causes: what ran on the CPU besides its tasks (stopped: entries that found the tick stopped)\n");
	unknown_lines(f, an);
	if (!known)
		return;
	fprintf(f, "# %3s %-8s %-30s %8s %8s %10s %7s %s\n", "CPU", "kind", "cause", "count",
		"stopped", "time", "q/armed", "by");
	for (int i = 0; i < an->nr_cpus; i++) {
		const struct ts_cpu *c = an->cpus[i];
		int n, shown = 0;

		if (!c || !c->active)
			continue;
		n = ts_cause_order(c, order);
		for (int k = 0; k < n; k++) {
			const struct ts_cause *e = &c->causes[order[k]];

			if (!(known & (1u << e->type)) || shown++ >= top)
				continue;
			ts_cause_name(an, e, name, sizeof(name));
			table_row(f, an, c->cpu, e, name);
		}
		if (shown > top)
			fprintf(f, "  %3d (%d more not shown: --top)\n", c->cpu, shown - top);
		for (int t = 0; t < TS_NR_CAUSE_TYPES; t++)
			if ((known & (1u << t)) && c->causes_other[t].count)
				table_row(f, an, c->cpu, &c->causes_other[t], "(other)");
	}
}

/*
 * A work item's "queued" and "queued_by": the task that queued it last, or
 * an interrupt (its pid is the task it hit: none is named).
 */
static void json_queuer(FILE *f, const struct ts_analysis *an, const struct ts_cause *k)
{
	const char *comm;

	if (!an->caps.queue) {
		fputs(",\"queued\":null,\"queued_by\":null", f);
		return;
	}
	fprintf(f, ",\"queued\":%" PRIu64 ",\"queued_by\":", k->queued);
	if (!k->queued || k->queuer_pid < 0) {
		fputs("null", f);
		return;
	}
	if (k->queuer_irq) {
		fprintf(f, "{\"context\":\"interrupt\",\"pid\":null,\"comm\":null,\"cpu\":%d}",
			k->queuer_cpu);
		return;
	}
	fprintf(f, "{\"context\":\"task\",\"pid\":%d,\"comm\":", k->queuer_pid);
	comm = ts_comm_get(an, k->queuer_pid);
	if (comm)
		ts_json_string(f, comm);
	else
		fputs("null", f);
	fprintf(f, ",\"cpu\":%d}", k->queuer_cpu);
}

/* "armed", "armed_by" (most armings first) and "armed_by_other"; null when unknown */
static void json_armers(FILE *f, const struct ts_analysis *an, const struct ts_cause *k)
{
	static const char * const ctx[] = { "task", "itself", "cause", "interrupt" };
	struct ts_armer by[TS_MAX_ARMERS];
	int n = ts_armers_of(an, k, by);
	char name[TS_CAUSE_NAME + 160];
	struct ts_cause in;

	if (!(ts_analysis_armers_known(an) & (1u << k->type))) {
		fputs(",\"armed\":null,\"armed_by\":null,\"armed_by_other\":null", f);
		return;
	}
	fprintf(f, ",\"armed\":%" PRIu64 ",\"armed_by\":[", k->armed);
	for (int i = 0; i < n; i++) {
		const struct ts_armer *a = &by[i];

		fprintf(f, "%s{\"context\":\"%s\",\"cpu\":%d,\"count\":%" PRIu64, i ? "," : "",
			ctx[a->ctx], a->cpu, a->count);
		if (a->ctx == TS_ARM_TASK) {
			fprintf(f, ",\"pid\":%d,\"comm\":", a->pid);
			if (a->comm[0])
				ts_json_string(f, a->comm);
			else
				fputs("null", f);
		} else if (a->ctx == TS_ARM_CAUSE) {
			in = (struct ts_cause){ .type = a->ctx_type, .key = a->ctx_key };
			memcpy(in.name, a->ctx_name, sizeof(in.name));
			ts_cause_name(an, &in, name, sizeof(name));
			fprintf(f, ",\"cause\":{\"type\":\"%s\",\"name\":",
				ts_cause_type_name(a->ctx_type));
			ts_json_string(f, name);
			fputc('}', f);
		}
		fputc('}', f);
	}
	fprintf(f, "],\"armed_by_other\":%" PRIu64, k->armers_other);
}

static void json_cause(FILE *f, const struct ts_analysis *an, const struct ts_cause *k,
		       int named)
{
	char name[NAME_LEN];

	fputc('{', f);
	if (named) {
		ts_cause_name(an, k, name, sizeof(name));
		fputs("\"name\":", f);
		ts_json_string(f, name);
		if (k->type == TS_CAUSE_IRQ)
			fprintf(f, ",\"irq\":%" PRIu64 ",", k->key);
		else if (k->type == TS_CAUSE_SOFTIRQ)
			fprintf(f, ",\"vector\":%" PRIu64 ",", k->key);
		else if (k->type == TS_CAUSE_VECTOR)
			fprintf(f, ",\"row\":\"%s\",", ts_vector_row((unsigned int)k->key));
		else
			fprintf(f, ",\"address\":\"0x%" PRIx64 "\",", k->key);
	}
	fprintf(f, "\"count\":%" PRIu64 ",\"while_stopped\":%" PRIu64 ",\"while_running\":%" PRIu64,
		k->count, k->stopped, k->held);
	if (an->caps.cause_exits & (1u << k->type))
		fprintf(f, ",\"time_ns\":%" PRIu64 ",\"timed\":%" PRIu64, k->time_ns, k->timed);
	else
		fputs(",\"time_ns\":null,\"timed\":null", f);
	if (k->type == TS_CAUSE_WORK)
		json_queuer(f, an, k);
	if (k->type == TS_CAUSE_TIMER || k->type == TS_CAUSE_HRTIMER)
		json_armers(f, an, k);
	fputc('}', f);
}

/* The vector kinds the source cannot count: unknown, not zero */
static void json_unknown_kinds(FILE *f, const struct ts_analysis *an)
{
	unsigned int kinds = ts_analysis_vectors_known(an);
	int first = 1;

	fputs(",\"unknown_kinds\":[", f);
	for (int k = 0; k < TS_NR_VECTORS; k++) {
		if (kinds & (1u << k))
			continue;
		fprintf(f, "%s\"%s\"", first ? "" : ",", ts_vector_name(k));
		first = 0;
	}
	fputc(']', f);
}

/*
 * ts_json_causes - a CPU's "causes": per type, its items (most entries
 * first) and "other" (beyond the table), or null when the type is unknown.
 */
void ts_json_causes(FILE *f, const struct ts_analysis *an, const struct ts_cpu *c)
{
	unsigned int known = ts_analysis_causes_known(an);
	int order[TS_MAX_CAUSES], n = ts_cause_order(c, order);

	fputs("\"causes\":{", f);
	for (int t = 0; t < TS_NR_CAUSE_TYPES; t++) {
		int first = 1;

		fprintf(f, "%s\"%s\":", t ? "," : "", ts_cause_type_name(t));
		if (!(known & (1u << t))) {
			fputs("null", f);
			continue;
		}
		fputs("{\"items\":[", f);
		for (int i = 0; i < n; i++) {
			if (c->causes[order[i]].type != t)
				continue;
			if (!first)
				fputc(',', f);
			json_cause(f, an, &c->causes[order[i]], 1);
			first = 0;
		}
		fputs("],\"other\":", f);
		json_cause(f, an, &c->causes_other[t], 0);
		if (t == TS_CAUSE_VECTOR)
			json_unknown_kinds(f, an);
		fputc('}', f);
	}
	fputc('}', f);
}
