// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * oom-dump --save: copy the files a snapshot reads into a fixture tree.
 * The copy is raw, byte for byte, and follows the snapshot's own read set
 * (status, stat, oom_score_adj, ... and the threads of zombie leaders),
 * so a snapshot read back from the tree is the one a bug report needs.
 * environ is never copied; cmdline only on request.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "constraint.h"
#include "internal.h"

static const char *const sysctl_files[] = {
	"sys/vm/panic_on_oom",
	"sys/vm/oom_dump_tasks",
	"sys/vm/oom_kill_allocating_task",
	"sys/vm/oom_forkbomb_thres",
};

#define SHIM_PATH "var/lib/liboom/vm.oom_forkbomb_thres"

static int write_new(int dirfd, const char *path, const struct oom_buf *b)
{
	int fd = openat(dirfd, path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	size_t off = 0;
	int err = 0;

	if (fd < 0)
		return -errno;
	while (off < b->len) {
		ssize_t n = write(fd, b->data + off, b->len - off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		off += (size_t)n;
	}
	if (close(fd) < 0 && !err)
		err = -errno;
	return err;
}

/* Copies @path under @src to the same path under @dst. -ENOENT if the source is gone. */
static int copy_file(int src, int dst, const char *path, struct oom_buf *b)
{
	int err = oom_read_file_at(src, path, b);

	if (err < 0)
		return err;
	return write_new(dst, path, b);
}

/* mkdir -p of a relative path under @dirfd. */
static int make_dirs(int dirfd, const char *rel)
{
	char path[256];
	size_t n = strlen(rel);

	if (n >= sizeof(path))
		return -ENAMETOOLONG;
	memcpy(path, rel, n + 1);
	for (char *p = path;; p++) {
		if (*p == '/' || *p == '\0') {
			char c = *p;

			*p = '\0';
			if (mkdirat(dirfd, path, 0755) < 0 && errno != EEXIST)
				return -errno;
			*p = c;
			if (!c)
				break;
		}
	}
	return 0;
}

/*
 * A zombie leader's memory comes from its first live thread with an mm
 * (find_lock_task_mm, as the snapshot reads it). Only that thread is
 * copied: threads differ in their cpu, and a replay must pick the same one.
 */
static int copy_threads(int piddir, int dstpid, const char *pid, unsigned int what, struct oom_buf *b)
{
	int taskfd = oom_openat(piddir, "task", O_RDONLY | O_DIRECTORY);
	pid_t *tids = NULL;
	long long tgid = 0;
	size_t n = 0;
	int err;

	if (taskfd < 0)
		return taskfd == -ENOENT ? 0 : taskfd;
	err = oom_parse_ll(pid, 10, &tgid);
	if (err == 0)
		err = oom_list_threads(taskfd, (pid_t)tgid, &tids, &n);
	close(taskfd);
	for (size_t i = 0; err == 0 && i < n; i++) {
		struct oom_status_fields st;
		char path[64];

		snprintf(path, sizeof(path), "task/%d/status", (int)tids[i]);
		err = oom_read_file_at(piddir, path, b);
		if (err == -ENOENT || err == -ESRCH) {
			err = 0; /* a thread exiting meanwhile */
			continue;
		}
		if (err < 0)
			break;
		if (oom_parse_status(b->data, b->len, &st) < 0 || !st.has_mm)
			continue;
		snprintf(path, sizeof(path), "task/%d", (int)tids[i]);
		err = make_dirs(dstpid, path);
		if (err == 0) {
			snprintf(path, sizeof(path), "task/%d/status", (int)tids[i]);
			err = write_new(dstpid, path, b);
		}
		if (err == 0 && (what & OOM_READ_STAT)) {
			snprintf(path, sizeof(path), "task/%d/stat", (int)tids[i]);
			err = copy_file(piddir, dstpid, path, b);
		}
		break;
	}
	free(tids);
	return err;
}

static int copy_process(int piddir, int dstproc, const char *name, unsigned int what, unsigned int flags,
			struct oom_buf *b)
{
	struct oom_status_fields st;
	int dst, err;

	/* status first: gone means the process is skipped, as a snapshot would. */
	err = oom_read_file_at(piddir, "status", b);
	if (err < 0)
		return err;
	if (mkdirat(dstproc, name, 0755) < 0)
		return -errno;
	dst = openat(dstproc, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dst < 0)
		return -errno;
	err = write_new(dst, "status", b);
	if (err == 0 && oom_parse_status(b->data, b->len, &st) == 0 && st.state == 'Z' && !st.has_mm &&
	    !st.kthread)
		err = copy_threads(piddir, dst, name, what, b);
	if (err == 0 && (what & OOM_READ_STAT))
		err = copy_file(piddir, dst, "stat", b);
	if (err == 0)
		err = copy_file(piddir, dst, "oom_score_adj", b);
	if (err == 0 && (what & OOM_READ_OOM_SCORE))
		err = copy_file(piddir, dst, "oom_score", b);
	if (err == 0 && (what & OOM_READ_CGROUP))
		err = copy_file(piddir, dst, "cgroup", b);
	if (err == 0 && (what & OOM_READ_NUMA_MAPS)) {
		err = copy_file(piddir, dst, "numa_maps", b);
		if (err == -ENOENT)
			err = 0; /* kernels without NUMA have none; the reader copes */
	}
	if (err == 0 && (flags & OOM_SAVE_CMDLINE)) {
		err = copy_file(piddir, dst, "cmdline", b);
		if (err == -ENOENT)
			err = 0;
	}
	close(dst);
	return err;
}

static int copy_sysctls(struct oom_ctx *ctx, int dstroot, int dstproc, struct oom_buf *b)
{
	int err = make_dirs(dstproc, "sys/vm");

	for (size_t i = 0; err == 0 && i < ARRAY_SIZE(sysctl_files); i++) {
		err = copy_file(ctx->proc_fd, dstproc, sysctl_files[i], b);
		if (err == -ENOENT)
			err = 0; /* oom_forkbomb_thres was never merged */
	}
	if (err == 0 && oom_read_file_at(ctx->root_fd, SHIM_PATH, b) == 0) {
		err = make_dirs(dstroot, "var/lib/liboom");
		if (err == 0)
			err = write_new(dstroot, SHIM_PATH, b);
	}
	return err;
}

static int copy_processes(struct oom_ctx *ctx, int dstproc, unsigned int what, unsigned int flags,
			  struct oom_buf *b)
{
	int fd = oom_openat(ctx->proc_fd, ".", O_RDONLY | O_DIRECTORY);
	struct dirent *de;
	DIR *d;
	int err = 0;

	if (fd < 0)
		return fd;
	d = fdopendir(fd);
	if (!d) {
		err = -errno;
		close(fd);
		return err;
	}
	while ((de = readdir(d)) && err == 0) {
		long long pid;
		int piddir;

		/* The names a snapshot would read, and no others. */
		if (de->d_name[0] < '1' || de->d_name[0] > '9' || oom_parse_ll(de->d_name, 10, &pid) < 0 ||
		    pid > INT32_MAX)
			continue;
		piddir = oom_openat(fd, de->d_name, O_RDONLY | O_DIRECTORY);
		if (piddir < 0)
			continue;
		err = copy_process(piddir, dstproc, de->d_name, what, flags, b);
		close(piddir);
		/* A process that vanished or hides its files is skipped, as in a snapshot. */
		if (err == -ENOENT || err == -ESRCH || err == -EACCES || err == -EPERM)
			err = 0;
	}
	closedir(d);
	return err;
}

OOM_EXPORT int oom_snapshot_save(struct oom_ctx *ctx, unsigned int what, unsigned int flags, const char *dir)
{
	struct oom_buf b = { 0 };
	int root = -1, proc = -1, err;

	if (!ctx || !dir || !*dir)
		return -EINVAL;
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return -errno;
	root = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root < 0)
		return -errno;
	/* Never mix two systems' files: the tree must be new. */
	if (mkdirat(root, "proc", 0755) < 0) {
		err = -errno;
		goto out;
	}
	proc = openat(root, "proc", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (proc < 0) {
		err = -errno;
		goto out;
	}
	if (mkdirat(root, "sys", 0755) < 0 && errno != EEXIST) {
		err = -errno;
		goto out;
	}
	err = copy_file(ctx->proc_fd, proc, "meminfo", &b);
	if (err == 0) {
		err = copy_file(ctx->proc_fd, proc, "uptime", &b);
		if (err == -ENOENT)
			err = 0;
	}
	if (err == 0 && (flags & OOM_SAVE_SYSCTLS))
		err = copy_sysctls(ctx, root, proc, &b);
	if (err == 0)
		err = copy_processes(ctx, proc, what, flags, &b);
out:
	if (proc >= 0)
		close(proc);
	close(root);
	oom_buf_free(&b);
	return err;
}

/* Copies @rel from under @src to under @dst, creating its directories; -ENOENT if absent. */
static int copy_rel(int src, int dst, const char *rel, struct oom_buf *b)
{
	const char *slash = strrchr(rel, '/');
	char dir[PATH_MAX];
	int err = oom_read_file_at(src, rel, b);

	if (err < 0)
		return err;
	if (slash) {
		if ((size_t)(slash - rel) >= sizeof(dir))
			return -ENAMETOOLONG;
		memcpy(dir, rel, (size_t)(slash - rel));
		dir[slash - rel] = '\0';
		err = make_dirs(dst, dir);
		if (err < 0)
			return err;
	}
	return write_new(dst, rel, b);
}

/* mountinfo, then the group's two limit files (a missing one means "no limit": it stays missing). */
static int save_memcg(struct oom_ctx *ctx, const struct oom_constraint *c, int root, int proc, struct oom_buf *b)
{
	static const char *const v1[] = { "memory.limit_in_bytes", "memory.memsw.limit_in_bytes" };
	static const char *const v2[] = { "memory.max", "memory.swap.max" };
	int version = oom_constraint_memcg_version(c);
	struct cg_mounts mounts;
	char dir[PATH_MAX], path[PATH_MAX + 32];
	int err;

	err = copy_rel(ctx->proc_fd, proc, "self/mountinfo", b);
	if (err == 0)
		err = cg_parse_mountinfo(b->data, b->len, &mounts); /* @b still holds what was copied */
	if (err < 0)
		return err;
	err = cg_dir_path(version == 1 ? &mounts.v1_memory : &mounts.v2, oom_constraint_memcg_path(c), dir,
			  sizeof(dir));
	cg_mounts_free(&mounts);
	/* The group's directory exists even where it has no limit file (the root group). */
	if (err == 0)
		err = make_dirs(root, dir);
	for (size_t i = 0; err == 0 && i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, version == 1 ? v1[i] : v2[i]);
		err = copy_rel(ctx->root_fd, root, path, b);
		if (err == -ENOENT)
			err = 0;
	}
	return err;
}

/* The meminfo of every node the constraint covers. */
static int save_nodes(struct oom_ctx *ctx, const struct oom_constraint *c, int root, struct oom_buf *b)
{
	const uint64_t *nodes = oom_constraint_nodes(c);
	int sys = oom_ctx_sys_fd(ctx), dst, err = 0;

	if (sys < 0)
		return sys;
	if (mkdirat(root, "sys", 0755) < 0 && errno != EEXIST)
		return -errno;
	dst = openat(root, "sys", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dst < 0)
		return -errno;
	for (int n = 0; nodes && n < OOM_MAX_NODES && err == 0; n++) {
		char path[64];

		if (!(nodes[n / 64] >> (n % 64) & 1))
			continue;
		snprintf(path, sizeof(path), "devices/system/node/node%d/meminfo", n);
		err = copy_rel(sys, dst, path, b);
	}
	close(dst);
	return err;
}

OOM_EXPORT int oom_snapshot_save_constraint(struct oom_ctx *ctx, const struct oom_constraint *c, const char *dir)
{
	struct oom_buf b = { 0 };
	int root, proc, err;

	if (!ctx || !dir)
		return -EINVAL;
	if (!c || oom_constraint_get_type(c) == OOM_CONSTRAINT_NONE)
		return 0;
	root = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root < 0)
		return -errno;
	proc = openat(root, "proc", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (proc < 0) {
		err = -errno;
		close(root);
		return err;
	}
	switch (oom_constraint_get_type(c)) {
	case OOM_CONSTRAINT_MEMCG:
		err = save_memcg(ctx, c, root, proc, &b);
		break;
	case OOM_CONSTRAINT_CPUSET:
	case OOM_CONSTRAINT_MEMPOLICY:
		err = save_nodes(ctx, c, root, &b);
		break;
	default:
		err = -EINVAL;
		break;
	}
	close(proc);
	close(root);
	oom_buf_free(&b);
	return err;
}
