/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probes.h - place tickstat's kprobe events on this machine's kernel, and
 * remove them: on every exit of the recorder, and those a killed recorder
 * left behind.
 */
#ifndef TICKSTAT_PROBES_H
#define TICKSTAT_PROBES_H

#include <stdint.h>

#include <tracefs.h>

#include "probeinfo.h"
#include "util.h"

enum ts_probes_mode {
	TS_PROBES_AUTO,		/* where the kernel's own events are missing */
	TS_PROBES_ON,		/* the same, and a probe that cannot be placed is an error */
	TS_PROBES_OFF,
};

struct ts_probes {
	char group[32];
	unsigned char why[TS_NR_PROBES];	/* enum ts_probe_why */
	unsigned char gap[TS_NR_GAPS];
	struct tracefs_dynevent *dev[TS_NR_PROBES];	/* created */
	uint64_t tick_dep_mask;			/* its address, 0 unknown */
	struct {
		char name[48];
		uint64_t addr, size;
	} fn[16];				/* restart callers found */
	int nr_fn;
	/* what the idle-entry decoder needs: the probes mark's idle tokens */
	long long nohz_inactive;		/* NOHZ_MODE_INACTIVE; -1: no mode read */
	int tif_need_resched;			/* -1: need_resched() not read */
	int nohz_known;
	int no_nohz_full;			/* no NO_HZ_FULL symbol: nobody is nohz_full */
	uint64_t nohz_active[16];		/* CPUs in NOHZ mode at the start */
};

int ts_probes_mode_parse(const char *text);
int ts_probes_place(struct ts_probes *p, int mode, const int need[TS_NR_PARTS],
		    const struct ts_cpuset *online);
int ts_probes_enable(const struct ts_probes *p, struct tracefs_instance *inst);
char *ts_probes_mark(const struct ts_probes *p);
void ts_probes_remove(struct ts_probes *p);
void ts_probes_remove_stale(void);

#endif
