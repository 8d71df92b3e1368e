/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * liboom - the 2010 rewrite of the Linux OOM killer's heuristic, in userspace.
 *
 * Every function returns 0 (or a non-negative count) on success and a
 * negative errno value on failure; none prints, exits or reads the
 * environment. Memory figures carry their unit in their name: _pages are
 * sysconf(_SC_PAGESIZE) bytes, _kb are kibibytes, _bytes are bytes.
 */
#ifndef LIBOOM_H
#define LIBOOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The kernel's limits (include/uapi/linux/oom.h). */
#define OOM_DISABLE (-17)
#define OOM_ADJUST_MIN (-16)
#define OOM_ADJUST_MAX 15
#define OOM_SCORE_ADJ_MIN (-1000)
#define OOM_SCORE_ADJ_MAX 1000

/* Task flags from /proc/PID/stat (include/linux/sched.h). */
#define OOM_PF_EXITING 0x00000004u
#define OOM_PF_KTHREAD 0x00200000u

/* Capability bits of CapEff (include/uapi/linux/capability.h). */
#define OOM_CAP_SYS_RAWIO 17
#define OOM_CAP_SYS_ADMIN 21
#define OOM_CAP_SYS_RESOURCE 24

/* The forkbomb threshold the 2010 patch defaulted to. */
#define OOM_FORKBOMB_THRES_DEFAULT 1000

/* ---- oom_adj <-> oom_score_adj ---------------------------------------- */

/* oom_adj (-17..15) to oom_score_adj, as every kernel since 2.6.36 scales it. */
int oom_adj_to_score_adj(int adj, int *score_adj);
/* oom_score_adj (-1000..1000) to oom_adj, as 2.6.36 stored it on a write. */
int oom_score_adj_to_adj(int score_adj, int *adj);
/* oom_score_adj to oom_adj, as a current kernel reads /proc/PID/oom_adj back. */
int oom_score_adj_to_adj_kernel(int score_adj, int *adj);

/* ---- context: the root prefix ----------------------------------------- */

struct oom_ctx;

/*
 * oom_ctx_new - open a context whose /proc and /sys live under @root
 * (NULL or "/" for the running system). Returns 0 and a context with one
 * reference in *@ctx, or -errno (-ENOENT when @root has no proc/ directory).
 */
int oom_ctx_new(const char *root, struct oom_ctx **ctx);
struct oom_ctx *oom_ctx_ref(struct oom_ctx *ctx);
/* Drops a reference; NULL is accepted. Returns NULL. */
struct oom_ctx *oom_ctx_unref(struct oom_ctx *ctx);
/* The root this context reads under, as given (never NULL). */
const char *oom_ctx_get_root(const struct oom_ctx *ctx);
/* Page size used to turn kB into pages (the running system's). */
unsigned long oom_ctx_get_page_size(const struct oom_ctx *ctx);

/* ---- system memory ---------------------------------------------------- */

/* The /proc/meminfo lines the heuristics need, in kB. */
struct oom_meminfo {
	unsigned long long mem_total_kb;
	unsigned long long mem_free_kb;
	unsigned long long active_anon_kb;
	unsigned long long inactive_anon_kb;
	unsigned long long active_file_kb;
	unsigned long long inactive_file_kb;
	unsigned long long swap_total_kb;
	unsigned long long swap_free_kb;
};

int oom_read_meminfo(struct oom_ctx *ctx, struct oom_meminfo *mi);
/* Seconds since boot, from /proc/uptime (whole seconds). */
int oom_read_uptime(struct oom_ctx *ctx, unsigned long long *seconds);

/* ---- process snapshot ------------------------------------------------- */

/* What a snapshot reads per process: read only what the output needs. */
enum oom_read_flags {
	OOM_READ_STATUS = 1u << 0, /* uid, ppid, memory, caps, signals */
	OOM_READ_STAT = 1u << 1, /* state, flags, cpu, times, nice, vsize */
	OOM_READ_OOM_SCORE = 1u << 2, /* the kernel's /proc/PID/oom_score */
	OOM_READ_CGROUP = 1u << 3, /* /proc/PID/cgroup */
	OOM_READ_MEMS = 1u << 4, /* Mems_allowed_list (implies STATUS) */
	OOM_READ_NUMA_MAPS = 1u << 5, /* bind/interleave nodes from numa_maps */
	OOM_READ_ALL = 0x3fu,
};

/* Bits of struct oom_task.have: which files were read for the task. */
enum oom_task_have {
	OOM_HAVE_STATUS = 1u << 0,
	OOM_HAVE_STAT = 1u << 1,
	OOM_HAVE_OOM_SCORE = 1u << 2,
	OOM_HAVE_CGROUP = 1u << 3,
	OOM_HAVE_MEMS = 1u << 4,
	OOM_HAVE_NUMA_MAPS = 1u << 5,
	OOM_HAVE_MM = 1u << 6, /* the task (or a live thread of it) has an mm */
};

#define OOM_COMM_MAX 64 /* the kernel's comm is 16 bytes; kthreads' up to 64 */
#define OOM_MAX_NODES 1024 /* MAX_NUMNODES on the largest configs */

/*
 * One thread-group leader as read from /proc. The library allocates these;
 * callers never do (fields may be appended in later versions).
 */
struct oom_task {
	pid_t pid; /* the thread whose mm was used (the leader unless it is a zombie) */
	pid_t tgid;
	pid_t ppid;
	uid_t uid; /* real uid */
	char comm[OOM_COMM_MAX]; /* raw bytes, NUL-terminated */
	char state;
	unsigned int flags; /* PF_* */
	int cpu; /* last CPU run on */
	long nice;
	unsigned long long utime_ticks, stime_ticks; /* whole thread group */
	unsigned long long start_ticks; /* since boot */
	unsigned long total_vm_pages;
	unsigned long rss_anon_pages, rss_file_pages, rss_shmem_pages;
	unsigned long swap_pages;
	unsigned long pgtables_bytes;
	uint64_t cap_eff;
	uint64_t sig_pending; /* SigPnd | ShdPnd */
	int oom_score_adj;
	long oom_score; /* the kernel's, -1 unless OOM_READ_OOM_SCORE */
	unsigned int have; /* enum oom_task_have */
	char *cgroup_v2; /* "0::" path, or NULL */
	char *cgroup_memory; /* v1 memory controller path, or NULL */
	uint64_t *mems_allowed; /* OOM_MAX_NODES bits, or NULL */
	uint64_t *policy_nodes; /* union of bind/interleave nodes, or NULL */
	bool policy_default; /* numa_maps shows a default/prefer policy */
	/*
	 * A zombie leader's live thread lends it an mm (pid is then that
	 * thread): its name, which the kernel prints where it names the mm's
	 * task (6.8+ dump_tasks, "Killed process"); NULL when pid == tgid.
	 */
	char *mm_comm;
};

static inline unsigned long oom_task_rss_pages(const struct oom_task *t)
{
	return t->rss_anon_pages + t->rss_file_pages + t->rss_shmem_pages;
}

/* The name of the task whose mm the figures come from (see mm_comm). */
static inline const char *oom_task_mm_comm(const struct oom_task *t)
{
	return t->mm_comm ? t->mm_comm : t->comm;
}

static inline bool oom_task_is_kthread(const struct oom_task *t)
{
	return (t->flags & OOM_PF_KTHREAD) != 0;
}

static inline bool oom_task_has_cap(const struct oom_task *t, int cap)
{
	return (t->cap_eff >> cap) & 1u;
}

struct oom_snapshot;

/*
 * oom_snapshot_new - read every thread-group leader under the context's
 * /proc, in PID order. Processes that vanish during the scan are skipped.
 * @what: enum oom_read_flags. The system's meminfo is always read.
 */
int oom_snapshot_new(struct oom_ctx *ctx, unsigned int what, struct oom_snapshot **snap);
/* Frees a snapshot; NULL is accepted. */
void oom_snapshot_free(struct oom_snapshot *snap);
size_t oom_snapshot_count(const struct oom_snapshot *snap);
/* The i-th task in PID order, or NULL past the end. */
const struct oom_task *oom_snapshot_task(const struct oom_snapshot *snap, size_t i);
/* The task with thread-group id @tgid, or NULL. */
const struct oom_task *oom_snapshot_find(const struct oom_snapshot *snap, pid_t tgid);
const struct oom_meminfo *oom_snapshot_meminfo(const struct oom_snapshot *snap);
/* Seconds since boot when the snapshot was taken. */
unsigned long long oom_snapshot_uptime(const struct oom_snapshot *snap);
unsigned long oom_snapshot_page_size(const struct oom_snapshot *snap);
/*
 * The children of @tgid (tasks whose ppid is @tgid), in PID order: sets
 * *@first to an index array into the snapshot and returns their count.
 */
size_t oom_snapshot_children(const struct oom_snapshot *snap, pid_t tgid, const size_t **first);
/*
 * oom_snapshot_read_children_stat - read stat for the children of @parent
 * that were scanned without it: the forkbomb penalty needs their CPU times,
 * and only for a parent with more children than the threshold, so a scan
 * can skip stat and ask here for the few that need it. Children gone since
 * the scan keep what they had. Returns 0 or -ENOMEM.
 */
int oom_snapshot_read_children_stat(struct oom_ctx *ctx, struct oom_snapshot *snap, pid_t parent);

/*
 * A watch: the same /proc scanned again and again (oomtop's refreshes). On
 * procfs it keeps each process's files open from one scan to the next, so a
 * refresh costs a pread() per file instead of a path lookup, an open and a
 * close; a kept file follows its process, never a new one that reuses the
 * PID (that reads as gone, and the PID is read afresh). It holds at most
 * half the RLIMIT_NOFILE soft limit, and OOM_WATCH_MAX_FILES, open files
 * (the kernel keeps about a page for each open status file); processes past
 * that are read as oom_snapshot_new() reads them. On other file systems (a
 * saved tree, whose files may be replaced) it keeps nothing.
 */
#define OOM_WATCH_MAX_FILES 4096
struct oom_watch;
int oom_watch_new(struct oom_ctx *ctx, struct oom_watch **w);
/*
 * A new snapshot of every process, read as oom_snapshot_new() reads it, but
 * for what statm does not show between full reads (see oom_watch_invalidate()).
 */
int oom_watch_scan(struct oom_watch *w, unsigned int what, struct oom_snapshot **snap);
/*
 * Marks @pid to be read in full at the next scan (oomtop calls it on an
 * exec, and for the children of a process that exits). Between full reads,
 * which come round for each process every OOM_WATCH_FULL_EVERY scans, a
 * status-only scan rereads a process's status only when its statm changed
 * (oom_score_adj always; a task with a signal pending is always read in
 * full): a new uid, name, parent or state, dropped capabilities or a signal
 * that arrives while memory stays put show at the next full read.
 */
void oom_watch_invalidate(struct oom_watch *w, pid_t pid);
/* How many files the watch holds open now. */
size_t oom_watch_open_files(const struct oom_watch *w);
/* Closes every kept file. */
void oom_watch_free(struct oom_watch *w);

/* Reads one process (by thread-group id) the way a snapshot would. */
int oom_task_read(struct oom_ctx *ctx, pid_t tgid, unsigned int what, struct oom_task *task);
/* Frees what oom_task_read allocated inside @task (not @task itself). */
void oom_task_clear(struct oom_task *task);

/* ---- heuristics --------------------------------------------------------- */

enum oom_heuristic {
	OOM_HEURISTIC_REWRITE, /* the 2010 rewrite as posted (2.6.36) */
	OOM_HEURISTIC_KERNEL, /* current mainline: reproduces /proc/PID/oom_score */
	OOM_HEURISTIC_LEGACY, /* pre-2010 badness() (2.6.35) */
};

/* "rewrite", "kernel", "legacy"; -EINVAL for any other name. */
int oom_heuristic_from_name(const char *name, enum oom_heuristic *h);
const char *oom_heuristic_name(enum oom_heuristic h);

/* Where a totalpages figure came from. */
enum oom_total_source {
	OOM_TOTAL_LRU_SWAP, /* Active/Inactive anon+file + SwapTotal (rewrite) */
	OOM_TOTAL_RAM_SWAP, /* MemTotal + SwapTotal (kernel) */
	OOM_TOTAL_MEMCG, /* a memory cgroup's limit */
	OOM_TOTAL_NODES, /* the allowed nodes' LRU pages + SwapTotal */
};

/* The system-wide totalpages each heuristic uses (legacy: as kernel). */
unsigned long oom_system_totalpages(const struct oom_meminfo *mi, unsigned long page_size,
				    enum oom_heuristic h, enum oom_total_source *source);

/* Scoring parameters for one run. */
struct oom_score_params {
	enum oom_heuristic heuristic;
	unsigned long totalpages; /* "allowed" memory */
	unsigned long forkbomb_thres; /* 0 disables the penalty */
};

/* Every term of one task's score, for oomctl explain. */
struct oom_score_terms {
	bool eligible; /* false: never a candidate (kthread, init, no mm, -1000) */
	long score; /* the result: 0..1000 (rewrite), points (kernel), badness (legacy) */
	/* rewrite and kernel */
	unsigned long rss_pages, swap_pages, pgtables_pages;
	long base; /* rewrite: (rss+swap)*1000/totalpages; kernel: rss+swap+pgtables */
	unsigned long forkbomb_children; /* children under one second of CPU */
	unsigned long forkbomb_children_rss_pages;
	long forkbomb_penalty;
	long root_bonus; /* -30 with CAP_SYS_ADMIN (rewrite) */
	long adj_term; /* oom_score_adj as added */
	long unclamped; /* before clamping to 0..1000 (rewrite) */
	bool clamped;
	/* kernel: what /proc/PID/oom_score shows for this score */
	long oom_score;
	/* legacy */
	unsigned long total_vm_pages;
	unsigned long children_vm_pages; /* sum of child total_vm/2 + 1 */
	unsigned long cpu_time, run_time; /* the shifted values */
	unsigned long cpu_divisor, run_divisor; /* int_sqrt(...) applied, 1 if none */
	bool nice_doubled;
	int cap_quarters; /* how many times divided by 4 for capabilities */
	int oom_adj; /* the shift applied */
};

/*
 * oom_score_task - score @task of @snap under @params into @terms (the
 * result is terms->score; the kernel heuristic's points may be negative).
 * Children for the forkbomb penalty and legacy come from the snapshot; the
 * penalty counts only children read with OOM_READ_STAT (their CPU time).
 * Returns 0 or -EINVAL.
 */
int oom_score_task(const struct oom_snapshot *snap, const struct oom_task *task,
		   const struct oom_score_params *params, struct oom_score_terms *terms);

/* The kernel's displayed oom_score for @points (kernel heuristic). */
long oom_kernel_display_score(long points, unsigned long totalpages, bool eligible);

/* ---- writing oom_score_adj -------------------------------------------- */

/*
 * oom_score_adj_write - set /proc/@tgid/oom_score_adj to @value. When
 * @start_ticks is non-zero the process's start time is checked first,
 * through the same /proc/PID directory, and a different one is -ESTALE
 * (the PID was reused). @old receives the previous value (may be NULL).
 * Returns 0, -EINVAL (range), -ESRCH (gone), -EACCES (lowering needs
 * CAP_SYS_RESOURCE, or not permitted), -ESTALE, or another -errno.
 */
int oom_score_adj_write(struct oom_ctx *ctx, pid_t tgid, int value,
			unsigned long long start_ticks, int *old);
int oom_score_adj_read(struct oom_ctx *ctx, pid_t tgid, int *value);

/* ---- sysctls ---------------------------------------------------------- */

enum oom_sysctl {
	OOM_SYSCTL_PANIC_ON_OOM,
	OOM_SYSCTL_OOM_DUMP_TASKS,
	OOM_SYSCTL_OOM_KILL_ALLOCATING_TASK,
	OOM_SYSCTL_OOM_FORKBOMB_THRES,
	OOM_SYSCTL_COUNT,
};

/* Accepts "vm.panic_on_oom", "panic_on_oom" or "vm/panic_on_oom". */
int oom_sysctl_from_name(const char *name, enum oom_sysctl *s);
/* The full name, "vm.panic_on_oom". */
const char *oom_sysctl_name(enum oom_sysctl s);
/* Checks @value against the sysctl's range (-EINVAL, -ERANGE). */
int oom_sysctl_validate(enum oom_sysctl s, long long value);
/*
 * Reads a sysctl; oom_forkbomb_thres falls back to liboom's file, then to
 * its default. Returns 0, -ENOENT (the kernel has no such sysctl),
 * -EBADMSG (a garbled value, or one the kernel would never hold), or -errno.
 */
int oom_sysctl_get(struct oom_ctx *ctx, enum oom_sysctl s, long long *value);
/*
 * Validates, then writes. oom_forkbomb_thres goes to the kernel's file if it
 * has one, else to ROOT/var/lib/liboom/vm.oom_forkbomb_thres (atomically).
 */
int oom_sysctl_set(struct oom_ctx *ctx, enum oom_sysctl s, long long value);

/* ---- number parsing --------------------------------------------------- */

/*
 * Strict integer parsing: optional sign, decimal digits (or base-prefixed
 * with @base 0); empty input, trailing junk and overflow are -EINVAL or
 * -ERANGE. No white space is skipped.
 */
int oom_parse_ll(const char *s, int base, long long *out);
int oom_parse_ull(const char *s, int base, unsigned long long *out);

/* ---- dump_tasks formats ---------------------------------------------- */

enum oom_escape {
	OOM_ESCAPE_NONE, /* raw bytes, as the kernel log has them */
	OOM_ESCAPE_CONTROL, /* control bytes and backslash as \xNN */
};

/* The 2.6.36 header line and one row, into @buf (snprintf semantics). */
int oom_format_2636_header(char *buf, size_t size);
int oom_format_2636_row(char *buf, size_t size, const struct oom_task *t, enum oom_escape esc);
/* The 6.8+ header (after "Tasks state (memory values in pages):") and a row. */
int oom_format_modern_header(char *buf, size_t size);
int oom_format_modern_row(char *buf, size_t size, const struct oom_task *t, enum oom_escape esc);
/* Escapes @len bytes of @s into @buf (always NUL-terminated); returns the full length. */
size_t oom_escape_name(char *buf, size_t size, const char *s, enum oom_escape esc);

/* Whether a task appears in dump_tasks: not a kthread, not init, has an mm. */
bool oom_task_dumpable(const struct oom_task *t);


/* ==== oom-dump: escaping, snapshots to disk, kernel OOM logs ========== */
/* (escape.c, save.c, kernlog.c) */

/*
 * Escape a NUL-terminated name into @buf (always NUL-terminated, cut at a
 * whole escape); return the full escaped length. JSON: a string body, with
 * controls and invalid UTF-8 as \u00NN. Prometheus: a label value, with
 * \" and \\ and other non-printable bytes as the text \xNN.
 */
size_t oom_escape_json(char *buf, size_t size, const char *s);
size_t oom_escape_prometheus(char *buf, size_t size, const char *s);

/* Extra files oom_snapshot_save() may copy. */
enum oom_save_flags {
	OOM_SAVE_CMDLINE = 1u << 0, /* /proc/PID/cmdline (may hold secrets: opt-in) */
	OOM_SAVE_SYSCTLS = 1u << 1, /* the vm.* OOM sysctls (and liboom's forkbomb file) */
};

/*
 * oom_snapshot_save - copy, byte for byte, the files a snapshot with read
 * set @what would read from @ctx into a new fixture tree @dir (created if
 * missing; it must not already hold a proc/ directory: -EEXIST). A later
 * oom_snapshot_new() on a context rooted at @dir reads exactly these
 * bytes. environ is never copied. Processes vanishing meanwhile are
 * skipped. Returns 0 or -errno.
 */
int oom_snapshot_save(struct oom_ctx *ctx, unsigned int what, unsigned int flags, const char *dir);
/*
 * oom_snapshot_save_constraint - add to a tree oom_snapshot_save() made in
 * @dir the files constraint @c was built from: for a memcg, proc/self/
 * mountinfo and the group's limit files; for a cpuset or a mempolicy, the
 * nodes' sys/devices/system/node/nodeN/meminfo (the process files, with
 * oom_constraint_read_flags(@c) in the read set, are the snapshot's). The
 * same constraint then builds from a context rooted at @dir. NULL or the
 * system-wide constraint copies nothing. Returns 0 or -errno.
 */
struct oom_constraint;
int oom_snapshot_save_constraint(struct oom_ctx *ctx, const struct oom_constraint *c, const char *dir);

/* One row of a kernel dump_tasks table; the columns present are in .have. */
enum oom_log_column {
	OOM_LOG_UID = 1u << 0,
	OOM_LOG_TGID = 1u << 1,
	OOM_LOG_TOTAL_VM = 1u << 2,
	OOM_LOG_RSS = 1u << 3,
	OOM_LOG_RSS_ANON = 1u << 4,
	OOM_LOG_RSS_FILE = 1u << 5,
	OOM_LOG_RSS_SHMEM = 1u << 6,
	OOM_LOG_NR_PTES = 1u << 7,
	OOM_LOG_NR_PMDS = 1u << 8,
	OOM_LOG_PGTABLES_BYTES = 1u << 9,
	OOM_LOG_SWAPENTS = 1u << 10,
	OOM_LOG_CPU = 1u << 11,
	OOM_LOG_OOM_ADJ = 1u << 12,
	OOM_LOG_OOM_SCORE_ADJ = 1u << 13,
};

struct oom_log_task {
	pid_t pid;
	uid_t uid;
	pid_t tgid;
	unsigned long total_vm_pages, rss_pages;
	unsigned long rss_anon_pages, rss_file_pages, rss_shmem_pages;
	unsigned long nr_ptes, nr_pmds, pgtables_bytes, swapents;
	int cpu, oom_adj, oom_score_adj;
	unsigned int have; /* enum oom_log_column */
	char name[OOM_COMM_MAX]; /* raw bytes as logged */
};

/* One OOM report found in a log. Strings are raw log bytes. */
struct oom_log_report {
	size_t first_line, last_line; /* 1-based line numbers in the input */
	bool have_trigger; /* the "invoked oom-killer" line was seen */
	char trigger[OOM_COMM_MAX];
	unsigned long gfp_mask;
	int order;
	bool have_oom_adj, have_oom_score_adj;
	int oom_adj, oom_score_adj;
	char constraint[32]; /* "CONSTRAINT_NONE", ... or "" when not logged */
	char table_format[16]; /* "2.6.32", "2.6.36", "3.x", "4.0", "4.15", "4.19", "6.8", "other", "" */
	struct oom_log_task *tasks;
	size_t ntasks;
	/* "Kill process P (N) score S or sacrifice child": the task chosen */
	bool have_chosen;
	pid_t chosen_pid;
	char chosen[OOM_COMM_MAX];
	long chosen_score;
	/* "Killed process P (N) total-vm:..": the task killed */
	bool have_victim;
	pid_t victim_pid;
	char victim[OOM_COMM_MAX];
	char message[48]; /* "Out of memory", "Memory cgroup out of memory", ... */
	unsigned long victim_total_vm_kb, victim_anon_rss_kb, victim_file_rss_kb, victim_shmem_rss_kb;
	bool have_victim_shmem, have_victim_uid;
	uid_t victim_uid;
	unsigned long victim_pgtables_kb;
	int victim_oom_score_adj;
	/* Non-empty when the report is damaged (then its content is partial). */
	char damage[96];
};

struct oom_log;

/*
 * oom_log_parse - find every OOM report in @len bytes of kernel log text
 * (dmesg, dmesg -T, journalctl -k, syslog lines; their prefixes are
 * stripped). Other lines are ignored. Returns 0 and a log in *@log (free
 * with oom_log_free), or -ENOMEM / -EINVAL.
 */
int oom_log_parse(const char *text, size_t len, struct oom_log **log);
void oom_log_free(struct oom_log *log);
size_t oom_log_count(const struct oom_log *log);
const struct oom_log_report *oom_log_report(const struct oom_log *log, size_t i);
/*
 * One log line without its dmesg/syslog/journal prefix: returns a pointer
 * into @line and the remaining length in *@len.
 */
const char *oom_log_strip_prefix(const char *line, size_t *len);
/*
 * A logged row as a struct oom_task for the dump formats: columns the log
 * lacks are 0; an rss without its split counts as rss_anon; pgtables_bytes
 * comes from nr_ptes (and nr_pmds) pages on kernels that logged those.
 */
void oom_log_task_to_task(const struct oom_log_task *lt, unsigned long page_size, struct oom_task *t);
/*
 * A logged row in the 2.6.36 format, keeping the oom_adj the log shows when
 * it has one (2.6.36 stored oom_adj and oom_score_adj separately, so a
 * 2.6.36 log re-prints byte for byte).
 */
int oom_log_format_2636_row(char *buf, size_t size, const struct oom_log_task *lt, unsigned long page_size,
			    enum oom_escape esc);
/* ==== end of the oom-dump section ==== */

/* ---- process events (events.c): the kernel's proc connector ----------- */

enum oom_event_type {
	OOM_EVENT_FORK = 1,
	OOM_EVENT_EXEC,
	OOM_EVENT_EXIT,
};

/* One fork, exec or exit, as the proc connector reported it. */
struct oom_event {
	enum oom_event_type type;
	unsigned int cpu;
	uint64_t timestamp_ns; /* the kernel's CLOCK_MONOTONIC */
	pid_t pid, tgid; /* fork: the child; exec and exit: the task */
	pid_t parent_pid, parent_tgid; /* fork: the parent; exit: the parent, or 0 before Linux 4.18 */
	int exit_code; /* exit: a wait status, as waitpid() returns it */
	int exit_signal; /* exit: the signal sent to the parent (-1 for a thread) */
};

/* Whether the event is about a whole process (a thread-group leader), not a thread. */
static inline bool oom_event_is_process(const struct oom_event *e)
{
	return e->pid == e->tgid;
}

struct oom_events;

/*
 * oom_events_open - subscribe to fork, exec and exit events. @rcvbuf_bytes
 * sizes the socket's receive buffer (0: a default for about 50,000 events).
 * Returns 0, or -EPERM when the kernel does not let this process listen
 * (outside the initial user or PID namespace; before Linux 6.6 also
 * without CAP_NET_ADMIN),
 * -EPROTONOSUPPORT without a proc connector (or outside the initial network
 * namespace), or another -errno. Callers fall back to polling /proc.
 */
int oom_events_open(size_t rcvbuf_bytes, struct oom_events **ev);
/* The descriptor to poll() for POLLIN. */
int oom_events_fd(const struct oom_events *ev);
/*
 * oom_events_next - the next event, without blocking. Returns 1 with *@out
 * filled, 0 when none is waiting, -ENOBUFS when events were lost (a fork
 * storm overran the socket: rescan /proc, then carry on reading), or
 * another -errno.
 */
int oom_events_next(struct oom_events *ev, struct oom_event *out);
/* Unsubscribes and frees; NULL is accepted. */
void oom_events_close(struct oom_events *ev);
/*
 * oom_events_decode - decode the netlink messages in @buf (as received
 * from the proc connector) into at most @max events. Returns how many
 * fork/exec/exit events the buffer holds (more than @max means some were
 * left out), -ENOBUFS for an overrun notice, -EBADMSG for a malformed
 * buffer, or the error a netlink error message carries. Other events and
 * acknowledgements are skipped.
 */
int oom_events_decode(const void *buf, size_t len, struct oom_event *out, size_t max);

/*
 * The forkbomb tracker: per parent, the children that are younger than one
 * second (forked less than a second ago and still alive: their CPU time is
 * under a second, as the forkbomb penalty counts them) plus those that died
 * within a second of their fork, counted for a second after their exit.
 * Fed with events in order; times are the events' timestamps.
 */
struct oom_forkbomb;

struct oom_forkbomb_alert {
	pid_t parent_tgid;
	unsigned long children; /* short-lived children counted now */
	unsigned long exited; /* of which have already exited */
	unsigned long thres; /* the vm.oom_forkbomb_thres passed */
};

/* @thres: vm.oom_forkbomb_thres (0 disables alerts). */
int oom_forkbomb_new(unsigned long thres, struct oom_forkbomb **fb);
void oom_forkbomb_free(struct oom_forkbomb *fb);
/*
 * oom_forkbomb_feed - account one event. Returns 1 and fills @alert when
 * the parent's count has just passed the threshold (once; it re-arms when
 * the count falls back to half the threshold), 0 otherwise, or -ENOMEM.
 */
int oom_forkbomb_feed(struct oom_forkbomb *fb, const struct oom_event *ev, struct oom_forkbomb_alert *alert);
/* Ages the counts to @now_ns (CLOCK_MONOTONIC), for quiet periods. */
void oom_forkbomb_expire(struct oom_forkbomb *fb, uint64_t now_ns);
/* Forgets everything (after -ENOBUFS, the counts are unreliable). */
void oom_forkbomb_reset(struct oom_forkbomb *fb);
/* The current count for @parent_tgid, and how many of them exited (may be NULL). */
unsigned long oom_forkbomb_count(const struct oom_forkbomb *fb, pid_t parent_tgid, unsigned long *exited);


/* ==== constraints and victim selection (constraint.c, cgroup.c, select.c) ==== */

/*
 * Who would the OOM killer kill now, in a memory cgroup, with a what-if
 * (error checks left out):
 *
 *	struct oom_select_params p = { .heuristic = OOM_HEURISTIC_REWRITE };
 *	struct oom_constraint *c;
 *	struct oom_snapshot *snap;
 *	struct oom_selection sel;
 *
 *	oom_constraint_new_memcg(ctx, "/work/job1", &c);
 *	oom_snapshot_new(ctx, OOM_READ_STATUS | OOM_READ_STAT | oom_constraint_read_flags(c), &snap);
 *	oom_snapshot_set_score_adj(snap, 1234, 500);
 *	oom_select(snap, c, &p, &sel);
 *	for (size_t i = 0; i < sel.nlines; i++)
 *		puts(sel.lines[i]);
 *	oom_snapshot_free(snap);
 *	oom_constraint_free(c);
 */

/*
 * What confines an OOM: which tasks are candidates and how much memory the
 * scores are measured against (SPEC 6).
 */
enum oom_constraint_type {
	OOM_CONSTRAINT_NONE, /* system-wide */
	OOM_CONSTRAINT_MEMCG, /* a memory cgroup hit its limit */
	OOM_CONSTRAINT_CPUSET, /* the nodes a task's cpuset allows */
	OOM_CONSTRAINT_MEMPOLICY, /* an allocation restricted to a node list */
};

struct oom_constraint;

/*
 * oom_constraint_new_none - the system-wide constraint: every task is a
 * candidate and totalpages are the system totals of each heuristic.
 * @ctx: the context whose /proc/meminfo is read.
 * @c: receives the new constraint (free with oom_constraint_free()).
 *
 * Returns: 0, or -EINVAL, -ENOMEM, or the -errno of reading meminfo.
 */
int oom_constraint_new_none(struct oom_ctx *ctx, struct oom_constraint **c);

/*
 * oom_constraint_new_memcg - a memory cgroup OOM.
 * @ctx: the context; ROOT/proc/self/mountinfo tells where the cgroup
 *	hierarchies are mounted (under ROOT).
 * @path: the group as /proc/PID/cgroup shows it ("/a/b"). The v1 memory
 *	hierarchy is used when it is mounted (hybrid systems), else cgroup2.
 * @c: receives the new constraint.
 *
 * Candidates are the tasks in @path or in a group below it. totalpages is
 * the group's limit as the kernel computes it: min(limit + SwapTotal,
 * memory+swap limit) from memory.max and memory.swap.max (v2) or
 * memory.limit_in_bytes and memory.memsw.limit_in_bytes (v1); an unlimited
 * group uses the system total of the heuristic. Snapshots used with it need
 * OOM_READ_CGROUP (see oom_constraint_read_flags()).
 *
 * Returns: 0; -EINVAL (@path not absolute, or a garbled limit file);
 * -ENOENT (no memory cgroup hierarchy mounted, or no such group);
 * -ENOMEM; or another -errno.
 */
int oom_constraint_new_memcg(struct oom_ctx *ctx, const char *path, struct oom_constraint **c);

/*
 * oom_constraint_new_cpuset - the cpuset of task @pid.
 * @ctx: the context.
 * @pid: the task whose Mems_allowed_list defines the nodes.
 * @c: receives the new constraint.
 *
 * Candidates are the tasks whose Mems_allowed intersects @pid's (a task read
 * without OOM_READ_MEMS counts as allowed everywhere). totalpages is SwapTotal
 * plus the LRU pages (Active/Inactive anon and file) of those nodes, from
 * ROOT/sys/devices/system/node/nodeN/meminfo.
 *
 * Returns: 0; -ESRCH (no such process); -ENOENT (a node without meminfo,
 * or a root without sys/); -EINVAL; -ENOMEM; or another -errno.
 */
int oom_constraint_new_cpuset(struct oom_ctx *ctx, pid_t pid, struct oom_constraint **c);

/*
 * oom_constraint_new_mempolicy - an allocation restricted to node list
 * @nodes ("0-1,3", as numactl and sysfs write them).
 * @ctx: the context.
 * @nodes: the node list.
 * @c: receives the new constraint.
 *
 * totalpages is SwapTotal plus the LRU pages of the listed nodes. A task is
 * a candidate unless every bind/interleave policy in its numa_maps misses
 * the list: default, local and prefer policies match, and so does a task
 * read without OOM_READ_NUMA_MAPS.
 *
 * Returns: 0; -EINVAL (empty or malformed list); -ENOENT (a listed node
 * does not exist); -ENOMEM; or another -errno.
 */
int oom_constraint_new_mempolicy(struct oom_ctx *ctx, const char *nodes, struct oom_constraint **c);

/* Frees a constraint; NULL is accepted. */
void oom_constraint_free(struct oom_constraint *c);

/* The queries below take NULL for the system-wide constraint, except where noted. */
enum oom_constraint_type oom_constraint_get_type(const struct oom_constraint *c);
/* "none", "memcg", "cpuset", "mempolicy" (NULL for an unknown type). */
const char *oom_constraint_type_name(enum oom_constraint_type type);
/* The kernel's name: "CONSTRAINT_NONE", "CONSTRAINT_MEMCG", ... */
const char *oom_constraint_kernel_name(enum oom_constraint_type type);

/*
 * oom_constraint_read_flags - the enum oom_read_flags a snapshot needs for
 * this constraint's filter (OOM_READ_CGROUP, OOM_READ_MEMS or
 * OOM_READ_NUMA_MAPS; 0 for none). OR them into oom_snapshot_new()'s @what.
 */
unsigned int oom_constraint_read_flags(const struct oom_constraint *c);

/*
 * oom_constraint_totalpages - the "allowed memory" scores are measured
 * against under @c for heuristic @h; @source (may be NULL) says where the
 * figure came from. A NULL @c has no meminfo to go by: 0 (use
 * oom_system_totalpages() with the snapshot's).
 */
unsigned long oom_constraint_totalpages(const struct oom_constraint *c, enum oom_heuristic h,
					enum oom_total_source *source);

/*
 * oom_constraint_is_candidate - whether @t passes @c's filter (memcg
 * membership, nodes). Init, kernel threads and tasks without an mm are
 * never candidates; oom_score_adj is not looked at (a -1000 task is a
 * candidate that scores nothing, as in the kernel's scan).
 */
bool oom_constraint_is_candidate(const struct oom_constraint *c, const struct oom_task *t);

/* memcg: the group's path (NULL for other types), hierarchy version (1, 2; 0
 * for other types), and whether it has a memory limit. */
const char *oom_constraint_memcg_path(const struct oom_constraint *c);
int oom_constraint_memcg_version(const struct oom_constraint *c);
bool oom_constraint_memcg_limited(const struct oom_constraint *c);
/* cpuset: the task it was built for (0 for other types). */
pid_t oom_constraint_cpuset_pid(const struct oom_constraint *c);
/* cpuset and mempolicy: the node bitmap (OOM_MAX_NODES bits), NULL otherwise. */
const uint64_t *oom_constraint_nodes(const struct oom_constraint *c);

/* ---- selection --------------------------------------------------------- */

/* How a (simulated) OOM ends. */
enum oom_outcome {
	OOM_OUTCOME_KILL, /* a task would be killed: see victim */
	OOM_OUTCOME_PANIC, /* panic_on_oom: the kernel would panic */
	OOM_OUTCOME_IN_PROGRESS, /* a kill is already under way: nobody new */
	OOM_OUTCOME_NO_KILLABLE, /* "Out of memory and no killable processes..." */
};

/* What oom_select() is given besides the snapshot and the constraint. */
struct oom_select_params {
	enum oom_heuristic heuristic;
	unsigned long forkbomb_thres; /* rewrite's penalty; 0 disables it */
	int panic_on_oom; /* vm.panic_on_oom: 0, 1 or 2 */
	bool kill_allocating_task; /* vm.oom_kill_allocating_task */
	pid_t task; /* the allocating task ("current"), 0 if none */
	enum oom_escape escape; /* how names are written into lines[] */
};

#define OOM_SELECT_LINE_MAX 512

/*
 * The decision. Task pointers point into the snapshot (valid while it
 * lives) or are NULL; scores are the heuristic's (struct oom_score_terms
 * .score).
 */
struct oom_selection {
	enum oom_outcome outcome;
	unsigned long totalpages;
	enum oom_total_source total_source;
	size_t candidates; /* tasks that passed the constraint's filter */
	/* "Out of memory", "Memory cgroup out of memory", or
	 * "Out of memory (oom_kill_allocating_task)" */
	const char *message;
	bool allocating_task; /* the allocating task was taken (sysctl) */
	const struct oom_task *chosen; /* the task the scan picked */
	long chosen_score;
	const struct oom_task *runner_up; /* the one it would pick next, or NULL */
	long runner_up_score;
	const struct oom_task *victim; /* the task killed: chosen or a child */
	long victim_score;
	bool sacrificed; /* victim is a child of chosen */
	const struct oom_task *in_progress; /* IN_PROGRESS: the task being killed */
	bool would_panic; /* PANIC, or NO_KILLABLE outside a memcg */
	/*
	 * The kernel log lines, without newlines: PANIC and NO_KILLABLE one
	 * (the panic or warning text); KILL two for rewrite and legacy
	 * ("%s: Kill process %d (%s) score %d or sacrifice child" then
	 * "Killed process %d (%s) total-vm:..."), one for kernel ("%s: Killed
	 * process ... oom_score_adj:%hd"); IN_PROGRESS none.
	 */
	size_t nlines;
	char lines[2][OOM_SELECT_LINE_MAX];
};

/*
 * oom_select - who the OOM killer would kill now (SPEC 7), as the kernel
 * of @params->heuristic decides it: rewrite as 2.6.36, kernel as current
 * mainline, legacy as 2.6.35. Nothing is killed; no file is read.
 * @snap: the snapshot (read with oom_constraint_read_flags(@c) and, for
 *	legacy and the forkbomb penalty, OOM_READ_STAT).
 * @c: the constraint, or NULL for system-wide with @snap's meminfo.
 * @params: sysctls, heuristic and allocating task.
 * @sel: receives the decision.
 *
 * Steps: an allocating task with SIGKILL pending, or exiting with an mm,
 * is a kill in progress (seed 003); panic_on_oom 2, or 1 without a
 * constraint, panics; oom_kill_allocating_task takes @params->task when it
 * is killable, a candidate, and the OOM is not a memcg's; then the scan in
 * PID order, which stops at a candidate with SIGKILL pending or exiting
 * with an mm. rewrite: the highest score > 0, the first of equals, then the
 * child (a candidate, not -1000) with the highest score > 0 is sacrificed.
 * kernel: any eligible task, the last of equals, no sacrifice. legacy: the
 * highest badness (the first eligible task even at 0), the first of equals,
 * then the first child (lowest PID) with an mm and not -1000 is killed.
 *
 * Returns: 0, -EINVAL (NULL arguments, bad heuristic or panic_on_oom), or
 * -ESRCH when @params->task is not in the snapshot.
 */
int oom_select(const struct oom_snapshot *snap, const struct oom_constraint *c,
	       const struct oom_select_params *params, struct oom_selection *sel);

/*
 * oom_snapshot_set_score_adj - "what if": give task @tgid of @snap the
 * oom_score_adj @value before selecting or scoring. Only the snapshot
 * changes. Returns 0, -EINVAL (out of -1000..1000) or -ESRCH.
 */
int oom_snapshot_set_score_adj(struct oom_snapshot *snap, pid_t tgid, int value);

/* "kill", "panic", "in-progress", "no-killable" (NULL if unknown). */
const char *oom_outcome_name(enum oom_outcome o);

#ifdef __cplusplus
}
#endif

#endif
