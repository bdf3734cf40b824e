// SPDX-License-Identifier: GPL-2.0
/*
 * tickstat.c - why does the tick keep running?  The command dispatcher.
 *
 *   tickstat record [-C CPUS] [-d TIME] [-o FILE] [-- COMMAND ...]
 *   tickstat report [--json[=FILE]] [--csv FILE] FILE
 *   tickstat check [FILE | record options] THRESHOLDS
 *   tickstat monitor [-i TIME] [--textfile PATH] [--listen ADDR:PORT] [-C CPUS]
 *   tickstat top [-C CPUS] [-i TIME] [-d TIME]
 *   tickstat doctor [--root DIR] [--json] [--junit FILE] [--fail-on LEVEL]
 *
 * Every option says where it applies (recording, reading a file, check
 * only); one that does not apply to what the command line asks for is an
 * error, never silently ignored.  Output files are opened before any work
 * starts and appear only when the command succeeds (outfile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "doctor.h"
#include "monitor.h"
#include "record.h"
#include "top.h"
#include "outfile.h"
#include "output.h"
#include "probes.h"
#include "tracedat.h"
#include "util.h"

#define TS_MAX_EXTRA	64	/* -e options */

enum ts_format { FMT_TABLE, FMT_JSON, FMT_PROMETHEUS };
enum ts_command { CMD_RECORD, CMD_REPORT, CMD_CHECK, CMD_MONITOR, CMD_TOP };

static const char * const command_names[] = { "record", "report", "check", "monitor", "top" };

struct cmd_opts {
	enum ts_command cmd;
	int reading;			/* a FILE operand: read it, do not record */
	enum ts_format format;
	const char *csv;
	const char *json;		/* --json=FILE: the JSON report into a file */
	const char *json_next;		/* the word after a value-less --json */
	const char *junit;
	const char *nohz_full;
	uint64_t range[2];
	struct ts_cpuset cpus;
	int have_cpus;
	const char *file;
	struct ts_output_opts out;
	struct ts_record_opts rec;
	struct ts_check_opts check;
	const char *extra[TS_MAX_EXTRA];
	double interval;		/* monitor, top */
	const char *textfile;
	const char *listen;
	int pretty;			/* --pretty: the JSON indented */
};

static const char * const main_usage[] = {
	"usage: tickstat [-h | -V] COMMAND [ARGS]",
	"",
	"Why does the scheduler tick keep running on a CPU, and for how long does it stop?",
	"",
	"commands:",
	"  record   record the tick events of this machine, then report them",
	"  report   report a tickstat recording or a trace-cmd trace.dat",
	"  check    a CI verdict: thresholds per CPU, exit 0 pass, 2 fail, 1 error",
	"  monitor  watch until stopped: cumulative counters for Prometheus",
	"  top      a live view of the tick per CPU, refreshed every second",
	"  doctor   audit this host's CPU isolation: exit 0 ready, 1 findings, 2 error",
	"  help     'tickstat help COMMAND' is 'tickstat COMMAND --help'",
	"",
	"options:",
	"  -h, --help             this help",
	"  -V, --version          tickstat's version",
	"",
	"'tickstat COMMAND --help' tells more; so does tickstat(1).",
	NULL,
};

static const char * const record_usage[] = {
	"usage: tickstat record [OPTIONS] [-- COMMAND [ARGS]]",
	"",
	"Records in a private tracing instance until the duration ends, the command exits,",
	"or Ctrl-C, then prints the report.  Needs root.  Exit 1 when the command fails.",
	"",
	"  -C, --cpus LIST        CPUs to report (default: nohz_full, else all)",
	"  -d, --duration TIME    stop after this long (30s, 1m, 500ms; seconds without a unit)",
	"  -o, --output FILE      also write the recording, a trace.dat that 'tickstat report',",
	"                         trace-cmd and KernelShark read anywhere",
	"  -b, --buffer-kb KB     ring buffer per CPU (default 4096, less from 17 CPUs up:",
	"                         64 MiB in all, at least 1024 a CPU)",
	"  -e, --event SYS:EVENT  also record this event (or SYS:*) into the file, for",
	"                         trace-cmd and KernelShark; the report does not read it",
	"      --probes WHEN      kprobes on the deciding functions where the kernel lacks",
	"                         the patched events: auto, on (a probe that cannot be",
	"                         placed is an error), off (default; docs/tickstat.md)",
	"      --no-causes        do not record the work items, timers and interrupts on the",
	"                         monitored CPUs (the causes below the tick's reasons)",
	"      --no-doctor        do not audit the host at the start (tickstat doctor): the",
	"                         report and the recording then have no doctor section",
	NULL,
};

static const char * const report_usage[] = {
	"usage: tickstat report [OPTIONS] FILE",
	"",
	"Reports a tickstat recording, or a trace.dat of trace-cmd (record it with",
	"-e timer:tick_stop, and timer:tick_* sched:sched_switch timer:hrtimer_expire_entry",
	"for a fuller answer).",
	"",
	"  -C, --cpus LIST        CPUs to report (default: those recorded as monitored,",
	"                         for a trace.dat the --nohz-full ones, else all)",
	"      --nohz-full LIST   which CPUs were nohz_full (a trace.dat does not say)",
	"      --time-range A,B   report only trace-clock times A <= t < B (ns, mono clock)",
	NULL,
};

static const char * const check_usage[] = {
	"usage: tickstat check [FILE | RECORD-OPTIONS [-- COMMAND]] THRESHOLDS",
	"",
	"Evaluates thresholds on every reported CPU.  Exit 0: all passed; 2: one failed;",
	"1: an error (bad input, a failed command, a threshold no CPU could evaluate).",
	"Without FILE, records first (see tickstat record --help); with FILE, takes",
	"report's -C, --nohz-full and --time-range.",
	"",
	"  --min-success-rate PCT  minimum tickless share of busy time (alias --min-busy-tickless)",
	"  --min-idle-tickless PCT minimum tickless share of idle time",
	"  --min-tickless PCT      minimum tickless share of the known window",
	"  --max-tick-rate HZ      maximum tick interrupts per second",
	"  --forbid REASON,...     reasons that must never hold the tick (NAME or NAME@SCOPE)",
	"  --max-unknown PCT       maximum share of the window whose tick or idle state is unknown (default 5)",
	"  --allow-lost            do not fail on lost events",
	"  --junit FILE            also write the verdicts as JUnit XML",
	NULL,
};

static const char * const monitor_usage[] = {
	"usage: tickstat monitor [OPTIONS]",
	"",
	"Watches the tick until SIGINT, SIGTERM or SIGHUP and keeps cumulative counters per",
	"CPU in Prometheus's text format: in a node_exporter textfile, over HTTP, or both.",
	"Needs root.",
	"",
	"  -C, --cpus LIST        CPUs to watch (default: nohz_full, else all)",
	"  -i, --interval TIME    update the counters this often (default 10s; 500ms, 1m, ...)",
	"      --textfile PATH    write them to PATH atomically (node_exporter's textfile collector)",
	"      --listen ADDR:PORT serve them at http://ADDR:PORT/metrics (ADDR default 127.0.0.1)",
	"      --top N            named culprits and co-runners per CPU; the rest are 'other' (default 5)",
	"  -d, --duration TIME    stop after this long (30s, 1m, 2h; seconds without a unit)",
	"  -b, --buffer-kb KB     ring buffer per CPU (default 1024)",
	"  -o, --output FILE      also keep the recording the counters come from (it grows",
	"                         without bound: for checking the numbers, with --duration)",
	"      --no-causes        do not record the work items, timers and interrupts on the",
	"                         watched CPUs (they go into --output's recording)",
	"  -q, --quiet            no progress messages",
	"  -v, --verbose          more messages",
	"  -h, --help             this help",
	NULL,
};

static const char * const top_usage[] = {
	"usage: tickstat top [OPTIONS]",
	"",
	"Shows the tick of every watched CPU, refreshed every interval, until q, Ctrl-C or",
	"the duration: its state, ticks per second, tickless share, the reason that held",
	"it longest and the cause that began most often in the interval, and lost events.",
	"On a terminal the worst CPUs come first when not all fit; otherwise each refresh",
	"is a plain block of text.  Needs root.",
	"",
	"  -C, --cpus LIST        CPUs to watch (default: nohz_full, else all)",
	"  -i, --interval TIME    refresh this often (default 1s; 500ms, 2s, ...)",
	"  -d, --duration TIME    stop after this long (30s, 1m; seconds without a unit)",
	"  -b, --buffer-kb KB     ring buffer per CPU (default 1024)",
	"      --no-causes        do not record the work items, timers and interrupts on the",
	"                         watched CPUs (no top cause then)",
	"  -q, --quiet            no progress messages",
	"  -v, --verbose          more messages",
	"  -h, --help             this help",
	NULL,
};

static const char * const output_usage[] = {
	"",
	"output:",
	"      --json[=FILE]      the report as JSON (schema " TS_JSON_SCHEMA "); with FILE",
	"                         into FILE, and the table stays on stdout",
	"      --pretty           indent the JSON, a member a line (default: one line)",
	"      --prometheus       node_exporter textfile collector format",
	"      --csv FILE         the per-CPU timeline as CSV ('-' for stdout, instead of the report)",
	"      --top N            reasons and culprits per CPU in the table (default 5)",
	"      --no-header        no comment header in the table (the diagnosis stays)",
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

enum opt_id {
	OPT_CPUS, OPT_DURATION, OPT_OUTPUT, OPT_BUFFER, OPT_QUIET, OPT_VERBOSE, OPT_HELP,
	OPT_JSON, OPT_PROMETHEUS, OPT_CSV, OPT_TOP, OPT_NO_HEADER, OPT_NOHZ_FULL,
	OPT_TIME_RANGE, OPT_MIN_BUSY, OPT_MIN_BUSY_ALIAS, OPT_MIN_IDLE, OPT_MIN_WINDOW,
	OPT_MAX_RATE, OPT_FORBID, OPT_MAX_UNKNOWN, OPT_ALLOW_LOST, OPT_JUNIT, OPT_EVENT,
	OPT_INTERVAL, OPT_TEXTFILE, OPT_LISTEN, OPT_PROBES, OPT_NO_CAUSES, OPT_NO_DOCTOR,
	OPT_PRETTY, NR_OPTS,
};

/* Where an option applies. */
#define FOR_ANY		0
#define FOR_RECORDING	1	/* record, or check without a FILE */
#define FOR_FILE	2	/* report, or check with a FILE */
#define FOR_CHECK	4	/* check only */
#define FOR_MONITOR	8	/* monitor only */
#define MONITOR_TOO	16	/* monitor as well; the others refuse monitor */
#define TOP_TOO		32	/* top as well: top takes only these */

static const struct opt_spec {
	const char *name;
	int has_arg;			/* 0 none, 1 required, 2 optional (--opt=VALUE only) */
	char short_name;
	int where;
} opt_specs[NR_OPTS] = {
	[OPT_CPUS] = { "cpus", 1, 'C', FOR_ANY | MONITOR_TOO | TOP_TOO },
	[OPT_DURATION] = { "duration", 1, 'd', FOR_RECORDING | MONITOR_TOO | TOP_TOO },
	[OPT_OUTPUT] = { "output", 1, 'o', FOR_RECORDING | MONITOR_TOO },
	[OPT_BUFFER] = { "buffer-kb", 1, 'b', FOR_RECORDING | MONITOR_TOO | TOP_TOO },
	[OPT_QUIET] = { "quiet", 0, 'q', FOR_ANY | MONITOR_TOO | TOP_TOO },
	[OPT_VERBOSE] = { "verbose", 0, 'v', FOR_ANY | MONITOR_TOO | TOP_TOO },
	[OPT_HELP] = { "help", 0, 'h', FOR_ANY | MONITOR_TOO | TOP_TOO },
	[OPT_JSON] = { "json", 2, 0, FOR_ANY },
	[OPT_PROMETHEUS] = { "prometheus", 0, 0, FOR_ANY },
	[OPT_CSV] = { "csv", 1, 0, FOR_ANY },
	[OPT_TOP] = { "top", 1, 0, FOR_ANY | MONITOR_TOO },
	[OPT_NO_HEADER] = { "no-header", 0, 0, FOR_ANY },
	[OPT_NOHZ_FULL] = { "nohz-full", 1, 0, FOR_FILE },
	[OPT_TIME_RANGE] = { "time-range", 1, 0, FOR_FILE },
	[OPT_MIN_BUSY] = { "min-success-rate", 1, 0, FOR_CHECK },
	[OPT_MIN_BUSY_ALIAS] = { "min-busy-tickless", 1, 0, FOR_CHECK },
	[OPT_MIN_IDLE] = { "min-idle-tickless", 1, 0, FOR_CHECK },
	[OPT_MIN_WINDOW] = { "min-tickless", 1, 0, FOR_CHECK },
	[OPT_MAX_RATE] = { "max-tick-rate", 1, 0, FOR_CHECK },
	[OPT_FORBID] = { "forbid", 1, 0, FOR_CHECK },
	[OPT_MAX_UNKNOWN] = { "max-unknown", 1, 0, FOR_CHECK },
	[OPT_ALLOW_LOST] = { "allow-lost", 0, 0, FOR_CHECK },
	[OPT_JUNIT] = { "junit", 1, 0, FOR_CHECK },
	[OPT_EVENT] = { "event", 1, 'e', FOR_RECORDING },
	[OPT_INTERVAL] = { "interval", 1, 'i', FOR_MONITOR | TOP_TOO },
	[OPT_TEXTFILE] = { "textfile", 1, 0, FOR_MONITOR },
	[OPT_LISTEN] = { "listen", 1, 0, FOR_MONITOR },
	[OPT_PROBES] = { "probes", 1, 0, FOR_RECORDING },
	[OPT_NO_CAUSES] = { "no-causes", 0, 0, FOR_RECORDING | MONITOR_TOO | TOP_TOO },
	[OPT_NO_DOCTOR] = { "no-doctor", 0, 0, FOR_RECORDING },
	[OPT_PRETTY] = { "pretty", 0, 0, FOR_ANY },
};

/* getopt_long's tables, made from opt_specs: short options return 256 + id too */
static struct option long_options[NR_OPTS + 1];
static char short_options[3 * NR_OPTS + 1];

static void build_getopt_tables(void)
{
	char *p = short_options;

	for (int i = 0; i < NR_OPTS; i++) {
		long_options[i].name = opt_specs[i].name;
		long_options[i].has_arg = opt_specs[i].has_arg == 2 ? optional_argument :
					  opt_specs[i].has_arg ? required_argument : no_argument;
		long_options[i].val = 256 + i;
		if (opt_specs[i].short_name) {
			*p++ = opt_specs[i].short_name;
			if (opt_specs[i].has_arg)
				*p++ = ':';
		}
	}
	*p = '\0';
}

static int id_of_short(int c)
{
	for (int i = 0; i < NR_OPTS; i++)
		if (opt_specs[i].short_name == c)
			return i;
	return -1;
}

/* The option as the user wrote it: "-d" or "--duration". */
static const char *opt_name(int id, int as_short)
{
	static char buf[40];

	if (as_short)
		snprintf(buf, sizeof(buf), "-%c", opt_specs[id].short_name);
	else
		snprintf(buf, sizeof(buf), "--%s", opt_specs[id].name);
	return buf;
}

/* A percentage 0..100, or an error message naming the option. */
static int parse_pct(const char *opt, const char *arg, double *val)
{
	if (ts_parse_double(arg, val) || *val > 100) {
		err_msg("%s: '%s' is not a percentage from 0 to 100 (a decimal number like 99.9)\n",
			opt, arg);
		return -1;
	}
	return 0;
}

/* "365d" for 31536000 s, "1m" for 60: a limit in the unit a user would write */
static void format_seconds(char *buf, size_t len, double secs)
{
	if (secs >= 86400 && secs == (uint64_t)secs && !((uint64_t)secs % 86400))
		snprintf(buf, len, "%" PRIu64 "d", (uint64_t)secs / 86400);
	else if (secs >= 60 && secs == (uint64_t)secs && !((uint64_t)secs % 60))
		snprintf(buf, len, "%" PRIu64 "m", (uint64_t)secs / 60);
	else if (secs >= 1)
		snprintf(buf, len, "%gs", secs);
	else if (secs >= 1e-3)
		snprintf(buf, len, "%gms", secs * 1e3);
	else
		snprintf(buf, len, "%gns", secs * 1e9);
}

/*
 * A duration (ts_parse_duration: 30, 30s, 1m, 500ms) from min to max
 * seconds, as seconds; or an error message naming the option.
 */
static int parse_seconds(const char *opt, const char *arg, double min, double max, double *val)
{
	char lo[32], hi[32];
	uint64_t ns;

	if (!ts_parse_duration(arg, &ns) && ns >= min * 1e9 && ns <= max * 1e9) {
		*val = ns / 1e9;
		return 0;
	}
	format_seconds(lo, sizeof(lo), min);
	format_seconds(hi, sizeof(hi), max);
	err_msg("%s: '%s' is not a duration from %s to %s (a number and a unit: ns, us, ms, s, m, h, d; seconds without one, like 30, 30s, 1m, 500ms)\n",
		opt, arg, lo, hi);
	return -1;
}

/*
 * --forbid NAME,...: every item a reason, none empty ("A,,B", "A," are
 * mistakes, not lists), none twice.
 */
static int parse_forbid(struct ts_check_opts *c, const char *arg)
{
	char names[1024], item[64];
	const char *p = arg;

	for (;;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		struct ts_reason_spec spec;

		if (!n) {
			err_msg("--forbid: %s in '%s'\n", *arg ? "an empty item" : "no reason given",
				arg);
			return -1;
		}
		snprintf(item, sizeof(item), "%.*s", (int)n, p);
		switch (n < sizeof(item) ? ts_check_add_forbid(c, item) : -1) {
		case -1:
			ts_reason_name_list(names, sizeof(names));
			err_msg("--forbid: '%.*s' is not a reason; reasons are %s\n", (int)n, p, names);
			return -1;
		case -2:
			err_msg("--forbid: at most %d reasons\n", TS_MAX_FORBID);
			return -1;
		case -3:
			ts_reason_spec_parse(item, &spec);
			err_msg("--forbid: '%s' is given twice (as '%s' before)\n", item,
				ts_check_forbidden(c, &spec)->text);
			return -1;
		}
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

/* "START,END": two whole decimal numbers of ns, START < END. */
static int parse_range(const char *arg, uint64_t *range)
{
	const char *comma = strchr(arg, ',');
	char first[32];

	if (!comma || comma - arg >= (long)sizeof(first))
		return -1;
	memcpy(first, arg, comma - arg);
	first[comma - arg] = '\0';
	if (ts_parse_dec(first, &range[0]) || ts_parse_dec(comma + 1, &range[1]))
		return -1;
	return range[1] > range[0] ? 0 : -1;
}

/* Take the value of one option. */
static int take_option(struct cmd_opts *o, int id, const char *name, const char *arg)
{
	uint64_t n;

	switch (id) {
	case OPT_CPUS:
		if (ts_cpuset_parse(&o->cpus, arg) || ts_cpuset_empty(&o->cpus)) {
			err_msg("%s: '%s' is not a CPU list like 1-3,5\n", name, arg);
			return -1;
		}
		o->have_cpus = 1;
		break;
	case OPT_DURATION:
		if (parse_seconds(name, arg, 1e-9, 31536000, &o->rec.duration))
			return -1;
		break;
	case OPT_OUTPUT:
		o->rec.output = arg;
		break;
	case OPT_NO_CAUSES:
		o->rec.no_causes = 1;
		break;
	case OPT_NO_DOCTOR:
		o->rec.no_doctor = 1;
		break;
	case OPT_PROBES:
		o->rec.probes = ts_probes_mode_parse(arg);
		if (o->rec.probes < 0) {
			err_msg("%s: '%s' is not auto, on or off\n", name, arg);
			return -1;
		}
		break;
	case OPT_BUFFER:
		if (ts_parse_dec(arg, &n) || n < 4 || n > 1048576) {
			err_msg("%s: '%s' is not a size in KiB (4..1048576)\n", name, arg);
			return -1;
		}
		o->rec.buffer_kb = (int)n;
		break;
	case OPT_QUIET:
		ts_verbose = -1;
		break;
	case OPT_VERBOSE:
		ts_verbose = 1;
		break;
	case OPT_JSON:
		/* --json=FILE: a file beside the table; --json=- is plain --json */
		if (arg && strcmp(arg, "-")) {
			o->json = arg;
			break;
		}
		/* fall through */
	case OPT_PROMETHEUS:
		if (o->format != FMT_TABLE) {
			err_msg("--json and --prometheus: choose one\n");
			return -1;
		}
		o->format = id == OPT_JSON ? FMT_JSON : FMT_PROMETHEUS;
		break;
	case OPT_CSV:
		o->csv = arg;
		break;
	case OPT_TOP:
		if (ts_parse_dec(arg, &n) || n < 1 || n > 1000) {
			err_msg("%s: '%s' is not a number from 1 to 1000\n", name, arg);
			return -1;
		}
		o->out.top = (int)n;
		break;
	case OPT_NO_HEADER:
		o->out.no_header = 1;
		break;
	case OPT_PRETTY:
		o->pretty = 1;
		break;
	case OPT_NOHZ_FULL:
		/* an empty list (an unset variable) would make every CPU housekeeping */
		if (!*arg || *arg == '\n') {
			err_msg("%s: '%s' is not a CPU list like 1-3,5\n", name, arg);
			return -1;
		}
		o->nohz_full = arg;
		break;
	case OPT_TIME_RANGE:
		if (parse_range(arg, o->range)) {
			err_msg("%s: '%s' is not START,END in whole ns with START < END\n", name, arg);
			return -1;
		}
		break;
	case OPT_MIN_BUSY:
	case OPT_MIN_BUSY_ALIAS:
		return parse_pct(name, arg, &o->check.min_busy_share);
	case OPT_MIN_IDLE:
		return parse_pct(name, arg, &o->check.min_idle_share);
	case OPT_MIN_WINDOW:
		return parse_pct(name, arg, &o->check.min_window_share);
	case OPT_MAX_UNKNOWN:
		return parse_pct(name, arg, &o->check.max_unknown);
	case OPT_MAX_RATE:
		if (ts_parse_double(arg, &o->check.max_tick_rate)) {
			err_msg("%s: '%s' is not a rate in Hz (a decimal number like 1 or 0.5)\n",
				name, arg);
			return -1;
		}
		break;
	case OPT_FORBID:
		return parse_forbid(&o->check, arg);
	case OPT_ALLOW_LOST:
		o->check.allow_lost = 1;
		break;
	case OPT_JUNIT:
		o->junit = arg;
		break;
	case OPT_EVENT:
		if (!strchr(arg, ':') || strchr(arg, ' ') || o->rec.nr_extra == TS_MAX_EXTRA) {
			err_msg("%s: '%s' is not SYSTEM:EVENT or SYSTEM:* (at most %d)\n", name, arg,
				TS_MAX_EXTRA);
			return -1;
		}
		o->extra[o->rec.nr_extra++] = arg;
		o->rec.extra = o->extra;
		break;
	case OPT_INTERVAL:
		if (parse_seconds(name, arg, 0.1, 86400, &o->interval))
			return -1;
		break;
	case OPT_TEXTFILE:
		o->textfile = arg;
		break;
	case OPT_LISTEN:
		o->listen = arg;
		break;
	}
	return 0;
}

/* Is option id meant for what this command line asks? */
static int check_applies(const struct cmd_opts *o, int id, const char *name)
{
	int where = opt_specs[id].where;
	const char *cmd = command_names[o->cmd];

	if (o->cmd == CMD_TOP) {
		if (where & TOP_TOO)
			return 0;
		err_msg("%s is not an option of 'tickstat top'\n", name);
		return -1;
	}
	if (o->cmd == CMD_MONITOR) {
		if (where & (FOR_MONITOR | MONITOR_TOO))
			return 0;
		err_msg("%s is not an option of 'tickstat monitor'\n", name);
		return -1;
	}
	if (where & FOR_MONITOR) {
		err_msg("%s is an option of 'tickstat monitor'%s, not of '%s'\n", name,
			where & TOP_TOO ? " and 'tickstat top'" : "", cmd);
		return -1;
	}
	if ((where & FOR_CHECK) && o->cmd != CMD_CHECK) {
		err_msg("%s is an option of 'tickstat check', not of '%s'\n", name, cmd);
		return -1;
	}
	if ((where & FOR_RECORDING) && o->reading) {
		err_msg("%s is for recording; '%s' is reading the file %s\n", name, cmd, o->file);
		return -1;
	}
	if ((where & FOR_FILE) && !o->reading) {
		err_msg("%s is for reading a file; '%s' without a FILE records this machine\n",
			name, cmd);
		return -1;
	}
	return 0;
}

/*
 * The option a value sets: an alias sets the same one.  Only --forbid and
 * -e add to what came before; any other value given twice would silently
 * replace the first, so it is refused (returns -1, said on stderr).
 */
static int once(const char **values, int id, const char *name, const char *arg)
{
	int slot = id == OPT_MIN_BUSY_ALIAS ? OPT_MIN_BUSY : id;

	if (!opt_specs[id].has_arg || id == OPT_FORBID || id == OPT_EVENT)
		return 0;
	if (!arg)	/* an optional value not given: standard output */
		arg = "-";
	if (values[slot]) {
		err_msg("%s: given twice ('%s', then '%s'); give it once\n", name, values[slot], arg);
		return -1;
	}
	values[slot] = arg;
	return 0;
}

/*
 * Parse the command line of a command.  Returns 0, -1 on a usage error
 * (said on stderr), -2 after --help.
 */
static int parse_opts(int argc, char **argv, struct cmd_opts *o, const char * const *help)
{
	const char *given[NR_OPTS] = { 0 }, *values[NR_OPTS] = { 0 };
	int as_short[NR_OPTS] = { 0 };
	int opt, idx, end = argc;

	/* options may follow operands; "--" ends them and starts the command */
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			end = i;
			break;
		}
	}
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(end, argv, short_options, long_options, &idx)) != -1) {
		int id = opt >= 256 ? opt - 256 : id_of_short(opt);

		if (opt == '?' || id < 0) {
			if (optopt >= 256 && !opt_specs[optopt - 256].has_arg &&
			    ts_opt_given_value(argv[optind - 1]))
				err_msg("%.*s takes no value\n",
					(int)strcspn(argv[optind - 1], "="), argv[optind - 1]);
			else if (optopt && id_of_short(optopt) >= 0)
				err_msg("%s needs a value\n", opt_name(id_of_short(optopt), 1));
			else if (optopt >= 256)
				err_msg("%s needs a value\n", opt_name(optopt - 256, 0));
			else if (optopt)	/* a letter, maybe inside a cluster */
				err_msg("unknown option '-%c'\n", optopt);
			else
				err_msg("unknown option '%s'\n", argv[optind - 1]);
			fprintf(stderr, "Try 'tickstat %s --help'.\n", argv[0]);
			return -1;
		}
		as_short[id] = opt < 256;
		if (id == OPT_HELP) {
			usage(stdout, help, o->cmd != CMD_MONITOR && o->cmd != CMD_TOP);
			return -2;
		}
		if (once(values, id, opt_name(id, as_short[id]), optarg) ||
		    take_option(o, id, opt_name(id, as_short[id]), optarg))
			return -1;
		given[id] = argv[0];
		/* --json FILE: getopt takes FILE as an operand; say how to give it */
		if (id == OPT_JSON && !optarg && optind < end && argv[optind][0] != '-')
			o->json_next = argv[optind];
	}
	if (optind < end) {
		o->file = argv[optind];
		if (o->cmd == CMD_MONITOR || o->cmd == CMD_TOP) {
			err_msg("%s takes no file ('%s'); it watches this machine\n",
				command_names[o->cmd], o->file);
			return -1;
		}
		if (o->cmd == CMD_RECORD) {
			err_msg("record takes no file ('%s'); to read one: tickstat report %s\n",
				o->file, o->file);
			return -1;
		}
		if (optind + 1 < end) {
			if (o->json_next)
				err_msg("--json %s: a file for the JSON is given as --json=%s ('=', no space); two input files otherwise\n",
					o->json_next, o->json_next);
			else
				err_msg("one input file only ('%s' is extra)\n", argv[optind + 1]);
			return -1;
		}
		o->reading = 1;
	}
	if (end < argc) {
		if (o->cmd == CMD_REPORT || o->cmd == CMD_MONITOR || o->cmd == CMD_TOP || o->reading) {
			err_msg("-- COMMAND is for recording; '%s' %s\n", command_names[o->cmd],
				o->reading ? "is reading a file" : "runs no command");
			return -1;
		}
		if (end + 1 == argc) {
			err_msg("no command after --\n");
			return -1;
		}
		o->rec.command = argv + end + 1;
	}
	if (o->cmd == CMD_REPORT && !o->reading) {
		err_msg("which file? (tickstat report FILE)\n");
		return -1;
	}
	for (int id = 0; id < NR_OPTS; id++)
		if (given[id] && check_applies(o, id, opt_name(id, as_short[id])))
			return -1;
	if (o->pretty && o->format != FMT_JSON && !o->json) {
		err_msg("--pretty indents JSON: give --json too\n");
		return -1;
	}
	if (o->csv && !strcmp(o->csv, "-") && o->format != FMT_TABLE) {
		err_msg("--csv -: standard output carries the CSV, it cannot carry --%s too\n",
			o->format == FMT_JSON ? "json" : "prometheus");
		return -1;
	}
	return 0;
}

/* Apply report-time knowledge (--nohz-full, -C, --time-range) before events arrive. */
static int prepare(struct cmd_opts *o, struct ts_analysis *an)
{
	struct ts_cpuset full;

	if (o->range[1])
		ts_analysis_set_range(an, o->range[0], o->range[1]);
	if (o->nohz_full) {
		if (ts_cpuset_parse(&full, o->nohz_full)) {
			err_msg("--nohz-full: '%s' is not a CPU list\n", o->nohz_full);
			return -1;
		}
		/* the CPUs not named are housekeeping CPUs, and by default not reported */
		ts_analysis_set_nohz_default(an, 0);
		ts_analysis_set_nohz_full_list(an, o->nohz_full);
		for (int c = 0; c < TS_CPUSET_WORDS * 64; c++) {
			if (!ts_cpuset_has(&full, c))
				continue;
			if (!o->have_cpus)
				ts_analysis_monitor(an, c);
			ts_analysis_set_nohz_full(an, c, 1);
		}
	}
	if (o->have_cpus)
		for (int c = 0; c < TS_CPUSET_WORDS * 64; c++)
			if (ts_cpuset_has(&o->cpus, c))
				ts_analysis_monitor(an, c);
	return 0;
}

/*
 * Are all CPUs of set in the data?  A CPU the source has no data of would
 * get a made-up row ("0 ticks, unknown"): say which, and which it has.
 */
static int cpus_in_data(const struct ts_analysis *an, const struct ts_cpuset *set,
			const char *opt, const char *path)
{
	struct ts_cpuset absent = { 0 }, covered = { 0 };
	char a[256], c[256];

	for (int cpu = 0; cpu < TS_CPUSET_WORDS * 64; cpu++) {
		if (ts_analysis_covers(an, cpu))
			ts_cpuset_add(&covered, cpu);
		else if (ts_cpuset_has(set, cpu))
			ts_cpuset_add(&absent, cpu);
	}
	if (ts_cpuset_empty(&absent))
		return 0;
	ts_cpuset_format(&absent, a, sizeof(a));
	ts_cpuset_format(&covered, c, sizeof(c));
	err_msg("%s: %s %s %s not in %s, which has data of CPU%s %s\n", opt,
		ts_cpuset_count(&absent) > 1 ? "CPUs" : "CPU", a,
		ts_cpuset_count(&absent) > 1 ? "are" : "is", path,
		ts_cpuset_count(&covered) > 1 ? "s" : "", c[0] ? c : "(none)");
	return -1;
}

static double seconds(uint64_t ns)
{
	return ns / 1e9;
}

static int read_input(struct cmd_opts *o, struct ts_analysis *an)
{
	const char *path = o->file;
	char err[512];
	int ret;

	/* run_command checked that it is a regular file (ts_input_check) */
	if (o->nohz_full && ts_is_tickstat_recording(path)) {
		err_msg("--nohz-full: %s is a tickstat recording, which knows its nohz_full CPUs\n",
			path);
		return -1;
	}
	if (prepare(o, an))
		return -1;
	ret = ts_read_file(path, an, err, sizeof(err));
	if (ret) {
		err_msg("%s\n", err);
		return -1;
	}
	if (o->range[1] && strcmp(an->clock, "mono")) {
		err_msg("--time-range: %s was recorded with the trace clock '%s', not 'mono' (CLOCK_MONOTONIC); record with trace-cmd -C mono\n",
			path, an->clock[0] ? an->clock : "unknown");
		return -1;
	}
	if (o->range[1] && !ts_cpu_window_ns(an)) {
		err_msg("--time-range: %" PRIu64 ",%" PRIu64 " lies outside %s, which covers %.6f s to %.6f s (%" PRIu64 ",%" PRIu64 ")\n",
			o->range[0], o->range[1], path, seconds(an->data_start),
			seconds(an->data_end), an->data_start, an->data_end);
		return -1;
	}
	if (o->have_cpus && cpus_in_data(an, &o->cpus, "-C", path))
		return -1;
	if (o->nohz_full) {
		struct ts_cpuset full;

		ts_cpuset_parse(&full, o->nohz_full);	/* prepare() checked it */
		if (cpus_in_data(an, &full, "--nohz-full", path))
			return -1;
	}
	ts_analysis_report_covered(an);
	/* a recording's -C keeps only the named CPUs among the monitored ones */
	if (o->have_cpus)
		ts_analysis_select_cpus(an, &o->cpus);
	return 0;
}

/*
 * The default ring buffer of a recording, per CPU: 4 MiB, 64 MiB in all
 * from 17 online CPUs up, never under the monitor's default of 1 MiB.  The
 * kernel allocates it on every online CPU, and that was most of a
 * recording's start and system time on a big machine: at 64 vCPUs, 4 MiB
 * a CPU took 1.5 s of system time against 0.6 s with 1 MiB
 * (tests/bench/scale, without causes, 20 wakeups a second a CPU).  With
 * the causes and 200 wakeups a second a CPU, 1 MiB lost none of 256000
 * events in 5 s there.  Lost events are counted and reported whatever the
 * size; -b sets it.
 */
static int default_buffer_kb(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	long kb = cpus > 0 ? 64 * 1024 / cpus : 4096;

	if (kb > 4096)
		kb = 4096;
	if (kb < 1024)
		kb = 1024;
	return (int)kb;
}

/*
 * Record, for record and check.  Returns 0; -1 when recording failed; -2
 * when the command failed (said on stderr), which leaves a report but no
 * verdict.  A command we ended (duration over, Ctrl-C) has not failed.
 */
static int record(struct cmd_opts *o, struct ts_outfile *rec_out, struct ts_analysis *an)
{
	struct ts_command_end cmd;
	int st;

	if (!o->rec.command && !o->rec.duration)
		info_msg("tickstat: no duration and no command: recording until interrupted\n");
	o->rec.cpus = o->cpus;
	o->rec.output_file = rec_out->f;
	o->rec.spool_hint = ts_outfile_spool_hint(rec_out);
	if (!o->rec.buffer_kb)
		o->rec.buffer_kb = default_buffer_kb();
	if (ts_record(&o->rec, an, &cmd))
		return -1;
	st = cmd.status;
	if (st < 0 || cmd.stopped)
		return 0;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127) {
		err_msg("the command could not be run\n");
		return -2;
	}
	if (WIFEXITED(st) && WEXITSTATUS(st)) {
		err_msg("the command exited with status %d\n", WEXITSTATUS(st));
		return -2;
	}
	if (WIFSIGNALED(st)) {
		err_msg("the command was killed by signal %d\n", WTERMSIG(st));
		return -2;
	}
	return 0;
}

/*
 * write_json - the report's JSON onto f: compact, or with --pretty indented
 * (the compact text made in memory first; without the memory for it, the
 * compact JSON is still the report)
 */
static void write_json(FILE *f, int pretty, const struct ts_analysis *an,
		       const struct ts_output_opts *out, const struct ts_verdict *v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = pretty ? open_memstream(&buf, &len) : NULL;

	if (!m) {
		ts_output_json(f, an, out, v);
		return;
	}
	ts_output_json(m, an, out, v);
	if (fclose(m))
		ts_output_json(f, an, out, v);
	else
		ts_json_pretty(f, buf, len);
	free(buf);
}

static void print_report(struct cmd_opts *o, struct ts_analysis *an, const struct ts_verdict *v)
{
	if (o->csv && !strcmp(o->csv, "-"))
		return;		/* stdout carries the CSV */
	switch (o->format) {
	case FMT_JSON:
		write_json(stdout, o->pretty, an, &o->out, v);
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

/*
 * The output files of a command: all checked first (against the input and
 * each other), then opened, all committed last.
 */
struct outputs {
	struct ts_outfile csv, json, junit, recording;
};

static int check_outputs(struct cmd_opts *o, struct outputs *out, const struct stat *input)
{
	struct ts_outfile *all[] = { &out->recording, &out->junit, &out->csv, &out->json };
	const char *path[] = { o->rec.output, o->junit, o->csv, o->json };
	static const char * const opt[] = { "--output", "--junit", "--csv", "--json" };
	struct stat so;
	/* standard output as a file: a device (a terminal, /dev/null) takes both */
	int so_file = !fstat(STDOUT_FILENO, &so) && !S_ISCHR(so.st_mode);

	for (int i = 0; i < 4; i++) {
		if (!path[i])
			continue;
		/* the report goes to standard output; only the CSV replaces it there */
		if (!strcmp(path[i], "-") && all[i] != &out->csv) {
			err_msg("%s -: standard output carries the report; give a file\n", opt[i]);
			return -1;
		}
		if (ts_outfile_check(all[i], opt[i], path[i], TS_OUT_ALLOW_FIFO))
			return -1;
		if (input && ts_outfile_is(all[i], input)) {
			err_msg("%s %s: that is the input file %s; an output never replaces what is read\n",
				opt[i], path[i], o->file);
			return -1;
		}
		if (so_file && ts_outfile_is(all[i], &so)) {
			err_msg("%s %s: that is standard output, where the report goes (for the CSV there: --csv -)\n",
				opt[i], path[i]);
			return -1;
		}
		for (int j = 0; j < i; j++) {
			if (path[j] && ts_outfile_same(all[i], all[j])) {
				err_msg("%s %s and %s %s name the same file: give each output its own\n",
					opt[j], path[j], opt[i], path[i]);
				return -1;
			}
		}
	}
	return 0;
}

static int open_outputs(struct cmd_opts *o, struct outputs *out, struct ts_analysis *an)
{
	if (ts_outfile_open(&out->recording) || ts_outfile_open(&out->junit) ||
	    ts_outfile_open(&out->csv) || ts_outfile_open(&out->json))
		return -1;
	if (o->csv && ts_analysis_keep_timeline(an)) {
		err_msg("cannot make a temporary file for the timeline: %m\n");
		return -1;
	}
	return 0;
}

static int ready_outputs(struct outputs *out)
{
	return ts_outfile_ready(&out->recording) || ts_outfile_ready(&out->junit) ||
	       ts_outfile_ready(&out->csv) || ts_outfile_ready(&out->json) ? -1 : 0;
}

static int commit_outputs(struct outputs *out)
{
	int ret = ts_outfile_commit(&out->recording);

	ret |= ts_outfile_commit(&out->junit);
	ret |= ts_outfile_commit(&out->csv);
	ret |= ts_outfile_commit(&out->json);
	return ret ? -1 : 0;
}

static void abort_outputs(struct outputs *out)
{
	ts_outfile_abort(&out->recording);
	ts_outfile_abort(&out->junit);
	ts_outfile_abort(&out->csv);
	ts_outfile_abort(&out->json);
}

static void opts_init(struct cmd_opts *o, enum ts_command cmd)
{
	memset(o, 0, sizeof(*o));
	o->cmd = cmd;
	o->out.top = 5;
	/*
	 * Probes only when asked: enabling and removing kprobe events on
	 * tick-sched.c crashed Debian's 6.1 kernel in the test guest
	 * (docs/tickstat.md, Stock kernels: probes).
	 */
	o->rec.probes = TS_PROBES_OFF;
	ts_check_opts_init(&o->check);
}

/* record, report and check: one flow, the verdict only for check */
static int run_command(enum ts_command cmd, int argc, char **argv)
{
	static const char * const *help[] = { record_usage, report_usage, check_usage };
	struct ts_verdict v = { 0 };
	struct ts_analysis an;
	struct outputs out;
	struct stat input;
	struct cmd_opts o;
	int ret = TS_EXIT_ERROR, r;

	opts_init(&o, cmd);
	r = parse_opts(argc, argv, &o, help[cmd]);
	if (r)
		return r == -2 ? TS_EXIT_OK : TS_EXIT_ERROR;
	ts_analysis_init(&an);
	memset(&out, 0, sizeof(out));
	if (o.reading && ts_input_check(o.file, &input))
		goto out;
	if (check_outputs(&o, &out, o.reading ? &input : NULL) || open_outputs(&o, &out, &an))
		goto out;
	r = o.reading ? read_input(&o, &an) : record(&o, &out.recording, &an);
	/* a failed command: record still reports, check has no verdict */
	if (r == -1 || (r == -2 && cmd == CMD_CHECK))
		goto out;
	if (cmd == CMD_CHECK) {
		if (ts_check_run(&an, &o.check, &v)) {
			err_msg("out of memory\n");
			goto out;
		}
		if (!v.nr) {
			err_msg("no CPU to check\n");
			goto out;
		}
		if (v.error[0]) {
			err_msg("%s: no verdict\n", v.error);
			goto out;
		}
		if (out.junit.f)
			ts_verdict_junit(out.junit.f, &v);
	}
	/* the timeline, from the finished analysis */
	if (out.csv.f && ts_output_csv(out.csv.f, &an)) {
		err_msg("cannot read the timeline back\n");
		goto out;
	}
	if (out.json.f)
		write_json(out.json.f, o.pretty, &an, &o.out, cmd == CMD_CHECK ? &v : NULL);
	/*
	 * Whatever can fail first, then the report, then the files' renames:
	 * an error shows no report, and a report that cannot be written
	 * leaves no file behind.
	 */
	if (ready_outputs(&out))
		goto out;
	print_report(&o, &an, cmd == CMD_CHECK ? &v : NULL);
	if (ts_stdout_flush() || commit_outputs(&out))
		goto out;
	if (r)
		ret = TS_EXIT_ERROR;
	else
		ret = cmd == CMD_CHECK && v.failed ? TS_EXIT_FAILED : TS_EXIT_OK;
out:
	abort_outputs(&out);
	ts_verdict_free(&v);
	ts_analysis_free(&an);
	return ret;
}

/* monitor: its own flow, no report; options checked by parse_opts() like the others */
static int run_monitor(int argc, char **argv)
{
	struct ts_monitor_opts mo = { 0 };
	struct cmd_opts o;
	int r;

	opts_init(&o, CMD_MONITOR);
	r = parse_opts(argc, argv, &o, monitor_usage);
	if (r)
		return r == -2 ? TS_EXIT_OK : TS_EXIT_ERROR;
	if (!o.textfile && !o.listen) {
		err_msg("monitor: where to? give --textfile PATH, --listen ADDR:PORT or both\n");
		return TS_EXIT_ERROR;
	}
	mo.cpus = o.cpus;
	mo.buffer_kb = o.rec.buffer_kb ? o.rec.buffer_kb : TS_MONITOR_BUFFER_KB;
	mo.interval = o.interval ? o.interval : TS_MONITOR_INTERVAL;
	mo.duration = o.rec.duration;
	mo.textfile = o.textfile;
	mo.listen = o.listen;
	mo.top = o.out.top;
	mo.output = o.rec.output;
	mo.no_causes = o.rec.no_causes;
	return ts_monitor(&mo);
}

/* top: its own flow, like the monitor's; options checked by parse_opts() */
static int run_top(int argc, char **argv)
{
	struct ts_top_opts to = { 0 };
	struct cmd_opts o;
	int r;

	opts_init(&o, CMD_TOP);
	r = parse_opts(argc, argv, &o, top_usage);
	if (r)
		return r == -2 ? TS_EXIT_OK : TS_EXIT_ERROR;
	to.cpus = o.cpus;
	to.buffer_kb = o.rec.buffer_kb ? o.rec.buffer_kb : TS_TOP_BUFFER_KB;
	to.interval = o.interval ? o.interval : TS_TOP_INTERVAL;
	to.duration = o.rec.duration;
	to.no_causes = o.rec.no_causes;
	return ts_top(&to);
}

/*
 * Every write error is an error: of standard output always (said once),
 * of standard error for record, report, check and doctor, whose messages
 * are part of what they answer (nothing can say it: the exit status
 * does).  The monitor's standard error is a log; losing it does not stop
 * the counters.  doctor's error status is 2, the others' 1.
 */
static int finish(int ret, const char *cmd)
{
	int monitor = cmd && !strcmp(cmd, command_names[CMD_MONITOR]);
	int error = cmd && !strcmp(cmd, "doctor") ? ts_doctor_error() : TS_EXIT_ERROR;

	if (ts_stdout_flush())
		ret = error;
	if (!monitor && ferror(stderr) && ret == TS_EXIT_OK)
		ret = error;
	return ret;
}

static int dispatch(int argc, char **argv);

/* Is name one of the commands dispatch() runs? (help's check: it runs none) */
static int is_command(const char *name)
{
	for (int c = CMD_RECORD; c <= CMD_TOP; c++)
		if (!strcmp(name, command_names[c]))
			return 1;
	return !strcmp(name, "doctor");
}

/* help [COMMAND]: the command's --help, or this one's */
static int help(int argc, char **argv)
{
	char *args[] = { argc > 1 ? argv[1] : NULL, "--help", NULL };

	if (argc > 2) {
		err_msg("help: one command at most ('%s', then '%s')\n", argv[1], argv[2]);
		return TS_EXIT_ERROR;
	}
	if (argc < 2 || !strcmp(argv[1], "help")) {
		usage(stdout, main_usage, 0);
		return TS_EXIT_OK;
	}
	if (!is_command(argv[1])) {
		err_msg("help: '%s' is not a command; 'tickstat --help' lists them\n", argv[1]);
		return TS_EXIT_ERROR;
	}
	return dispatch(3, (char *[]){ "tickstat", args[0], args[1], NULL });
}

static int dispatch(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr, main_usage, 0);
		return TS_EXIT_ERROR;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout, main_usage, 0);
		return TS_EXIT_OK;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("tickstat %s\n", TICKSTAT_VERSION);
		return TS_EXIT_OK;
	}
	if (!strcmp(argv[1], "help"))
		return help(argc - 1, argv + 1);
	build_getopt_tables();
	for (int c = CMD_RECORD; c <= CMD_CHECK; c++)
		if (!strcmp(argv[1], command_names[c]))
			return run_command(c, argc - 1, argv + 1);
	if (!strcmp(argv[1], command_names[CMD_MONITOR]))
		return run_monitor(argc - 1, argv + 1);
	if (!strcmp(argv[1], command_names[CMD_TOP]))
		return run_top(argc - 1, argv + 1);
	if (!strcmp(argv[1], "doctor"))
		return ts_doctor(argc - 1, argv + 1);
	err_msg("unknown command '%s'\n", argv[1]);
	usage(stderr, main_usage, 0);
	return TS_EXIT_ERROR;
}

/*
 * Standard streams started closed get /dev/null, read-only: else the first
 * file opened takes the descriptor (a spooled output of standard output
 * was then copied onto itself, and the verdict "written" exited 0).  A
 * write to them now fails as it did, read-only.
 */
static void hold_closed_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		int got;

		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		got = open("/dev/null", O_RDONLY);
		if (got >= 0 && got != fd)
			close(got);	/* a lower one was free: taken above */
	}
}

int main(int argc, char **argv)
{
	hold_closed_std_fds();
	/*
	 * A write to a closed pipe is an EPIPE error, handled like any other
	 * (temporary files removed, tracing state restored), not a death.
	 * The command record runs gets the default back (record.c).
	 */
	signal(SIGPIPE, SIG_IGN);
	return finish(dispatch(argc, argv), argc > 1 ? argv[1] : NULL);
}
