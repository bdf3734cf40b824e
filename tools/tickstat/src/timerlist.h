/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timerlist.h - each CPU's tick state at the start, from /proc/timer_list.
 */
#ifndef TICKSTAT_TIMERLIST_H
#define TICKSTAT_TIMERLIST_H

#include <stdio.h>

#include "util.h"

int ts_timer_list_stopped(FILE *f, const struct ts_cpuset *online, int *stopped);

#endif
