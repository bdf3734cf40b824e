/* SPDX-License-Identifier: GPL-2.0 */
/*
 * filter.h - ftrace event filters that pass the monitored CPUs only.
 */
#ifndef TICKSTAT_FILTER_H
#define TICKSTAT_FILTER_H

#include <stddef.h>

#include "util.h"

/* include/linux/timer.h: the CPU whose base holds a timer, in its flags */
#define TS_TIMER_CPUMASK	0x3ffffu

int ts_filter_cpus(const struct ts_cpuset *set, const char *field, char *buf, size_t len);
int ts_filter_timer_target(const struct ts_cpuset *set, char *buf, size_t len);

#endif
