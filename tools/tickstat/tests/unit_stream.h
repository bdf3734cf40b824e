/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unit_stream.h - synthetic event streams through the state machine: the
 * analysis they feed and the events the unit tests build, shared by
 * unit.c, diagnosis_unit.c and monitor_unit.c.
 */
#ifndef TICKSTAT_UNIT_STREAM_H
#define TICKSTAT_UNIT_STREAM_H

#include <stdint.h>

#include "analysis.h"

#define MS	1000000ULL
#define S	1000000000ULL

extern struct ts_analysis an;	/* the analysis the stream feeds */
extern int task[8];		/* the pid each CPU runs, which every event names */

void stream_start(uint64_t at, int patched, int causes);
void feed(const struct ts_event *ev);
void stop_ok(int cpu, uint64_t ts);
void retain(int cpu, uint64_t ts, int reason);
void switch_to(int cpu, uint64_t ts, int pid, const char *comm);

#endif
