/* SPDX-License-Identifier: GPL-2.0 */
/*
 * monitor.h - tickstat monitor: a session that runs until stopped and
 * keeps cumulative counters for Prometheus.
 */
#ifndef TICKSTAT_MONITOR_H
#define TICKSTAT_MONITOR_H

#include "util.h"

#define TS_MONITOR_INTERVAL	10.0	/* seconds between updates, by default */
#define TS_MONITOR_BUFFER_KB	1024	/* ring buffer per CPU, by default */

struct ts_monitor_opts {
	struct ts_cpuset cpus;		/* monitored; empty: nohz_full or all */
	int buffer_kb;
	double interval;		/* seconds between updates */
	double duration;		/* seconds; 0: until a signal */
	const char *textfile;		/* node_exporter textfile, or NULL */
	const char *listen;		/* ADDR:PORT to serve /metrics on, or NULL */
	int top;			/* named culprits and co-runners per CPU */
	const char *output;		/* keep the recording here too, or NULL */
	int no_causes;			/* --no-causes */
};

int ts_monitor(const struct ts_monitor_opts *o);

#endif
