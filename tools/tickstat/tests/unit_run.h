/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unit_run.h - run a table of CUnit tests as one suite: the main() of
 * unit.c and monitor_unit.c.
 */
#ifndef TICKSTAT_UNIT_RUN_H
#define TICKSTAT_UNIT_RUN_H

#include <stddef.h>

#include <CUnit/Basic.h>

struct ts_unit_test {
	const char *name;
	CU_TestFunc fn;
};

/* 0 when every test passed, 1 when one failed, 2 when CUnit could not start */
int ts_unit_run(const char *suite, const struct ts_unit_test *tests, size_t nr);

#endif
