/* SPDX-License-Identifier: GPL-2.0 */
/* unit_spool.h - the trace.dat writer's spool test, run by unit.c */
#ifndef TICKSTAT_UNIT_SPOOL_H
#define TICKSTAT_UNIT_SPOOL_H

void test_spool_round_trip(void);

#endif
