// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The context: a root prefix held as directory fds. This is the only file
 * that knows where /proc and /sys are; everything else opens relative to
 * the fds kept here, so fixture trees and the live system read alike.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

/* Cleared once openat2() is found missing; tests clear it to exercise the fallback. */
int liboom_use_openat2 = 1;

/* Without openat2(): one component at a time, refusing "..", absolute paths and every symlink. */
/*
 * Opens @comp below @fd without following a symbolic link, except one to a
 * plain name in the same directory (/proc/self -> "1234"), which cannot leave it.
 */
static int open_component(int fd, const char *comp, int flags)
{
	char target[NAME_MAX + 1];
	ssize_t n;
	int nfd = openat(fd, comp, flags | O_NOFOLLOW | O_CLOEXEC);

	if (nfd >= 0 || (errno != ELOOP && errno != ENOTDIR))
		return nfd;
	n = readlinkat(fd, comp, target, sizeof(target) - 1);
	if (n <= 0 || (size_t)n >= sizeof(target) - 1) {
		errno = ELOOP;
		return -1;
	}
	target[n] = '\0';
	if (strchr(target, '/') || strcmp(target, "..") == 0 || strcmp(target, ".") == 0) {
		errno = ELOOP;
		return -1;
	}
	return openat(fd, target, flags | O_NOFOLLOW | O_CLOEXEC);
}

static int openat_walk(int dirfd, const char *path, int flags)
{
	char buf[PATH_MAX], *comp, *next, *save = NULL;
	int fd = dirfd, err = 0;

	if (path[0] == '/')
		return -EXDEV;
	if (strlen(path) >= sizeof(buf))
		return -ENAMETOOLONG;
	strcpy(buf, path);
	comp = strtok_r(buf, "/", &save);
	if (!comp)
		return -ENOENT;
	for (;;) {
		int nfd;

		next = strtok_r(NULL, "/", &save);
		if (strcmp(comp, "..") == 0) {
			err = -EXDEV;
			break;
		}
		nfd = open_component(fd, comp, next ? O_PATH | O_DIRECTORY : flags);
		if (nfd < 0) {
			/* O_NOFOLLOW on a symlink: ELOOP, or ENOTDIR with O_DIRECTORY. */
			err = errno == ELOOP ? -EXDEV : -errno;
			break;
		}
		if (fd != dirfd)
			close(fd);
		fd = nfd;
		if (!next)
			return fd;
		comp = next;
	}
	if (fd != dirfd)
		close(fd);
	return err;
}

int oom_openat(int dirfd, const char *path, int flags)
{
	/*
	 * One name below a directory already opened safely: O_NOFOLLOW keeps
	 * it there as surely as openat2() would, and costs less (the hot path:
	 * every PID directory and every file in it).
	 */
	if (*path && !strchr(path, '/') && strcmp(path, "..") != 0) {
		int fd = openat(dirfd, path, flags | O_NOFOLLOW | O_CLOEXEC);

		if (fd >= 0)
			return fd;
		return errno == ELOOP ? -EXDEV : -errno;
	}
	if (liboom_use_openat2) {
		struct open_how how = {
			.flags = (uint64_t)(flags | O_CLOEXEC),
			.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
		};
		int fd = (int)syscall(SYS_openat2, dirfd, path, &how, sizeof(how));

		if (fd >= 0)
			return fd;
		if (errno != ENOSYS && errno != EPERM)
			return -errno;
		/* An old kernel, a seccomp filter or valgrind: walk by hand from now on. */
		liboom_use_openat2 = 0;
	}
	return openat_walk(dirfd, path, flags);
}

static int open_dir(int dirfd, const char *path)
{
	return oom_openat(dirfd, path, O_RDONLY | O_DIRECTORY);
}

OOM_EXPORT int oom_ctx_new(const char *root, struct oom_ctx **ctxp)
{
	struct oom_ctx *ctx;
	int err;

	if (!ctxp)
		return -EINVAL;
	if (!root || !*root)
		root = "/";
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return -ENOMEM;
	ctx->refcount = 1;
	ctx->proc_fd = ctx->sys_fd = -1;
	ctx->page_size = (unsigned long)sysconf(_SC_PAGESIZE);
	ctx->root = strdup(root);
	if (!ctx->root) {
		err = -ENOMEM;
		goto fail;
	}
	ctx->root_fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (ctx->root_fd < 0) {
		err = -errno;
		goto fail;
	}
	ctx->proc_fd = open_dir(ctx->root_fd, "proc");
	if (ctx->proc_fd < 0) {
		err = ctx->proc_fd;
		goto fail;
	}
	ctx->sys_fd = open_dir(ctx->root_fd, "sys");
	if (ctx->sys_fd < 0)
		ctx->sys_fd = -1;
	*ctxp = ctx;
	return 0;
fail:
	oom_ctx_unref(ctx);
	return err;
}

OOM_EXPORT struct oom_ctx *oom_ctx_ref(struct oom_ctx *ctx)
{
	if (ctx)
		ctx->refcount++;
	return ctx;
}

OOM_EXPORT struct oom_ctx *oom_ctx_unref(struct oom_ctx *ctx)
{
	if (!ctx || --ctx->refcount > 0)
		return NULL;
	if (ctx->sys_fd >= 0)
		close(ctx->sys_fd);
	if (ctx->proc_fd >= 0)
		close(ctx->proc_fd);
	if (ctx->root_fd >= 0)
		close(ctx->root_fd);
	free(ctx->root);
	free(ctx);
	return NULL;
}

OOM_EXPORT const char *oom_ctx_get_root(const struct oom_ctx *ctx)
{
	return ctx->root;
}

OOM_EXPORT unsigned long oom_ctx_get_page_size(const struct oom_ctx *ctx)
{
	return ctx->page_size;
}

int oom_ctx_sys_fd(const struct oom_ctx *ctx)
{
	return ctx->sys_fd >= 0 ? ctx->sys_fd : -ENOENT;
}

int oom_open_pid_dir(const struct oom_ctx *ctx, pid_t tgid)
{
	char name[16];
	int fd;

	if (tgid <= 0)
		return -ESRCH;
	snprintf(name, sizeof(name), "%d", (int)tgid);
	fd = oom_openat(ctx->proc_fd, name, O_RDONLY | O_DIRECTORY);
	/* Missing, or a symbolic link where a process directory should be: no such process. */
	if (fd == -ENOENT || fd == -ENOTDIR || fd == -EXDEV || fd == -ELOOP)
		return -ESRCH;
	return fd;
}
