/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Common includes for the cmocka unit tests; they link liboom.a and may use internal.h. */
#ifndef OOM_UNIT_H
#define OOM_UNIT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <cmocka.h>

#include "internal.h"
#include "liboom.h"

#endif
