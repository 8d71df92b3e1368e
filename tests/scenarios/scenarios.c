// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * make scenarios: every scenario of tests/scenarios through the three
 * heuristics, as a table of who each would kill against the victim an
 * admin wants (tests/scenarios/README). Exit 1 when a heuristic a scenario
 * asserts gets it wrong, 2 when a scenario cannot be read or is inconsistent.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "liboom.h"

#define NHEUR 3
#define FIELD_MAX 2048

/* Table order: the old heuristic, the 2010 rewrite, today's kernel. */
static const enum oom_heuristic heuristics[NHEUR] = {
	OOM_HEURISTIC_LEGACY,
	OOM_HEURISTIC_REWRITE,
	OOM_HEURISTIC_KERNEL,
};

struct scenario {
	char name[256];
	char expect[FIELD_MAX];
	char assert_list[FIELD_MAX];
	char known_wrong[FIELD_MAX];
	char constraint[FIELD_MAX];
	char trigger[64];
};

static int read_all(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;

	if (fd < 0)
		return -errno;
	while (len + 1 < size) {
		ssize_t n = read(fd, buf + len, size - 1 - len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = -errno;
			close(fd);
			return (int)n;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return len + 1 < size ? 0 : -EFBIG;
}

static void trim(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
}

/* Copies @val into @dst, or appends it after a space (continuation lines). */
static void store(char *dst, const char *val, bool append)
{
	size_t used = append ? strlen(dst) : 0;

	snprintf(dst + used, FIELD_MAX - used, "%s%s", append && used ? " " : "", val);
}

/* "key: value" lines; a leading blank continues the previous value; # comments. */
static int parse_scenario(char *text, struct scenario *sc)
{
	char *field = NULL, *save = NULL;

	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *colon, *val;

		if (line[0] == '#')
			continue;
		if (line[0] == ' ' || line[0] == '\t') {
			line += strspn(line, " \t");
			trim(line);
			if (field && *line)
				store(field, line, true);
			continue;
		}
		colon = strchr(line, ':');
		if (!colon)
			return -EINVAL;
		*colon = '\0';
		val = colon + 1 + strspn(colon + 1, " \t");
		trim(val);
		if (strcmp(line, "expect") == 0)
			field = sc->expect;
		else if (strcmp(line, "assert") == 0)
			field = sc->assert_list;
		else if (strcmp(line, "known-wrong") == 0)
			field = sc->known_wrong;
		else if (strcmp(line, "constraint") == 0)
			field = sc->constraint;
		else if (strcmp(line, "trigger") == 0) {
			snprintf(sc->trigger, sizeof(sc->trigger), "%s", val);
			field = NULL;
			continue;
		} else {
			field = NULL; /* title, story, ...: for people */
			continue;
		}
		store(field, val, false);
	}
	return sc->expect[0] && sc->constraint[0] && sc->trigger[0] ? 0 : -EINVAL;
}

/* Whether word @w is in the space-separated @list. */
static bool listed(const char *list, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = list; (p = strstr(p, w)); p += n) {
		if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
			return true;
	}
	return false;
}

static int parse_pid(const char *s, pid_t *pid)
{
	long long v;
	int err = oom_parse_ll(s, 10, &v);

	if (err < 0)
		return err;
	if (v <= 0 || v > INT32_MAX)
		return -ERANGE;
	*pid = (pid_t)v;
	return 0;
}

/* One alternative of expect: against the decision. -EINVAL if malformed. */
static int match_one(char *alt, const struct oom_selection *sel)
{
	char *save = NULL, *word = strtok_r(alt, " ", &save), *rest;
	pid_t pid;

	if (!word)
		return -EINVAL;
	if (strcmp(word, "panic") == 0)
		return sel->outcome == OOM_OUTCOME_PANIC;
	if (strcmp(word, "in-progress") == 0)
		return sel->outcome == OOM_OUTCOME_IN_PROGRESS;
	if (strcmp(word, "no-killable") == 0)
		return sel->outcome == OOM_OUTCOME_NO_KILLABLE;
	rest = strtok_r(NULL, " ", &save);
	if (!rest || parse_pid(rest, &pid) < 0)
		return -EINVAL;
	if (strcmp(word, "kill-child-of") == 0)
		return sel->outcome == OOM_OUTCOME_KILL && sel->victim && sel->victim->ppid == pid;
	if (strcmp(word, "kill") != 0)
		return -EINVAL;
	/* What strtok_r left is the name, which may hold spaces ("Web Content"). */
	rest = save ? save + strspn(save, " ") : NULL;
	if (!rest || !*rest)
		return -EINVAL; /* the name is required: it documents the PID */
	return sel->outcome == OOM_OUTCOME_KILL && sel->victim && sel->victim->tgid == pid &&
	       strcmp(sel->victim->comm, rest) == 0;
}

/* expect: alternatives separated by " or ". */
static int matches(const char *expect, const struct oom_selection *sel)
{
	char buf[FIELD_MAX], *p = buf;

	snprintf(buf, sizeof(buf), "%s", expect);
	for (;;) {
		char *sep = strstr(p, " or ");
		int r;

		if (sep)
			*sep = '\0';
		r = match_one(p, sel);
		if (r != 0)
			return r;
		if (!sep)
			return 0;
		p = sep + 4;
	}
}

static int make_constraint(struct oom_ctx *ctx, const char *spec, struct oom_constraint **c)
{
	char kind[32] = "", arg[FIELD_MAX] = "";
	pid_t pid;
	int err;

	if (sscanf(spec, "%31s %2047s", kind, arg) < 1)
		return -EINVAL;
	if (strcmp(kind, "none") == 0)
		return oom_constraint_new_none(ctx, c);
	if (!arg[0])
		return -EINVAL;
	if (strcmp(kind, "memcg") == 0)
		return oom_constraint_new_memcg(ctx, arg, c);
	if (strcmp(kind, "nodes") == 0)
		return oom_constraint_new_mempolicy(ctx, arg, c);
	if (strcmp(kind, "cpuset-of") == 0) {
		err = parse_pid(arg, &pid);
		return err < 0 ? err : oom_constraint_new_cpuset(ctx, pid, c);
	}
	return -EINVAL;
}

/* A table cell: what the heuristic would do. */
static void describe(const struct oom_selection *sel, char *buf, size_t size)
{
	switch (sel->outcome) {
	case OOM_OUTCOME_KILL:
		if (sel->sacrificed && sel->chosen)
			snprintf(buf, size, "%d %s<%d", (int)sel->victim->tgid, sel->victim->comm,
				 (int)sel->chosen->tgid);
		else
			snprintf(buf, size, "%d %s", (int)sel->victim->tgid, sel->victim->comm);
		break;
	default:
		snprintf(buf, size, "%s", oom_outcome_name(sel->outcome));
		break;
	}
}

static long long sysctl_or(struct oom_ctx *ctx, enum oom_sysctl s, long long dflt)
{
	long long v;

	return oom_sysctl_get(ctx, s, &v) == 0 ? v : dflt;
}

struct totals {
	int right[NHEUR];
	int ran;
	int failures;
	int errors;
};

static void report_error(const char *name, const char *what, int err)
{
	printf("%-17s error: %s: %s\n", name, what, strerror(-err));
}

/*
 * The corpus must be self-consistent: every proc/PID/oom_score is what the
 * current kernel computes from the other files, so the kernel heuristic must
 * reproduce each one (SPEC 11). Returns the number of mismatches.
 */
static int check_oom_scores(const char *name, const struct oom_snapshot *snap)
{
	struct oom_score_params p = {
		.heuristic = OOM_HEURISTIC_KERNEL,
		.totalpages = oom_system_totalpages(oom_snapshot_meminfo(snap), oom_snapshot_page_size(snap),
						   OOM_HEURISTIC_KERNEL, NULL),
	};
	int bad = 0;

	for (size_t i = 0; i < oom_snapshot_count(snap); i++) {
		const struct oom_task *t = oom_snapshot_task(snap, i);
		struct oom_score_terms terms;
		long shown;

		if (oom_score_task(snap, t, &p, &terms) < 0)
			return bad + 1;
		shown = oom_kernel_display_score(terms.score, p.totalpages, terms.eligible);
		if (shown != t->oom_score) {
			printf("%-17s error: proc/%d/oom_score is %ld, the kernel heuristic says %ld\n", name,
			       (int)t->tgid, t->oom_score, shown);
			bad++;
		}
	}
	return bad;
}

static void run_scenario(const char *dir, const char *name, struct totals *tot)
{
	char path[4096], text[16384], cell[NHEUR][160], mark[NHEUR][8];
	struct scenario sc = { 0 };
	struct oom_constraint *c = NULL;
	struct oom_snapshot *snap = NULL;
	struct oom_ctx *ctx = NULL;
	pid_t trigger = 0;
	int err;

	snprintf(sc.name, sizeof(sc.name), "%s", name);
	snprintf(path, sizeof(path), "%s/%s/scenario", dir, name);
	err = read_all(path, text, sizeof(text));
	if (err == 0)
		err = parse_scenario(text, &sc);
	if (err == 0)
		err = parse_pid(sc.trigger, &trigger);
	if (err < 0) {
		report_error(name, "scenario file", err);
		tot->errors++;
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	err = oom_ctx_new(path, &ctx);
	if (err == 0)
		err = make_constraint(ctx, sc.constraint, &c);
	if (err == 0)
		err = oom_snapshot_new(ctx, OOM_READ_STATUS | OOM_READ_STAT | OOM_READ_OOM_SCORE |
					       oom_constraint_read_flags(c), &snap);
	if (err < 0) {
		report_error(name, sc.constraint, err);
		tot->errors++;
		goto out;
	}
	if (check_oom_scores(name, snap)) {
		tot->errors++;
		goto out;
	}
	for (int i = 0; i < NHEUR; i++) {
		const char *hname = oom_heuristic_name(heuristics[i]);
		struct oom_select_params p = {
			.heuristic = heuristics[i],
			.forkbomb_thres = (unsigned long)sysctl_or(ctx, OOM_SYSCTL_OOM_FORKBOMB_THRES,
								    OOM_FORKBOMB_THRES_DEFAULT),
			.panic_on_oom = (int)sysctl_or(ctx, OOM_SYSCTL_PANIC_ON_OOM, 0),
			.kill_allocating_task = sysctl_or(ctx, OOM_SYSCTL_OOM_KILL_ALLOCATING_TASK, 0) != 0,
			.task = trigger,
			.escape = OOM_ESCAPE_CONTROL,
		};
		struct oom_selection sel;
		int ok;

		err = oom_select(snap, c, &p, &sel);
		ok = err < 0 ? err : matches(sc.expect, &sel);
		if (ok < 0) {
			report_error(name, err < 0 ? hname : "expect", ok);
			tot->errors++;
			goto out;
		}
		describe(&sel, cell[i], sizeof(cell[i]));
		if (ok) {
			tot->right[i]++;
			strcpy(mark[i], listed(sc.known_wrong, hname) ? "ok(!)" : "ok");
		} else if (listed(sc.assert_list, hname)) {
			strcpy(mark[i], "WRONG");
			tot->failures++;
		} else {
			strcpy(mark[i], "wrong");
		}
	}
	tot->ran++;
	printf("%-17s %-22.22s", name, sc.expect + (strncmp(sc.expect, "kill ", 5) == 0 ? 5 : 0));
	for (int i = 0; i < NHEUR; i++) {
		int w = (int)(strlen(cell[i]) + 1 + strlen(mark[i]));

		/* Padded to a column, except the last: no trailing blanks. */
		printf("  %s %s%*s", cell[i], mark[i], i < NHEUR - 1 && w < 30 ? 30 - w : 0, "");
	}
	printf("\n");
out:
	oom_snapshot_free(snap);
	oom_constraint_free(c);
	oom_ctx_unref(ctx);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "tests/scenarios";
	struct totals tot = { 0 };
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *d = opendir(dir);

	if (argc > 2 || !d) {
		fprintf(stderr, "usage: %s [DIR]   (DIR: the scenario corpus, tests/scenarios)\n", argv[0]);
		return 2;
	}
	while ((de = readdir(d))) {
		char path[4096];

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/scenario", dir, de->d_name);
		if (access(path, R_OK) != 0)
			continue;
		if (n == cap) {
			char **nn = realloc(names, (cap = cap ? cap * 2 : 32) * sizeof(*names));

			if (!nn)
				return 2;
			names = nn;
		}
		names[n] = strdup(de->d_name);
		if (!names[n])
			return 2;
		n++;
	}
	closedir(d);
	if (n == 0) {
		fprintf(stderr, "%s: no scenario under %s\n", argv[0], dir);
		return 2;
	}
	qsort(names, n, sizeof(*names), cmp_names);
	printf("%-17s %-22s", "scenario", "expected");
	for (int i = 0; i < NHEUR; i++)
		printf(i < NHEUR - 1 ? "  %-30s" : "  %s", oom_heuristic_name(heuristics[i]));
	printf("\n");
	for (size_t i = 0; i < n; i++) {
		run_scenario(dir, names[i], &tot);
		free(names[i]);
	}
	free(names);
	printf("\nright answers of %d:", tot.ran);
	for (int i = 0; i < NHEUR; i++)
		printf("  %s %d", oom_heuristic_name(heuristics[i]), tot.right[i]);
	printf("\n");
	if (tot.errors)
		printf("%d scenario(s) could not be read, run or are inconsistent\n", tot.errors);
	if (tot.failures)
		printf("%d asserted answer(s) WRONG\n", tot.failures);
	return tot.errors ? 2 : tot.failures ? 1 : 0;
}
