// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Whole-file reads with read() into a growing buffer: /proc files report
 * st_size 0 and change between reads, so the size is never trusted.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#define OOM_BUF_MIN 4096
#define OOM_FILE_MAX (64u << 20) /* no /proc file we read is near this */

void oom_buf_free(struct oom_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

static int buf_reserve(struct oom_buf *b, size_t need)
{
	size_t cap = b->cap ? b->cap : OOM_BUF_MIN;
	char *p;

	if (need <= b->cap)
		return 0;
	while (cap < need)
		cap *= 2;
	if (cap > OOM_FILE_MAX + 1)
		return -EFBIG;
	p = realloc(b->data, cap);
	if (!p)
		return -ENOMEM;
	b->data = p;
	b->cap = cap;
	return 0;
}

/*
 * Reads to EOF. With @whole, a read that leaves room unused is taken as the
 * end: files the kernel renders in one piece (status, stat, oom_score_adj,
 * regular files) come back whole in the first read, and that saves a
 * read() per file. Multi-record seq_files (numa_maps, mountinfo) hand out
 * a page at a time and must be read with @whole false.
 */
static int read_fd(int fd, struct oom_buf *b, bool whole, bool from_start)
{
	int err;

	b->len = 0;
	for (;;) {
		size_t room;
		ssize_t n;

		/* Keep room for the terminating NUL and at least 1 KiB to read into. */
		err = buf_reserve(b, b->len + 1024 + 1);
		if (err < 0)
			return err;
		room = b->cap - b->len - 1;
		n = from_start ? pread(fd, b->data + b->len, room, (off_t)b->len) : read(fd, b->data + b->len, room);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		b->len += (size_t)n;
		if (n == 0 || (whole && (size_t)n < room))
			break;
	}
	b->data[b->len] = '\0';
	return 0;
}

int oom_read_fd(int fd, struct oom_buf *b)
{
	return read_fd(fd, b, false, false);
}

int oom_reread_whole(int fd, struct oom_buf *b)
{
	return read_fd(fd, b, true, true);
}

static int read_at(int dirfd, const char *path, struct oom_buf *b, bool whole)
{
	int fd, err;

	fd = oom_openat(dirfd, path, O_RDONLY);
	if (fd < 0)
		return fd;
	err = read_fd(fd, b, whole, false);
	close(fd);
	return err;
}

int oom_read_file_at(int dirfd, const char *path, struct oom_buf *b)
{
	return read_at(dirfd, path, b, false);
}

int oom_read_whole_at(int dirfd, const char *path, struct oom_buf *b)
{
	return read_at(dirfd, path, b, true);
}

int oom_write_file_at(int dirfd, const char *path, const char *s, size_t len)
{
	ssize_t n;
	int fd, err = 0;

	/* O_TRUNC: /proc ignores it, and a fixture's longer old value must not survive. */
	fd = oom_openat(dirfd, path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return fd;
	n = write(fd, s, len);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	if (close(fd) < 0 && !err)
		err = -errno;
	return err;
}
