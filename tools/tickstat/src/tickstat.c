// SPDX-License-Identifier: GPL-2.0
/*
 * tickstat.c - why does the tick keep running?  The command dispatcher.
 *
 *   tickstat record [-C CPUS] [-d SECONDS] [-o FILE] [-- COMMAND ...]
 *   tickstat report FILE
 *   tickstat check [FILE | record options] THRESHOLDS
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "check.h"
#include "live.h"
#include "output.h"
#include "stream.h"
#include "tracedat.h"
#include "util.h"

enum ts_format { FMT_TABLE, FMT_JSON, FMT_PROMETHEUS };

struct cmd_opts {
	enum ts_format format;
	const char *csv;
	const char *junit;
	const char *nohz_full;
	uint64_t range[2];
	struct ts_cpuset cpus;
	int have_cpus;
	int argc_end;			/* operands end here ("--" or argc) */
	struct ts_output_opts out;
	struct ts_record_opts rec;
	struct ts_check_opts check;
};

static const char * const main_usage[] = {
	"usage: tickstat [-h | --version] COMMAND [ARGS]",
	"",
	"Why does the scheduler tick keep running on a CPU, and for how long does it stop?",
	"",
	"commands:",
	"  record   record the tick events of this machine, then report them",
	"  report   report a tickstat recording or a trace-cmd trace.dat",
	"  check    a CI verdict: thresholds per CPU, exit 0 pass, 2 fail, 1 error",
	"",
	"'tickstat COMMAND --help' tells more; so does tickstat(1).",
	NULL,
};

static const char * const record_usage[] = {
	"usage: tickstat record [OPTIONS] [-- COMMAND [ARGS]]",
	"",
	"Records in a private tracing instance until the duration ends, the command exits,",
	"or Ctrl-C, then prints the report.  Needs root.",
	"",
	"  -C, --cpus LIST        CPUs to report (default: nohz_full, else all)",
	"  -d, --duration SECS    stop after this many seconds",
	"  -o, --output FILE      also write a recording that 'tickstat report' reads anywhere",
	"  -b, --buffer-kb KB     ring buffer per CPU (default 4096)",
	NULL,
};

static const char * const report_usage[] = {
	"usage: tickstat report [OPTIONS] FILE",
	"",
	"Reports a tickstat recording, or a trace.dat of trace-cmd (record it with",
	"-e timer:tick_stop, and timer:tick_* sched:sched_switch timer:hrtimer_expire_entry",
	"for a fuller answer).",
	"",
	"  -C, --cpus LIST        CPUs to report (default: those recorded as monitored)",
	"      --nohz-full LIST   which CPUs were nohz_full (trace.dat does not say)",
	"      --time-range A,B   report only trace-clock times A <= t < B (ns)",
	NULL,
};

static const char * const check_usage[] = {
	"usage: tickstat check [FILE | RECORD-OPTIONS [-- COMMAND]] THRESHOLDS",
	"",
	"Evaluates thresholds on every reported CPU.  Exit 0: all passed; 2: one failed;",
	"1: an error.  Without FILE, records first (see tickstat record --help).",
	"",
	"  --min-success-rate PCT  minimum tickless share of busy time (alias --min-busy-tickless)",
	"  --min-idle-tickless PCT minimum tickless share of idle time",
	"  --min-tickless PCT      minimum tickless share of the known window",
	"  --max-tick-rate HZ      maximum tick interrupts per second",
	"  --forbid REASON,...     reasons that must never hold the tick (NAME or NAME@SCOPE)",
	"  --max-unknown PCT       maximum share of the window in unknown state (default 5)",
	"  --allow-lost            do not fail on lost events",
	"  --junit FILE            also write the verdicts as JUnit XML",
	NULL,
};

static const char * const output_usage[] = {
	"",
	"output:",
	"      --json             the report as JSON (schema " TS_JSON_SCHEMA ")",
	"      --prometheus       node_exporter textfile collector format",
	"      --csv FILE         the per-CPU timeline as CSV ('-' for stdout)",
	"      --top N            reasons and culprits per CPU in the table (default 5)",
	"      --no-header        no comment header in the table",
	"  -q, --quiet            no progress messages",
	"  -v, --verbose          more messages",
	"  -h, --help             this help",
	NULL,
};

static void usage(FILE *f, const char * const *text, int with_output)
{
	for (; *text; text++)
		fprintf(f, "%s\n", *text);
	if (with_output)
		for (text = output_usage; *text; text++)
			fprintf(f, "%s\n", *text);
}

enum long_only {
	OPT_JSON = 256, OPT_PROMETHEUS, OPT_CSV, OPT_TOP, OPT_NO_HEADER, OPT_NOHZ_FULL,
	OPT_MIN_BUSY, OPT_MIN_IDLE, OPT_MIN_WINDOW, OPT_MAX_RATE, OPT_FORBID,
	OPT_MAX_UNKNOWN, OPT_ALLOW_LOST, OPT_JUNIT, OPT_TIME_RANGE,
};

static const struct option long_options[] = {
	{ "cpus", required_argument, NULL, 'C' },
	{ "duration", required_argument, NULL, 'd' },
	{ "output", required_argument, NULL, 'o' },
	{ "buffer-kb", required_argument, NULL, 'b' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "prometheus", no_argument, NULL, OPT_PROMETHEUS },
	{ "csv", required_argument, NULL, OPT_CSV },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "no-header", no_argument, NULL, OPT_NO_HEADER },
	{ "nohz-full", required_argument, NULL, OPT_NOHZ_FULL },
	{ "time-range", required_argument, NULL, OPT_TIME_RANGE },
	{ "min-success-rate", required_argument, NULL, OPT_MIN_BUSY },
	{ "min-busy-tickless", required_argument, NULL, OPT_MIN_BUSY },
	{ "min-idle-tickless", required_argument, NULL, OPT_MIN_IDLE },
	{ "min-tickless", required_argument, NULL, OPT_MIN_WINDOW },
	{ "max-tick-rate", required_argument, NULL, OPT_MAX_RATE },
	{ "forbid", required_argument, NULL, OPT_FORBID },
	{ "max-unknown", required_argument, NULL, OPT_MAX_UNKNOWN },
	{ "allow-lost", no_argument, NULL, OPT_ALLOW_LOST },
	{ "junit", required_argument, NULL, OPT_JUNIT },
	{ NULL, 0, NULL, 0 },
};

/* A percentage 0..100, or an error message naming the option. */
static int parse_pct(const char *opt, const char *arg, double *val)
{
	if (ts_parse_double(arg, val) || *val < 0 || *val > 100) {
		err_msg("%s: '%s' is not a percentage between 0 and 100\n", opt, arg);
		return -1;
	}
	return 0;
}

static int parse_forbid(struct ts_check_opts *c, char *arg)
{
	char *save = NULL;

	for (char *r = strtok_r(arg, ",", &save); r; r = strtok_r(NULL, ",", &save)) {
		if (c->nr_forbid == TS_MAX_FORBID) {
			err_msg("--forbid: at most %d reasons\n", TS_MAX_FORBID);
			return -1;
		}
		c->forbid[c->nr_forbid++] = r;
	}
	return 0;
}

/*
 * Parse the options of a command.  Returns the index of the first operand,
 * -1 on a usage error, -2 after --help.
 */
static int parse_opts(int argc, char **argv, struct cmd_opts *o, const char * const *help,
		      int is_record, int is_check)
{
	const char *shorts = is_record || is_check ? "C:d:o:b:qvh" : "C:qvh";
	uint64_t n;
	int opt;

	/* options may follow operands; "--" ends them and starts the command */
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			if (!is_record && !is_check) {
				err_msg("report runs no command\n");
				return -1;
			}
			o->rec.command = argv[i + 1] ? argv + i + 1 : NULL;
			if (!o->rec.command) {
				err_msg("no command after --\n");
				return -1;
			}
			argc = i;
			break;
		}
	}
	o->argc_end = argc;
	optind = 1;
	while ((opt = getopt_long(argc, argv, shorts, long_options, NULL)) != -1) {
		switch (opt) {
		case 'C':
			if (ts_cpuset_parse(&o->cpus, optarg) || ts_cpuset_empty(&o->cpus)) {
				err_msg("-C: '%s' is not a CPU list like 1-3,5\n", optarg);
				return -1;
			}
			o->have_cpus = 1;
			break;
		case 'd':
			if (ts_parse_double(optarg, &o->rec.duration) || o->rec.duration <= 0 ||
			    o->rec.duration > 31536000) {
				err_msg("-d: '%s' is not a duration in seconds\n", optarg);
				return -1;
			}
			break;
		case 'o':
			o->rec.output = optarg;
			break;
		case 'b':
			if (ts_parse_u64(optarg, &n) || n < 4 || n > 1048576) {
				err_msg("-b: '%s' is not a size in KiB (4..1048576)\n", optarg);
				return -1;
			}
			o->rec.buffer_kb = (int)n;
			break;
		case 'q':
			ts_verbose = -1;
			break;
		case 'v':
			ts_verbose = 1;
			break;
		case 'h':
			usage(stdout, help, 1);
			return -2;
		case OPT_JSON:
			o->format = FMT_JSON;
			break;
		case OPT_PROMETHEUS:
			o->format = FMT_PROMETHEUS;
			break;
		case OPT_CSV:
			o->csv = optarg;
			break;
		case OPT_TOP:
			if (ts_parse_u64(optarg, &n) || n < 1 || n > 1000) {
				err_msg("--top: '%s' is not a number from 1 to 1000\n", optarg);
				return -1;
			}
			o->out.top = (int)n;
			break;
		case OPT_NO_HEADER:
			o->out.no_header = 1;
			break;
		case OPT_NOHZ_FULL:
			o->nohz_full = optarg;
			break;
		case OPT_TIME_RANGE:
			if (sscanf(optarg, "%" SCNu64 ",%" SCNu64, &o->range[0], &o->range[1]) != 2 ||
			    o->range[1] <= o->range[0]) {
				err_msg("--time-range: '%s' is not START,END in ns with START < END\n",
					optarg);
				return -1;
			}
			break;
		case OPT_MIN_BUSY:
		case OPT_MIN_IDLE:
		case OPT_MIN_WINDOW:
		case OPT_MAX_RATE:
		case OPT_FORBID:
		case OPT_MAX_UNKNOWN:
		case OPT_ALLOW_LOST:
		case OPT_JUNIT:
			if (!is_check) {
				err_msg("--%s is an option of 'tickstat check'\n",
					argv[optind - 1] + 2);
				return -1;
			}
			if (opt == OPT_MIN_BUSY &&
			    parse_pct("--min-success-rate", optarg, &o->check.min_busy_share))
				return -1;
			if (opt == OPT_MIN_IDLE &&
			    parse_pct("--min-idle-tickless", optarg, &o->check.min_idle_share))
				return -1;
			if (opt == OPT_MIN_WINDOW &&
			    parse_pct("--min-tickless", optarg, &o->check.min_window_share))
				return -1;
			if (opt == OPT_MAX_UNKNOWN &&
			    parse_pct("--max-unknown", optarg, &o->check.max_unknown))
				return -1;
			if (opt == OPT_MAX_RATE && (ts_parse_double(optarg, &o->check.max_tick_rate) ||
						    o->check.max_tick_rate < 0)) {
				err_msg("--max-tick-rate: '%s' is not a rate in Hz\n", optarg);
				return -1;
			}
			if (opt == OPT_FORBID && parse_forbid(&o->check, optarg))
				return -1;
			if (opt == OPT_ALLOW_LOST)
				o->check.allow_lost = 1;
			if (opt == OPT_JUNIT)
				o->junit = optarg;
			break;
		default:
			fprintf(stderr, "Try 'tickstat %s --help'.\n", argv[0]);
			return -1;
		}
	}
	return optind;
}

static FILE *open_csv(const char *path, struct ts_analysis *an)
{
	FILE *f;

	if (!path)
		return NULL;
	f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	if (!f)
		err_msg("%s: cannot write: %m\n", path);
	else
		ts_output_csv_attach(an, f);
	return f;
}

/* Apply report-time knowledge (-C, --nohz-full) before events arrive. */
static int prepare(struct cmd_opts *o, struct ts_analysis *an)
{
	struct ts_cpuset full;

	if (o->range[1])
		ts_analysis_set_range(an, o->range[0], o->range[1]);
	if (o->have_cpus)
		for (int c = 0; c < TS_CPUSET_WORDS * 64; c++)
			if (ts_cpuset_has(&o->cpus, c))
				ts_analysis_monitor(an, c);
	if (o->nohz_full) {
		if (ts_cpuset_parse(&full, o->nohz_full)) {
			err_msg("--nohz-full: '%s' is not a CPU list\n", o->nohz_full);
			return -1;
		}
		for (int c = 0; c < TS_CPUSET_WORDS * 64; c++) {
			struct ts_cpu *cpu = ts_cpuset_has(&full, c) ? ts_analysis_cpu(an, c) : NULL;

			if (cpu)
				cpu->nohz_full = 1;
		}
	}
	return 0;
}

static int read_input(const char *path, struct ts_analysis *an)
{
	char err[512];
	FILE *f;
	int ret;

	f = fopen(path, "rb");
	if (!f) {
		err_msg("%s: %m\n", path);
		return -1;
	}
	fclose(f);
	if (ts_is_recording(path))
		ret = ts_read_recording(path, an, err, sizeof(err));
	else
		ret = ts_read_tracedat(path, an, err, sizeof(err));
	if (ret)
		err_msg("%s\n", err);
	return ret;
}

/* A recording's -C keeps only the named CPUs among the monitored ones. */
static void restrict_to(struct cmd_opts *o, struct ts_analysis *an)
{
	if (!o->have_cpus)
		return;
	for (int c = 0; c < an->nr_cpus; c++)
		if (an->cpus[c])
			an->cpus[c]->active = ts_cpuset_has(&o->cpus, c);
}

static void print_report(struct cmd_opts *o, struct ts_analysis *an, const struct ts_verdict *v)
{
	if (o->csv && !strcmp(o->csv, "-"))
		return;		/* stdout carries the CSV */
	switch (o->format) {
	case FMT_JSON:
		ts_output_json(stdout, an, &o->out, v);
		break;
	case FMT_PROMETHEUS:
		ts_output_prometheus(stdout, an, v);
		break;
	default:
		ts_output_table(stdout, an, &o->out);
		if (v)
			ts_verdict_table(stdout, v);
	}
}

/* Run the analysis from a file, or by recording, for report and check. */
static int analyse(struct cmd_opts *o, int argc, char **argv, int first, int allow_record,
		   struct ts_analysis *an, FILE **csv)
{
	int status;

	*csv = open_csv(o->csv, an);
	if (o->csv && !*csv)
		return -1;
	if (first < argc) {
		if (o->rec.command) {
			err_msg("a file or a command, not both\n");
			return -1;
		}
		if (first + 1 < argc) {
			err_msg("one input file only ('%s' is extra)\n", argv[first + 1]);
			return -1;
		}
		if (o->rec.output || o->rec.duration) {
			err_msg("-d and -o are for recording, not for reading a file\n");
			return -1;
		}
		if (prepare(o, an) || read_input(argv[first], an))
			return -1;
		restrict_to(o, an);
		return 0;
	}
	if (!allow_record) {
		err_msg("which file? (tickstat report FILE)\n");
		return -1;
	}
	if (!o->rec.command && !o->rec.duration)
		info_msg("tickstat: no duration and no command: recording until interrupted\n");
	o->rec.cpus = o->cpus;
	if (!o->rec.buffer_kb)
		o->rec.buffer_kb = 4096;
	if (ts_record(&o->rec, an, &status))
		return -1;
	if (status > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		err_msg("the command could not be run\n");
		return -1;
	}
	if (status > 0 && WIFEXITED(status) && WEXITSTATUS(status))
		info_msg("tickstat: the command exited with status %d\n", WEXITSTATUS(status));
	else if (status > 0 && WIFSIGNALED(status))
		info_msg("tickstat: the command was killed by signal %d\n", WTERMSIG(status));
	return 0;
}

static void opts_init(struct cmd_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->out.top = 5;
	ts_check_opts_init(&o->check);
}

static int cmd_report(int argc, char **argv, int is_record)
{
	struct ts_analysis an;
	struct cmd_opts o;
	FILE *csv = NULL;
	int first, ret = TS_EXIT_ERROR;

	opts_init(&o);
	first = parse_opts(argc, argv, &o, is_record ? record_usage : report_usage, is_record, 0);
	if (first < 0)
		return first == -2 ? TS_EXIT_OK : TS_EXIT_ERROR;
	argc = o.argc_end;
	if (!is_record && first >= argc) {
		err_msg("which file? (tickstat report FILE)\n");
		return TS_EXIT_ERROR;
	}
	ts_analysis_init(&an);
	if (!analyse(&o, argc, argv, first, is_record, &an, &csv)) {
		print_report(&o, &an, NULL);
		ret = TS_EXIT_OK;
	}
	if (csv && csv != stdout)
		fclose(csv);
	ts_analysis_free(&an);
	return ret;
}

static int cmd_check(int argc, char **argv)
{
	struct ts_analysis an;
	struct ts_verdict v = { 0 };
	struct cmd_opts o;
	FILE *csv = NULL, *junit;
	int first, ret = TS_EXIT_ERROR;

	opts_init(&o);
	first = parse_opts(argc, argv, &o, check_usage, 0, 1);
	if (first < 0)
		return first == -2 ? TS_EXIT_OK : TS_EXIT_ERROR;
	argc = o.argc_end;
	ts_analysis_init(&an);
	if (analyse(&o, argc, argv, first, 1, &an, &csv))
		goto out;
	if (ts_check_run(&an, &o.check, &v)) {
		err_msg("out of memory\n");
		goto out;
	}
	if (!v.nr) {
		err_msg("no CPU to check\n");
		goto out;
	}
	print_report(&o, &an, &v);
	if (o.junit) {
		junit = fopen(o.junit, "w");
		if (!junit) {
			err_msg("%s: cannot write: %m\n", o.junit);
			goto out;
		}
		ts_verdict_junit(junit, &v);
		fclose(junit);
	}
	ret = v.failed ? TS_EXIT_FAILED : TS_EXIT_OK;
out:
	if (csv && csv != stdout)
		fclose(csv);
	ts_verdict_free(&v);
	ts_analysis_free(&an);
	return ret;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr, main_usage, 0);
		return TS_EXIT_ERROR;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout, main_usage, 0);
		return TS_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("tickstat %s\n", TICKSTAT_VERSION);
		return TS_EXIT_OK;
	}
	if (!strcmp(argv[1], "record"))
		return cmd_report(argc - 1, argv + 1, 1);
	if (!strcmp(argv[1], "report"))
		return cmd_report(argc - 1, argv + 1, 0);
	if (!strcmp(argv[1], "check"))
		return cmd_check(argc - 1, argv + 1);
	err_msg("unknown command '%s'\n", argv[1]);
	usage(stderr, main_usage, 0);
	return TS_EXIT_ERROR;
}
