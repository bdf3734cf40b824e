// SPDX-License-Identifier: GPL-2.0
/*
 * docout.c - an audit's findings in the outputs: their order, the JSON of
 * schema tickstat-doctor/1 (tickstat doctor --json, and the "doctor" of a
 * report), and the report's "# doctor" section.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "docrec.h"
#include "text.h"

/* the findings in output order: severity, then the kind table, then as found */
static const struct ts_audit *sort_audit;

static int kind_index(const struct ts_finding_kind *k)
{
	const struct ts_finding_kind *all;

	ts_finding_kinds(&all);
	return (int)(k - all);
}

static int cmp_finding(const void *x, const void *y)
{
	const struct ts_finding *a = &sort_audit->f[*(const int *)x];
	const struct ts_finding *b = &sort_audit->f[*(const int *)y];

	if (a->kind->severity != b->kind->severity)
		return b->kind->severity - a->kind->severity;
	if (a->kind != b->kind)
		return kind_index(a->kind) - kind_index(b->kind);
	return *(const int *)x - *(const int *)y;
}

/* ts_audit_order - the findings' indexes in output order (malloc'd; NULL: out of memory) */
int *ts_audit_order(const struct ts_audit *a)
{
	int *idx = malloc((a->nr ? a->nr : 1) * sizeof(*idx));

	if (!idx)
		return NULL;
	for (int i = 0; i < a->nr; i++)
		idx[i] = i;
	sort_audit = a;
	if (a->nr)
		qsort(idx, a->nr, sizeof(*idx), cmp_finding);
	return idx;
}

/* ts_audit_count - the findings per severity */
void ts_audit_count(const struct ts_audit *a, int *by_sev)
{
	by_sev[0] = by_sev[1] = by_sev[2] = 0;
	for (int i = 0; i < a->nr; i++)
		by_sev[a->f[i].kind->severity]++;
}

/* ts_audit_failing - the findings at or above fail_on */
int ts_audit_failing(const int *by_sev, int fail_on)
{
	int n = 0;

	for (int s = fail_on; s <= TS_SEV_ERROR; s++)
		n += by_sev[s];
	return n;
}

static void json_kv(FILE *out, const char *key, const char *val, const char *sep)
{
	fprintf(out, "\"%s\": ", key);
	ts_json_string(out, val);
	fputs(sep, out);
}

/* a string that may be absent: null, not "" (null means not known or not given) */
static void json_kv_null(FILE *out, const char *key, const char *val, const char *sep)
{
	if (val && val[0]) {
		json_kv(out, key, val, sep);
		return;
	}
	fprintf(out, "\"%s\": null%s", key, sep);
}

static void json_cpus(FILE *out, const char *key, const struct ts_cpuset *set, const char *sep)
{
	char buf[TS_CPUSET_TEXT_MAX];

	ts_cpuset_format(set, buf, sizeof(buf));
	json_kv(out, key, buf, sep);
}

static void json_int_null(FILE *out, const char *key, long long v, const char *sep)
{
	if (v >= 0)
		fprintf(out, "\"%s\": %lld%s", key, v, sep);
	else
		fprintf(out, "\"%s\": null%s", key, sep);
}

static void json_finding(FILE *out, const struct ts_finding *f, const char *in)
{
	fprintf(out, "%s    { ", in);
	json_kv(out, "id", f->kind->id, ", ");
	json_kv(out, "class", f->kind->class, ", ");
	json_kv(out, "severity", ts_severity_name(f->kind->severity), ",\n");
	fprintf(out, "%s      ", in);
	json_cpus(out, "cpus", &f->cpus, ", ");
	json_kv(out, "message", f->message, ",\n");
	fprintf(out, "%s      \"evidence\": [", in);
	for (int e = 0; e < f->nr_ev; e++) {
		fputs(e ? ", { " : " { ", out);
		json_kv(out, "file", f->ev[e].file, ", ");
		json_kv(out, "value", f->ev[e].value, " }");
	}
	fprintf(out, " ],\n%s      ", in);
	json_kv(out, "remedy", f->remedy, ",\n");
	fprintf(out, "%s      ", in);
	json_kv(out, "kernels", f->kind->kernels, ", ");
	fprintf(out, "\"cookbook\": \"docs/cookbook.md#%s\",\n%s      ", f->kind->id, in);
	fputs("\"key\": { ", out);
	json_int_null(out, "irq", f->key.irq, ", ");
	json_int_null(out, "pid", f->key.pid, ", ");
	json_kv_null(out, "name", f->key.name, ", ");
	json_kv_null(out, "cgroup", f->key.cgroup, " },\n");
	fprintf(out, "%s      ", in);
	json_int_null(out, "seen", f->seen, ", ");
	json_kv_null(out, "seen_unit", f->seen >= 0 ? f->seen_unit : NULL, ", ");
	json_kv_null(out, "seen_how", f->seen_how, " }");
}

/*
 * ts_audit_json - an audit as a JSON object (schema tickstat-doctor/1), its
 * lines after the first indented by indent (the report nests it).
 */
void ts_audit_json(FILE *out, const struct ts_audit *a, const int *idx, int fail_on,
		   const char *in)
{
	int by[3];

	ts_audit_count(a, by);
	fprintf(out, "{\n%s  ", in);
	json_kv(out, "schema", TS_DOCTOR_SCHEMA, ",\n");
	fprintf(out, "%s  ", in);
	json_kv(out, "root", a->root && a->root[0] ? a->root : "/", ", ");
	json_kv_null(out, "kernel", a->release, ",\n");
	fprintf(out, "%s  ", in);
	json_kv(out, "cmdline", a->cmdline, ",\n");
	fprintf(out, "%s  \"cpus\": { ", in);
	json_cpus(out, "online", &a->online, ", ");
	json_cpus(out, "nohz_full", &a->nohz_full, ", ");
	json_cpus(out, "isolated", &a->isolated, ", ");
	json_cpus(out, "housekeeping", &a->housekeeping, " },\n");
	fprintf(out, "%s  ", in);
	json_kv(out, "fail_on", ts_severity_name(fail_on), ", ");
	json_kv(out, "verdict", ts_audit_failing(by, fail_on) ? "FAIL" : "PASS", ",\n");
	fprintf(out, "%s  \"counts\": { \"error\": %d, \"warning\": %d, \"info\": %d },\n", in,
		by[2], by[1], by[0]);
	fprintf(out, "%s  \"findings\": [", in);
	for (int i = 0; i < a->nr; i++) {
		fputs(i ? ",\n" : "\n", out);
		json_finding(out, &a->f[idx[i]], in);
	}
	fprintf(out, a->nr ? "\n%s  ],\n" : "],\n", in);
	fprintf(out, "%s  \"skipped\": [", in);
	for (int i = 0; i < a->nr_notes; i++) {
		fprintf(out, i ? ",\n%s    { " : "\n%s    { ", in);
		json_kv(out, "id", a->notes[i].kind->id, ", ");
		json_kv(out, "kernels", a->notes[i].kind->kernels, ", ");
		json_kv(out, "reason", a->notes[i].text, " }");
	}
	fprintf(out, a->nr_notes ? "\n%s  ],\n" : "],\n", in);
	fprintf(out, "%s  \"unread\": [", in);
	for (int i = 0; i < a->nr_unread; i++) {
		fprintf(out, i ? ",\n%s    { " : "\n%s    { ", in);
		json_kv(out, "file", a->unread[i].file, ", ");
		json_kv(out, "error", a->unread[i].error, " }");
	}
	fprintf(out, a->nr_unread ? "\n%s  ],\n" : "],\n", in);
	fprintf(out, "%s  \"unread_more\": %d\n%s}", in, a->unread_more, in);
}

/* the report's line of what a recording saw of a finding */
static void table_seen(FILE *f, const struct ts_finding *k)
{
	char b[512];

	if (k->seen >= 0)
		fprintf(f, "%11s%-10s%lld %s: %s\n", "", "seen:", (long long)k->seen, k->seen_unit,
			ts_text_safe(b, sizeof(b), k->seen_how));
	else
		fprintf(f, "%11s%-10snot observable: %s\n", "", "seen:",
			ts_text_safe(b, sizeof(b), k->seen_how));
}

/*
 * ts_doctor_table - the report's "# doctor" section: the audit the
 * recording stored, each finding with what the recording saw of it.  A
 * source without one has no section (an older recording reads as before).
 */
void ts_doctor_table(FILE *f, const struct ts_analysis *an)
{
	const struct ts_doctor_rec *r = ts_doctor_stored(an);
	char b1[512], b2[512];
	struct ts_audit a;
	int by[3], *idx, unknown;

	if (!r)
		return;
	idx = ts_doctor_joined(an, &a) ? NULL : ts_audit_order(&a);
	if (!idx) {
		fprintf(f, "\n# doctor: out of memory\n");
		ts_audit_free(&a);
		return;
	}
	ts_audit_count(&a, by);
	fprintf(f, "\n# doctor: the host's audit as the recording started (kernel %s): %d error%s, %d warning%s, %d info; tickstat doctor FILE has the evidence and remedies\n",
		a.release[0] ? ts_text_safe(b1, sizeof(b1), a.release) : "unknown",
		by[2], by[2] == 1 ? "" : "s", by[1], by[1] == 1 ? "" : "s", by[0]);
	fprintf(f, "# %-8s %-29s %-6s %s\n", "SEVERITY", "ID", "CPUS", "FINDING");
	for (int i = 0; i < a.nr; i++) {
		const struct ts_finding *k = &a.f[idx[i]];

		fprintf(f, "  %-8s %-29s %-6s %s\n", ts_severity_name(k->kind->severity), k->kind->id,
			ts_cpus_text(&k->cpus, b1, sizeof(b1)),
			ts_text_safe(b2, sizeof(b2), k->message));
		table_seen(f, k);
	}
	if (r->dropped)
		fprintf(f, "# doctor: %d more finding%s not stored (the recording's bound on the audit)\n",
			r->dropped, r->dropped == 1 ? "" : "s");
	unknown = ts_doctor_unknown(an);
	if (unknown)
		fprintf(f, "# doctor: %d finding%s of kinds this tickstat does not know\n", unknown,
			unknown == 1 ? "" : "s");
	free(idx);
	ts_audit_free(&a);
}

/*
 * ts_doctor_json - the report's "doctor" value: null without a stored
 * audit, else the audit (schema tickstat-doctor/1) with seen joined.
 */
void ts_doctor_json(FILE *f, const struct ts_analysis *an)
{
	const struct ts_doctor_rec *r = ts_doctor_stored(an);
	struct ts_audit a;
	int *idx;

	if (!r) {
		fputs("null", f);
		return;
	}
	idx = ts_doctor_joined(an, &a) ? NULL : ts_audit_order(&a);
	if (!idx) {
		/* the JSON stays valid; the table says it */
		fputs("null", f);
		ts_audit_free(&a);
		return;
	}
	ts_audit_json(f, &a, idx, TS_SEV_ERROR, "  ");
	free(idx);
	ts_audit_free(&a);
}
