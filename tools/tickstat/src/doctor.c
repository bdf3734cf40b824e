// SPDX-License-Identifier: GPL-2.0
/*
 * doctor.c - tickstat doctor: audit this host's CPU isolation (audit.c),
 * or print the audit a recording stored as it started, each finding joined
 * with what the recording saw (docrec.c); as a table, JSON
 * (docs/recording-format.md, schema tickstat-doctor/1) or JUnit.
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

#include "analysis.h"
#include "audit.h"
#include "docrec.h"
#include "doctor.h"
#include "outfile.h"
#include "text.h"
#include "tracedat.h"

enum { DOCTOR_OK = 0, DOCTOR_FINDINGS = 1, DOCTOR_ERROR = 2 };

static const char * const doctor_usage[] = {
	"usage: tickstat doctor [OPTIONS] [FILE]",
	"",
	"Audits this host's CPU isolation: the kernel config and command line, the",
	"housekeeping CPUs, IRQs, workqueues, kernel threads, RCU offloading, sysctls,",
	"the clock, cpuidle, cgroup quotas (6.6+) and the fair server (6.12+).  Reads",
	"only, as any user; says what it could not read.  Exit 0: no finding at or",
	"above --fail-on; 1: findings at that level; 2: could not audit.",
	"With FILE, a recording of tickstat record: the audit it stored when it started,",
	"each finding with what the recording saw of it (seen).",
	"",
	"      --root DIR         read /proc, /sys and /boot under DIR (default /)",
	"      --fail-on LEVEL    error, warning or info (default error)",
	"      --json             the findings as JSON (schema " TS_DOCTOR_SCHEMA ")",
	"      --pretty           indent the JSON, a member a line (default: one line)",
	"      --junit FILE       also write them as JUnit XML, a test case per finding id",
	"  -h, --help             this help",
	NULL,
};

struct doctor_opts {
	const char *root;
	const char *file;		/* a recording's stored audit, not the host's */
	const char *junit;
	int json;
	int pretty;
	int fail_on;
};

enum { OPT_ROOT = 256, OPT_FAIL_ON, OPT_JSON, OPT_JUNIT, OPT_PRETTY };

static const struct option doctor_options[] = {
	{ "root", required_argument, NULL, OPT_ROOT },
	{ "fail-on", required_argument, NULL, OPT_FAIL_ON },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "junit", required_argument, NULL, OPT_JUNIT },
	{ "pretty", no_argument, NULL, OPT_PRETTY },
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
		case OPT_PRETTY:
			o->pretty = 1;
			break;
		case OPT_JUNIT:
			if (once(&seen[3], "--junit", optarg))
				return -1;
			o->junit = optarg;
			break;
		default:
			if (optopt >= OPT_ROOT && !doctor_options[optopt - OPT_ROOT].has_arg &&
			    ts_opt_given_value(argv[optind - 1]))
				err_msg("--%s takes no value\n",
					doctor_options[optopt - OPT_ROOT].name);
			else if (optopt >= OPT_ROOT)
				err_msg("--%s needs a value\n", doctor_options[optopt - OPT_ROOT].name);
			else
				err_msg("unknown option '%s'; try 'tickstat doctor --help'\n",
					argv[optind - 1]);
			return -1;
		}
	}
	if (o->pretty && !o->json) {
		err_msg("--pretty indents JSON: give --json too\n");
		return -1;
	}
	if (optind + 1 < argc) {
		err_msg("doctor takes one recording at most ('%s', then '%s')\n", argv[optind],
			argv[optind + 1]);
		return -1;
	}
	if (optind < argc) {
		o->file = argv[optind];
		if (seen[0]) {
			err_msg("--root and %s: a recording holds the audit of the host it was made on; give one\n",
				o->file);
			return -1;
		}
	}
	if (o->junit && !strcmp(o->junit, "-")) {
		err_msg("--junit -: standard output carries the findings; give a file\n");
		return -1;
	}
	return 0;
}

/* what the table writes of text read from the system: one safe line */
static const char *safe(char *buf, size_t len, const char *s)
{
	return ts_text_safe(buf, len, s);
}

/* what a recording saw of a finding, once joined */
static void print_seen(FILE *out, const struct ts_finding *f)
{
	char b[512];

	if (!f->seen_how[0])
		return;
	if (f->seen >= 0)
		fprintf(out, "%11s%-10s%lld %s: %s\n", "", "seen:", (long long)f->seen, f->seen_unit,
			safe(b, sizeof(b), f->seen_how));
	else
		fprintf(out, "%11s%-10snot observable: %s\n", "", "seen:", safe(b, sizeof(b), f->seen_how));
}

static void print_table(FILE *out, const struct ts_audit *a, const int *idx, int fail_on,
			const char *file)
{
	char b1[512], b2[512], b3[512], bf[512];
	int by[3];

	ts_cpuset_format(&a->nohz_full, b1, sizeof(b1));
	ts_cpuset_format(&a->isolated, b2, sizeof(b2));
	ts_cpuset_format(&a->housekeeping, b3, sizeof(b3));
	if (file)
		fprintf(out, "# tickstat doctor: kernel %s, recording %s (audited as it started)\n",
			a->release[0] ? a->release : "unknown", safe(bf, sizeof(bf), file));
	else
		fprintf(out, "# tickstat doctor: kernel %s, root %s\n",
			a->release[0] ? a->release : "unknown", a->root[0] ? a->root : "/");
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
		print_seen(out, f);
	}
	for (int i = 0; i < a->nr_notes; i++)
		fprintf(out, "# skipped: %s: %s\n", a->notes[i].kind->id,
			safe(b1, sizeof(b1), a->notes[i].text));
	for (int i = 0; i < a->nr_unread; i++)
		fprintf(out, "# could not read: %s (%s)\n", safe(b1, sizeof(b1), a->unread[i].file),
			a->unread[i].error);
	if (a->unread_more)
		fprintf(out, "# could not read: %d more files\n", a->unread_more);
	ts_audit_count(a, by);
	fprintf(out, "# verdict: %s: %d finding%s at or above %s (%d error%s, %d warning%s, %d info)\n",
		ts_audit_failing(by, fail_on) ? "FAIL" : "PASS", ts_audit_failing(by, fail_on),
		ts_audit_failing(by, fail_on) == 1 ? "" : "s", ts_severity_name(fail_on),
		by[2], by[2] == 1 ? "" : "s", by[1], by[1] == 1 ? "" : "s", by[0]);
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

/*
 * The audit a recording stored, joined with what it saw.  Returns 0, or -1
 * after saying why: not a file, not readable, no audit in it.
 */
static int from_recording(const char *path, const struct ts_outfile *junit, struct ts_audit *a)
{
	struct ts_analysis an;
	char err[512];
	struct stat st;
	int ret = -1;

	if (ts_input_check(path, &st))
		return -1;
	if (junit->f && ts_outfile_is(junit, &st)) {
		err_msg("--junit: that is the recording %s; an output never replaces what is read\n",
			path);
		return -1;
	}
	ts_analysis_init(&an);
	if (ts_read_file(path, &an, err, sizeof(err))) {
		err_msg("%s\n", err);
		goto out;
	}
	ts_analysis_report_covered(&an);
	if (!ts_doctor_stored(&an)) {
		err_msg("doctor: %s holds no audit (a trace-cmd file, a recording of a tickstat before doctor or made with --no-doctor); run tickstat doctor on the host instead\n",
			path);
		goto out;
	}
	if (ts_doctor_joined(&an, a)) {
		err_msg("doctor: out of memory\n");
		goto out;
	}
	ret = 0;
out:
	ts_analysis_free(&an);
	return ret;
}

/* --json, and with --pretty indented (the compact text made in memory first) */
static void print_json(const struct ts_audit *a, const int *idx, int fail_on, int pretty)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = pretty ? open_memstream(&buf, &len) : NULL;

	if (!m) {
		/* not asked, or no memory for it: compact JSON is still the audit */
		ts_audit_json(stdout, a, idx, fail_on, "");
		fputc('\n', stdout);
		return;
	}
	ts_audit_json(m, a, idx, fail_on, "");
	if (fclose(m)) {
		ts_audit_json(stdout, a, idx, fail_on, "");
		fputc('\n', stdout);
	} else {
		ts_json_pretty(stdout, buf, len);
	}
	free(buf);
}

/* ts_doctor - tickstat doctor ARGS; argv[0] is "doctor" */
int ts_doctor(int argc, char **argv)
{
	struct ts_outfile junit = { 0 };
	struct doctor_opts o;
	struct ts_audit a;
	int ret = DOCTOR_ERROR, r, by[3], *idx = NULL;

	memset(&a, 0, sizeof(a));
	r = parse(argc, argv, &o);
	if (r)
		return r == -2 ? DOCTOR_OK : DOCTOR_ERROR;
	if (o.junit && (ts_outfile_check(&junit, "--junit", o.junit, TS_OUT_ALLOW_FIFO) ||
			ts_outfile_open(&junit)))
		goto out_junit;
	if (o.file ? from_recording(o.file, &junit, &a) : ts_audit_run(&a, o.root))
		goto out;
	idx = ts_audit_order(&a);
	if (!idx) {
		err_msg("doctor: out of memory\n");
		goto out;
	}
	if (junit.f)
		print_junit(junit.f, &a, idx, o.fail_on);
	if (ts_outfile_ready(&junit))
		goto out;
	if (o.json) {
		print_json(&a, idx, o.fail_on, o.pretty);
	} else {
		print_table(stdout, &a, idx, o.fail_on, o.file);
	}
	if (ts_stdout_flush() || ts_outfile_commit(&junit))
		goto out;
	ts_audit_count(&a, by);
	ret = ts_audit_failing(by, o.fail_on) ? DOCTOR_FINDINGS : DOCTOR_OK;
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
