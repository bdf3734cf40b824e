// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat.c - feed a trace-cmd trace.dat through the analysis.
 *
 * libtracecmd merges the CPUs in time order; the decoder and the state
 * machine are the ones the recordings use.  A trace.dat carries no
 * initial-state snapshot, so every CPU starts unknown until its first
 * event, and the window is the span of the events.
 */
#include <stdio.h>
#include <string.h>

#include <trace-cmd/trace-cmd.h>

#include "decode.h"
#include "tracedat.h"

struct tracedat_ctx {
	struct ts_analysis *an;
	struct ts_decoder dec;
	uint64_t last_ts;
	uint64_t records;
	int error;
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
	if (rec->missed_events) {
		memset(&ev, 0, sizeof(ev));
		ev.kind = TS_EV_LOST;
		ev.cpu = cpu;
		ev.ts = rec->ts;
		ev.lost.count = rec->missed_events > 0 ? (uint64_t)rec->missed_events : 0;
		ts_analysis_event(ctx->an, &ev);
	}
	if (ts_decode(&ctx->dec, rec, &ev) == 1 && ts_analysis_event(ctx->an, &ev)) {
		ctx->error = 1;
		return -1;
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
 * ts_read_tracedat - run a trace-cmd file through the analysis.
 * Returns 0, or -1 with a one-line reason in err.
 */
int ts_read_tracedat(const char *path, struct ts_analysis *an, char *err, size_t errlen)
{
	struct tracedat_ctx ctx = { .an = an };
	struct tracecmd_input *handle;
	int ret = -1;

	tracecmd_set_loglevel(TEP_LOG_NONE);
	handle = tracecmd_open(path, 0);
	if (!handle) {
		snprintf(err, errlen, "%s: not a readable trace-cmd file (or a tickstat recording)", path);
		return -1;
	}
	if (ts_decoder_init(&ctx.dec, tracecmd_get_tep(handle), &an->caps)) {
		snprintf(err, errlen, "%s: has no timer:tick_stop events (record them with -e timer:tick_stop)",
			 path);
		goto out;
	}
	snprintf(an->source_kind, sizeof(an->source_kind), "trace.dat");
	snprintf(an->source_path, sizeof(an->source_path), "%s", path);
	ts_analysis_set_start(an, tracecmd_get_first_ts(handle));
	/* CPUs without any event are reported too, as unknown */
	for (int cpu = 0; cpu < tep_get_cpus(tracecmd_get_tep(handle)) && cpu < TS_MAX_CPUS; cpu++)
		ts_analysis_cpu(an, cpu);
	ctx.last_ts = tracecmd_get_first_ts(handle);
	if (tracecmd_iterate_events(handle, NULL, 0, on_record, &ctx) < 0 || ctx.error) {
		snprintf(err, errlen, "%s: cannot read the events%s", path,
			 ctx.error ? " (CPU number out of range)" : "");
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
	ts_analysis_finish(an, ctx.last_ts);
	ret = 0;
out:
	tracecmd_close(handle);
	return ret;
}
