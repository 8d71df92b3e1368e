// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Process events from the kernel's proc connector (NETLINK_CONNECTOR,
 * CN_IDX_PROC) over libmnl: fork, exec and exit, decoded into plain
 * structs. Decoding is a pure function over a received buffer so that the
 * unit tests can feed it crafted messages. The forkbomb tracker below
 * turns the stream into per-parent counts of short-lived children.
 */
#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "internal.h"

/* Default receive buffer: room for about 50,000 events before an overrun. */
#define EVENTS_RCVBUF_DEFAULT (4u << 20)
/* How long to wait for the kernel's answer to the subscription. */
#define EVENTS_ACK_TIMEOUT_MS 250
/* Events held for a caller that does not read them: past this, report an overrun. */
#define EVENTS_QUEUE_MAX (1u << 16)

/*
 * Linux 6.6 accepts an event mask after the operation (the kernel's struct
 * proc_input); older kernels want the operation alone and ignore the rest.
 * The kernel drops acknowledgements to a masked listener, so we subscribe
 * in the old form, wait for the answer, and only then narrow the stream.
 */
struct events_subscribe {
	uint32_t op;
	uint32_t event_mask;
};

#define EVENTS_MASK (PROC_EVENT_FORK | PROC_EVENT_EXEC | PROC_EVENT_EXIT)

struct oom_events {
	struct mnl_socket *nl;
	uint32_t portid;
	uint32_t cookie; /* our cn_msg.ack: the kernel answers with cookie + 1 */
	bool overrun_pending; /* events were lost behind those still queued */
	struct oom_event *queue;
	size_t queue_len, queue_pos, queue_cap;
	char *buf;
	size_t buf_size;
};

/* The smallest message: netlink header, cn_msg, and the event up to its union. */
#define EVENT_HEAD_LEN offsetof(struct proc_event, event_data)
#define MIN_MSG_LEN (NLMSG_HDRLEN + sizeof(struct cn_msg) + EVENT_HEAD_LEN)

static bool has(size_t len, size_t need)
{
	return len >= EVENT_HEAD_LEN + need;
}

/*
 * Decodes one proc_event of @len bytes. Returns 1 for a fork/exec/exit
 * event, 0 for one to skip, 2 for an acknowledgement (its error in *@ack),
 * or -EBADMSG when the event is shorter than its type requires.
 */
static int decode_event(const struct proc_event *pe, size_t len, struct oom_event *e, uint32_t *ack)
{
	memset(e, 0, sizeof(*e));
	e->cpu = pe->cpu;
	e->timestamp_ns = pe->timestamp_ns;
	switch (pe->what) {
	case PROC_EVENT_NONE:
		if (!has(len, sizeof(pe->event_data.ack)))
			return -EBADMSG;
		*ack = pe->event_data.ack.err;
		return 2;
	case PROC_EVENT_FORK:
		if (!has(len, sizeof(pe->event_data.fork)))
			return -EBADMSG;
		e->type = OOM_EVENT_FORK;
		e->parent_pid = pe->event_data.fork.parent_pid;
		e->parent_tgid = pe->event_data.fork.parent_tgid;
		e->pid = pe->event_data.fork.child_pid;
		e->tgid = pe->event_data.fork.child_tgid;
		return 1;
	case PROC_EVENT_EXEC:
		if (!has(len, sizeof(pe->event_data.exec)))
			return -EBADMSG;
		e->type = OOM_EVENT_EXEC;
		e->pid = pe->event_data.exec.process_pid;
		e->tgid = pe->event_data.exec.process_tgid;
		return 1;
	case PROC_EVENT_EXIT:
		/* Kernels before 4.18 sent no parent: accept the shorter form. */
		if (!has(len, offsetof(struct exit_proc_event, parent_pid)))
			return -EBADMSG;
		e->type = OOM_EVENT_EXIT;
		e->pid = pe->event_data.exit.process_pid;
		e->tgid = pe->event_data.exit.process_tgid;
		e->exit_code = (int)pe->event_data.exit.exit_code;
		e->exit_signal = (int)pe->event_data.exit.exit_signal;
		if (has(len, sizeof(pe->event_data.exit))) {
			e->parent_pid = pe->event_data.exit.parent_pid;
			e->parent_tgid = pe->event_data.exit.parent_tgid;
		}
		return 1;
	default:
		return 0;
	}
}

/*
 * Walks the netlink messages in @buf. Events go to @out (at most @max of
 * them); the count found is returned even past @max (snprintf-like). The
 * acknowledgement of a request sent with @cookie sets *@ack_err (when
 * @ack_err is non-NULL). The kernel numbers cn_msg.seq itself, so only the
 * ack field identifies our request.
 */
static int decode_buffer(const void *buf, size_t len, struct oom_event *out, size_t max, uint32_t cookie,
			 int *ack_err)
{
	size_t off, step;
	int count = 0;

	if (!buf && len)
		return -EINVAL;
	/*
	 * Walked with size_t offsets rather than mnl_nlmsg_ok(), which compares
	 * nlmsg_len as an int: a length above 2 GiB would pass it and send the
	 * walk far past the buffer.
	 */
	for (off = 0; len - off >= NLMSG_HDRLEN; off += step) {
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)((const char *)buf + off);
		size_t mlen = nlh->nlmsg_len;
		const struct cn_msg *cn;
		struct proc_event pe;
		struct oom_event e;
		size_t plen;
		uint32_t ack = 0;
		int r;

		if (mlen < NLMSG_HDRLEN || mlen > len - off)
			return -EBADMSG;
		/* The last message may come without its padding. */
		step = NLMSG_ALIGN(mlen) < len - off ? NLMSG_ALIGN(mlen) : len - off;
		plen = mlen - NLMSG_HDRLEN;
		if (nlh->nlmsg_type == NLMSG_NOOP)
			continue;
		if (nlh->nlmsg_type == NLMSG_OVERRUN)
			return -ENOBUFS;
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *err = (const void *)((const char *)nlh + NLMSG_HDRLEN);

			if (plen < sizeof(*err))
				return -EBADMSG;
			if (err->error == 0)
				continue; /* a plain acknowledgement */
			return err->error < 0 ? err->error : -err->error;
		}
		if (plen < sizeof(*cn))
			return -EBADMSG;
		cn = (const void *)((const char *)nlh + NLMSG_HDRLEN);
		if (cn->id.idx != CN_IDX_PROC || cn->id.val != CN_VAL_PROC)
			continue; /* another connector user's message */
		if (cn->len > plen - sizeof(*cn) || cn->len < EVENT_HEAD_LEN)
			return -EBADMSG;
		/* cn_msg leaves the event 4-byte aligned; its timestamp wants 8. */
		memset(&pe, 0, sizeof(pe));
		memcpy(&pe, cn->data, cn->len < sizeof(pe) ? cn->len : sizeof(pe));
		r = decode_event(&pe, cn->len, &e, &ack);
		if (r < 0)
			return r;
		if (r == 2) {
			if (ack_err && cn->ack == cookie + 1)
				*ack_err = ack ? -(int)ack : 0;
			continue;
		}
		if (r == 0)
			continue;
		if ((size_t)count < max)
			out[count] = e;
		if (count == INT32_MAX)
			break;
		count++;
	}
	return count;
}

OOM_EXPORT int oom_events_decode(const void *buf, size_t len, struct oom_event *out, size_t max)
{
	return decode_buffer(buf, len, out, max, 0, NULL);
}

OOM_EXPORT int oom_events_fd(const struct oom_events *ev)
{
	return ev && ev->nl ? mnl_socket_get_fd(ev->nl) : -EBADF;
}

/* Sends the subscription; @with_mask selects the 6.6+ form. */
static int send_subscribe(struct oom_events *ev, uint32_t op, bool with_mask)
{
	char buf[NLMSG_HDRLEN + sizeof(struct cn_msg) + sizeof(struct events_subscribe) + 16]
		__attribute__((aligned(NLMSG_ALIGNTO)));
	struct events_subscribe sub = { .op = op, .event_mask = EVENTS_MASK };
	size_t sub_len = with_mask ? sizeof(sub) : sizeof(sub.op);
	struct nlmsghdr *nlh;
	struct cn_msg *cn;

	memset(buf, 0, sizeof(buf));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = NLMSG_DONE;
	nlh->nlmsg_pid = ev->portid;
	cn = mnl_nlmsg_put_extra_header(nlh, sizeof(*cn) + sub_len);
	cn->id.idx = CN_IDX_PROC;
	cn->id.val = CN_VAL_PROC;
	cn->ack = ev->cookie;
	cn->len = (uint16_t)sub_len;
	memcpy(cn->data, &sub, sub_len);
	if (mnl_socket_sendto(ev->nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	return 0;
}

/* Makes room in the queue for one more datagram's worth of events. */
static int queue_reserve(struct oom_events *ev)
{
	size_t need = ev->buf_size / MIN_MSG_LEN + 1;
	struct oom_event *q;
	size_t cap;

	if (ev->queue_pos) {
		memmove(ev->queue, ev->queue + ev->queue_pos, (ev->queue_len - ev->queue_pos) * sizeof(*q));
		ev->queue_len -= ev->queue_pos;
		ev->queue_pos = 0;
	}
	if (ev->queue_cap - ev->queue_len >= need)
		return 0;
	if (ev->queue_cap >= EVENTS_QUEUE_MAX)
		return -ENOBUFS; /* a caller that stopped reading: treat as an overrun */
	cap = ev->queue_cap * 2;
	q = realloc(ev->queue, cap * sizeof(*q));
	if (!q)
		return -ENOMEM;
	ev->queue = q;
	ev->queue_cap = cap;
	return 0;
}

/* Appends the events decoded from one datagram to the queue. */
static int queue_datagram(struct oom_events *ev, size_t len, int *ack_err)
{
	size_t room;
	int n, err;

	err = queue_reserve(ev);
	if (err < 0)
		return err;
	room = ev->queue_cap - ev->queue_len;
	n = decode_buffer(ev->buf, len, ev->queue + ev->queue_len, room, ev->cookie, ack_err);
	if (n < 0)
		return n;
	/* The room covers a full datagram of the smallest messages, so this cannot clip. */
	ev->queue_len += (size_t)n < room ? (size_t)n : room;
	return 0;
}

/*
 * Receives one datagram without blocking. Returns 1 when one was queued, 0
 * when none is waiting, -ENOBUFS on an overrun, or another -errno.
 */
static int receive_one(struct oom_events *ev, int *ack_err)
{
	struct sockaddr_nl from;
	struct iovec iov = { ev->buf, ev->buf_size };
	struct msghdr msg = {
		.msg_name = &from,
		.msg_namelen = sizeof(from),
		.msg_iov = &iov,
		.msg_iovlen = 1,
	};
	ssize_t n;
	int err;

	for (;;) {
		n = recvmsg(oom_events_fd(ev), &msg, MSG_DONTWAIT);
		if (n >= 0)
			break;
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return 0;
		return -errno;
	}
	/* Only the kernel (port 0) speaks for the proc connector; drop anything else. */
	if (msg.msg_namelen != sizeof(from) || from.nl_pid != 0 || (msg.msg_flags & MSG_TRUNC))
		return 1;
	err = queue_datagram(ev, (size_t)n, ack_err);
	if (err == -ENOBUFS || err == -ENOMEM)
		ev->overrun_pending = true; /* events were lost: the caller must rescan */
	/* A malformed datagram is dropped; the next one may be fine. */
	return 1;
}

/* Waits for the kernel's answer to the last subscription: 0, -errno, or -ETIMEDOUT. */
static int wait_ack(struct oom_events *ev)
{
	int ack_err = 1; /* no answer yet */
	struct pollfd pfd = { .fd = oom_events_fd(ev), .events = POLLIN };

	for (int waited = 0; ack_err == 1;) {
		int r = receive_one(ev, &ack_err);

		if (r < 0 && r != -ENOBUFS)
			return r;
		if (r != 0)
			continue;
		if (waited >= EVENTS_ACK_TIMEOUT_MS)
			return -ETIMEDOUT;
		if (poll(&pfd, 1, 50) < 0 && errno != EINTR)
			return -errno;
		waited += 50;
	}
	return ack_err;
}

static void set_rcvbuf(struct oom_events *ev, size_t bytes)
{
	int fd = oom_events_fd(ev);
	int v = bytes > INT32_MAX / 2 ? INT32_MAX / 2 : (int)bytes;

	/* FORCE lifts rmem_max for CAP_NET_ADMIN, which listening needs anyway. */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &v, sizeof(v)) < 0)
		(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v));
}

OOM_EXPORT void oom_events_close(struct oom_events *ev)
{
	if (!ev)
		return;
	if (ev->nl) {
		/* Kernels before 6.6 count listeners until told: say goodbye. */
		if (ev->portid)
			(void)send_subscribe(ev, PROC_CN_MCAST_IGNORE, false);
		mnl_socket_close(ev->nl);
	}
	free(ev->queue);
	free(ev->buf);
	free(ev);
}

OOM_EXPORT int oom_events_open(size_t rcvbuf_bytes, struct oom_events **evp)
{
	struct oom_events *ev;
	int err;

	if (!evp)
		return -EINVAL;
	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	ev->buf_size = MNL_SOCKET_BUFFER_SIZE;
	ev->queue_cap = ev->buf_size / MIN_MSG_LEN + 1;
	ev->buf = malloc(ev->buf_size);
	ev->queue = calloc(ev->queue_cap, sizeof(*ev->queue));
	if (!ev->buf || !ev->queue) {
		err = -ENOMEM;
		goto fail;
	}
	ev->nl = mnl_socket_open2(NETLINK_CONNECTOR, SOCK_CLOEXEC);
	if (!ev->nl) {
		err = -errno;
		goto fail;
	}
	set_rcvbuf(ev, rcvbuf_bytes ? rcvbuf_bytes : EVENTS_RCVBUF_DEFAULT);
	/* Report overruns (ENOBUFS) rather than losing events silently. */
	(void)setsockopt(oom_events_fd(ev), SOL_NETLINK, NETLINK_NO_ENOBUFS, &(int){ 0 }, sizeof(int));
	if (mnl_socket_bind(ev->nl, CN_IDX_PROC, MNL_SOCKET_AUTOPID) < 0) {
		err = -errno;
		goto fail;
	}
	ev->portid = mnl_socket_get_portid(ev->nl);
	/* Any value but 0 and ~0, the ones other listeners use, tells our answer apart. */
	ev->cookie = (ev->portid ^ (uint32_t)(uintptr_t)ev) | 0x100;
	err = send_subscribe(ev, PROC_CN_MCAST_LISTEN, false);
	if (err == 0)
		err = wait_ack(ev);
	/* No answer at all: a user or PID namespace where the kernel ignores us. */
	if (err == -ETIMEDOUT)
		err = -EPERM;
	if (err < 0)
		goto fail;
	/* Narrow the stream to fork, exec and exit where the kernel can (6.6+). */
	(void)send_subscribe(ev, PROC_CN_MCAST_LISTEN, true);
	*evp = ev;
	return 0;
fail:
	oom_events_close(ev);
	return err;
}

OOM_EXPORT int oom_events_next(struct oom_events *ev, struct oom_event *out)
{
	if (!ev || !out)
		return -EINVAL;
	for (;;) {
		int r;

		if (ev->queue_pos < ev->queue_len) {
			*out = ev->queue[ev->queue_pos++];
			return 1;
		}
		if (ev->overrun_pending) {
			ev->overrun_pending = false;
			return -ENOBUFS;
		}
		r = receive_one(ev, NULL);
		if (r <= 0)
			return r;
	}
}

/* ---- the forkbomb tracker --------------------------------------------- */

#define NSEC_PER_SEC 1000000000ull

/* A PID-keyed open-addressing table: key 0 is a free slot. */
struct fb_slot {
	pid_t key;
	pid_t parent; /* children: the parent they count for */
	uint64_t ts; /* children: the fork time */
	unsigned long count, exited; /* parents */
	bool alerted; /* parents */
};

struct fb_table {
	struct fb_slot *slots;
	size_t cap, used; /* cap is a power of two */
};

/* Times at which a count must drop: a child turning one second old, or an exit a second ago. */
struct fb_expiry {
	uint64_t ts;
	pid_t child; /* 0 for an exit entry */
	pid_t parent;
};

struct fb_fifo {
	struct fb_expiry *e;
	size_t cap, head, len;
};

struct oom_forkbomb {
	unsigned long thres;
	struct fb_table children, parents;
	struct fb_fifo young, died;
};

static size_t fb_hash(pid_t key, size_t cap)
{
	return ((uint32_t)key * 2654435761u) & (cap - 1);
}

static struct fb_slot *fb_find(const struct fb_table *t, pid_t key)
{
	if (!t->cap)
		return NULL;
	for (size_t i = fb_hash(key, t->cap);; i = (i + 1) & (t->cap - 1)) {
		if (t->slots[i].key == key)
			return &t->slots[i];
		if (!t->slots[i].key)
			return NULL;
	}
}

static int fb_grow(struct fb_table *t)
{
	size_t cap = t->cap ? t->cap * 2 : 64;
	struct fb_slot *old = t->slots, *s = calloc(cap, sizeof(*s));

	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < t->cap; i++) {
		size_t j;

		if (!old[i].key)
			continue;
		for (j = fb_hash(old[i].key, cap); s[j].key; j = (j + 1) & (cap - 1))
			;
		s[j] = old[i];
	}
	free(old);
	t->slots = s;
	t->cap = cap;
	return 0;
}

/* The slot for @key, created zeroed when missing. */
static struct fb_slot *fb_get(struct fb_table *t, pid_t key)
{
	struct fb_slot *s = fb_find(t, key);
	size_t i;

	if (s)
		return s;
	if ((t->used + 1) * 2 > t->cap && fb_grow(t) < 0)
		return NULL;
	for (i = fb_hash(key, t->cap); t->slots[i].key; i = (i + 1) & (t->cap - 1))
		;
	memset(&t->slots[i], 0, sizeof(t->slots[i]));
	t->slots[i].key = key;
	t->used++;
	return &t->slots[i];
}

/* Removes a slot, shifting later members of its probe run back (no tombstones). */
static void fb_del(struct fb_table *t, struct fb_slot *s)
{
	size_t mask = t->cap - 1, i = (size_t)(s - t->slots), j = i;

	for (;;) {
		size_t home;

		j = (j + 1) & mask;
		if (!t->slots[j].key)
			break;
		home = fb_hash(t->slots[j].key, t->cap);
		/* Move j back to i unless its home lies cyclically in (i, j]. */
		if (i <= j ? (home > i && home <= j) : (home > i || home <= j))
			continue;
		t->slots[i] = t->slots[j];
		i = j;
	}
	t->slots[i].key = 0;
	t->used--;
}

static int fifo_push(struct fb_fifo *f, struct fb_expiry e)
{
	if (f->len == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 64;
		struct fb_expiry *n = malloc(cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		for (size_t i = 0; i < f->len; i++)
			n[i] = f->e[(f->head + i) % f->cap];
		free(f->e);
		f->e = n;
		f->cap = cap;
		f->head = 0;
	}
	f->e[(f->head + f->len) % f->cap] = e;
	f->len++;
	return 0;
}

static const struct fb_expiry *fifo_front(const struct fb_fifo *f)
{
	return f->len ? &f->e[f->head] : NULL;
}

static void fifo_pop(struct fb_fifo *f)
{
	f->head = (f->head + 1) % f->cap;
	f->len--;
}

static void parent_drop(struct oom_forkbomb *fb, pid_t parent, bool exited)
{
	struct fb_slot *p = fb_find(&fb->parents, parent);

	if (!p || !p->count)
		return;
	p->count--;
	if (exited && p->exited)
		p->exited--;
	/* Hysteresis: a parent hovering at the threshold warns once, not per fork. */
	if (p->alerted && p->count <= fb->thres / 2)
		p->alerted = false;
	if (!p->count)
		fb_del(&fb->parents, p);
}

OOM_EXPORT void oom_forkbomb_expire(struct oom_forkbomb *fb, uint64_t now_ns)
{
	const struct fb_expiry *e;

	if (!fb)
		return;
	while ((e = fifo_front(&fb->young)) && now_ns >= e->ts + NSEC_PER_SEC) {
		struct fb_slot *c = fb_find(&fb->children, e->child);

		/* Still alive and the same fork (not a PID reused since): it has aged out. */
		if (c && c->ts == e->ts) {
			pid_t parent = c->parent;

			fb_del(&fb->children, c);
			parent_drop(fb, parent, false);
		}
		fifo_pop(&fb->young);
	}
	while ((e = fifo_front(&fb->died)) && now_ns >= e->ts + NSEC_PER_SEC) {
		parent_drop(fb, e->parent, true);
		fifo_pop(&fb->died);
	}
}

OOM_EXPORT int oom_forkbomb_new(unsigned long thres, struct oom_forkbomb **fbp)
{
	struct oom_forkbomb *fb;

	if (!fbp)
		return -EINVAL;
	fb = calloc(1, sizeof(*fb));
	if (!fb)
		return -ENOMEM;
	fb->thres = thres;
	*fbp = fb;
	return 0;
}

OOM_EXPORT void oom_forkbomb_reset(struct oom_forkbomb *fb)
{
	if (!fb)
		return;
	free(fb->children.slots);
	free(fb->parents.slots);
	free(fb->young.e);
	free(fb->died.e);
	memset(&fb->children, 0, sizeof(fb->children));
	memset(&fb->parents, 0, sizeof(fb->parents));
	memset(&fb->young, 0, sizeof(fb->young));
	memset(&fb->died, 0, sizeof(fb->died));
}

OOM_EXPORT void oom_forkbomb_free(struct oom_forkbomb *fb)
{
	oom_forkbomb_reset(fb);
	free(fb);
}

static int track_fork(struct oom_forkbomb *fb, const struct oom_event *ev, struct oom_forkbomb_alert *alert)
{
	struct fb_slot *c, *p;

	/* A child we still hold under this PID exited unseen: stop counting it. */
	c = fb_find(&fb->children, ev->tgid);
	if (c) {
		pid_t old = c->parent;

		fb_del(&fb->children, c);
		parent_drop(fb, old, false);
	}
	c = fb_get(&fb->children, ev->tgid);
	if (!c)
		return -ENOMEM;
	c->parent = ev->parent_tgid;
	c->ts = ev->timestamp_ns;
	if (fifo_push(&fb->young, (struct fb_expiry){ ev->timestamp_ns, ev->tgid, ev->parent_tgid }) < 0) {
		fb_del(&fb->children, c);
		return -ENOMEM;
	}
	p = fb_get(&fb->parents, ev->parent_tgid);
	if (!p) {
		/* Its queued expiry finds no child and is skipped. */
		fb_del(&fb->children, fb_find(&fb->children, ev->tgid));
		return -ENOMEM;
	}
	p->count++;
	if (fb->thres && !p->alerted && p->count > fb->thres) {
		p->alerted = true;
		if (alert) {
			alert->parent_tgid = ev->parent_tgid;
			alert->children = p->count;
			alert->exited = p->exited;
			alert->thres = fb->thres;
		}
		return 1;
	}
	return 0;
}

static int track_exit(struct oom_forkbomb *fb, const struct oom_event *ev)
{
	struct fb_slot *c = fb_find(&fb->children, ev->tgid), *p;
	pid_t parent;

	if (!c)
		return 0;
	parent = c->parent;
	fb_del(&fb->children, c);
	/* Died young: it keeps counting for a second after its exit. */
	if (fifo_push(&fb->died, (struct fb_expiry){ ev->timestamp_ns, 0, parent }) < 0) {
		parent_drop(fb, parent, false);
		return -ENOMEM;
	}
	p = fb_find(&fb->parents, parent);
	if (p)
		p->exited++;
	return 0;
}

OOM_EXPORT int oom_forkbomb_feed(struct oom_forkbomb *fb, const struct oom_event *ev,
				 struct oom_forkbomb_alert *alert)
{
	if (!fb || !ev)
		return -EINVAL;
	oom_forkbomb_expire(fb, ev->timestamp_ns);
	/* Threads share their parent's memory: only new processes count. */
	if (!oom_event_is_process(ev) || ev->tgid <= 0)
		return 0;
	switch (ev->type) {
	case OOM_EVENT_FORK:
		if (ev->parent_tgid <= 0 || ev->parent_tgid == ev->tgid)
			return 0;
		return track_fork(fb, ev, alert);
	case OOM_EVENT_EXIT:
		return track_exit(fb, ev);
	default:
		return 0;
	}
}

OOM_EXPORT unsigned long oom_forkbomb_count(const struct oom_forkbomb *fb, pid_t parent_tgid,
					    unsigned long *exited)
{
	const struct fb_slot *p = fb ? fb_find(&fb->parents, parent_tgid) : NULL;

	if (exited)
		*exited = p ? p->exited : 0;
	return p ? p->count : 0;
}
