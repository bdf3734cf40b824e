// SPDX-License-Identifier: GPL-2.0
/*
 * unit_stream.c - synthetic event streams through the state machine, for
 * the unit tests: one set-up of the analysis and of the events every test
 * file builds, so that a capability added to the stream is added once.
 */
#include <stdio.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "unit_stream.h"

struct ts_analysis an;
int task[8];

/*
 * stream_start - a fresh analysis whose window starts at at: a patched
 * kernel's stream (or a stock one's), with every cause type known and
 * timed when causes is set (every x86 vector kind, who armed the timers),
 * or none.
 */
void stream_start(uint64_t at, int patched, int causes)
{
	memset(task, 0, sizeof(task));
	ts_analysis_init(&an);
	an.caps.tick_stop = 1;
	an.caps.scopes = patched;
	an.caps.retain = patched;
	an.caps.restart = patched;
	an.caps.dep_events = patched;
	an.caps.sched_split = patched;
	an.caps.sched_switch = 1;
	an.caps.tick_expiry = 1;
	if (causes) {
		an.caps.causes = (1u << TS_NR_CAUSE_TYPES) - 1;
		an.caps.cause_exits = an.caps.causes;
		an.caps.queue = 1;
		an.caps.vectors = (1u << TS_NR_VECTORS) - 1;
		an.caps.armers = 1u << TS_CAUSE_TIMER | 1u << TS_CAUSE_HRTIMER;
	}
	ts_analysis_set_start(&an, at);
}

/* feed - one event, which the state machine must take */
void feed(const struct ts_event *ev)
{
	CU_ASSERT_EQUAL(ts_analysis_event(&an, ev), 0);
}

/* stop_ok - the tick stopped on cpu, in the task it runs */
void stop_ok(int cpu, uint64_t ts)
{
	feed(&(struct ts_event){ .kind = TS_EV_TICK_STOP, .cpu = cpu, .ts = ts, .pid = task[cpu],
				 .stop = { .success = 1 } });
}

/* retain - a patched kernel's tick_retain of reason */
void retain(int cpu, uint64_t ts, int reason)
{
	feed(&(struct ts_event){ .kind = TS_EV_TICK_RETAIN, .cpu = cpu, .ts = ts,
				 .pid = task[cpu], .retain = { .reason = reason } });
}

/* switch_to - a switch from the task cpu runs to pid, named comm (NULL: "taskPID") */
void switch_to(int cpu, uint64_t ts, int pid, const char *comm)
{
	struct ts_event ev = { .kind = TS_EV_SWITCH, .cpu = cpu, .ts = ts, .pid = task[cpu],
			       .sw = { .prev_pid = task[cpu], .next_pid = pid } };

	if (comm)
		snprintf(ev.sw.next_comm, sizeof(ev.sw.next_comm), "%s", comm);
	else
		snprintf(ev.sw.next_comm, sizeof(ev.sw.next_comm), "task%d", pid);
	feed(&ev);
	task[cpu] = pid;
}
