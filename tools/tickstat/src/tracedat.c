// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat.c - feed a trace-cmd trace.dat through the analysis.
 *
 * libtracecmd merges the CPUs in time order; the decoder and the state
 * machine are the ones the recordings use.  A trace.dat carries no
 * initial-state snapshot, so every CPU starts unknown until its first
 * event, and the window is the span of the events.
 *
 * trace-cmd record can stop before its readers have written everything
 * (seen under emulation with the host busy): the last events of a CPU are
 * missing, and nothing in the data says so.  The buffer statistics trace-cmd
 * saves (trace-cmd report --stat) count them; see account_unrecorded().
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd/trace-cmd.h>

#include "decode.h"
#include "tracedat.h"
#include "util.h"

/*
 * Not in trace-cmd.h, but exported by libtracecmd (trace-cmd report --stat
 * uses it): the kernel buffer statistics saved when recording stopped.
 */
const char *tracecmd_get_cpustats(struct tracecmd_input *handle);
/* Likewise: the recording machine's uname and the trace clock. */
const char *tracecmd_get_uname(struct tracecmd_input *handle);
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);

struct tracedat_ctx {
	struct ts_analysis *an;
	struct ts_decoder dec;
	uint64_t last_ts;
	uint64_t records;
	int error;
	/*
	 * per CPU: records in the file, the last one's time, and the count
	 * trace-cmd's statistics say it had (read and left in the buffer)
	 */
	uint64_t cpu_records[TS_MAX_CPUS];
	uint64_t cpu_last_ts[TS_MAX_CPUS];
	uint64_t saved[TS_MAX_CPUS];
};

static int on_record(struct tracecmd_input *handle, struct tep_record *rec,
		     int cpu, void *data)
{
	struct tracedat_ctx *ctx = data;
	struct ts_event ev;

	(void)handle;
	ctx->records++;
	if (rec->ts > ctx->last_ts)
		ctx->last_ts = rec->ts;
	rec->cpu = cpu;
	if (cpu >= 0 && cpu < TS_MAX_CPUS) {
		ctx->cpu_records[cpu]++;
		ctx->cpu_last_ts[cpu] = rec->ts;
	}
	if (rec->missed_events) {
		memset(&ev, 0, sizeof(ev));
		ev.kind = TS_EV_LOST;
		ev.cpu = cpu;
		ev.ts = rec->ts;
		ev.lost.count = rec->missed_events > 0 ? (uint64_t)rec->missed_events : 0;
		ts_analysis_event(ctx->an, &ev);
	}
	switch (ts_decode(&ctx->dec, rec, &ev)) {
	case 1:
		if (ts_analysis_event(ctx->an, &ev)) {
			ctx->error = 1;
			return -1;
		}
		break;
	case -1:
		ts_analysis_bad_record(ctx->an, cpu, rec->ts);
		break;
	}
	return 0;
}

/* Name a caller address "function+0xoffset" from the file's kallsyms. */
static void name_caller(struct ts_analysis *an, struct tep_handle *tep, uint64_t addr)
{
	const char *fn = tep_find_function(tep, addr);
	char name[128];

	if (!fn || ts_caller_get(an, addr))
		return;
	snprintf(name, sizeof(name), "%s+0x%llx", fn,
		 (unsigned long long)(addr - tep_find_function_address(tep, addr)));
	ts_caller_set(an, addr, name);
}

/*
 * Events trace-cmd did not write.  The statistics it saved at stop are text,
 * a block per CPU from "CPU: n", with the events the reader had taken
 * ("read events: n") and those still in the buffer ("entries: n").  It
 * saves them before its readers' last flush, so the file normally holds
 * both; when it holds fewer, the last events of that CPU are missing, and
 * the CPU is unknown after its last recorded event.
 */
static void account_unrecorded(struct tracecmd_input *handle, struct tracedat_ctx *ctx,
			       const char *path)
{
	const char *stats = tracecmd_get_cpustats(handle);
	unsigned long long v;
	int cpu = -1;

	for (const char *line = stats; line && *line; line = strchr(line, '\n'), line += !!line) {
		if (sscanf(line, "CPU: %d", &cpu) == 1 || cpu < 0 || cpu >= TS_MAX_CPUS)
			continue;
		if (sscanf(line, "entries: %llu", &v) == 1 ||
		    sscanf(line, "read events: %llu", &v) == 1)
			ctx->saved[cpu] += v;
	}
	for (cpu = 0; cpu < TS_MAX_CPUS; cpu++) {
		uint64_t missing = ctx->saved[cpu] - ctx->cpu_records[cpu];
		uint64_t from = ctx->cpu_last_ts[cpu] ? ctx->cpu_last_ts[cpu] : ctx->an->win_start;

		if (ctx->saved[cpu] <= ctx->cpu_records[cpu] ||
		    ts_analysis_lost_after(ctx->an, cpu, from, missing) != 1)
			continue;
		fprintf(stderr, "tickstat: %s: CPU %d: trace-cmd stopped before writing its last %"
			PRIu64 " events: counted as lost\n", path, cpu, missing);
	}
}

/*
 * The kernel release (third word of the saved uname) and the trace clock
 * ("[mono]" marks the one in use in the saved trace_clock file).
 */
static void file_identity(struct tracecmd_input *handle, struct ts_analysis *an)
{
	const char *uname = tracecmd_get_uname(handle);
	const char *clock = tracecmd_get_trace_clock(handle);
	const char *sel = clock ? strchr(clock, '[') : NULL;

	if (uname && sscanf(uname, "%*s %*s %127s", an->kernel) != 1)
		an->kernel[0] = '\0';
	if (sel && sscanf(sel + 1, "%31[^]]", an->clock) != 1)
		an->clock[0] = '\0';
	else if (!sel && clock && sscanf(clock, "%31s", an->clock) != 1)
		an->clock[0] = '\0';
}

/*
 * ts_read_tracedat - run a trace-cmd file through the analysis.
 * Returns 0, or -1 with a one-line reason in err.
 */
int ts_read_tracedat(const char *path, struct ts_analysis *an, char *err, size_t errlen)
{
	struct tracedat_ctx *ctx = calloc(1, sizeof(*ctx));
	struct tracecmd_input *handle;
	int ret = -1;

	if (!ctx) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	ctx->an = an;
	tracecmd_set_loglevel(TEP_LOG_NONE);
	handle = tracecmd_open(path, 0);
	if (!handle) {
		snprintf(err, errlen, "%s: not a readable trace-cmd file (or a tickstat recording)", path);
		free(ctx);
		return -1;
	}
	if (ts_decoder_init(&ctx->dec, tracecmd_get_tep(handle), &an->caps)) {
		snprintf(err, errlen, "%s: has no timer:tick_stop events (record them with -e timer:tick_stop)",
			 path);
		goto out;
	}
	snprintf(an->source_kind, sizeof(an->source_kind), "trace.dat");
	snprintf(an->source_path, sizeof(an->source_path), "%s", path);
	file_identity(handle, an);
	ts_analysis_set_start(an, tracecmd_get_first_ts(handle));
	/* CPUs without any event are reported too, as unknown */
	for (int cpu = 0; cpu < tep_get_cpus(tracecmd_get_tep(handle)) && cpu < TS_MAX_CPUS; cpu++)
		ts_analysis_cpu(an, cpu);
	ctx->last_ts = tracecmd_get_first_ts(handle);
	if (tracecmd_iterate_events(handle, NULL, 0, on_record, ctx) < 0 || ctx->error) {
		snprintf(err, errlen, "%s: cannot read the events%s", path,
			 ctx->error ? " (CPU number out of range)" : "");
		goto out;
	}
	/* comms from the file's saved cmdlines */
	for (int i = 0; i < an->nr_culprits; i++) {
		int pid = an->culprits[i].pid;
		const char *comm = tep_data_comm_from_pid(tracecmd_get_tep(handle), pid);

		if (!ts_comm_get(an, pid) && comm && strcmp(comm, "<...>"))
			ts_comm_set(an, pid, comm);
		name_caller(an, tracecmd_get_tep(handle), an->culprits[i].caller);
	}
	account_unrecorded(handle, ctx, path);
	ts_analysis_finish(an, ctx->last_ts);
	debug_msg("tickstat: %s: %llu records, %llu undecodable\n", path,
		  (unsigned long long)ctx->records, (unsigned long long)an->bad_records);
	ret = 0;
out:
	tracecmd_close(handle);
	free(ctx);
	return ret;
}
