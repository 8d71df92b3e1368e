// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The OOM killer's sysctls. vm.oom_forkbomb_thres was never merged: when
 * the kernel lacks it, the value lives in ROOT/var/lib/liboom/, replaced
 * atomically (write a temporary file, fsync, rename) so that a crash
 * leaves the old or the new value, never half of one.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

#define SHIM_DIR "var/lib/liboom"
#define SHIM_FILE "vm.oom_forkbomb_thres"

static const struct {
	const char *name; /* the file under /proc/sys/vm */
	long long min, max;
	long long fallback; /* the value when the kernel has no such file */
} knobs[OOM_SYSCTL_COUNT] = {
	[OOM_SYSCTL_PANIC_ON_OOM] = { "panic_on_oom", 0, 2, -1 },
	[OOM_SYSCTL_OOM_DUMP_TASKS] = { "oom_dump_tasks", 0, 1, -1 },
	[OOM_SYSCTL_OOM_KILL_ALLOCATING_TASK] = { "oom_kill_allocating_task", 0, 1, -1 },
	[OOM_SYSCTL_OOM_FORKBOMB_THRES] = { "oom_forkbomb_thres", 0, INT_MAX, OOM_FORKBOMB_THRES_DEFAULT },
};

static const char *const full_names[OOM_SYSCTL_COUNT] = {
	"vm.panic_on_oom", "vm.oom_dump_tasks", "vm.oom_kill_allocating_task", "vm.oom_forkbomb_thres",
};

OOM_EXPORT int oom_sysctl_from_name(const char *name, enum oom_sysctl *s)
{
	if (!name)
		return -EINVAL;
	if (strncmp(name, "vm.", 3) == 0 || strncmp(name, "vm/", 3) == 0)
		name += 3;
	for (size_t i = 0; i < OOM_SYSCTL_COUNT; i++) {
		if (strcmp(name, knobs[i].name) == 0) {
			*s = (enum oom_sysctl)i;
			return 0;
		}
	}
	return -ENOENT;
}

OOM_EXPORT const char *oom_sysctl_name(enum oom_sysctl s)
{
	return (unsigned int)s < OOM_SYSCTL_COUNT ? full_names[s] : NULL;
}

OOM_EXPORT int oom_sysctl_validate(enum oom_sysctl s, long long value)
{
	if ((unsigned int)s >= OOM_SYSCTL_COUNT)
		return -EINVAL;
	return value < knobs[s].min || value > knobs[s].max ? -ERANGE : 0;
}

static int kernel_path(enum oom_sysctl s, char *path, size_t size)
{
	int n = snprintf(path, size, "sys/vm/%s", knobs[s].name);

	return n > 0 && (size_t)n < size ? 0 : -ENAMETOOLONG;
}

static int read_value_at(int dirfd, const char *path, long long *value)
{
	struct oom_buf buf = { 0 };
	int err = oom_read_file_at(dirfd, path, &buf);

	if (err == 0)
		err = oom_parse_value_line(buf.data, buf.len, value);
	oom_buf_free(&buf);
	return err;
}

OOM_EXPORT int oom_sysctl_get(struct oom_ctx *ctx, enum oom_sysctl s, long long *value)
{
	char path[64];
	int err;

	if (!ctx || !value || (unsigned int)s >= OOM_SYSCTL_COUNT)
		return -EINVAL;
	err = kernel_path(s, path, sizeof(path));
	if (err < 0)
		return err;
	err = read_value_at(ctx->proc_fd, path, value);
	if (err == -ENOENT && knobs[s].fallback >= 0) {
		err = read_value_at(ctx->root_fd, SHIM_DIR "/" SHIM_FILE, value);
		if (err == -ENOENT) {
			*value = knobs[s].fallback;
			err = 0;
		}
	}
	if (err == -EINVAL)
		return -EBADMSG;
	/*
	 * The kernel keeps panic_on_oom in 0..2 (and our threshold is ours);
	 * the other two are plain ints to it, any non-zero meaning on.
	 */
	if (err == 0 && (s == OOM_SYSCTL_PANIC_ON_OOM || s == OOM_SYSCTL_OOM_FORKBOMB_THRES) &&
	    oom_sysctl_validate(s, *value) < 0)
		return -EBADMSG;
	return err;
}

/*
 * mkdir -p below the root, one component at a time through directory fds,
 * so that a symlink in the way cannot lead outside it. Returns the last fd.
 */
static int open_dirs(int rootfd, const char *rel)
{
	char path[PATH_MAX], *comp, *save = NULL;
	int fd = rootfd;

	if (strlen(rel) >= sizeof(path))
		return -ENAMETOOLONG;
	strcpy(path, rel);
	for (comp = strtok_r(path, "/", &save); comp; comp = strtok_r(NULL, "/", &save)) {
		int next;

		if (mkdirat(fd, comp, 0755) < 0 && errno != EEXIST)
			next = -errno;
		else
			next = oom_openat(fd, comp, O_RDONLY | O_DIRECTORY);
		if (fd != rootfd)
			close(fd);
		if (next < 0)
			return next;
		fd = next;
	}
	return fd;
}

/*
 * A writer killed between creating its temporary file and renaming it
 * leaves the file behind: remove those whose writer (the PID in the name)
 * is gone. The value itself is never at risk, only the directory's tidiness.
 */
static void remove_stale_temps(int dirfd)
{
	static const char prefix[] = "." SHIM_FILE ".";
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *de;
	DIR *d;

	if (fd < 0)
		return;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	while ((de = readdir(d))) {
		char pid[16];
		size_t n;
		long long v;

		if (strncmp(de->d_name, prefix, sizeof(prefix) - 1) != 0)
			continue;
		n = strcspn(de->d_name + sizeof(prefix) - 1, ".");
		if (n == 0 || n >= sizeof(pid))
			continue;
		memcpy(pid, de->d_name + sizeof(prefix) - 1, n);
		pid[n] = '\0';
		if (oom_parse_ll(pid, 10, &v) == 0 && v > 0 && v <= INT_MAX && kill((pid_t)v, 0) < 0 &&
		    errno == ESRCH)
			unlinkat(dirfd, de->d_name, 0);
	}
	closedir(d);
}

static int write_shim(int rootfd, long long value)
{
	char tmp[64], text[32];
	int dirfd, fd, err, len;

	dirfd = open_dirs(rootfd, SHIM_DIR);
	if (dirfd < 0)
		return dirfd;
	remove_stale_temps(dirfd);
	len = snprintf(text, sizeof(text), "%lld\n", value);
	snprintf(tmp, sizeof(tmp), ".%s.%ld.%ld", SHIM_FILE, (long)getpid(), (long)time(NULL));
	fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0) {
		err = -errno;
		close(dirfd);
		return err;
	}
	err = write(fd, text, (size_t)len) == len ? 0 : -EIO;
	if (!err && fsync(fd) < 0)
		err = -errno;
	if (close(fd) < 0 && !err)
		err = -errno;
	if (!err && renameat(dirfd, tmp, dirfd, SHIM_FILE) < 0)
		err = -errno;
	if (err)
		unlinkat(dirfd, tmp, 0);
	else
		fsync(dirfd); /* the rename itself must survive a crash */
	close(dirfd);
	return err;
}

OOM_EXPORT int oom_sysctl_set(struct oom_ctx *ctx, enum oom_sysctl s, long long value)
{
	char path[64], text[32];
	int err, len;

	if (!ctx)
		return -EINVAL;
	err = oom_sysctl_validate(s, value);
	if (err < 0)
		return err;
	err = kernel_path(s, path, sizeof(path));
	if (err < 0)
		return err;
	len = snprintf(text, sizeof(text), "%lld\n", value);
	err = oom_write_file_at(ctx->proc_fd, path, text, (size_t)len);
	if (err != -ENOENT || knobs[s].fallback < 0)
		return err;
	return write_shim(ctx->root_fd, value);
}
