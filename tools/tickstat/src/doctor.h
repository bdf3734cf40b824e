/* SPDX-License-Identifier: GPL-2.0 */
/*
 * doctor.h - tickstat doctor, the audit of a host's CPU isolation.
 */
#ifndef TICKSTAT_DOCTOR_H
#define TICKSTAT_DOCTOR_H

int ts_doctor(int argc, char **argv);
int ts_doctor_error(void);

#endif
