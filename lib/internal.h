/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* liboom's private interfaces: shared by the library's files and its unit tests. */
#ifndef LIBOOM_INTERNAL_H
#define LIBOOM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "liboom.h"

#define OOM_EXPORT __attribute__((visibility("default")))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- context (context.c): the only code that knows /proc and /sys ---- */

struct oom_ctx {
	int refcount;
	int root_fd; /* O_PATH directory of the root */
	int proc_fd; /* ROOT/proc */
	int sys_fd; /* ROOT/sys, or -1 */
	char *root;
	unsigned long page_size;
};

/*
 * Opens @path below @dirfd without leaving it: openat2(RESOLVE_BENEATH), or
 * where that is missing a walk that refuses "..", absolute paths and symlinks.
 */
int oom_openat(int dirfd, const char *path, int flags);
extern int liboom_use_openat2; /* 0: always walk (set by tests) */
/* ROOT/proc/@tgid as a directory fd; -ESRCH when there is no such process directory. */
int oom_open_pid_dir(const struct oom_ctx *ctx, pid_t tgid);
/* ROOT/sys, or -ENOENT when the root has none. */
int oom_ctx_sys_fd(const struct oom_ctx *ctx);

/* ---- file reading (readfile.c) ---------------------------------------- */

/* A growing buffer reused across reads; data is always NUL-terminated. */
struct oom_buf {
	char *data;
	size_t len;
	size_t cap;
};

void oom_buf_free(struct oom_buf *b);
/* Reads the whole file @path under @dirfd into @b (replacing its content). */
int oom_read_file_at(int dirfd, const char *path, struct oom_buf *b);
/*
 * The same for a file the kernel renders in one piece (status, stat, statm,
 * oom_score_adj, oom_score, cgroup, meminfo, sysctls): a short read ends it.
 */
int oom_read_whole_at(int dirfd, const char *path, struct oom_buf *b);
/* Reads an open fd to its end into @b. */
int oom_read_fd(int fd, struct oom_buf *b);
/*
 * Reads a file kept open, from its start, as oom_read_whole_at() does: a
 * /proc file renders anew on a read at offset 0, so a kept fd costs a
 * pread() per refresh instead of a lookup, an open and a close.
 */
int oom_reread_whole(int fd, struct oom_buf *b);
/* Writes @len bytes of @s to @path under @dirfd with one write(). */
int oom_write_file_at(int dirfd, const char *path, const char *s, size_t len);

/* ---- parsers (parse-proc.c): strings in, structs out, no I/O ---------- */

struct oom_stat_fields {
	pid_t pid;
	char comm[OOM_COMM_MAX];
	char state;
	pid_t ppid;
	unsigned int flags;
	unsigned long long utime, stime;
	long nice;
	unsigned long long starttime;
	unsigned long long vsize; /* bytes */
	long long rss; /* pages */
	int processor;
};

struct oom_status_fields {
	pid_t tgid;
	pid_t ppid;
	uid_t uid;
	unsigned long long rss_anon_kb, rss_file_kb, rss_shmem_kb;
	unsigned long long vm_size_kb, vm_swap_kb, vm_pte_kb;
	uint64_t cap_eff;
	uint64_t sig_pnd, shd_pnd;
	char state; /* first letter of State:, 0 if absent */
	bool kthread; /* "Kthread:\t1" (kernels that print it) */
	bool has_mm; /* VmSize/RssAnon lines are present */
	const char *mems_list; /* points into the parsed text, or NULL */
	size_t mems_list_len;
};

struct oom_statm_fields {
	unsigned long long size, resident, shared, text, lib, data, dt;
};

int oom_parse_stat(const char *text, size_t len, struct oom_stat_fields *out);
int oom_parse_status(const char *text, size_t len, struct oom_status_fields *out);
/* The same, stopping once every key it takes was seen, Mems_allowed_list only with @mems. */
int oom_parse_status_upto(const char *text, size_t len, bool mems, struct oom_status_fields *out);
int oom_parse_statm(const char *text, size_t len, struct oom_statm_fields *out);
int oom_parse_meminfo(const char *text, size_t len, struct oom_meminfo *out);
/* Finds the v2 ("0::") and v1 memory paths; either may be absent (NULL). */
int oom_parse_cgroup(const char *text, size_t len, char **v2, char **memory);
void oom_parse_cgroup_free(char **v2, char **memory);
/* The "Name:" line of status, unescaped to raw bytes. */
int oom_parse_status_name(const char *text, size_t len, char *comm, size_t size);
/* A node list ("0-1,3") into @bits (OOM_MAX_NODES bits, cleared first). */
int oom_parse_node_list(const char *s, size_t len, uint64_t *bits);
/* numa_maps: the union of bind/interleave nodes, and whether any range has a non-restricting policy. */
int oom_parse_numa_maps(const char *text, size_t len, uint64_t *nodes, bool *has_default);
int oom_read_numa_policy(int piddir, struct oom_buf *buf, struct oom_task *t);
/* One decimal value with an optional trailing newline (sysctl, oom_score_adj). */
int oom_parse_value_line(const char *text, size_t len, long long *out);

/* ---- snapshot (snapshot.c) -------------------------------------------- */

struct oom_snapshot {
	struct oom_task *tasks; /* sorted by tgid */
	size_t count;
	size_t *by_ppid; /* task indexes sorted by (ppid, tgid) */
	struct oom_meminfo meminfo;
	unsigned long long uptime;
	unsigned long page_size;
};

/* Builds a snapshot from tasks the caller made (tests, replays); takes @tasks on success only. */
int oom_snapshot_from_tasks(struct oom_task *tasks, size_t count, const struct oom_meminfo *mi,
			    unsigned long page_size, unsigned long long uptime,
			    struct oom_snapshot **snap);

/* ---- watch: a process's files kept open between scans (watch.c) ------- */

enum oom_kept_file {
	OOM_KEPT_STATUS,
	OOM_KEPT_STAT,
	OOM_KEPT_OOM_SCORE_ADJ,
	OOM_KEPT_OOM_SCORE,
	OOM_KEPT_CGROUP,
	OOM_KEPT_STATM,
	OOM_KEPT_COUNT
};

/*
 * Between a process's full reads (each OOM_WATCH_FULL_EVERY-th scan, and
 * whenever its statm changes or it is marked dirty), a status-only read
 * takes the last figures and rereads only oom_score_adj.
 */
#define OOM_WATCH_FULL_EVERY 5
#define OOM_STATM_MAX 96

struct oom_watch_rec {
	pid_t pid;
	bool have_last, dirty;
	int fd[OOM_KEPT_COUNT]; /* -1: not open */
	unsigned char statm_len;
	char statm[OOM_STATM_MAX]; /* statm as read just before the last full read */
	struct oom_task last; /* that read's result (no allocated fields) */
};

struct oom_watch {
	struct oom_ctx *ctx;
	bool keep; /* false: plain reads (not procfs, or told so) */
	size_t open, max_open; /* fds held, and the most it may hold */
	struct oom_watch_rec *recs; /* the last scan's, sorted by pid */
	size_t n_recs, cap_recs;
	struct oom_watch_rec *next; /* this scan's, in listing order */
	size_t n_next, cap_next;
	unsigned long scans;
};

/*
 * Reads every process under the context's /proc; with @w, through the files
 * @w kept open (oom_snapshot_new() is this without a watch).
 */
int oom_scan_proc(struct oom_ctx *ctx, struct oom_watch *w, unsigned int what, struct oom_snapshot **snapp);
/*
 * The record for @pid in this scan: the last scan's (its files still open)
 * or a new one; NULL when nothing more can be kept (read without a record).
 */
struct oom_watch_rec *oom_watch_carry(struct oom_watch *w, pid_t pid);
/* Whether a scan for @what remembers each full read and, while statm stays put, reuses it. */
static inline bool oom_watch_statm_gated(unsigned int what)
{
	/* Status figures only: CPU times, cgroups and node lists change with no trace in statm. */
	return what == OOM_READ_STATUS;
}
/* Whether @r's last full read may stand for its process in this scan, if statm is unchanged. */
bool oom_watch_may_reuse(const struct oom_watch *w, const struct oom_watch_rec *r, unsigned int what);
/* Whether @r holds an open file. */
bool oom_watch_rec_open(const struct oom_watch_rec *r);
/* Closes @r's files; the record stays. */
void oom_watch_rec_close(struct oom_watch *w, struct oom_watch_rec *r);
/* Forgets the record carry() returned last (its process was not read). */
void oom_watch_drop_last(struct oom_watch *w);
/* Ends a scan: closes the files of processes no longer listed. */
void oom_watch_end_scan(struct oom_watch *w);
/* Takes one fd from the budget (false: spent), or gives @n back. */
bool oom_watch_reserve_fd(struct oom_watch *w);
void oom_watch_release_fds(struct oom_watch *w, size_t n);
/* Tests: keep files (or not) whatever the file system, within @max_open fds. */
void oom_watch_set_keep(struct oom_watch *w, bool keep, size_t max_open);

/* The thread IDs under a task/ directory but the leader's, ascending (find_lock_task_mm()'s order). */
int oom_list_threads(int taskfd, pid_t tgid, pid_t **tids, size_t *count);

/* Fills a task from parsed fields (used by the reader and by tests). */
void oom_task_apply_stat(struct oom_task *t, const struct oom_stat_fields *st, unsigned long page_size);
void oom_task_apply_status(struct oom_task *t, const struct oom_status_fields *st, unsigned long page_size);

/* ---- scaling helpers -------------------------------------------------- */

unsigned long oom_int_sqrt(unsigned long x);

#endif
