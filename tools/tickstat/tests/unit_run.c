// SPDX-License-Identifier: GPL-2.0
/*
 * unit_run.c - run a table of CUnit tests as one suite, verbosely.
 */
#include "unit_run.h"

int ts_unit_run(const char *suite_name, const struct ts_unit_test *tests, size_t nr)
{
	CU_pSuite suite;
	unsigned int failed;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	suite = CU_add_suite(suite_name, NULL, NULL);
	for (size_t i = 0; i < nr; i++)
		CU_add_test(suite, tests[i].name, tests[i].fn);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
