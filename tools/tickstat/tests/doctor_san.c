// SPDX-License-Identifier: GPL-2.0
/*
 * doctor_san.c - tickstat doctor alone, built with ASan and UBSan: the
 * host test runs it on every fixture, where a bad read of /proc text would
 * show as a sanitizer report instead of a plausible finding.
 */
#include "doctor.h"

int main(int argc, char **argv)
{
	return ts_doctor(argc - 1, argv + 1);
}
