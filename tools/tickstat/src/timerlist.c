// SPDX-License-Identifier: GPL-2.0
/*
 * timerlist.c - each CPU's tick state at the start, from /proc/timer_list
 * (its ".tick_stopped" in the CPU's section), for the start snapshot.
 */
#include "analysis.h"
#include "timerlist.h"

/*
 * ts_timer_list_stopped - stopped[cpu] = 1 for a CPU whose tick was
 * stopped, 0 for one whose tick ran, left as it was (-1) for a CPU the
 * file has no .tick_stopped of.  The kernel writes the file as it is read,
 * a CPU at a time, with each active timer's and each clock event device's
 * functions by name (a symbol lookup each): the read stops once every
 * online CPU has its .tick_stopped, before the rest of the last one's
 * section and the tick devices of every CPU.  A kernel whose file has no
 * .tick_stopped is read whole.  Returns the online CPUs found.
 */
int ts_timer_list_stopped(FILE *f, const struct ts_cpuset *online, int *stopped)
{
	int found = 0, want = ts_cpuset_count(online), cpu = -1, v;
	char line[256];

	while (found < want && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "cpu: %d", &cpu) == 1)
			continue;
		if (cpu >= 0 && cpu < TS_MAX_CPUS && sscanf(line, " .tick_stopped : %d", &v) == 1) {
			found += stopped[cpu] < 0 && ts_cpuset_has(online, cpu);
			stopped[cpu] = v;
		}
	}
	return found;
}
