// SPDX-License-Identifier: LGPL-2.1-or-later
/* oom_adj <-> oom_score_adj, exactly as fs/proc/base.c scales them. */
#include <errno.h>

#include "internal.h"

OOM_EXPORT int oom_adj_to_score_adj(int adj, int *score_adj)
{
	if (adj < OOM_DISABLE || adj > OOM_ADJUST_MAX)
		return -EINVAL;
	/* 15 must reach 1000; -17 reaches -1000 by itself (-17000 / 17). */
	*score_adj = adj == OOM_ADJUST_MAX ? OOM_SCORE_ADJ_MAX : adj * OOM_SCORE_ADJ_MAX / -OOM_DISABLE;
	return 0;
}

OOM_EXPORT int oom_score_adj_to_adj(int score_adj, int *adj)
{
	if (score_adj < OOM_SCORE_ADJ_MIN || score_adj > OOM_SCORE_ADJ_MAX)
		return -EINVAL;
	/* 2.6.36: -1000 must reach OOM_DISABLE, which the linear scale misses. */
	*adj = score_adj == OOM_SCORE_ADJ_MIN ? OOM_DISABLE : score_adj * OOM_ADJUST_MAX / OOM_SCORE_ADJ_MAX;
	return 0;
}

OOM_EXPORT int oom_score_adj_to_adj_kernel(int score_adj, int *adj)
{
	int v;

	if (score_adj < OOM_SCORE_ADJ_MIN || score_adj > OOM_SCORE_ADJ_MAX)
		return -EINVAL;
	/* Since 3.7 oom_adj is not stored: reads scale by 17 and cap at 15. */
	v = score_adj == OOM_SCORE_ADJ_MAX ? OOM_ADJUST_MAX : score_adj * -OOM_DISABLE / OOM_SCORE_ADJ_MAX;
	*adj = v > OOM_ADJUST_MAX ? OOM_ADJUST_MAX : v;
	return 0;
}
