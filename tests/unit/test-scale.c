// SPDX-License-Identifier: LGPL-2.1-or-later
/* oom_adj <-> oom_score_adj: every valid value both ways, and the edges. */
#include "unit.h"

/* Reference values computed independently of the library's formulas. */
static int ref_adj_to_score(int adj)
{
	if (adj == 15)
		return 1000;
	return (int)((long long)adj * 1000 / 17);
}

static void adj_to_score_all(void **state)
{
	(void)state;
	for (int adj = -17; adj <= 15; adj++) {
		int s = 12345;

		assert_int_equal(oom_adj_to_score_adj(adj, &s), 0);
		assert_int_equal(s, ref_adj_to_score(adj));
	}
}

static void adj_to_score_known(void **state)
{
	int s;

	(void)state;
	assert_int_equal(oom_adj_to_score_adj(-17, &s), 0);
	assert_int_equal(s, -1000);
	assert_int_equal(oom_adj_to_score_adj(-16, &s), 0);
	assert_int_equal(s, -941);
	assert_int_equal(oom_adj_to_score_adj(14, &s), 0);
	assert_int_equal(s, 823);
	assert_int_equal(oom_adj_to_score_adj(15, &s), 0);
	assert_int_equal(s, 1000);
	assert_int_equal(oom_adj_to_score_adj(1, &s), 0);
	assert_int_equal(s, 58);
}

static void adj_out_of_range(void **state)
{
	int s = 7;

	(void)state;
	assert_int_equal(oom_adj_to_score_adj(-18, &s), -EINVAL);
	assert_int_equal(oom_adj_to_score_adj(16, &s), -EINVAL);
	assert_int_equal(s, 7);
	assert_int_equal(oom_score_adj_to_adj(-1001, &s), -EINVAL);
	assert_int_equal(oom_score_adj_to_adj(1001, &s), -EINVAL);
	assert_int_equal(oom_score_adj_to_adj_kernel(-1001, &s), -EINVAL);
	assert_int_equal(oom_score_adj_to_adj_kernel(1001, &s), -EINVAL);
	assert_int_equal(s, 7);
}

static void score_to_adj_all(void **state)
{
	(void)state;
	for (int sadj = -1000; sadj <= 1000; sadj++) {
		int a, k;

		assert_int_equal(oom_score_adj_to_adj(sadj, &a), 0);
		assert_int_equal(oom_score_adj_to_adj_kernel(sadj, &k), 0);
		/* 2.6.36 stored: -1000 -> -17, else sadj*15/1000 truncated. */
		assert_int_equal(a, sadj == -1000 ? -17 : (int)((long long)sadj * 15 / 1000));
		/* Current read-back: 1000 -> 15, else sadj*17/1000 capped at 15. */
		int want = sadj == 1000 ? 15 : (int)((long long)sadj * 17 / 1000);
		assert_int_equal(k, want > 15 ? 15 : want);
		assert_true(a >= -17 && a <= 15);
		assert_true(k >= -17 && k <= 15);
	}
}

static void score_to_adj_known(void **state)
{
	int k;

	(void)state;
	assert_int_equal(oom_score_adj_to_adj_kernel(500, &k), 0);
	assert_int_equal(k, 8);
	assert_int_equal(oom_score_adj_to_adj_kernel(883, &k), 0);
	assert_int_equal(k, 15);
	assert_int_equal(oom_score_adj_to_adj_kernel(882, &k), 0);
	assert_int_equal(k, 14);
	assert_int_equal(oom_score_adj_to_adj_kernel(999, &k), 0);
	assert_int_equal(k, 15);
	assert_int_equal(oom_score_adj_to_adj_kernel(-1000, &k), 0);
	assert_int_equal(k, -17);
	assert_int_equal(oom_score_adj_to_adj(-999, &k), 0);
	assert_int_equal(k, -14);
}

/*
 * Reading back what an oom_adj write stored: exact except where 1000/17
 * truncation loses it: the value comes back one step nearer zero (-16
 * reads back as -15, 14 as 13), as real kernels show too.
 */
static void round_trip_kernel(void **state)
{
	(void)state;
	for (int adj = -17; adj <= 15; adj++) {
		int s, back;

		assert_int_equal(oom_adj_to_score_adj(adj, &s), 0);
		assert_int_equal(oom_score_adj_to_adj_kernel(s, &back), 0);
		if (adj != 15 && (adj * 1000) % 17)
			assert_int_equal(back, adj > 0 ? adj - 1 : adj + 1);
		else
			assert_int_equal(back, adj);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(adj_to_score_all),   cmocka_unit_test(adj_to_score_known),
		cmocka_unit_test(adj_out_of_range),   cmocka_unit_test(score_to_adj_all),
		cmocka_unit_test(score_to_adj_known), cmocka_unit_test(round_trip_kernel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
