/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Shared bits of the libFuzzer harnesses. Each harness hands a parser an
 * exact-size heap copy of the input (no NUL after it), so ASan reports a
 * parser that reads one byte past the length it was given.
 */
#ifndef OOM_FUZZ_H
#define OOM_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An exact-size copy of @size bytes (malloc(0) is avoided: one byte, unused). */
static inline char *fuzz_copy(const uint8_t *data, size_t size)
{
	char *p = malloc(size ? size : 1);

	if (!p)
		abort();
	if (size)
		memcpy(p, data, size);
	return p;
}

/* A NUL-terminated copy, for functions that take C strings. */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
	char *p = malloc(size + 1);

	if (!p)
		abort();
	if (size)
		memcpy(p, data, size);
	p[size] = '\0';
	return p;
}

/* An invariant the code under test broke: a crash libFuzzer keeps. */
#define FUZZ_ASSERT(cond)                                                                         \
	do {                                                                                      \
		if (!(cond)) {                                                                    \
			fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, #cond); \
			abort();                                                                  \
		}                                                                                 \
	} while (0)

/* Every bit at or above OOM_MAX_NODES is zero, trivially, as the array has none; check the words. */
static inline size_t fuzz_popcount_nodes(const uint64_t *bits)
{
	size_t n = 0;

	for (size_t w = 0; w < OOM_MAX_NODES / 64; w++)
		n += (size_t)__builtin_popcountll(bits[w]);
	return n;
}

#endif
