// SPDX-License-Identifier: GPL-2.0
/*
 * doctor.c - tickstat doctor: audit this host's CPU isolation (audit.c)
 * and print the findings as a table, JSON (docs/recording-format.md,
 * schema tickstat-doctor/1) or JUnit.
 *
 * Its exit status is for CI and provisioning scripts: 0 nothing at or
 * above --fail-on, 1 findings at that level, 2 could not audit (and bad
 * options).  That is not check's convention (2 failed, 1 error): a
 * provisioning script asks "is this host ready", and a host that is not
 * is the common answer, 1, as test(1) and grep(1) give it.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audit.h"
#include "doctor.h"
#include "outfile.h"
#include "text.h"

enum { DOCTOR_OK = 0, DOCTOR_FINDINGS = 1, DOCTOR_ERROR = 2 };

static const char * const doctor_usage[] = {
	"usage: tickstat doctor [OPTIONS]",
	"",
	"Audits this host's CPU isolation: the kernel config and command line, the",
	"housekeeping CPUs, IRQs, workqueues, kernel threads, RCU offloading, sysctls,",
	"the clock, cpuidle, cgroup quotas (6.6+) and the fair server (6.12+).  Reads",
	"only, as any user; says what it could not read.  Exit 0: no finding at or",
	"above --fail-on; 1: findings at that level; 2: could not audit.",
	"",
	"      --root DIR         read /proc, /sys and /boot under DIR (default /)",
	"      --fail-on LEVEL    error, warning or info (default error)",
	"      --json             the findings as JSON (schema " TS_DOCTOR_SCHEMA ")",
	"      --junit FILE       also write them as JUnit XML, a test case per finding id",
	"  -h, --help             this help",
	NULL,
};

struct doctor_opts {
	const char *root;
	const char *junit;
	int json;
	int fail_on;
};

enum { OPT_ROOT = 256, OPT_FAIL_ON, OPT_JSON, OPT_JUNIT };

static const struct option doctor_options[] = {
	{ "root", required_argument, NULL, OPT_ROOT },
	{ "fail-on", required_argument, NULL, OPT_FAIL_ON },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "junit", required_argument, NULL, OPT_JUNIT },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* a value given twice would silently replace the first: refused */
static int once(const char **seen, const char *name, const char *arg)
{
	if (*seen) {
		err_msg("%s: given twice ('%s', then '%s'); give it once\n", name, *seen,
			arg ? arg : "");
		return -1;
	}
	*seen = arg ? arg : "";
	return 0;
}

/* Returns 0, -1 on a usage error (said), -2 after --help. */
static int parse(int argc, char **argv, struct doctor_opts *o)
{
	const char *seen[4] = { 0 };
	int c;

	memset(o, 0, sizeof(*o));
	o->root = "/";
	o->fail_on = TS_SEV_ERROR;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", doctor_options, NULL)) != -1) {
		switch (c) {
		case 'h':
			for (const char * const *t = doctor_usage; *t; t++)
				printf("%s\n", *t);
			return -2;
		case OPT_ROOT:
			if (once(&seen[0], "--root", optarg))
				return -1;
			if (!*optarg) {
				err_msg("--root: an empty path; give a directory\n");
				return -1;
			}
			o->root = optarg;
			break;
		case OPT_FAIL_ON:
			if (once(&seen[1], "--fail-on", optarg))
				return -1;
			o->fail_on = ts_severity_parse(optarg);
			if (o->fail_on < 0) {
				err_msg("--fail-on: '%s' is not error, warning or info\n", optarg);
				return -1;
			}
			break;
		case OPT_JSON:
			o->json = 1;
			break;
		case OPT_JUNIT:
			if (once(&seen[3], "--junit", optarg))
				return -1;
			o->junit = optarg;
			break;
		default:
			if (optopt >= OPT_ROOT)
				err_msg("--%s needs a value\n", doctor_options[optopt - OPT_ROOT].name);
			else
				err_msg("unknown option '%s'; try 'tickstat doctor --help'\n",
					argv[optind - 1]);
			return -1;
		}
	}
	if (optind < argc) {
		err_msg("doctor audits this host (or --root DIR); it takes no operand ('%s')\n",
			argv[optind]);
		return -1;
	}
	if (o->junit && !strcmp(o->junit, "-")) {
		err_msg("--junit -: standard output carries the findings; give a file\n");
		return -1;
	}
	return 0;
}

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

static int *ordered(const struct ts_audit *a)
{
	int *idx = malloc((a->nr ? a->nr : 1) * sizeof(*idx));

	if (!idx)
		return NULL;
	for (int i = 0; i < a->nr; i++)
		idx[i] = i;
	sort_audit = a;
	qsort(idx, a->nr, sizeof(*idx), cmp_finding);
	return idx;
}

static void count(const struct ts_audit *a, int *by_sev)
{
	by_sev[0] = by_sev[1] = by_sev[2] = 0;
	for (int i = 0; i < a->nr; i++)
		by_sev[a->f[i].kind->severity]++;
}

static int failing(const int *by_sev, int fail_on)
{
	int n = 0;

	for (int s = fail_on; s <= TS_SEV_ERROR; s++)
		n += by_sev[s];
	return n;
}

/* what the table writes of text read from the system: one safe line */
static const char *safe(char *buf, size_t len, const char *s)
{
	return ts_text_safe(buf, len, s);
}

static void print_table(FILE *out, const struct ts_audit *a, const int *idx, int fail_on)
{
	char b1[512], b2[512], b3[512];
	int by[3];

	ts_cpuset_format(&a->nohz_full, b1, sizeof(b1));
	ts_cpuset_format(&a->isolated, b2, sizeof(b2));
	ts_cpuset_format(&a->housekeeping, b3, sizeof(b3));
	fprintf(out, "# tickstat doctor: kernel %s, root %s\n", a->release[0] ? a->release : "unknown",
		a->root[0] ? a->root : "/");
	fprintf(out, "# nohz_full %s, isolcpus %s, housekeeping %s\n", b1[0] ? b1 : "-",
		b2[0] ? b2 : "-", b3[0] ? b3 : "-");
	fprintf(out, "# %-8s %-29s %-6s %s\n", "SEVERITY", "ID", "CPUS", "FINDING");
	for (int i = 0; i < a->nr; i++) {
		const struct ts_finding *f = &a->f[idx[i]];

		fprintf(out, "  %-8s %-29s %-6s %s\n", ts_severity_name(f->kind->severity),
			f->kind->id, ts_cpus_text(&f->cpus, b1, sizeof(b1)),
			safe(b2, sizeof(b2), f->message));
		for (int e = 0; e < f->nr_ev; e++)
			fprintf(out, "%11s%-10s%s: %s\n", "", "evidence:", safe(b1, sizeof(b1), f->ev[e].file),
				safe(b2, sizeof(b2), f->ev[e].value));
		fprintf(out, "%11s%-10s%s\n", "", "remedy:", safe(b1, sizeof(b1), f->remedy));
		fprintf(out, "%11s%-10sdocs/cookbook.md#%s (kernels: %s)\n", "", "see:", f->kind->id,
			f->kind->kernels);
	}
	for (int i = 0; i < a->nr_notes; i++)
		fprintf(out, "# skipped: %s: %s\n", a->notes[i].kind->id,
			safe(b1, sizeof(b1), a->notes[i].text));
	for (int i = 0; i < a->nr_unread; i++)
		fprintf(out, "# could not read: %s (%s)\n", safe(b1, sizeof(b1), a->unread[i].file),
			a->unread[i].error);
	if (a->unread_more)
		fprintf(out, "# could not read: %d more files\n", a->unread_more);
	count(a, by);
	fprintf(out, "# verdict: %s: %d finding%s at or above %s (%d error%s, %d warning%s, %d info)\n",
		failing(by, fail_on) ? "FAIL" : "PASS", failing(by, fail_on),
		failing(by, fail_on) == 1 ? "" : "s", ts_severity_name(fail_on),
		by[2], by[2] == 1 ? "" : "s", by[1], by[1] == 1 ? "" : "s", by[0]);
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
	if (val[0]) {
		json_kv(out, key, val, sep);
		return;
	}
	fprintf(out, "\"%s\": null%s", key, sep);
}

static void json_cpus(FILE *out, const char *key, const struct ts_cpuset *set, const char *sep)
{
	char buf[512];

	ts_cpuset_format(set, buf, sizeof(buf));
	json_kv(out, key, buf, sep);
}

static void json_finding(FILE *out, const struct ts_finding *f)
{
	fputs("    { ", out);
	json_kv(out, "id", f->kind->id, ", ");
	json_kv(out, "class", f->kind->class, ", ");
	json_kv(out, "severity", ts_severity_name(f->kind->severity), ",\n      ");
	json_cpus(out, "cpus", &f->cpus, ", ");
	json_kv(out, "message", f->message, ",\n      ");
	fputs("\"evidence\": [", out);
	for (int e = 0; e < f->nr_ev; e++) {
		fputs(e ? ", { " : " { ", out);
		json_kv(out, "file", f->ev[e].file, ", ");
		json_kv(out, "value", f->ev[e].value, " }");
	}
	fputs(" ],\n      ", out);
	json_kv(out, "remedy", f->remedy, ",\n      ");
	json_kv(out, "kernels", f->kind->kernels, ", ");
	fprintf(out, "\"cookbook\": \"docs/cookbook.md#%s\",\n      ", f->kind->id);
	fputs("\"key\": { \"irq\": ", out);
	if (f->key.irq >= 0)
		fprintf(out, "%d", f->key.irq);
	else
		fputs("null", out);
	fputs(", \"pid\": ", out);
	if (f->key.pid >= 0)
		fprintf(out, "%d", f->key.pid);
	else
		fputs("null", out);
	fputs(", ", out);
	json_kv_null(out, "name", f->key.name, ", ");
	json_kv_null(out, "cgroup", f->key.cgroup, " },\n      ");
	fputs("\"seen\": ", out);
	if (f->seen >= 0)
		fprintf(out, "%lld", (long long)f->seen);
	else
		fputs("null", out);
	fputs(" }", out);
}

static void print_json(FILE *out, const struct ts_audit *a, const int *idx, int fail_on)
{
	int by[3];

	count(a, by);
	fputs("{\n  ", out);
	json_kv(out, "schema", TS_DOCTOR_SCHEMA, ",\n  ");
	json_kv(out, "root", a->root[0] ? a->root : "/", ", ");
	json_kv_null(out, "kernel", a->release, ",\n  ");
	json_kv(out, "cmdline", a->cmdline, ",\n  ");
	fputs("\"cpus\": { ", out);
	json_cpus(out, "online", &a->online, ", ");
	json_cpus(out, "nohz_full", &a->nohz_full, ", ");
	json_cpus(out, "isolated", &a->isolated, ", ");
	json_cpus(out, "housekeeping", &a->housekeeping, " },\n  ");
	json_kv(out, "fail_on", ts_severity_name(fail_on), ", ");
	json_kv(out, "verdict", failing(by, fail_on) ? "FAIL" : "PASS", ",\n  ");
	fprintf(out, "\"counts\": { \"error\": %d, \"warning\": %d, \"info\": %d },\n",
		by[2], by[1], by[0]);
	fputs("  \"findings\": [", out);
	for (int i = 0; i < a->nr; i++) {
		fputs(i ? ",\n" : "\n", out);
		json_finding(out, &a->f[idx[i]]);
	}
	fputs(a->nr ? "\n  ],\n" : "],\n", out);
	fputs("  \"skipped\": [", out);
	for (int i = 0; i < a->nr_notes; i++) {
		fputs(i ? ",\n    { " : "\n    { ", out);
		json_kv(out, "id", a->notes[i].kind->id, ", ");
		json_kv(out, "kernels", a->notes[i].kind->kernels, ", ");
		json_kv(out, "reason", a->notes[i].text, " }");
	}
	fputs(a->nr_notes ? "\n  ],\n" : "],\n", out);
	fputs("  \"unread\": [", out);
	for (int i = 0; i < a->nr_unread; i++) {
		fputs(i ? ",\n    { " : "\n    { ", out);
		json_kv(out, "file", a->unread[i].file, ", ");
		json_kv(out, "error", a->unread[i].error, " }");
	}
	fputs(a->nr_unread ? "\n  ],\n" : "],\n", out);
	fprintf(out, "  \"unread_more\": %d\n}\n", a->unread_more);
}

static const char *note_of(const struct ts_audit *a, const struct ts_finding_kind *k)
{
	for (int i = 0; i < a->nr_notes; i++)
		if (a->notes[i].kind == k)
			return a->notes[i].text;
	return NULL;
}

static int findings_of(const struct ts_audit *a, const struct ts_finding_kind *k)
{
	int n = 0;

	for (int i = 0; i < a->nr; i++)
		n += a->f[i].kind == k;
	return n;
}

/*
 * JUnit: a test case per finding id, so that a CI history follows each
 * one: failed by its findings at or above --fail-on, skipped where it does
 * not apply to the kernel, passed otherwise (lower findings as its output).
 */
static void print_junit(FILE *out, const struct ts_audit *a, const int *idx, int fail_on)
{
	const struct ts_finding_kind *kinds;
	int nk = ts_finding_kinds(&kinds), failed = 0, skipped = 0;
	char buf[512];

	for (int k = 0; k < nk; k++) {
		skipped += note_of(a, &kinds[k]) != NULL;
		failed += (int)kinds[k].severity >= fail_on && !note_of(a, &kinds[k]) &&
			  findings_of(a, &kinds[k]);
	}
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(out, "<testsuite name=\"tickstat-doctor\" tests=\"%d\" failures=\"%d\" skipped=\"%d\">\n",
		nk, failed, skipped);
	for (int k = 0; k < nk; k++) {
		const char *note = note_of(a, &kinds[k]);
		int fails = (int)kinds[k].severity >= fail_on, any = 0;

		fprintf(out, "  <testcase classname=\"tickstat.doctor.%s\" name=\"%s\">",
			kinds[k].class, kinds[k].id);
		if (note) {
			fputs("<skipped message=\"", out);
			ts_xml_text(out, safe(buf, sizeof(buf), note));
			fputs("\"/></testcase>\n", out);
			continue;
		}
		for (int i = 0; i < a->nr; i++) {
			const struct ts_finding *f = &a->f[idx[i]];
			char cpus[256];

			if (f->kind != &kinds[k])
				continue;
			if (!any++)
				fputs(fails ? "<failure message=\"" : "<system-out>", out);
			else
				fputs("; ", out);
			fprintf(out, "%s [CPUs %s] ", ts_severity_name(f->kind->severity),
				ts_cpus_text(&f->cpus, cpus, sizeof(cpus)));
			ts_xml_text(out, safe(buf, sizeof(buf), f->message));
		}
		if (any)
			fputs(fails ? "\"/>" : "</system-out>", out);
		fputs("</testcase>\n", out);
	}
	fputs("</testsuite>\n", out);
}

/* ts_doctor - tickstat doctor ARGS; argv[0] is "doctor" */
int ts_doctor(int argc, char **argv)
{
	struct ts_outfile junit = { 0 };
	struct doctor_opts o;
	struct ts_audit a;
	int ret = DOCTOR_ERROR, r, by[3], *idx = NULL;

	r = parse(argc, argv, &o);
	if (r)
		return r == -2 ? DOCTOR_OK : DOCTOR_ERROR;
	if (o.junit && (ts_outfile_check(&junit, "--junit", o.junit, TS_OUT_ALLOW_FIFO) ||
			ts_outfile_open(&junit)))
		goto out_junit;
	if (ts_audit_run(&a, o.root))
		goto out;
	idx = ordered(&a);
	if (!idx) {
		err_msg("doctor: out of memory\n");
		goto out;
	}
	if (junit.f)
		print_junit(junit.f, &a, idx, o.fail_on);
	if (ts_outfile_ready(&junit))
		goto out;
	if (o.json)
		print_json(stdout, &a, idx, o.fail_on);
	else
		print_table(stdout, &a, idx, o.fail_on);
	if (ts_stdout_flush() || ts_outfile_commit(&junit))
		goto out;
	count(&a, by);
	ret = failing(by, o.fail_on) ? DOCTOR_FINDINGS : DOCTOR_OK;
out:
	free(idx);
	ts_audit_free(&a);
out_junit:
	ts_outfile_abort(&junit);
	return ret;
}

/* ts_doctor_error - the exit status of a doctor that could not say */
int ts_doctor_error(void)
{
	return DOCTOR_ERROR;
}
