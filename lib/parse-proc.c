// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Parsers for /proc text. They take the bytes read and fill plain structs;
 * no I/O here, so unit tests feed them strings. Input is untrusted: a
 * process names itself, and files may be truncated by a racing exit.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/*
 * A token of @n bytes as a number. The kernel prints plain digits (and a
 * leading '-' for signed fields): no '+', no "0x", no blanks.
 */
static int tok_num(const char *s, size_t n, int base, bool sign, long long *sv, unsigned long long *uv)
{
	bool neg = sign && n > 0 && s[0] == '-';
	unsigned long long v = 0, limit, cut;
	unsigned int cutlim;
	size_t i = neg;

	/* Accumulated in place: this runs for every number of every status line. */
	if (n == 0 || n >= 32 || i == n)
		return -EINVAL;
	limit = !sign ? ULLONG_MAX : neg ? (unsigned long long)LLONG_MAX + 1 : (unsigned long long)LLONG_MAX;
	/* v * base + d overflows exactly when v > cut, or v == cut and d > cutlim. */
	cut = limit / (unsigned int)base;
	cutlim = (unsigned int)(limit % (unsigned int)base);
	for (; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		unsigned int d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (base == 16 && (c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			d = (c | 0x20) - 'a' + 10;
		else
			return -EINVAL;
		if (v > cut || (v == cut && d > cutlim))
			return -ERANGE;
		v = v * (unsigned int)base + d;
	}
	if (!sign)
		*uv = v;
	else
		*sv = neg ? (long long)(0 - v) : (long long)v;
	return 0;
}

static int tok_ull(const char *s, size_t n, int base, unsigned long long *out)
{
	return tok_num(s, n, base, false, NULL, out);
}

static int tok_ll(const char *s, size_t n, long long *out)
{
	return tok_num(s, n, 10, true, out, NULL);
}

/* ---- /proc/PID/stat ---------------------------------------------------- */

/* Field numbers as proc(5) counts them (1-based); 39 is the last we need. */
enum {
	F_STATE = 3, F_PPID = 4, F_FLAGS = 9, F_UTIME = 14, F_STIME = 15,
	F_NICE = 19, F_STARTTIME = 22, F_VSIZE = 23, F_RSS = 24, F_PROCESSOR = 39,
};

int oom_parse_stat(const char *text, size_t len, struct oom_stat_fields *out)
{
	const char *open, *close, *p, *end = text + len;
	unsigned long long u;
	long long v;
	size_t n;
	int field, err;

	memset(out, 0, sizeof(*out));
	open = memchr(text, '(', len);
	if (!open)
		return -EINVAL;
	/* comm may hold ')' itself: it ends at the LAST ')'. */
	for (close = end; close > open && close[-1] != ')'; close--)
		;
	if (close == open)
		return -EINVAL;
	close--;
	err = tok_ll(text, (size_t)(open - text) - (open > text && open[-1] == ' '), &v);
	if (err < 0 || v <= 0 || v > INT32_MAX)
		return -EINVAL;
	out->pid = (pid_t)v;
	n = (size_t)(close - open - 1);
	if (n >= sizeof(out->comm))
		n = sizeof(out->comm) - 1;
	memcpy(out->comm, open + 1, n);
	out->comm[n] = '\0';

	p = close + 1;
	for (field = F_STATE; field <= F_PROCESSOR; field++) {
		const char *tok;
		size_t tlen;

		if (p >= end || *p != ' ')
			return -EINVAL;
		tok = ++p;
		while (p < end && *p != ' ' && *p != '\n')
			p++;
		tlen = (size_t)(p - tok);
		if (tlen == 0)
			return -EINVAL;
		switch (field) {
		case F_STATE:
			if (tlen != 1)
				return -EINVAL;
			out->state = tok[0];
			break;
		case F_PPID:
			err = tok_ll(tok, tlen, &v);
			if (err < 0 || v < 0 || v > INT32_MAX)
				return -EINVAL;
			out->ppid = (pid_t)v;
			break;
		case F_FLAGS:
			err = tok_ull(tok, tlen, 10, &u);
			if (err < 0 || u > UINT32_MAX)
				return -EINVAL;
			out->flags = (unsigned int)u;
			break;
		case F_UTIME:
		case F_STIME:
		case F_STARTTIME:
		case F_VSIZE:
			err = tok_ull(tok, tlen, 10, &u);
			if (err < 0)
				return err;
			if (field == F_UTIME)
				out->utime = u;
			else if (field == F_STIME)
				out->stime = u;
			else if (field == F_STARTTIME)
				out->starttime = u;
			else
				out->vsize = u;
			break;
		case F_NICE:
		case F_RSS:
		case F_PROCESSOR:
			err = tok_ll(tok, tlen, &v);
			if (err < 0)
				return err;
			if (field == F_NICE)
				out->nice = (long)v;
			else if (field == F_RSS)
				out->rss = v;
			else if (v < 0 || v > INT32_MAX)
				return -EINVAL;
			else
				out->processor = (int)v;
			break;
		default:
			break; /* a field we do not use: only its presence counts */
		}
	}
	return 0;
}

/* ---- /proc/PID/status ------------------------------------------------- */

/* "Name:" escapes only '\n' and '\\' (fs/proc/array.c); undo exactly that. */
static void unescape_name(const char *s, size_t n, char *out, size_t size)
{
	size_t o = 0;

	for (size_t i = 0; i < n && o + 1 < size; i++) {
		char c = s[i];

		if (c == '\\' && i + 1 < n && (s[i + 1] == 'n' || s[i + 1] == '\\')) {
			c = s[i + 1] == 'n' ? '\n' : '\\';
			i++;
		}
		out[o++] = c;
	}
	out[o] = '\0';
}

/* "   1234 kB" */
static int kb_value(const char *s, size_t n, unsigned long long *out)
{
	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	if (n < 3 || memcmp(s + n - 3, " kB", 3) != 0)
		return -EINVAL;
	n -= 3;
	while (n && s[n - 1] == ' ')
		n--;
	return tok_ull(s, n, 10, out);
}

static int id_value(const char *s, size_t n, long long *out)
{
	size_t t = 0;

	while (t < n && s[t] != '\t' && s[t] != ' ')
		t++;
	return tok_ll(s, t, out);
}

int oom_parse_status_name(const char *text, size_t len, char *comm, size_t size)
{
	if (len < 6 || memcmp(text, "Name:\t", 6) != 0)
		return -EINVAL;
	const char *nl = memchr(text, '\n', len);
	if (!nl)
		return -EINVAL;
	unescape_name(text + 6, (size_t)(nl - text - 6), comm, size);
	return 0;
}

int oom_parse_status_upto(const char *text, size_t len, bool mems, struct oom_status_fields *out)
{
	const char *p = text, *end = text + len;
	unsigned int seen = 0, want;
	int err = 0;

	enum {
		S_TGID = 1 << 0, S_PPID = 1 << 1, S_UID = 1 << 2, S_CAP = 1 << 3, S_STATE = 1 << 4,
		S_VMSIZE = 1 << 5, S_ANON = 1 << 6, S_FILE = 1 << 7, S_SHMEM = 1 << 8, S_SWAP = 1 << 9,
		S_PTE = 1 << 10, S_SIGPND = 1 << 11, S_SHDPND = 1 << 12, S_MEMS = 1 << 13,
	};

	/*
	 * Every key we take. Kthread is not among them: older kernels lack it,
	 * and a kernel thread, which has no Vm lines, is always read to the end.
	 */
	want = (S_MEMS << 1) - 1;
	if (!mems)
		want &= ~(unsigned int)S_MEMS;

	memset(out, 0, sizeof(*out));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *colon, *val;
		size_t klen, vlen;
		unsigned long long u;
		long long v;

		if (!nl)
			break; /* a truncated last line is dropped */
		colon = memchr(p, ':', (size_t)(nl - p));
		if (!colon) {
			p = nl + 1;
			continue;
		}
		klen = (size_t)(colon - p);
		val = colon + 1;
		if (val < nl && *val == '\t')
			val++;
		vlen = (size_t)(nl - val);

#define KEY(k) (klen == sizeof(k) - 1 && memcmp(p, k, klen) == 0)
		if (KEY("Tgid")) {
			err = tok_ll(val, vlen, &v);
			if (!err && (v <= 0 || v > INT32_MAX))
				err = -EINVAL;
			out->tgid = (pid_t)v;
			seen |= S_TGID;
		} else if (KEY("PPid")) {
			err = tok_ll(val, vlen, &v);
			if (!err && (v < 0 || v > INT32_MAX))
				err = -EINVAL;
			out->ppid = (pid_t)v;
			seen |= S_PPID;
		} else if (KEY("Uid")) {
			err = id_value(val, vlen, &v);
			if (!err && (v < 0 || v > UINT32_MAX))
				err = -EINVAL;
			out->uid = (uid_t)v;
			seen |= S_UID;
		} else if (KEY("State")) {
			out->state = vlen ? val[0] : 0;
			seen |= S_STATE;
		} else if (KEY("Kthread")) {
			out->kthread = vlen == 1 && val[0] == '1';
		} else if (KEY("VmSize")) {
			err = kb_value(val, vlen, &out->vm_size_kb);
			out->has_mm = true;
			seen |= S_VMSIZE;
		} else if (KEY("RssAnon")) {
			err = kb_value(val, vlen, &out->rss_anon_kb);
			out->has_mm = true;
			seen |= S_ANON;
		} else if (KEY("RssFile")) {
			err = kb_value(val, vlen, &out->rss_file_kb);
			seen |= S_FILE;
		} else if (KEY("RssShmem")) {
			err = kb_value(val, vlen, &out->rss_shmem_kb);
			seen |= S_SHMEM;
		} else if (KEY("VmSwap")) {
			err = kb_value(val, vlen, &out->vm_swap_kb);
			seen |= S_SWAP;
		} else if (KEY("VmPTE")) {
			err = kb_value(val, vlen, &out->vm_pte_kb);
			seen |= S_PTE;
		} else if (KEY("CapEff")) {
			err = tok_ull(val, vlen, 16, &u);
			out->cap_eff = u;
			seen |= S_CAP;
		} else if (KEY("SigPnd")) {
			err = tok_ull(val, vlen, 16, &u);
			out->sig_pnd = u;
			seen |= S_SIGPND;
		} else if (KEY("ShdPnd")) {
			err = tok_ull(val, vlen, 16, &u);
			out->shd_pnd = u;
			seen |= S_SHDPND;
		} else if (KEY("Mems_allowed_list")) {
			out->mems_list = val;
			out->mems_list_len = vlen;
			seen |= S_MEMS;
		}
#undef KEY
		if (err < 0)
			return -EINVAL;
		/* The rest (CapBnd, Seccomp, Cpus_allowed...) is never used: a quarter of the file. */
		if ((seen & want) == want)
			break;
		p = nl + 1;
	}
	/* A file cut short before these lines is no status at all. */
	if ((seen & (S_TGID | S_PPID | S_UID | S_CAP)) != (S_TGID | S_PPID | S_UID | S_CAP))
		return -EINVAL;
	return 0;
}

int oom_parse_status(const char *text, size_t len, struct oom_status_fields *out)
{
	return oom_parse_status_upto(text, len, true, out);
}

/* ---- /proc/PID/statm -------------------------------------------------- */

int oom_parse_statm(const char *text, size_t len, struct oom_statm_fields *out)
{
	unsigned long long *f[] = { &out->size, &out->resident, &out->shared, &out->text,
				    &out->lib, &out->data, &out->dt };
	const char *p = text, *end = text + len;

	memset(out, 0, sizeof(*out));
	if (len > 0 && end[-1] == '\n')
		end--;
	for (size_t i = 0; i < ARRAY_SIZE(f); i++) {
		const char *tok = p;

		while (p < end && *p != ' ')
			p++;
		if (tok_ull(tok, (size_t)(p - tok), 10, f[i]) < 0)
			return -EINVAL;
		if (i + 1 < ARRAY_SIZE(f)) {
			if (p >= end)
				return -EINVAL;
			p++;
		}
	}
	return p == end ? 0 : -EINVAL;
}

/* ---- /proc/meminfo ---------------------------------------------------- */

int oom_parse_meminfo(const char *text, size_t len, struct oom_meminfo *out)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "MemTotal", offsetof(struct oom_meminfo, mem_total_kb) },
		{ "MemFree", offsetof(struct oom_meminfo, mem_free_kb) },
		{ "Active(anon)", offsetof(struct oom_meminfo, active_anon_kb) },
		{ "Inactive(anon)", offsetof(struct oom_meminfo, inactive_anon_kb) },
		{ "Active(file)", offsetof(struct oom_meminfo, active_file_kb) },
		{ "Inactive(file)", offsetof(struct oom_meminfo, inactive_file_kb) },
		{ "SwapTotal", offsetof(struct oom_meminfo, swap_total_kb) },
		{ "SwapFree", offsetof(struct oom_meminfo, swap_free_kb) },
	};
	const char *p = text, *end = text + len;
	bool have_total = false;

	memset(out, 0, sizeof(*out));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *colon;

		if (!nl)
			break;
		colon = memchr(p, ':', (size_t)(nl - p));
		for (size_t i = 0; colon && i < ARRAY_SIZE(keys); i++) {
			size_t klen = strlen(keys[i].key);
			unsigned long long *dst;

			if ((size_t)(colon - p) != klen || memcmp(p, keys[i].key, klen) != 0)
				continue;
			dst = (unsigned long long *)((char *)out + keys[i].off);
			if (kb_value(colon + 1, (size_t)(nl - colon - 1), dst) < 0)
				return -EINVAL;
			if (i == 0)
				have_total = true;
			break;
		}
		p = nl + 1;
	}
	return have_total ? 0 : -EINVAL;
}

/* ---- /proc/PID/cgroup ------------------------------------------------- */

static bool has_controller(const char *list, size_t n, const char *name)
{
	size_t nl = strlen(name);

	while (n > 0) {
		const char *comma = memchr(list, ',', n);
		size_t t = comma ? (size_t)(comma - list) : n;

		if (t == nl && memcmp(list, name, nl) == 0)
			return true;
		if (!comma)
			break;
		n -= t + 1;
		list = comma + 1;
	}
	return false;
}

static char *dup_n(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

int oom_parse_cgroup(const char *text, size_t len, char **v2, char **memory)
{
	const char *p = text, *end = text + len;

	*v2 = *memory = NULL;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *c1, *c2, *eol = nl ? nl : end;
		char **dst = NULL;

		c1 = memchr(p, ':', (size_t)(eol - p));
		c2 = c1 ? memchr(c1 + 1, ':', (size_t)(eol - c1 - 1)) : NULL;
		if (!c2 || c2 + 1 >= eol || c2[1] != '/')
			goto bad;
		if (c1 - p == 1 && p[0] == '0' && c2 == c1 + 1)
			dst = v2;
		else if (has_controller(c1 + 1, (size_t)(c2 - c1 - 1), "memory"))
			dst = memory;
		if (dst && !*dst) {
			*dst = dup_n(c2 + 1, (size_t)(eol - c2 - 1));
			if (!*dst) {
				oom_parse_cgroup_free(v2, memory);
				return -ENOMEM;
			}
		}
		p = eol + 1;
	}
	return 0;
bad:
	oom_parse_cgroup_free(v2, memory);
	return -EINVAL;
}

void oom_parse_cgroup_free(char **v2, char **memory)
{
	free(*v2);
	free(*memory);
	*v2 = *memory = NULL;
}

/* ---- node lists ("0-1,3") --------------------------------------------- */

int oom_parse_node_list(const char *s, size_t len, uint64_t *bits)
{
	const char *p = s, *end = s + len;

	memset(bits, 0, OOM_MAX_NODES / 8);
	if (len > 0 && end[-1] == '\n')
		end--;
	if (p == end)
		return -EINVAL;
	while (p < end) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *item_end = comma ? comma : end;
		const char *dash = memchr(p, '-', (size_t)(item_end - p));
		unsigned long long lo, hi;

		if (tok_ull(p, (size_t)((dash ? dash : item_end) - p), 10, &lo) < 0)
			return -EINVAL;
		hi = lo;
		if (dash && tok_ull(dash + 1, (size_t)(item_end - dash - 1), 10, &hi) < 0)
			return -EINVAL;
		if (lo > hi || hi >= OOM_MAX_NODES)
			return -EINVAL;
		for (unsigned long long n = lo; n <= hi; n++)
			bits[n / 64] |= 1ull << (n % 64);
		if (!comma)
			break;
		p = comma + 1;
		if (p == end)
			return -EINVAL; /* trailing comma */
	}
	return 0;
}
