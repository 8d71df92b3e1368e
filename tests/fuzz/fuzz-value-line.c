// SPDX-License-Identifier: LGPL-2.1-or-later
/* One-value files (sysctls, oom_score_adj, oom_score) and what is done with the value. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_copy(data, size);
	long long v;

	if (oom_parse_value_line(text, size, &v) == 0) {
		int adj, sadj;

		for (int s = 0; s < OOM_SYSCTL_COUNT; s++)
			oom_sysctl_validate((enum oom_sysctl)s, v);
		if (v >= INT32_MIN && v <= INT32_MAX) {
			if (oom_score_adj_to_adj((int)v, &adj) == 0)
				FUZZ_ASSERT(adj >= OOM_DISABLE && adj <= OOM_ADJUST_MAX);
			if (oom_score_adj_to_adj_kernel((int)v, &adj) == 0)
				FUZZ_ASSERT(adj >= OOM_DISABLE && adj <= OOM_ADJUST_MAX);
			if (oom_adj_to_score_adj((int)v, &sadj) == 0)
				FUZZ_ASSERT(sadj >= OOM_SCORE_ADJ_MIN && sadj <= OOM_SCORE_ADJ_MAX);
		}
	}
	free(text);
	return 0;
}
