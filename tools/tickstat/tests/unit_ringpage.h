/* SPDX-License-Identifier: GPL-2.0 */
/* unit_ringpage.h - the page walker's tests, run by unit.c */
#ifndef TICKSTAT_UNIT_RINGPAGE_H
#define TICKSTAT_UNIT_RINGPAGE_H

void test_ringpage_kinds(void);
void test_ringpage_missed(void);
void test_ringpage_lies(void);

#endif
