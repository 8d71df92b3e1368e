// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reading and writing /proc/PID/oom_score_adj. A write goes through the
 * same /proc/PID directory fd that the start time was checked through, so
 * a PID reused between the check and the write cannot be hit: the old
 * directory answers ESRCH once its process is gone.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "internal.h"

static int read_adj_at(int piddir, struct oom_buf *buf, int *value)
{
	long long v;
	int err = oom_read_file_at(piddir, "oom_score_adj", buf);

	if (err == 0)
		err = oom_parse_value_line(buf->data, buf->len, &v);
	if (err == -ENOENT)
		return -ESRCH;
	if (err < 0)
		return err;
	if (v < OOM_SCORE_ADJ_MIN || v > OOM_SCORE_ADJ_MAX)
		return -EINVAL;
	*value = (int)v;
	return 0;
}

OOM_EXPORT int oom_score_adj_read(struct oom_ctx *ctx, pid_t tgid, int *value)
{
	struct oom_buf buf = { 0 };
	int piddir, err;

	if (!ctx || !value)
		return -EINVAL;
	piddir = oom_open_pid_dir(ctx, tgid);
	if (piddir < 0)
		return piddir;
	err = read_adj_at(piddir, &buf, value);
	close(piddir);
	oom_buf_free(&buf);
	return err;
}

OOM_EXPORT int oom_score_adj_write(struct oom_ctx *ctx, pid_t tgid, int value, unsigned long long start_ticks,
				   int *old)
{
	struct oom_buf buf = { 0 };
	struct oom_stat_fields st;
	char text[16];
	int piddir, err, len, prev;

	if (!ctx || value < OOM_SCORE_ADJ_MIN || value > OOM_SCORE_ADJ_MAX)
		return -EINVAL;
	piddir = oom_open_pid_dir(ctx, tgid);
	if (piddir < 0)
		return piddir;
	err = oom_read_file_at(piddir, "stat", &buf);
	if (err == 0)
		err = oom_parse_stat(buf.data, buf.len, &st);
	if (err < 0) {
		err = err == -ENOENT || err == -EINVAL ? -ESRCH : err;
		goto out;
	}
	if (start_ticks && st.starttime != start_ticks) {
		err = -ESTALE;
		goto out;
	}
	/* A kernel thread has no oom_score_adj of its own to change. */
	if (st.flags & OOM_PF_KTHREAD) {
		err = -EPERM;
		goto out;
	}
	err = read_adj_at(piddir, &buf, &prev);
	if (err < 0)
		goto out;
	len = snprintf(text, sizeof(text), "%d\n", value);
	err = oom_write_file_at(piddir, "oom_score_adj", text, (size_t)len);
	if (err == -ENOENT)
		err = -ESRCH;
	if (err == 0 && old)
		*old = prev;
out:
	close(piddir);
	oom_buf_free(&buf);
	return err;
}
