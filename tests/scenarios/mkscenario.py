#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Generate the scenario corpus: tests/scenarios/<name>/ fixture root trees.

Each scenario below describes a machine at the moment it runs out of memory:
its processes (sizes in kB, CPU and age in seconds) and its memory layout.
This script derives every /proc and /sys file from that description, so the
numbers agree with each other: stat's vsize and rss match status, start times
match the uptime, meminfo's totals and the NUMA nodes' meminfo add up to what
the processes use, oom_score is the kernel's formula over the files written.
The generated trees are committed; run this again after editing a scenario:

    tests/scenarios/mkscenario.py            # regenerate every tree
    tests/scenarios/mkscenario.py desktop    # one tree
    tests/scenarios/mkscenario.py --check    # regenerate in a temp dir, diff
    tests/scenarios/mkscenario.py --predict  # this script's own model of the
                                             # three heuristics (a cross-check
                                             # written apart from liboom)

The `scenario` file of each tree is written from the same description; its
format is documented in tests/scenarios/README.
"""

import math
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PAGE_KB = 4
HZ = 100  # USER_HZ: /proc's clock ticks
CAPS_ALL = 0x1FFFFFFFFFF  # CAP_LAST_CAP 40 on Linux 6.x
CAP_SYS_ADMIN = 21
MAX_NUMNODES = 1024
SIGKILL_BIT = 1 << 8


def r4(kb):
    """kB figures of page-backed memory are multiples of 4."""
    return int(round(kb / 4.0)) * 4


def mb(x):
    return r4(x * 1024)


def gb(x):
    return r4(x * 1024 * 1024)


def cdiv(a, b):
    """C's integer division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def parse_list(s):
    out = set()
    for part in s.split(','):
        if '-' in part:
            a, b = part.split('-')
            out.update(range(int(a), int(b) + 1))
        elif part:
            out.add(int(part))
    return out


def fmt_list(nodes):
    nodes = sorted(nodes)
    out, i = [], 0
    while i < len(nodes):
        j = i
        while j + 1 < len(nodes) and nodes[j + 1] == nodes[j] + 1:
            j += 1
        out.append(str(nodes[i]) if i == j else '%d-%d' % (nodes[i], nodes[j]))
        i = j + 1
    return ','.join(out)


def fmt_mask(bits, nbits):
    """A bitmap as %*pb prints it: hex, 32-bit groups separated by commas."""
    value = 0
    for b in bits:
        value |= 1 << b
    digits = (nbits + 3) // 4
    s = '%0*x' % (digits, value)
    groups = []
    while s:
        groups.insert(0, s[-8:])
        s = s[:-8]
    return ','.join(groups)


class Proc:
    """One thread-group leader. Sizes in kB, cpu and age in seconds."""

    def __init__(self, pid, comm, ppid, vm=0, anon=0, file=0, shmem=0, swap=0, cpu=0.0, age=None,
                 uid=0, threads=1, adj=0, cgroup=None, mems=None, cpus=None, node=None, policy='default',
                 state='S', nice=0, tty=0, kthread=False, caps=None, groups=(), exe=None, lib=None,
                 stk=132, sys_frac=0.25, fdsize=64, pte=None, hwm=None, peak=None, flags=None,
                 sigkill=False, exiting=False, zombie_threads=None, seccomp=0, umask='0022', setsid=False):
        self.pid, self.comm, self.ppid = pid, comm, ppid
        self.vm, self.anon, self.file, self.shmem, self.swap = vm, anon, file, shmem, swap
        self.cpu, self.age, self.uid, self.threads, self.adj = cpu, age, uid, threads, adj
        self.cgroup, self.mems, self.cpus, self.node, self.policy = cgroup, mems, cpus, node, policy
        self.state, self.nice, self.tty, self.kthread = state, nice, tty, kthread
        self.caps = caps if caps is not None else (CAPS_ALL if uid == 0 else 0)
        self.groups, self.stk, self.sys_frac, self.fdsize = groups, stk, sys_frac, fdsize
        self.exe = exe if exe is not None else (0 if kthread else min(r4(max(vm * 0.002, 16)), 8192))
        self.lib = lib if lib is not None else (0 if kthread else min(r4(max(vm * 0.015, 1528)), 61440))
        self.pte, self.hwm, self.peak, self.flags = pte, hwm, peak, flags
        self.sigkill, self.exiting, self.umask = sigkill, exiting, umask
        self.zombie_threads = zombie_threads  # [(tid, comm, cpu)] for a zombie leader
        self.seccomp = seccomp
        self.setsid = setsid  # a session leader (sshd's session child, a login shell)
        self.pgrp = self.sid = None

    @property
    def rss(self):
        return self.anon + self.file + self.shmem

    @property
    def has_mm(self):
        return not self.kthread


class Machine:
    def __init__(self, name, mem_total, swap_total=0, ncpu=2, uptime=86400.0, nodes=None, full=None,
                 file_lru=None, slab=None, tmpfs=mb(2), cgroup_mode='v2', ram=None, sysctl=None,
                 forkbomb_thres=None, memcg=None, cpusets=None, swap_used_extra=0, mlocked=0):
        self.name, self.mem_total, self.swap_total, self.ncpu = name, mem_total, swap_total, ncpu
        self.uptime = uptime
        self.nodes = nodes or [mem_total]  # MemTotal per node, kB
        assert sum(self.nodes) == mem_total
        self.full = full if full is not None else [True] * len(self.nodes)
        self.file_lru = file_lru  # per node, for nodes that are not full
        self.slab = slab or [r4(n * 0.015) + mb(40) for n in self.nodes]
        self.tmpfs, self.cgroup_mode = tmpfs, cgroup_mode
        self.ram = ram
        self.sysctl = {'panic_on_oom': 0, 'oom_dump_tasks': 1, 'oom_kill_allocating_task': 0}
        self.sysctl.update(sysctl or {})
        self.forkbomb_thres = forkbomb_thres
        self.memcg = memcg or {}  # path -> {'max': bytes|None, 'swap_max': bytes|None}
        self.cpusets = cpusets or {}  # cgroup path -> (cpus, mems)
        self.swap_used_extra, self.mlocked = swap_used_extra, mlocked
        self.procs = []
        self.meta = {}

    def add(self, *procs):
        self.procs.extend(procs)
        return procs[0] if len(procs) == 1 else procs

    def find(self, pid):
        for p in self.procs:
            if p.pid == pid:
                return p
        raise KeyError(pid)


# ---- the standard furniture of a Debian machine ------------------------------------------------

def base_system(m, uptime_age=None, extra_slice='system.slice', journald_shm=mb(24)):
    """init, kernel threads and the daemons every systemd machine has."""
    age = uptime_age or m.uptime - 3.5
    up = m.uptime
    m.add(
        Proc(1, 'systemd', 0, vm=mb(167.6), anon=mb(5.1), file=mb(8.2), shmem=0, cpu=up * 0.00012 + 2.1,
             age=up - 0.23, cgroup='/init.scope', fdsize=256, sys_frac=0.6, nice=0),
        Proc(2, 'kthreadd', 0, kthread=True, cpu=0.02, age=up - 0.23),
        Proc(3, 'pool_workqueue_release', 2, kthread=True, age=up - 0.23),
        Proc(15, 'ksoftirqd/0', 2, kthread=True, cpu=up * 0.0004, age=up - 0.22),
    )
    for n in range(len(m.nodes)):
        m.add(Proc(90 + n, 'kswapd%d' % n, 2, kthread=True, cpu=up * 0.0011, age=up - 0.21))
    m.add(
        Proc(412, 'systemd-journal', 1, vm=mb(58.3), anon=mb(3.6), file=mb(9.7), shmem=journald_shm,
             cpu=up * 0.0002 + 1.2, age=age - 1.1, cgroup='/system.slice/systemd-journald.service', adj=-250,
             fdsize=128),
        Proc(447, 'systemd-udevd', 1, vm=mb(26.1), anon=mb(2.4), file=mb(4.9), cpu=up * 0.00002 + 0.9,
             age=age - 1.0, cgroup='/system.slice/systemd-udevd.service', adj=-1000, fdsize=128),
        Proc(603, 'systemd-timesyn', 1, uid=997, vm=mb(89.6), anon=mb(1.3), file=mb(5.4), threads=2,
             cpu=up * 0.000004 + 0.1, age=age - 0.4, cgroup='/system.slice/systemd-timesyncd.service',
             caps=0x2000000),  # CAP_SYS_TIME
        Proc(640, 'cron', 1, vm=mb(6.4), anon=mb(0.4), file=mb(2.2), cpu=up * 0.000003 + 0.02,
             age=age - 0.3, cgroup='/system.slice/cron.service'),
        Proc(643, 'dbus-daemon', 1, uid=100, vm=mb(9.1), anon=mb(1.1), file=mb(3.7), cpu=up * 0.00001 + 0.3,
             age=age - 0.3, cgroup='/system.slice/dbus.service', adj=-900),
        Proc(651, 'systemd-logind', 1, vm=mb(24.9), anon=mb(1.6), file=mb(6.3), cpu=up * 0.00002 + 0.2,
             age=age - 0.3, cgroup='/system.slice/systemd-logind.service'),
        Proc(684, 'rsyslogd', 1, vm=mb(217.9), anon=mb(3.0), file=mb(3.1), threads=4, cpu=up * 0.00002 + 0.1,
             age=age - 0.2, cgroup='/system.slice/rsyslog.service'),
        Proc(712, 'sshd', 1, vm=mb(15.1), anon=mb(1.3), file=mb(7.9), cpu=up * 0.000001 + 0.05, age=age - 0.2,
             cgroup='/system.slice/ssh.service', adj=-1000),
        Proc(731, 'agetty', 1, vm=mb(5.6), anon=mb(0.3), file=mb(1.6), cpu=0.01, age=age - 0.1,
             cgroup='/system.slice/system-getty.slice/getty@tty1.service'),
    )


def ssh_session(m, pid, user_pid, bash_pid, uid=1000, age=3600.0, tty=34816, groups=(24, 25, 27, 100, 1000)):
    """sshd privileged child, the user's sshd and a login shell."""
    sess = '/user.slice/user-%d.slice/session-%d.scope' % (uid, pid % 97)
    m.add(
        Proc(pid, 'sshd', 712, vm=mb(17.4), anon=mb(1.9), file=mb(8.8), cpu=0.06, age=age, cgroup=sess,
             flags=0x400140, setsid=True),
        Proc(user_pid, 'sshd', pid, uid=uid, vm=mb(17.6), anon=mb(1.4), file=mb(5.3), cpu=0.4, age=age - 0.2,
             cgroup=sess, caps=0, groups=groups),
        Proc(bash_pid, 'bash', user_pid, uid=uid, vm=mb(8.4), anon=mb(2.1), file=mb(3.9), cpu=0.09,
             age=age - 0.3, cgroup=sess, caps=0, groups=groups, tty=tty, fdsize=256, setsid=True),
    )
    return sess


# ---- writing the tree ---------------------------------------------------------------------------

class Tree:
    def __init__(self, m, root):
        self.m, self.root = m, root
        self.rng_base = m.name

    def rng(self, key):
        return random.Random('%s:%s' % (self.rng_base, key))

    def write(self, rel, text):
        path = os.path.join(self.root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w', encoding='utf-8', newline='') as f:
            f.write(text)


def node_split(m, p):
    """{node: fraction} of a process's memory."""
    if p.node is not None:
        return p.node
    allowed = sorted(parse_list(p.mems)) if p.mems else list(range(len(m.nodes)))
    return {n: 1.0 / len(allowed) for n in allowed}


def finish(m):
    """Defaults that depend on the machine: mems, cpus, pgrp/session, sizes."""
    all_nodes = fmt_list(range(len(m.nodes)))
    all_cpus = '0-%d' % (m.ncpu - 1) if m.ncpu > 1 else '0'
    by_pid = {p.pid: p for p in m.procs}
    for p in sorted(m.procs, key=lambda q: q.pid):
        p.mems = p.mems or all_nodes
        p.cpus = p.cpus or all_cpus
        if p.age is None:
            p.age = m.uptime - 5
        assert 0 < p.age <= m.uptime, (p.pid, p.age)
        if p.cgroup is None:
            parent = by_pid.get(p.ppid)
            p.cgroup = parent.cgroup if parent and parent.cgroup else '/'
        if p.kthread:
            p.pgrp = p.sid = 0
        elif p.ppid in (0, 1) or p.ppid not in by_pid or p.setsid:
            p.pgrp = p.sid = p.pid
        else:
            parent = by_pid[p.ppid]
            p.sid = parent.sid
            p.pgrp = p.pid if parent.tty == 0 and p.tty else parent.pgrp
            if p.tty and parent.comm == 'bash':
                p.pgrp = p.pid
        if p.pte is None and p.has_mm:
            p.pte = r4((p.rss + p.swap) / 512.0 + 16 + p.vm / 65536.0)
        if p.hwm is None:
            # It was all resident once, but never more than the RAM.
            p.hwm = max(p.rss, min(p.rss + p.swap, r4(m.mem_total * 0.9)))
        if p.peak is None:
            p.peak = p.vm
    m.by_pid = by_pid


def status_text(m, p, tid=None, thread_comm=None, thread_cpu=None, zombie_leader=False):
    lines = []
    add = lines.append
    add('Name:\t%s' % (thread_comm or p.comm))
    if not zombie_leader:
        add('Umask:\t%s' % p.umask)
    st = {'S': 'S (sleeping)', 'R': 'R (running)', 'D': 'D (disk sleep)', 'Z': 'Z (zombie)'}
    state = 'Z' if zombie_leader else ('S' if tid else p.state)
    add('State:\t%s' % st[state])
    add('Tgid:\t%d' % p.pid)
    add('Ngid:\t0')
    add('Pid:\t%d' % (tid or p.pid))
    add('PPid:\t%d' % p.ppid)
    add('TracerPid:\t0')
    add('Uid:\t%d\t%d\t%d\t%d' % ((p.uid,) * 4))
    add('Gid:\t%d\t%d\t%d\t%d' % ((p.uid,) * 4))
    add('FDSize:\t%d' % (0 if zombie_leader else p.fdsize))
    add('Groups:\t%s ' % ' '.join(str(g) for g in p.groups))
    add('NStgid:\t%d' % p.pid)
    add('NSpid:\t%d' % (tid or p.pid))
    add('NSpgid:\t%d' % p.pgrp)
    add('NSsid:\t%d' % p.sid)
    add('Kthread:\t%d' % (1 if p.kthread else 0))
    if p.has_mm and not zombie_leader:
        data = p.vm - p.exe - p.lib - p.stk
        for key, val in (('VmPeak', p.peak), ('VmSize', p.vm), ('VmLck', 0), ('VmPin', 0), ('VmHWM', p.hwm),
                         ('VmRSS', p.rss), ('RssAnon', p.anon), ('RssFile', p.file), ('RssShmem', p.shmem),
                         ('VmData', data), ('VmStk', p.stk), ('VmExe', p.exe), ('VmLib', p.lib),
                         ('VmPTE', p.pte), ('VmSwap', p.swap), ('HugetlbPages', 0)):
            add('%s:\t%8d kB' % (key, val))
        add('CoreDumping:\t0')
        add('THP_enabled:\t1')
        add('untag_mask:\t0xffffffffffffffff')
    threads = p.threads
    add('Threads:\t%d' % threads)
    add('SigQ:\t0/%d' % (m.mem_total // 256))
    pend = SIGKILL_BIT if p.sigkill else 0
    add('SigPnd:\t%016x' % pend)
    add('ShdPnd:\t%016x' % pend)
    sigign, sigcgt = signal_masks(p)
    add('SigBlk:\t%016x' % 0)
    add('SigIgn:\t%016x' % sigign)
    add('SigCgt:\t%016x' % sigcgt)
    add('CapInh:\t%016x' % 0)
    add('CapPrm:\t%016x' % p.caps)
    add('CapEff:\t%016x' % p.caps)
    add('CapBnd:\t%016x' % CAPS_ALL)
    add('CapAmb:\t%016x' % 0)
    add('NoNewPrivs:\t%d' % (1 if p.seccomp else 0))
    add('Seccomp:\t%d' % (2 if p.seccomp else 0))
    add('Seccomp_filters:\t%d' % (p.seccomp or 0))
    add('Speculation_Store_Bypass:\tvulnerable')
    add('SpeculationIndirectBranch:\talways enabled')
    add('Cpus_allowed:\t%s' % fmt_mask(parse_list(p.cpus), m.ncpu))
    add('Cpus_allowed_list:\t%s' % p.cpus)
    add('Mems_allowed:\t%s' % fmt_mask(parse_list(p.mems), MAX_NUMNODES))
    add('Mems_allowed_list:\t%s' % p.mems)
    cpu = thread_cpu if thread_cpu is not None else p.cpu
    add('voluntary_ctxt_switches:\t%d' % int(cpu * 37 + p.age / 300 + 1))
    add('nonvoluntary_ctxt_switches:\t%d' % int(cpu * 3 + 1))
    return '\n'.join(lines) + '\n'


def signal_masks(p):
    if p.kthread:
        return 0xFFFFFFFFFFFFFFFF, 0
    if p.comm in ('bash',):
        return 0x0000000000380004, 0x000000004b817efb
    if p.uid == 0 or p.ppid == 1:
        return 0x0000000000001000, 0x0000000180004a03
    return 0x0000000000000000, 0x0000000000004000


def flags_of(p):
    if p.flags is not None:
        f = p.flags
    elif p.kthread:
        f = 0x208040
    else:
        f = 0x400100 if p.uid == 0 else 0x400000
    if p.exiting:
        f |= 0x4
    return f


ZOMBIE_LEADER_FLAGS = 0x40800C  # PF_EXITING|PF_POSTCOREDUMP|PF_NOFREEZE|PF_RANDOMIZE, as tests/fixtures/basic captured


def ticks(m, p, cpu=None):
    cpu = p.cpu if cpu is None else cpu
    total = int(round(cpu * HZ))
    stime = int(total * p.sys_frac)
    return total - stime, stime


def start_ticks(m, p):
    return int(round((m.uptime - p.age) * HZ))


def stat_text(m, p, tid=None, thread_comm=None, thread_cpu=None, zombie_leader=False):
    rng = random.Random('%s:stat:%d' % (m.name, p.pid))
    utime, stime = ticks(m, p, thread_cpu if tid else None)
    if zombie_leader:
        # The leader's stat sums the whole group; its mm is gone.
        utime, stime = ticks(m, p, p.cpu)
    state = 'Z' if zombie_leader else ('S' if tid else p.state)
    has_mm = p.has_mm and not zombie_leader
    vsize = p.vm * 1024 if has_mm else 0
    rss = p.rss // PAGE_KB if has_mm else 0
    if has_mm:
        base = 0x550000000000 + rng.randrange(0, 0x10000000) * 0x1000
        code_end = base + p.exe * 1024 + rng.randrange(0, 0x1000)
        stack = 0x7FF000000000 + rng.randrange(0, 0xFFFFFFF) * 0x10
        data0 = base + p.exe * 1024 + 0x11000
        data1 = data0 + rng.randrange(0x1000, 0x40000)
        brk = data1 + rng.randrange(0x100000, 0x4000000) // 0x1000 * 0x1000
        arg0 = stack + 0x1000 + rng.randrange(0, 0x800)
        arg1 = arg0 + len(p.comm) + rng.randrange(8, 200)
        addrs = [base, code_end, stack]
        tail = [data0, data1, brk, arg0, arg1, arg1, arg1 + rng.randrange(0x400, 0xE00)]
    else:
        addrs = [0, 0, 0]
        tail = [0] * 7
    sigign, sigcgt = signal_masks(p)
    minflt = (p.rss + p.swap) // PAGE_KB + rng.randrange(50, 3000) if p.has_mm else 0
    majflt = (p.file // 40 + p.swap // 8) if p.has_mm else 0
    prio = 20 + p.nice
    fields = [
        tid or p.pid, '(%s)' % (thread_comm or p.comm), state, p.ppid, p.pgrp, p.sid, p.tty,
        p.pgrp if p.tty else -1,
        ZOMBIE_LEADER_FLAGS if zombie_leader and tid in (None, p.pid) else
        flags_of(p) if not tid else (flags_of(p) & ~0x100) | 0x40,
        minflt, 0, majflt, 0, utime, stime, 0, 0, prio, p.nice, p.threads, 0, start_ticks(m, p),
        vsize, rss, 18446744073709551615, *addrs, 0, 0, (SIGKILL_BIT if p.sigkill else 0), 0,
        sigign & 0x7FFFFFFF, sigcgt & 0x7FFFFFFF, 0, 0, 0, -1 if tid and tid != p.pid else 17,
        (tid or p.pid) % m.ncpu, 0, 0, 0, 0, 0, *tail, 0,
    ]
    return ' '.join(str(f) for f in fields) + '\n'


def statm_text(p, zombie_leader=False):
    if not p.has_mm or zombie_leader:
        return '0 0 0 0 0 0 0\n'
    data = p.vm - p.exe - p.lib - p.stk
    return '%d %d %d %d 0 %d 0\n' % (p.vm // 4, p.rss // 4, (p.file + p.shmem) // 4, p.exe // 4,
                                      (data + p.stk) // 4)


def cgroup_text(m, p):
    if m.cgroup_mode == 'v2':
        return '0::%s\n' % p.cgroup
    mem = p.cgroup if not p.kthread else '/'
    sysd = p.cgroup if not p.kthread else '/'
    return ('12:name=systemd:%s\n11:pids:%s\n10:blkio:/\n9:freezer:/\n8:devices:%s\n7:memory:%s\n'
            '6:cpuset:/\n5:cpuacct:/\n4:cpu:/\n3:net_cls,net_prio:/\n2:perf_event:/\n1:misc:/\n0::%s\n'
            % (sysd, sysd, sysd, mem, sysd))


def numa_maps_text(m, p, zombie_leader=False):
    if not p.has_mm or zombie_leader:
        return ''
    split = node_split(m, p)
    rng = random.Random('%s:numa:%d' % (m.name, p.pid))
    pol = p.policy

    def nodes(pages):
        if pages <= 0:
            return ''
        out, left = [], pages
        items = sorted(split.items())
        for i, (n, f) in enumerate(items):
            c = left if i == len(items) - 1 else int(pages * f)
            left -= c
            if c:
                out.append('N%d=%d' % (n, c))
        return ' ' + ' '.join(out)

    base = 0x55D000000000 + rng.randrange(0, 0xFFFFF) * 0x1000
    exe = '/usr/bin/%s' % p.comm.split('/')[0].split(' ')[0].lower()
    lines = []
    text_pages = max(1, min(p.file // 4, p.exe // 4 or 1))
    lines.append('%x %s file=%s mapped=%d N0=%d kernelpagesize_kB=4' % (base, pol, exe, text_pages, text_pages)
                 if len(m.nodes) == 1 else
                 '%x %s file=%s mapped=%d%s kernelpagesize_kB=4' % (base, pol, exe, text_pages, nodes(text_pages)))
    heap = base + 0x2000000 + rng.randrange(0, 0xFFFF) * 0x1000
    anon_pages = p.anon // 4
    heap_pages = min(anon_pages, 33)
    big = anon_pages - heap_pages
    if heap_pages:
        lines.append('%x %s heap anon=%d dirty=%d%s kernelpagesize_kB=4' % (heap, pol, heap_pages, heap_pages,
                                                                         nodes(heap_pages)))
    mmap = 0x7F0000000000 + rng.randrange(0, 0xFFFFFF) * 0x1000
    if big > 0:
        swapped = (' swapcache=0' if p.swap else '')
        lines.append('%x %s anon=%d dirty=%d active=0%s%s kernelpagesize_kB=4' % (mmap, pol, big, big, swapped,
                                                                               nodes(big)))
    if p.shmem:
        sp = p.shmem // 4
        lines.append('%x %s file=/memfd:shm\\040(deleted) dirty=%d mapmax=2%s kernelpagesize_kB=4'
                     % (mmap + 0x40000000, pol, sp, nodes(sp)))
    libc = mmap + 0x50000000
    lib_pages = max(0, p.file // 4 - text_pages)
    if lib_pages:
        lines.append('%x %s file=/usr/lib/x86_64-linux-gnu/libc.so.6 mapped=%d mapmax=%d%s kernelpagesize_kB=4'
                     % (libc, pol, lib_pages, rng.randrange(8, 120), nodes(lib_pages)))
    lines.append('%x %s stack anon=3 dirty=3 active=1%s kernelpagesize_kB=4'
                 % (0x7FFC00000000 + rng.randrange(0, 0xFFFFF) * 0x1000, pol, nodes(3)))
    return '\n'.join(lines) + '\n'


def kernel_oom_score(m, p, totalpages):
    """fs/proc/base.c over mm/oom_kill.c's oom_badness, as Linux 6.x computes it."""
    if p.kthread or p.pid == 1 or p.adj == -1000:
        return 0
    points = p.rss // 4 + p.swap // 4 + (p.pte * 1024) // 4096
    points += p.adj * (totalpages // 1000)
    return cdiv((1000 + cdiv(points * 1000, totalpages)) * 2, 3)


def meminfo_lines(pairs, node=None):
    out = []
    for k, v in pairs:
        if node is None:
            if k.startswith('HugePages_'):
                out.append('%-16s%8d' % (k + ':', v))
            else:
                out.append('%-16s%8d kB' % (k + ':', v))
        else:
            if k.startswith('HugePages_'):
                out.append('Node %d %s %5d' % (node, k + ':', v))
            else:
                out.append('Node %d %-16s%8d kB' % (node, k + ':', v))
    return '\n'.join(out) + '\n'


def min_free_kbytes(mem_total):
    return max(128, min(262144, int(math.isqrt(mem_total * 16))))


def layout_memory(m):
    """Per-node accounting; raises if the machine is not consistent."""
    nn = len(m.nodes)
    anon = [0.0] * nn
    shmem = [0.0] * nn
    kstack = [0.0] * nn
    ptes = [0.0] * nn
    mapped = [0.0] * nn
    file_max = [0] * nn
    for p in m.procs:
        split = node_split(m, p)
        for n, f in split.items():
            assert 0 <= n < nn, (p.pid, n)
            assert n in parse_list(p.mems) or p.policy != 'default' or p.node is not None, (p.pid, n)
            kstack[n] += p.threads * 16 * f
            if not p.has_mm:
                continue
            anon[n] += p.anon * f
            shmem[n] += p.shmem * f
            ptes[n] += p.pte * f
            mapped[n] += p.file * f * 0.35
            file_max[n] = max(file_max[n], int(p.file * f))
    minf = min_free_kbytes(m.mem_total)
    nodes = []
    for n in range(nn):
        total = m.nodes[n]
        share = total / m.mem_total
        wmin = minf * share
        tmpfs = m.tmpfs * share
        sh = r4(shmem[n] + tmpfs)
        an = r4(anon[n])
        ks = r4(kstack[n] + 16 * 8 * share)
        pt = r4(ptes[n] + 1200 * share)
        slab = r4(m.slab[n])
        percpu = r4(1200 * m.ncpu * share)
        unacc = r4(total * 0.012 + 30000 * share)  # kernel image, vmalloc, drivers, struct pages
        mlocked = r4(m.mlocked * share)
        fixed = an + sh + ks + pt + slab + percpu + unacc
        if m.full[n]:
            free = r4(wmin * 1.07)
            file_lru = total - free - fixed
            if file_lru < max(file_max[n] + mb(8), mb(24)):
                raise SystemExit('%s: node %d over-committed by %d kB (processes too big for the RAM)'
                                 % (m.name, n, max(file_max[n] + mb(8), mb(24)) - file_lru))
            if file_lru > total * 0.12 + mb(64):
                raise SystemExit('%s: node %d has %d kB of page cache left: not out of memory; grow the processes'
                                 % (m.name, n, file_lru))
        else:
            file_lru = r4(m.file_lru[n])
            free = total - fixed - file_lru
            if free < wmin * 2:
                raise SystemExit('%s: node %d marked not full but has only %d kB free' % (m.name, n, free))
        buffers = r4(file_lru * 0.015)
        nodes.append(dict(total=total, free=free, anon=an, shmem=sh, kstack=ks, pt=pt, slab=slab,
                          file_lru=file_lru, buffers=buffers, mapped=r4(min(mapped[n], file_lru * 0.8)),
                          mlocked=mlocked, wmin=wmin, percpu=percpu))
    return nodes


def write_meminfo(t, m, nodes):
    swap_used = sum(p.swap for p in m.procs) + m.swap_used_extra
    if swap_used > m.swap_total:
        raise SystemExit('%s: %d kB swapped but SwapTotal is %d kB' % (m.name, swap_used, m.swap_total))
    swapcache = r4(min(swap_used * 0.002, mb(16)))
    node_rows = []
    totals = {}
    for n, d in enumerate(nodes):
        anon_lru = d['anon'] + d['shmem'] - d['mlocked']
        act_anon = r4(anon_lru * 0.71)
        act_file = r4(d['file_lru'] * 0.46)
        sc = r4(swapcache * d['total'] / m.mem_total)
        row = [
            ('MemTotal', d['total']), ('MemFree', d['free']), ('MemUsed', d['total'] - d['free']),
            ('SwapCached', sc), ('Active', act_anon + act_file),
            ('Inactive', anon_lru - act_anon + d['file_lru'] - act_file), ('Active(anon)', act_anon),
            ('Inactive(anon)', anon_lru - act_anon), ('Active(file)', act_file),
            ('Inactive(file)', d['file_lru'] - act_file), ('Unevictable', d['mlocked']),
            ('Mlocked', d['mlocked']), ('Dirty', r4(d['file_lru'] * 0.004)), ('Writeback', 0),
            ('FilePages', d['file_lru'] + d['shmem'] + sc), ('Mapped', d['mapped']), ('AnonPages', d['anon']),
            ('Shmem', d['shmem']), ('KernelStack', d['kstack']), ('PageTables', d['pt']),
            ('SecPageTables', 0), ('NFS_Unstable', 0), ('Bounce', 0), ('WritebackTmp', 0),
            ('KReclaimable', r4(d['slab'] * 0.42)), ('Slab', d['slab']), ('SReclaimable', r4(d['slab'] * 0.42)),
            ('SUnreclaim', d['slab'] - r4(d['slab'] * 0.42)), ('AnonHugePages', 0), ('ShmemHugePages', 0),
            ('ShmemPmdMapped', 0), ('FileHugePages', 0), ('FilePmdMapped', 0),
            ('HugePages_Total', 0), ('HugePages_Free', 0), ('HugePages_Surp', 0),
        ]
        node_rows.append(row)
        for k, v in row:
            totals[k] = totals.get(k, 0) + v
        d['swapcache'] = sc
        t.write('sys/devices/system/node/node%d/meminfo' % n, meminfo_lines(row, node=n))
        cpn = m.ncpu // len(nodes)
        t.write('sys/devices/system/node/node%d/cpulist' % n,
                '%d-%d\n' % (n * cpn, n * cpn + cpn - 1) if cpn > 1 else '%d\n' % n)
    online = fmt_list(range(len(nodes))) + '\n'
    t.write('sys/devices/system/node/online', online)
    t.write('sys/devices/system/node/possible', online)
    t.write('sys/devices/system/node/has_memory', online)
    low = sum(d['wmin'] * 1.25 for d in nodes)
    file_lru = totals['Active(file)'] + totals['Inactive(file)']
    sreclaim = totals['SReclaimable']
    avail = totals['MemFree'] - low + file_lru - min(file_lru / 2, low) + sreclaim - min(sreclaim / 2, low)
    buffers = sum(d['buffers'] for d in nodes)
    cached = totals['FilePages'] - swapcache - buffers
    commit = sum(p.anon + p.swap + p.shmem + (p.vm - p.exe - p.lib - p.stk) // 10
                 for p in m.procs if p.has_mm) + m.tmpfs
    ram = m.ram or m.mem_total + r4(m.mem_total * 0.021)
    dm4k = r4(ram * 0.02) // 4 * 4
    if ram > gb(6):
        dm1g = ((ram - gb(4)) // gb(1)) * gb(1)
    else:
        dm1g = 0
    dm2m = -(-(ram - dm4k - dm1g) // 2048) * 2048
    g = totals
    rows = [
        ('MemTotal', m.mem_total), ('MemFree', g['MemFree']), ('MemAvailable', max(0, r4(avail))),
        ('Buffers', buffers), ('Cached', cached), ('SwapCached', swapcache),
        ('Active', g['Active']), ('Inactive', g['Inactive']), ('Active(anon)', g['Active(anon)']),
        ('Inactive(anon)', g['Inactive(anon)']), ('Active(file)', g['Active(file)']),
        ('Inactive(file)', g['Inactive(file)']), ('Unevictable', g['Unevictable']), ('Mlocked', g['Mlocked']),
        ('SwapTotal', m.swap_total), ('SwapFree', m.swap_total - swap_used), ('Zswap', 0), ('Zswapped', 0),
        ('Dirty', g['Dirty']), ('Writeback', 0), ('AnonPages', g['AnonPages']), ('Mapped', g['Mapped']),
        ('Shmem', g['Shmem']), ('KReclaimable', g['KReclaimable']), ('Slab', g['Slab']),
        ('SReclaimable', g['SReclaimable']), ('SUnreclaim', g['SUnreclaim']), ('KernelStack', g['KernelStack']),
        ('PageTables', g['PageTables']), ('SecPageTables', 0), ('NFS_Unstable', 0), ('Bounce', 0),
        ('WritebackTmp', 0), ('CommitLimit', m.swap_total + m.mem_total // 2), ('Committed_AS', r4(commit)),
        ('VmallocTotal', 34359738367), ('VmallocUsed', r4(20000 + m.ncpu * 1800)), ('VmallocChunk', 0),
        ('Percpu', sum(d['percpu'] for d in nodes)), ('AnonHugePages', 0), ('ShmemHugePages', 0),
        ('ShmemPmdMapped', 0), ('FileHugePages', 0), ('FilePmdMapped', 0), ('Balloon', 0),
        ('HugePages_Total', 0), ('HugePages_Free', 0), ('HugePages_Rsvd', 0), ('HugePages_Surp', 0),
        ('Hugepagesize', 2048), ('Hugetlb', 0), ('DirectMap4k', dm4k), ('DirectMap2M', dm2m),
        ('DirectMap1G', dm1g),
    ]
    t.write('proc/meminfo', meminfo_lines(rows))
    return dict(rows)


def write_cgroups(t, m):
    mnt = ('22 1 254:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw,errors=remount-ro\n'
           '23 22 0:21 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw\n'
           '24 22 0:22 / /sys rw,nosuid,nodev,noexec,relatime shared:2 - sysfs sysfs rw\n'
           '25 22 0:5 / /dev rw,nosuid,relatime shared:3 - devtmpfs udev rw,size=%dk,nr_inodes=%d,mode=755\n'
           '26 25 0:23 / /dev/pts rw,nosuid,noexec,relatime shared:4 - devpts devpts rw,gid=5,mode=620,ptmxmode=000\n'
           '27 25 0:24 / /dev/shm rw,nosuid,nodev shared:5 - tmpfs tmpfs rw,inode64\n'
           '28 22 0:25 / /run rw,nosuid,nodev,noexec,relatime shared:6 - tmpfs tmpfs rw,size=%dk,mode=755,inode64\n'
           % (m.mem_total // 2, m.mem_total // 8, m.mem_total // 10))
    groups = {}
    for p in m.procs:
        groups.setdefault(p.cgroup, []).append(p.pid)
    # every ancestor exists too
    for path in list(groups):
        parts = path.strip('/').split('/')
        for i in range(len(parts)):
            groups.setdefault('/' + '/'.join(parts[:i]) if i else '/', [])
    for path in m.memcg:
        groups.setdefault(path, [])

    def member_kb(path):
        total = 0
        for p in m.procs:
            if p.has_mm and (p.cgroup == path or p.cgroup.startswith(path.rstrip('/') + '/')):
                total += p.anon + p.file + p.shmem + p.pte
        return total

    if m.cgroup_mode == 'v2':
        mnt += ('30 24 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 '
                'rw,nsdelegate,memory_recursiveprot\n')
        base = 'sys/fs/cgroup'
        t.write(base + '/cgroup.controllers', 'cpuset cpu io memory hugetlb pids rdma misc\n')
        for path in sorted(groups):
            d = base + ('' if path == '/' else path)
            pids = sorted(groups[path])
            t.write(d + '/cgroup.procs', ''.join('%d\n' % x for x in pids))
            if path == '/':
                continue
            lim = m.memcg.get(path, {})
            mx, smax = lim.get('max'), lim.get('swap_max')
            t.write(d + '/memory.max', 'max\n' if mx is None else '%d\n' % mx)
            t.write(d + '/memory.swap.max', 'max\n' if smax is None else '%d\n' % smax)
            t.write(d + '/memory.high', 'max\n')
            t.write(d + '/memory.min', '0\n')
            t.write(d + '/memory.low', '0\n')
            cur = member_kb(path) * 1024 + 4096 * 300
            if mx is not None:
                if cur > mx:
                    raise SystemExit('%s: %s uses %d bytes over its memory.max %d' % (m.name, path, cur, mx))
                cur = mx - 4096 * 23  # at the limit: that is why it went OOM
                t.write(d + '/memory.events', 'low 0\nhigh 0\nmax %d\noom 1\noom_kill 0\noom_group_kill 0\n'
                        % (lim.get('max_events', 1841)))
            t.write(d + '/memory.current', '%d\n' % cur)
            if path in m.cpusets:
                cpus, mems = m.cpusets[path]
                t.write(d + '/cpuset.cpus', cpus + '\n')
                t.write(d + '/cpuset.mems', mems + '\n')
                t.write(d + '/cpuset.cpus.effective', cpus + '\n')
                t.write(d + '/cpuset.mems.effective', mems + '\n')
    else:
        mnt += '31 24 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n'
        ctrls = ['cpu', 'cpuacct', 'cpuset', 'memory', 'devices', 'freezer', 'blkio', 'pids']
        for i, c in enumerate(ctrls):
            mnt += '%d 31 0:%d / /sys/fs/cgroup/%s rw,relatime - cgroup cgroup rw,%s\n' % (32 + i, 29 + i, c, c)
        mnt += '40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd\n'
        mnt += '41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n'
        base = 'sys/fs/cgroup/memory'
        unlimited = 9223372036854771712
        for path in sorted(groups):
            d = base + ('' if path == '/' else path)
            pids = sorted(groups[path])
            t.write(d + '/cgroup.procs', ''.join('%d\n' % x for x in pids))
            lim = m.memcg.get(path, {})
            mx, smax = lim.get('max'), lim.get('swap_max')
            t.write(d + '/memory.limit_in_bytes', '%d\n' % (unlimited if mx is None else mx))
            memsw = unlimited if mx is None else (mx + (smax or 0) if smax is not None else unlimited)
            t.write(d + '/memory.memsw.limit_in_bytes', '%d\n' % memsw)
            t.write(d + '/memory.use_hierarchy', '1\n')
            cur = member_kb(path) * 1024 + 4096 * 300
            if mx is not None:
                if cur > mx:
                    raise SystemExit('%s: %s uses %d bytes over its limit %d' % (m.name, path, cur, mx))
                cur = mx - 4096 * 23
                t.write(d + '/memory.failcnt', '%d\n' % lim.get('max_events', 1841))
                t.write(d + '/memory.max_usage_in_bytes', '%d\n' % mx)
            t.write(d + '/memory.usage_in_bytes', '%d\n' % cur)
            t.write(d + '/memory.oom_control', 'oom_kill_disable 0\nunder_oom 0\noom_kill 0\n')
    t.write('proc/self/mountinfo', mnt)


def write_tree(m, root, scenario_text):
    finish(m)
    if os.path.exists(root):
        shutil.rmtree(root)
    t = Tree(m, root)
    nodes = layout_memory(m)
    mi = write_meminfo(t, m, nodes)
    totalpages = (mi['MemTotal'] + mi['SwapTotal']) // 4
    idle = m.uptime * m.ncpu * 0.93
    t.write('proc/uptime', '%.2f %.2f\n' % (m.uptime, idle))
    for k, v in sorted(m.sysctl.items()):
        t.write('proc/sys/vm/%s' % k, '%d\n' % v)
    if m.forkbomb_thres is not None:
        t.write('var/lib/liboom/vm.oom_forkbomb_thres', '%d\n' % m.forkbomb_thres)
    write_cgroups(t, m)
    for p in m.procs:
        d = 'proc/%d/' % p.pid
        zl = bool(p.zombie_threads)
        t.write(d + 'status', status_text(m, p, zombie_leader=zl))
        t.write(d + 'stat', stat_text(m, p, zombie_leader=zl))
        t.write(d + 'statm', statm_text(p, zombie_leader=zl))
        t.write(d + 'oom_score_adj', '%d\n' % p.adj)
        t.write(d + 'oom_score', '%d\n' % kernel_oom_score(m, p, totalpages))
        t.write(d + 'cgroup', cgroup_text(m, p))
        t.write(d + 'numa_maps', numa_maps_text(m, p, zombie_leader=zl))
        if zl:
            td = d + 'task/%d/' % p.pid
            t.write(td + 'status', status_text(m, p, tid=p.pid, zombie_leader=True))
            t.write(td + 'stat', stat_text(m, p, tid=p.pid, thread_cpu=0.0, zombie_leader=True))
            t.write(td + 'statm', statm_text(p, zombie_leader=True))
            for tid, tcomm, tcpu in p.zombie_threads:
                td = d + 'task/%d/' % tid
                t.write(td + 'status', status_text(m, p, tid=tid, thread_comm=tcomm, thread_cpu=tcpu))
                t.write(td + 'stat', stat_text(m, p, tid=tid, thread_comm=tcomm, thread_cpu=tcpu))
                t.write(td + 'statm', statm_text(p))
                t.write(td + 'oom_score_adj', '%d\n' % p.adj)
                t.write(td + 'oom_score', '%d\n' % kernel_oom_score(m, p, totalpages))
                t.write(td + 'cgroup', cgroup_text(m, p))
                t.write(td + 'numa_maps', numa_maps_text(m, p))
    t.write('scenario', scenario_text)
    check(m, mi)
    return mi


def check(m, mi):
    """Invariants a reviewer would check by hand."""
    rss = sum(p.rss for p in m.procs if p.has_mm)
    private = sum(p.anon + p.shmem for p in m.procs if p.has_mm)
    if mi['MemTotal'] - mi['MemFree'] < rss:
        raise SystemExit('%s: processes have %d kB resident, more than the %d kB used (shared file pages '
                         'counted in every process: lower RssFile)' % (m.name, rss, mi['MemTotal'] - mi['MemFree']))
    assert mi['MemTotal'] - mi['MemFree'] >= private, m.name
    for p in m.procs:
        for v in (p.vm, p.anon, p.file, p.shmem, p.swap, p.exe, p.lib, p.stk, p.pte or 0, p.hwm, p.peak):
            assert v % 4 == 0, (m.name, p.pid, v)
        if p.has_mm:
            assert p.vm >= p.rss + p.swap, (m.name, p.pid, 'VmSize < rss+swap')
            assert p.peak >= p.vm and p.hwm >= p.rss, (m.name, p.pid)
            assert p.vm - p.exe - p.lib - p.stk >= p.anon + p.swap - mb(2) or p.shmem, (m.name, p.pid, 'VmData')
        assert p.cpu <= p.age * min(p.threads, m.ncpu) + 0.01, (m.name, p.pid, 'CPU time > age')
        assert p.uid == 0 or not (p.caps >> CAP_SYS_ADMIN) & 1 or p.caps != CAPS_ALL, (m.name, p.pid)


# ---- the scenario file ---------------------------------------------------------------------------

def scenario_file(name, title, machine, story, expect, asserted, known_wrong, constraint, trigger, notes=''):
    def wrap(key, text):
        words, lines, cur = text.split(), [], key + ':'
        for w in words:
            if len(cur) + 1 + len(w) > 100:
                lines.append(cur)
                cur = ' '
            cur += ' ' + w if cur.strip() else w
            if cur == ' ' + w:
                cur = '  ' + w
        lines.append(cur)
        return '\n'.join(lines) + '\n'

    out = '# Generated by tests/scenarios/mkscenario.py; format in tests/scenarios/README.\n'
    out += 'name: %s\n' % name
    out += wrap('title', title)
    out += wrap('machine', machine)
    out += wrap('story', story)
    out += 'expect: %s\n' % expect
    out += 'assert: %s\n' % ' '.join(asserted)
    out += 'known-wrong: %s\n' % ' '.join(known_wrong)
    out += 'constraint: %s\n' % constraint
    out += 'trigger: %d\n' % trigger
    if notes:
        out += wrap('notes', notes)
    return out


SCENARIOS = {}


def scenario(fn):
    SCENARIOS[fn.__name__.replace('_', '-')] = fn
    return fn


# Machines sit at the moment of the OOM: free memory at the min watermark,
# page cache squeezed, swap (when there is some) used up.

@scenario
def desktop():
    m = Machine('desktop', mem_total=3934004, swap_total=2097148, ncpu=4, uptime=4 * 3600 + 1234.56)
    base_system(m)
    up = m.uptime
    sess = '/user.slice/user-1000.slice/session-2.scope'
    grp = (24, 25, 27, 29, 30, 44, 46, 100, 106, 1000)
    u = dict(uid=1000, caps=0, groups=grp, cgroup=sess)
    m.add(
        Proc(904, 'sddm', 1, vm=mb(232.1), anon=mb(3.2), file=mb(11.6), threads=3, cpu=0.4, age=up - 6,
             cgroup='/system.slice/sddm.service'),
        Proc(921, 'Xorg', 904, vm=mb(913.8), anon=mb(61.0), file=mb(18.2), shmem=mb(22.1), swap=mb(14.0),
             threads=3, cpu=612.0, age=up - 6.2, cgroup='/system.slice/sddm.service', tty=1025, fdsize=128),
        Proc(1302, 'sddm-helper', 904, vm=mb(82.4), anon=mb(1.2), file=mb(6.3), cpu=0.02, age=up - 14,
             cgroup='/user.slice/user-1000.slice/session-2.scope'),
        Proc(1310, 'startkde', 1302, vm=mb(21.0), anon=mb(0.8), file=mb(3.0), cpu=0.1, age=up - 14.2, **u),
        # kdeinit4 forks every KDE program; the children set their comm with prctl().
        Proc(1351, 'kdeinit4', 1, vm=mb(368.4), anon=mb(6.1), file=mb(19.3), cpu=1.9, age=up - 15.1, **u),
    )
    kids = [
        (1354, 'klauncher', 361.2, 4.4, 13.0, 0, 2.0, 0.6),
        (1357, 'kded4', 683.5, 24.8, 31.2, 1.1, 28.0, 49.2),
        (1361, 'kglobalaccel', 377.9, 3.1, 15.5, 0, 3.0, 0.9),
        (1376, 'kwin', 605.7, 38.4, 34.7, 6.2, 18.0, 388.4),
        (1388, 'knotify4', 414.8, 5.9, 17.7, 0, 6.0, 1.7),
        (1391, 'plasma-desktop', 1034.2, 96.3, 52.9, 8.3, 61.0, 624.0),
        (1393, 'krunner', 521.6, 13.4, 24.8, 0, 9.0, 4.8),
        (1395, 'kmix', 458.1, 8.3, 21.6, 0.4, 5.0, 17.3),
        (1402, 'kwalletd', 331.6, 3.9, 14.1, 0, 2.0, 0.5),
        (1406, 'nepomukserver', 319.8, 2.7, 11.9, 0, 1.0, 0.4),
        (1413, 'nepomukservices', 1224.7, 71.6, 23.5, 0, 84.0, 1843.5),
        (1419, 'akonadi_control', 342.5, 3.4, 12.8, 0, 2.0, 1.1),
        (1427, 'klipper', 386.1, 6.2, 16.4, 0, 3.0, 3.2),
        (1433, 'kmail', 1208.6, 88.1, 47.3, 2.1, 71.0, 214.6),
        (1448, 'konsole', 512.3, 17.8, 29.6, 1.4, 6.0, 38.2),
        (1460, 'dolphin', 603.9, 22.5, 33.2, 0.7, 12.0, 22.7),
    ]
    for pid, comm, vm, anon, file, shm, swap, cpu in kids:
        m.add(Proc(pid, comm, 1351, vm=mb(vm), anon=mb(anon), file=mb(file * 0.5), shmem=mb(shm), swap=mb(swap),
                   cpu=cpu, age=up - (pid - 1340) * 0.21, threads=2 if comm not in ('kmail', 'kded4') else 5,
                   fdsize=64, **u))
    m.add(
        Proc(1371, 'ksmserver', 1310, vm=mb(457.3), anon=mb(9.1), file=mb(22.4), shmem=mb(0.5), swap=mb(4.0),
             cpu=3.1, age=up - 16, **u),
        Proc(1468, 'bash', 1448, vm=mb(22.3), anon=mb(3.2), file=mb(3.6), cpu=0.2, age=up - 4000, tty=34816,
             fdsize=256, **u),
        # A program written to OOM the machine (the article's test): it
        # allocated and touched memory as fast as it could for 100 seconds.
        Proc(5711, 'memhog', 1468, vm=gb(4.861), exe=8, lib=1824, anon=gb(2.80), file=mb(1.4), swap=1741820,
             cpu=97.6, sys_frac=0.83, age=101.3, tty=34816, state='D', **u),
    )
    story = ("KDE 4 on a 4 GiB laptop with 2 GiB of swap. kdeinit4 (1351) forked sixteen KDE programs: each "
             "maps 300 MB to 1.2 GB of libraries and heap (total_vm) but keeps 10-150 MB resident. The user "
             "started memhog (5711) from konsole's bash; it touched 4.5 GB in 100 seconds and filled RAM and "
             "swap. The admin wants memhog killed: it is the process that ran the machine out of memory, and "
             "killing it frees 4.5 GB. Killing kdeinit4 or one of its children takes the desktop session down "
             "and frees under 150 MB. The article: the rewrite 'no longer kills KDE when run on my desktop in "
             "the presence of a memory hogging task'.")
    notes = ("legacy adds half of each child's total_vm to kdeinit4 (half of their 9.4 GB of address space) "
             "and divides memhog by int_sqrt of its 97 seconds of CPU; it picks kdeinit4 and kills its first "
             "child, klauncher.")
    return m, scenario_file('desktop', 'KDE session manager and its children vs a memory hog',
                            '4 GiB laptop, 2 GiB swap, 4 CPUs, KDE 4 session (2010)', story, 'kill 5711 memhog',
                            ['rewrite', 'kernel'], ['legacy'], 'none', 5711, notes)



@scenario
def forkbomb():
    m = Machine('forkbomb', mem_total=16365640, ncpu=8, uptime=6 * 86400 + 4711.3, forkbomb_thres=1000)
    base_system(m)
    up = m.uptime
    m.add(Proc(1190, 'java', 1, uid=110, vm=gb(17.3), anon=gb(8.93), file=mb(61.2), threads=96, cpu=31 * 3600.0,
               age=up - 30, cgroup='/system.slice/jenkins.service', fdsize=1024, exe=4, lib=26800))
    sess = ssh_session(m, 2990, 2996, 2997, uid=1001, age=1800.0, groups=(1001,))
    # A script that starts a prober per host and never waits: every prober
    # hangs on an unreachable host, so none has used a second of CPU.
    m.add(Proc(3098, 'probe-all.sh', 2997, uid=1001, vm=mb(7.9), anon=mb(1.6), file=mb(3.4), cpu=6.4, age=61.7,
               tty=34816, cgroup=sess, groups=(1001,), caps=0))
    rng = random.Random('forkbomb-children')
    pid = 3101
    for i in range(2000):
        age = 61.6 - i * 0.0305
        cpu = min(rng.randrange(2, 95) / 100.0, round(age * 0.8, 2))
        m.add(Proc(pid, 'probe', 3098, uid=1001, vm=mb(9.6), anon=mb(2.6), file=mb(0.3), cpu=cpu, age=age, tty=34816, cgroup=sess, groups=(1001,), caps=0, exe=28, lib=3012,
                   flags=0x400000, sys_frac=0.7))
        pid += 1 + (rng.random() < 0.02)
    story = ("A Jenkins CI server (16 GiB, 8 CPUs, no swap) up for six days: its JVM (1190) holds 9 GB. A user's "
             "script probe-all.sh (3098) starts one prober per host in a loop without waiting; the probers hang "
             "on an unreachable network, so 2,000 of them live at once, each with 2.9 MB resident and under a "
             "second of CPU: 5.8 GB in all. The admin wants the fork bomb stopped: the script, or at least one "
             "of its probers; killing Jenkins frees memory for a moment while the bomb keeps forking, and "
             "loses every running build.")
    notes = ("seed 010: the rewrite adds (sum of the 2,000 children's rss)/1000 = 1,486 points to the script and "
             "kills it (no child scores above 0 to be sacrificed); legacy adds half of each child's total_vm "
             "and kills the first prober; the current kernel has no forkbomb penalty and kills java.")
    return m, scenario_file('forkbomb', 'A fork bomb of 2,000 short-lived children vs the largest process',
                            '16 GiB build server, 8 CPUs, no swap, vm.oom_forkbomb_thres 1000', story,
                            'kill 3098 probe-all.sh or kill-child-of 3098', ['rewrite', 'legacy'], ['kernel'],
                            'none', 3101 + 1999, notes)


@scenario
def forking_server():
    m = Machine('forking-server', mem_total=8138240, ncpu=4, uptime=5 * 86400 + 913.2)
    base_system(m)
    up = m.uptime
    web = '/system.slice/nginx.service'
    m.add(Proc(980, 'nginx', 1, vm=mb(55.3), anon=mb(1.6), file=mb(7.4), cpu=0.3, age=up - 9, cgroup=web))
    for i in range(4):
        m.add(Proc(981 + i, 'nginx', 980, uid=33, vm=mb(56.6), anon=mb(6.8), file=mb(8.1), cpu=410.0 + i * 37,
                   age=up - 9.1, cgroup=web, caps=0, flags=0x400040))
    m.add(Proc(1004, 'redis-server', 1, uid=111, vm=mb(702.4), anon=mb(588.6), file=mb(5.2), threads=5,
               cpu=2210.0, age=up - 10, cgroup='/system.slice/redis-server.service'))
    app = '/system.slice/shop.service'
    m.add(Proc(1120, 'gunicorn', 1, uid=1001, vm=mb(262.3), anon=mb(58.2), file=mb(21.9), cpu=141.0,
               age=up - 12, cgroup=app, caps=0))
    # Pre-forked workers; max_requests recycles them, so they are hours, not days, old.
    workers = [(4410, 212.0, 1.0), (4533, 205.5, 1.0), (4634, 219.3, 1.0), (4721, 5310.0, 9.6),
               (4790, 208.1, 1.0), (4811, 215.7, 1.0), (4868, 209.9, 1.0), (4902, 211.4, 1.0)]
    for n, (pid, anon, vmf) in enumerate(workers):
        age = 8 * 3600.0 - n * 2400
        m.add(Proc(pid, 'gunicorn', 1120, uid=1001, vm=r4(mb(636.2) * vmf if vmf > 1 else mb(636.2)),
                   anon=mb(anon), file=mb(24.3), cpu=age * 0.21, age=age, cgroup=app, caps=0,
                   flags=0x400040))
    story = ("An 8 GiB web server, no swap: nginx in front of a gunicorn application server (1120) with eight "
             "pre-forked workers, and redis. One worker (4721) hit a request that leaks: it holds 5.2 GB. The "
             "admin wants that worker killed: gunicorn restarts it in a second and every other request keeps "
             "being served. Killing the master (1120) takes the whole site down; killing another worker frees "
             "200 MB and the OOM comes back at once.")
    notes = ("seed 005: the old code killed the chosen parent's first child; legacy chooses the master (its "
             "own total_vm plus half of each worker's) and kills worker 4410.")
    return m, scenario_file('forking-server', 'A pre-forking server whose one worker leaks',
                            '8 GiB web server, 4 CPUs, no swap; nginx, gunicorn with 8 workers, redis', story,
                            'kill 4721 gunicorn', ['rewrite', 'kernel'], ['legacy'], 'none', 4721, notes)


@scenario
def browser_tabs():
    m = Machine('browser-tabs', mem_total=7972508, ncpu=8, uptime=9 * 3600 + 77.7)
    base_system(m)
    up = m.uptime
    sess = '/user.slice/user-1000.slice/session-2.scope'
    app = '/user.slice/user-1000.slice/user@1000.service/app.slice'
    u = dict(uid=1000, caps=0, groups=(24, 25, 27, 29, 44, 100, 1000))
    m.add(
        Proc(1530, 'gnome-shell', 1, vm=gb(5.1), anon=mb(312.0), file=mb(128.5), shmem=mb(46.0), threads=22,
             cpu=2950.0, age=up - 20, cgroup=sess, **u),
        Proc(1710, 'thunderbird', 1, vm=gb(3.4), anon=mb(402.1), file=mb(109.2), shmem=mb(6.1), threads=61,
             cpu=812.0, age=up - 60, cgroup=app + '/thunderbird.scope', **u),
        Proc(2210, 'firefox-esr', 1, vm=gb(13.2), anon=mb(1805.0), file=mb(151.7), shmem=mb(37.4), threads=97,
             cpu=4410.0, age=up - 75, cgroup=app + '/firefox.scope', fdsize=512, **u),
    )
    ff = app + '/firefox.scope'
    kids = [(2301, 'Socket Process', 0.31, 38.1), (2330, 'Privileged Cont', 2.5, 121.2),
            (2351, 'WebExtensions', 2.7, 121.0), (2372, 'RDD Process', 0.4, 31.3),
            (2380, 'Utility Process', 0.3, 24.4)]
    tabs = [(2401, 312.4), (2419, 268.0), (2433, 288.4), (2450, 221.5), (2466, 1640.3), (2481, 211.3),
            (2502, 289.9), (2517, 198.7), (2540, 161.0), (2566, 180.2)]
    for pid, comm, vmg, anon in kids:
        m.add(Proc(pid, comm, 2210, vm=gb(vmg), anon=mb(anon), file=mb(21.3), shmem=mb(4.2), threads=20,
                   cpu=anon * 0.9, age=up - 80 - (pid - 2300) * 0.4, cgroup=ff, seccomp=1, **u))
    for pid, anon in tabs:
        comm = 'Isolated Web Co' if pid % 3 else 'Web Content'
        m.add(Proc(pid, comm, 2210, vm=gb(2.6) + mb(anon), anon=mb(anon), file=mb(29.4), shmem=mb(11.5),
                   threads=27, cpu=anon * 2.4, age=up - 90 - (pid - 2400) * 37.0, cgroup=ff, seccomp=1, **u))
    story = ("An 8 GiB laptop, no swap: Firefox (2210) with five helper processes and ten content processes, one "
             "per site. One site's script leaks: its content process (2466) has grown to 1.6 GB. The user wants "
             "that tab killed: Firefox shows 'this tab crashed' and the other nine tabs, the session and the "
             "downloads survive. Killing the main process (2210, 1.9 GB) closes the whole browser; killing "
             "another helper or tab frees little. No process has an oom_score_adj set.")
    notes = ("seed 005: the rewrite chooses the main process and sacrifices its child with the highest score, "
             "the leaking tab; the current kernel has no sacrifice (removed in 5.1) and kills the whole browser; "
             "legacy kills the first child, the socket process.")
    return m, scenario_file('browser-tabs', 'A browser whose one content process leaks (sacrifice the worst child)',
                            '8 GiB laptop, 8 CPUs, no swap, GNOME and Firefox', story, 'kill 2466 Web Content',
                            ['rewrite'], ['legacy', 'kernel'], 'none', 2466, notes)


@scenario
def root_bonus():
    m = Machine('root-bonus', mem_total=8138240, ncpu=4, uptime=21 * 86400 + 301.9)
    base_system(m)
    up = m.uptime
    m.add(
        Proc(822, 'glusterd', 1, vm=mb(611.3), anon=mb(38.4), file=mb(12.6), threads=9, cpu=3100.0, age=up - 11,
             cgroup='/system.slice/glusterd.service'),
        Proc(871, 'glusterfsd', 1, vm=gb(4.1), anon=mb(3098.4), file=mb(14.2), threads=58, cpu=41000.0,
             age=up - 12, cgroup='/system.slice/glusterd.service', fdsize=2048),
    )
    sess = ssh_session(m, 6230, 6236, 6237, uid=1000, age=8000.0)
    m.add(Proc(6301, 'R', 6237, uid=1000, caps=0, vm=gb(3.34), anon=mb(2984.2), file=mb(27.4), cpu=7390.0,
               age=7560.0, cgroup=sess, tty=34816, groups=(1000,)))
    sess2 = '/user.slice/user-1002.slice/session-44.scope'
    m.add(Proc(5522, 'python3', 1, uid=1002, caps=0, vm=gb(1.9), anon=mb(1210.6), file=mb(31.9), threads=4,
               cpu=1420.0, age=3 * 86400.0, cgroup=sess2))
    story = ("An 8 GiB storage node, no swap: the GlusterFS brick daemon glusterfsd (871, root) serves the "
             "cluster's volume with 3.1 GB of caches; a user's R session (6301) has grown to 3.0 GB. The two are "
             "within 4% of each other. The admin wants the R session killed: a root system daemon that other "
             "machines depend on is worth more than a user's job of the same size, which is exactly the 3% "
             "bonus the 2010 rewrite gives root (and __vm_enough_memory() gives it too).")
    notes = ("the current kernel dropped the bonus in 2018 (Linux 4.19), so it kills the larger of the two, the brick; "
             "legacy divides root's badness by 16 (CAP_SYS_ADMIN, CAP_SYS_RAWIO) and by its CPU time.")
    return m, scenario_file('root-bonus', 'A root daemon vs a user job of about the same size',
                            '8 GiB storage node, 4 CPUs, no swap; GlusterFS brick and a shell user', story,
                            'kill 6301 R', ['rewrite', 'legacy'], ['kernel'], 'none', 6301, notes)


@scenario
def db_vs_batch():
    m = Machine('db-vs-batch', mem_total=16365640, ncpu=8, uptime=63 * 86400 + 5123.4)
    base_system(m)
    up = m.uptime
    m.add(Proc(1044, 'mysqld', 1, uid=106, caps=0, vm=gb(8.9), anon=gb(7.61), file=mb(23.4), threads=71,
               cpu=41 * 3600.0, age=up - 14, cgroup='/system.slice/mariadb.service', fdsize=4096))
    sess = ssh_session(m, 88120, 88126, 88127, uid=1005, age=900.0, groups=(1005,))
    m.add(Proc(88210, 'python3', 88127, uid=1005, caps=0, vm=gb(7.6), anon=gb(7.18), file=mb(44.6), threads=3,
               cpu=203.0, age=212.0, cgroup=sess, tty=34816, groups=(1005,)))
    story = ("A 16 GiB database server, no swap: MariaDB (1044) has served the company's shop for 63 days with "
             "7.6 GB of buffer pool. An analyst's ETL script (88210), started 212 seconds ago, loads a whole "
             "table into memory and has reached 7.2 GB. The admin wants the ETL script killed: it is minutes "
             "old, loses minutes of work and can be rerun in batches; killing the database stops the shop and "
             "throws away a warm buffer pool.")
    notes = ("this is the case the old CPU-time and run-time divisors were for: legacy divides mysqld by "
             "int_sqrt of 41 hours of CPU and by the fourth root of 63 days, and kills the script; the rewrite "
             "and the current kernel look only at memory and kill the database, which is 6% larger. An admin "
             "gets the rewrite right here only with oom_score_adj (e.g. OOMScoreAdjust=-500 for mariadb).")
    return m, scenario_file('db-vs-batch', 'A long-running database vs a fresh batch job of similar size',
                            '16 GiB database server, 8 CPUs, no swap; MariaDB and an ETL job', story,
                            'kill 88210 python3', ['legacy'], ['rewrite', 'kernel'], 'none', 88210, notes)


@scenario
def slow_leak():
    m = Machine('slow-leak', mem_total=8138240, ncpu=4, uptime=41 * 86400 + 1999.0)
    base_system(m)
    up = m.uptime
    m.add(Proc(1210, 'node', 1, uid=998, caps=0, vm=gb(6.4), anon=gb(5.02), file=mb(38.9), threads=11,
               cpu=19 * 3600.0, age=up - 15, cgroup='/system.slice/api.service', fdsize=512))
    m.add(Proc(1305, 'postgres', 1, uid=105, caps=0, vm=mb(222.6), anon=mb(9.4), file=mb(26.7), shmem=mb(129.7),
               cpu=300.0, age=up - 13, cgroup='/system.slice/postgresql@15-main.service'))
    for i, (anon, shm) in enumerate([(4.2, 8.3), (3.9, 6.1), (11.8, 122.4), (6.2, 14.0), (18.4, 131.5)]):
        m.add(Proc(1306 + i, 'postgres', 1305, uid=105, caps=0, vm=mb(224.0), anon=mb(anon), file=mb(7.1),
                   shmem=mb(shm), cpu=40.0 + i * 31, age=up - 13.1, flags=0x400040))
    m.add(Proc(190233, 'borg', 1, uid=34, caps=0, vm=gb(1.42), anon=mb(1131.2), file=mb(18.3), cpu=84.0,
               age=95.0, cgroup='/system.slice/borgbackup.service', nice=10))
    story = ("An 8 GiB application server, no swap. The API service, a node process (1210) running for 41 days, "
             "leaks slowly and now holds 5.0 GB. The nightly backup (borg, 190233) started 95 seconds ago at "
             "nice 10 and needs 1.1 GB. The admin wants node killed: systemd restarts it with a clean heap, "
             "and it is what has eaten the memory; killing the backup only postpones the OOM by a day and "
             "loses the backup.")
    notes = ("the old run-time and CPU-time divisors protect a process in proportion to how long it has been "
             "leaking, and a positive nice doubles the backup's badness: legacy kills borg.")
    return m, scenario_file('slow-leak', 'A long-running daemon that leaks vs a fresh, niced backup job',
                            '8 GiB application server, 4 CPUs, no swap; node API, PostgreSQL, borg backup', story,
                            'kill 1210 node', ['rewrite', 'kernel'], ['legacy'], 'none', 190233, notes)


@scenario
def swapped_out():
    m = Machine('swapped-out', mem_total=8138240, swap_total=4194300, ncpu=4, uptime=60 * 86400 + 4242.4)
    base_system(m)
    up = m.uptime
    m.add(
        # back-mdb maps its whole maxsize (16 GiB): total_vm is mostly an unused map.
        Proc(902, 'slapd', 1, uid=107, caps=0, vm=gb(16.93), anon=mb(38.6), file=mb(271.5), threads=6, cpu=240.0,
             age=up - 10, cgroup='/system.slice/slapd.service'),
        Proc(1077, 'java', 1, uid=108, caps=0, vm=gb(6.9), anon=gb(2.45), file=mb(42.2), threads=64,
             cpu=50 * 3600.0, age=up - 12, cgroup='/system.slice/tomcat10.service', swap=mb(112.0)),
        Proc(1113, 'prometheus', 1, uid=109, caps=0, vm=gb(4.6), anon=gb(1.31), file=mb(282.0), threads=14,
             cpu=20 * 3600.0, age=up - 12, cgroup='/system.slice/prometheus.service', swap=mb(61.0)),
        Proc(1160, 'grafana', 1, uid=110, caps=0, vm=gb(1.6), anon=mb(233.0), file=mb(71.0), threads=15,
             cpu=3 * 3600.0, age=up - 13, cgroup='/system.slice/grafana-server.service', swap=mb(20.0)),
    )
    lab = '/user.slice/user-1000.slice/user@1000.service/app.slice/jupyter.service'
    u = dict(uid=1000, caps=0, groups=(1000,), cgroup=lab)
    m.add(Proc(51290, 'jupyter-lab', 1, vm=gb(1.13), anon=mb(141.2), file=mb(19.6), threads=4, cpu=402.0,
               age=2 * 86400 + 1300.0, **u))
    for pid, vmg, anon, swap, cpu, age in [(51301, 1.21, 96.3, 61.2, 44.0, 2 * 86400 + 1200.0),
                                           (51388, 4.12, 351.7, 3710.0, 1504.0, 2 * 86400 + 420.0),
                                           (51420, 1.18, 88.4, 47.9, 31.0, 86400 + 77.0)]:
        m.add(Proc(pid, 'python3', 51290, vm=gb(vmg), anon=mb(anon), file=mb(11.4), swap=mb(swap), threads=3,
                   cpu=cpu, age=age, **u))
    m.add(Proc(77310, 'java', 1, uid=1000, caps=0, vm=gb(3.6), anon=gb(2.2), file=mb(33.1), threads=40,
               cpu=903.0, age=1000.0, cgroup='/user.slice/user-1000.slice/session-9.scope'))
    story = ("An 8 GiB monitoring server with 4 GiB of swap: OpenLDAP (slapd, 902) maps a 16 GiB database but "
             "keeps 310 MB resident; tomcat, prometheus and grafana hold 4 GB. Two days ago a user left an "
             "Jupyter kernel (51388, one of three under jupyter-lab) holding a 4 GB dataframe; it is idle, 3.7 GB "
             "of it swapped out. A new report job (77310) now needs 2.2 GB and swap is full. The admin wants "
             "the forgotten kernel killed: it holds the most memory and swap (4.1 GB) and nobody is using it. slapd "
             "frees only 310 MB and every login on the network depends on it.")
    notes = ("the rewrite and the kernel count rss + swap; legacy counts total_vm, the address space, and "
             "chooses slapd for its map.")
    return m, scenario_file('swapped-out', 'A mostly swapped-out process vs a large but mostly unused map',
                            '8 GiB server, 4 GiB swap, 4 CPUs; OpenLDAP, tomcat, prometheus, an idle Jupyter kernel',
                            story, 'kill 51388 python3', ['rewrite', 'kernel'], ['legacy'], 'none', 77310, notes)


DOCKER_CAPS = 0xA80425FB  # Docker's default capability set: no CAP_SYS_ADMIN


def docker_host(name, cgroup_mode='v2', sysctl=None, limit=2 << 30, swap_max=0):
    """A 32 GiB Docker host: an API container with a memory limit, a search
    container without one, and the host's own services."""
    cid = 'a3f9c1e07b5d42e8916c0d2b7e4f5a6c8d9e0f1a2b3c4d5e6f708192a3b4c5d6'
    sid = '5e1d7c9b3a2f40e6d8c1b9a7f6e5d4c3b2a1908f7e6d5c4b3a2918f7e6d5c4b3'
    api = '/system.slice/docker-%s.scope' % cid
    search = '/system.slice/docker-%s.scope' % sid
    m = Machine(name, mem_total=32819712, ncpu=8, uptime=12 * 86400 + 600.5, full=[False],
                file_lru=[gb(4.2)], cgroup_mode=cgroup_mode, sysctl=sysctl,
                memcg={api: {'max': limit, 'swap_max': swap_max}})
    base_system(m)
    up = m.uptime
    m.add(
        Proc(880, 'containerd', 1, vm=gb(2.2), anon=mb(61.3), file=mb(31.2), threads=14, cpu=2900.0, age=up - 9,
             cgroup='/system.slice/containerd.service'),
        Proc(1012, 'dockerd', 1, vm=gb(2.9), anon=mb(104.8), file=mb(39.5), threads=21, cpu=3400.0, age=up - 10,
             cgroup='/system.slice/docker.service', fdsize=256),
        Proc(1433, 'prometheus', 1, uid=109, caps=0, vm=gb(6.1), anon=gb(3.1), file=mb(288.0), threads=14,
             cpu=30 * 3600.0, age=up - 14, cgroup='/system.slice/prometheus.service'),
        Proc(2101, 'containerd-shim', 1, vm=gb(1.2), anon=mb(9.6), file=mb(6.2), threads=11, cpu=140.0,
             age=up - 30, cgroup='/system.slice/containerd.service'),
        Proc(2150, 'java', 2101, uid=1000, caps=DOCKER_CAPS, vm=gb(21.4), anon=gb(12.9), file=mb(188.0),
             threads=112, cpu=60 * 3600.0, age=up - 31, cgroup=search, seccomp=1, fdsize=4096),
        Proc(8790, 'containerd-shim', 1, vm=gb(1.2), anon=mb(8.9), file=mb(6.0), threads=10, cpu=12.0,
             age=5200.0, cgroup='/system.slice/containerd.service'),
        Proc(8811, 'tini', 8790, vm=mb(2.4), anon=mb(0.2), file=mb(0.6), cpu=0.01, age=5199.0, cgroup=api,
             caps=DOCKER_CAPS, seccomp=1, exe=612, lib=0, stk=132),
        Proc(8840, 'node', 8811, uid=1000, caps=0, vm=gb(2.9), anon=mb(1917.0), file=mb(48.2), threads=11,
             cpu=1800.0, age=5198.0, cgroup=api, seccomp=1),
        Proc(8905, 'sh', 8811, uid=1000, caps=0, vm=mb(2.5), anon=mb(0.1), file=mb(0.9), cpu=0.01, age=3.0,
             cgroup=api, seccomp=1),
        Proc(8906, 'curl', 8905, uid=1000, caps=0, vm=mb(28.6), anon=mb(1.7), file=mb(9.8), cpu=0.02, age=2.9,
             cgroup=api, seccomp=1),
    )
    return m, api


@scenario
def memcg_container():
    m, api = docker_host('memcg-container')
    story = ("A 32 GiB Docker host with plenty of free memory. The API container runs with --memory 2g "
             "--memory-swap 2g (memory.max 2 GiB, no swap): tini (8811), the node service (8840, 1.9 GB) and a "
             "health check (sh, curl). The node service has reached the container's limit. The admin wants "
             "node killed: only the container is out of memory, and only its tasks can free it. The search "
             "container's JVM (2150, 13 GB) and prometheus (1433) are bigger but outside the group; killing "
             "them frees nothing the container can use.")
    notes = ("seed 009: the rewrite measures scores against the limit (node scores 959 of 1000 instead "
             "of 86). Every heuristic filters by the group (2.6.35 already did), so all three must get it right.")
    return m, scenario_file('memcg-container', 'A memory-limited container whose hog is smaller than a process '
                            'outside it', '32 GiB Docker host, 8 CPUs, no swap, cgroup v2', story, 'kill 8840 node',
                            ['rewrite', 'kernel', 'legacy'], [], 'memcg ' + api, 8840, notes)


@scenario
def panic_memcg():
    m, api = docker_host('panic-memcg', cgroup_mode='v1', sysctl={'panic_on_oom': 1})
    story = ("The Docker host of memcg-container on a hybrid cgroup v1 hierarchy, with vm.panic_on_oom = 1 "
             "(the admin prefers a reboot to a half-working host). The API container hits its 2 GiB "
             "memory.limit_in_bytes. The admin wants node (8840) killed, not a panic: panic_on_oom 1 panics "
             "only for a system-wide OOM, and this one is confined to a memory cgroup.")
    notes = "seed 008 (check_panic_on_oom): a constrained OOM never panics with panic_on_oom 1."
    return m, scenario_file('panic-memcg', 'panic_on_oom 1 and a memory cgroup OOM', '32 GiB Docker host, 8 CPUs, '
                            'no swap, cgroup v1 memory controller, vm.panic_on_oom 1', story, 'kill 8840 node',
                            ['rewrite', 'kernel', 'legacy'], [], 'memcg ' + api, 8840, notes)


@scenario
def panic_compulsory():
    m, api = docker_host('panic-compulsory', sysctl={'panic_on_oom': 2})
    story = ("The Docker host of memcg-container with vm.panic_on_oom = 2: a cluster node whose admin wants any "
             "OOM, even a container's, to panic it so that the cluster manager reschedules everything on a "
             "healthy node. The API container hits its limit. The expected outcome is a panic: 'Out of memory: "
             "compulsory panic_on_oom is enabled'.")
    notes = "seed 008: panic_on_oom 2 panics for every OOM, constrained or not."
    return m, scenario_file('panic-compulsory', 'panic_on_oom 2 and a memory cgroup OOM', '32 GiB Docker host, '
                            '8 CPUs, no swap, cgroup v2, vm.panic_on_oom 2', story, 'panic',
                            ['rewrite', 'kernel', 'legacy'], [], 'memcg ' + api, 8840, notes)


@scenario
def panic_system():
    m = Machine('panic-system', mem_total=4011876, ncpu=2, uptime=3 * 86400 + 77.1, sysctl={'panic_on_oom': 1})
    base_system(m)
    up = m.uptime
    m.add(Proc(990, 'haproxy', 1, vm=mb(98.1), anon=mb(22.4), file=mb(9.1), threads=3, cpu=2100.0, age=up - 8,
               cgroup='/system.slice/haproxy.service'),
          Proc(1003, 'haproxy', 990, uid=108, caps=0, vm=mb(412.6), anon=mb(301.2), file=mb(9.9), threads=3,
               cpu=9100.0, age=up - 8.1, cgroup='/system.slice/haproxy.service'),
          Proc(1050, 'varnishd', 1, uid=112, caps=0, vm=mb(110.2), anon=mb(5.3), file=mb(8.4), cpu=300.0,
               age=up - 9, cgroup='/system.slice/varnish.service'),
          Proc(1063, 'cache-main', 1050, uid=113, caps=0, vm=gb(3.9), anon=gb(3.2), file=mb(20.3), threads=210,
               cpu=30000.0, age=up - 9.2, cgroup='/system.slice/varnish.service', fdsize=1024))
    story = ("A 4 GiB load balancer (haproxy in front of varnish), vm.panic_on_oom = 1: in this HA pair the "
             "admin wants a machine that runs out of memory to panic and reboot (kernel.panic = 10) so the "
             "standby takes over its address, rather than keep running with a killed cache. The varnish cache "
             "process has outgrown its storage setting. The expected outcome is a panic: 'Out of memory: "
             "system-wide panic_on_oom is enabled'.")
    notes = "seed 008: panic_on_oom 1 panics for an OOM with no constraint."
    return m, scenario_file('panic-system', 'panic_on_oom 1 and a system-wide OOM', '4 GiB load balancer, 2 CPUs, '
                            'no swap, vm.panic_on_oom 1', story, 'panic', ['rewrite', 'kernel', 'legacy'], [],
                            'none', 1063, notes)


def numa_machine(name, cpusets):
    n0, n1 = 65786364, 66027512
    m = Machine(name, mem_total=n0 + n1, ncpu=32, uptime=19 * 86400 + 3131.3, nodes=[n0, n1],
                full=[False, True], file_lru=[gb(3.9), None], cpusets=cpusets)
    base_system(m)
    return m


@scenario
def numa_cpuset():
    db = '/system.slice/mariadb.service'
    job = '/batch.slice/job-7781.scope'
    m = numa_machine('numa-cpuset', {db: ('0-15', '0'), job: ('16-31', '1')})
    up = m.uptime
    m.add(
        Proc(1502, 'mariadbd', 1, uid=106, caps=0, vm=gb(56.8), anon=gb(51.7), file=mb(61.0), threads=160,
             cpu=310 * 3600.0, age=up - 20, cgroup=db, mems='0', cpus='0-15', node={0: 1.0}, fdsize=8192),
        Proc(7781, 'slurmstepd', 1, vm=mb(341.2), anon=mb(6.2), file=mb(9.3), threads=5, cpu=3.0, age=9000.0,
             cgroup=job, mems='1', cpus='16-31', node={1: 1.0}),
        Proc(7790, 'solver', 7781, uid=1001, caps=0, vm=gb(58.1), anon=gb(56.6), file=mb(24.1), threads=16,
             cpu=16 * 8900.0, age=8990.0, cgroup=job, mems='1', cpus='16-31', node={1: 1.0}),
        Proc(7795, 'postproc', 7781, uid=1001, caps=0, vm=gb(3.1), anon=gb(2.72), file=mb(12.3), threads=1,
             cpu=500.0, age=600.0, cgroup=job, mems='1', cpus='16-31', node={1: 1.0}),
    )
    story = ("A 2-socket, 128 GiB compute server (64 GiB per NUMA node), no swap. MariaDB (1502, 52 GB) is pinned "
             "to node 0 by its cpuset; a Slurm job's cpuset has node 1 only: the solver (7790, 57 GB) and a "
             "post-processing step (7795, 2.7 GB) that is now allocating. Node 1 is full; node 0 still has 5 GB free. "
             "The admin wants the solver killed: it fills node 1. MariaDB is the biggest process but its memory "
             "is on node 0, which this job may not use, so killing it frees nothing the job can use and stops "
             "the database for nothing.")
    notes = ("seed 004: tasks whose Mems_allowed do not intersect the allocating task's are not candidates "
             "(2.6.35 divided their badness by 8 but still considered them).")
    return m, scenario_file('numa-cpuset', 'A job in a node-1 cpuset while the biggest process lives on node 0',
                            '2-node 128 GiB server, 32 CPUs, no swap, cpusets', story, 'kill 7790 solver',
                            ['rewrite', 'kernel'], [], 'cpuset-of 7795', 7795, notes)


@scenario
def numa_mempolicy():
    m = numa_machine('numa-mempolicy', {})
    up = m.uptime
    m.add(
        Proc(1502, 'mariadbd', 1, uid=106, caps=0, vm=gb(56.8), anon=gb(51.7), file=mb(61.0), threads=160,
             cpu=310 * 3600.0, age=up - 20, cgroup='/system.slice/mariadb.service', node={0: 1.0},
             policy='bind:0', fdsize=8192),
        Proc(1760, 'redis-server', 1, uid=111, caps=0, vm=gb(4.4), anon=gb(4.1), file=mb(6.6), threads=5,
             cpu=20 * 3600.0, age=up - 30, cgroup='/system.slice/redis-server.service', node={0: 0.5, 1: 0.5}),
    )
    sess = ssh_session(m, 7700, 7706, 7707, uid=1001, age=9100.0, groups=(1001,))
    m.add(
        Proc(7790, 'solver', 7707, uid=1001, caps=0, vm=gb(56.2), anon=gb(54.6), file=mb(24.1), threads=16,
             cpu=16 * 8900.0, age=8990.0, cgroup=sess, node={1: 1.0}, policy='bind:1', tty=34816,
             groups=(1001,)),
    )
    story = ("The same 2-socket, 128 GiB server without cpusets: MariaDB (1502) was started with numactl "
             "--membind=0 and holds 52 GB on node 0; a user runs the solver (7790) with numactl --membind=1 and "
             "it has filled node 1 (55 GB); redis (4 GB) has the default policy, half on each node. The solver's "
             "allocation fails on node 1. The admin wants the solver killed: MariaDB's policy binds it to node "
             "0, so killing it frees nothing on node 1.")
    notes = ("seed 006: for a mempolicy OOM the rewrite selects among tasks that may have memory on the "
             "policy's nodes (2.6.35 killed the allocating task, here also the solver).")
    return m, scenario_file('numa-mempolicy', 'A job bound to node 1 with numactl while the biggest process is '
                            'bound to node 0', '2-node 128 GiB server, 32 CPUs, no swap, numactl --membind', story,
                            'kill 7790 solver', ['rewrite', 'kernel'], [], 'nodes 1', 7790, notes)


@scenario
def adj_protected():
    m = Machine('adj-protected', mem_total=16365640, ncpu=8, uptime=33 * 86400 + 8.8)
    base_system(m)
    up = m.uptime
    m.add(
        Proc(1180, 'redis-server', 1, uid=111, caps=0, vm=gb(10.2), anon=gb(9.02), file=mb(7.1), threads=5,
             cpu=70 * 3600.0, age=up - 11, cgroup='/system.slice/redis-server.service', adj=-1000),
        Proc(1230, 'clamd', 1, uid=114, caps=0, vm=gb(1.6), anon=gb(1.21), file=mb(9.3), threads=3, cpu=9000.0,
             age=up - 12, cgroup='/system.slice/clamav-daemon.service'),
        Proc(1301, 'ruby', 1, uid=1001, caps=0, vm=gb(4.6), anon=gb(3.82), file=mb(41.6), threads=26,
             cpu=4 * 3600.0, age=6 * 3600.0, cgroup='/system.slice/sidekiq.service'),
        Proc(1388, 'puma', 1, uid=1001, caps=0, vm=gb(1.9), anon=mb(802.1), file=mb(44.0), threads=12,
             cpu=2 * 3600.0, age=up - 20, cgroup='/system.slice/puma.service'),
    )
    story = ("A 16 GiB application server, no swap. redis (1180, 9 GB) holds the sessions and job queue; the "
             "admin set OOMScoreAdjust=-1000 for it because losing it logs every user out. The sidekiq job "
             "runner (ruby, 1301) has grown to 3.8 GB in six hours. The admin wants sidekiq killed: redis is "
             "protected on purpose and sidekiq is the largest of the rest.")
    notes = "oom_score_adj -1000 (oom_adj -17, OOM_DISABLE) removes a task from every heuristic's choice."
    return m, scenario_file('adj-protected', 'The biggest process protected with oom_score_adj -1000',
                            '16 GiB application server, 8 CPUs, no swap; redis, sidekiq, puma, clamd', story,
                            'kill 1301 ruby', ['rewrite', 'kernel', 'legacy'], [], 'none', 1388, notes)


@scenario
def adj_target():
    m = Machine('adj-target', mem_total=8138240, ncpu=4, uptime=11 * 86400 + 42.0)
    base_system(m)
    up = m.uptime
    m.add(
        Proc(1066, 'postgres', 1, uid=105, caps=0, vm=gb(2.3), anon=mb(24.1), file=mb(40.2), shmem=gb(1.9),
             cpu=900.0, age=up - 12, cgroup='/system.slice/postgresql@15-main.service'),
        Proc(1090, 'java', 1, uid=108, caps=0, vm=gb(6.2), anon=gb(3.95), file=mb(51.0), threads=70,
             cpu=40 * 3600.0, age=up - 14, cgroup='/system.slice/tomcat10.service'),
        Proc(40120, 'report-gen', 1, uid=1003, caps=0, vm=gb(1.1), anon=mb(712.4), file=mb(14.3), cpu=511.0,
             age=600.0, cgroup='/system.slice/reports.service', adj=1000),
    )
    story = ("An 8 GiB application server, no swap: PostgreSQL with 1.9 GB of shared buffers, tomcat (1090, 4 GB) "
             "and the nightly report generator (40120, 700 MB), which the admin starts with choom -n 1000 "
             "(OOMScoreAdjust=1000) because it is restartable and nothing depends on it. The admin wants "
             "report-gen killed first, whatever its size.")
    notes = "oom_score_adj +1000 (oom_adj +15) paints the target: score 1000, or every page of the machine."
    return m, scenario_file('adj-target', 'A small process marked with oom_score_adj +1000', '8 GiB application '
                            'server, 4 CPUs, no swap; PostgreSQL, tomcat, a report generator', story,
                            'kill 40120 report-gen', ['rewrite', 'kernel', 'legacy'], [], 'none', 1090, notes)


@scenario
def zombie_leader():
    m = Machine('zombie-leader', mem_total=8138240, ncpu=4, uptime=2 * 86400 + 6100.0)
    base_system(m)
    up = m.uptime
    m.add(
        Proc(1190, 'java', 1, uid=108, caps=0, vm=gb(4.8), anon=gb(2.35), file=mb(51.0), threads=60,
             cpu=9 * 3600.0, age=up - 14, cgroup='/system.slice/tomcat10.service'),
        # main() called pthread_exit(): the leader is a zombie while its
        # worker threads go on with the memory.
        Proc(2870, 'transcoder', 1, uid=1002, caps=0, vm=gb(5.6), anon=gb(4.91), file=mb(22.4), threads=5,
             cpu=4 * 2950.0, age=3000.0, cgroup='/system.slice/transcoder.service', state='Z',
             zombie_threads=[(2874, 'tc-worker', 2950.0), (2875, 'tc-worker', 2950.0),
                             (2876, 'tc-worker', 2950.0), (2877, 'tc-worker', 2950.0)]),
    )
    story = ("An 8 GiB media server, no swap. The transcoder (2870) returns from main() with pthread_exit(): "
             "its leader is a zombie (State Z, no memory lines in /proc/2870/status) while four worker threads "
             "hold 4.9 GB; tomcat (1190) has 2.4 GB. The admin wants the transcoder killed: it holds twice "
             "as much as anything else. A scan that reads only the leader sees no mm, skips it and kills "
             "tomcat.")
    notes = ("seed 002: dump_tasks and the badness scan take the mm from a live thread (find_lock_task_mm); "
             "the task files are in proc/2870/task/{2870,2874..2877}/. The kill line names that thread "
             "(tc-worker), hence the two spellings of the same process in expect. 2.6.35's badness() read "
             "only the leader's mm and scored it 0; liboom's legacy heuristic gets the thread's memory from "
             "the snapshot, so it is not listed as known-wrong. Like every exited leader it has PF_EXITING in its "
             "stat flags; that is not a kill in progress, which needs the leader's own mm (the 2010 "
             "series tests '(p->flags & PF_EXITING) && p->mm' on the leader p precisely so that a zombie "
             "leader cannot stall the OOM killer; the current kernel no longer looks at PF_EXITING there).")
    return m, scenario_file('zombie-leader', 'A zombie thread-group leader whose threads still hold the memory',
                            '8 GiB media server, 4 CPUs, no swap', story,
                            'kill 2870 transcoder or kill 2870 tc-worker',
                            ['rewrite', 'kernel'], [], 'none', 1190, notes)


@scenario
def kill_in_progress():
    m = Machine('kill-in-progress', mem_total=8138240, ncpu=4, uptime=9 * 86400 + 11.0)
    base_system(m)
    up = m.uptime
    m.add(
        Proc(1190, 'java', 1, uid=108, caps=0, vm=gb(4.8), anon=gb(3.05), file=mb(51.0), threads=60,
             cpu=9 * 3600.0, age=up - 14, cgroup='/system.slice/tomcat10.service'),
        Proc(30411, 'convert', 1, uid=33, caps=0, vm=gb(3.9), anon=gb(3.71), file=mb(12.4), cpu=88.0, age=91.0,
             cgroup='/system.slice/php8.2-fpm.service', sigkill=True, exiting=True, state='R'),
    )
    story = ("An 8 GiB web server, no swap, a second after an OOM kill: ImageMagick's convert (30411, 3.7 GB) "
             "has been sent SIGKILL and is exiting (SIGKILL pending, PF_EXITING), but has not yet released its "
             "memory. Tomcat (1190) allocates and the OOM killer runs again. The admin wants nobody else "
             "killed: the memory is about to come back.")
    notes = ("seed 003: a task with SIGKILL pending or exiting with an mm means a kill is under way; the "
             "scan chooses nobody and waits (every kernel since 2.6.36 does the same).")
    return m, scenario_file('kill-in-progress', 'A second OOM while the first victim is still exiting',
                            '8 GiB web server, 4 CPUs, no swap', story, 'in-progress',
                            ['rewrite', 'kernel', 'legacy'], [], 'none', 1190, notes)


@scenario
def allocating_task():
    m = Machine('allocating-task', mem_total=65849772, ncpu=32, uptime=40 * 86400 + 555.5,
                sysctl={'oom_kill_allocating_task': 1})
    base_system(m)
    up = m.uptime
    m.add(
        Proc(1402, 'memcached', 1, uid=112, caps=0, vm=gb(39.1), anon=gb(38.6), file=mb(3.9), threads=36,
             cpu=200 * 3600.0, age=up - 12, cgroup='/system.slice/memcached.service', fdsize=65536),
        Proc(1500, 'php-fpm8.2', 1, vm=mb(241.0), anon=mb(12.3), file=mb(21.6), cpu=900.0, age=up - 14,
             cgroup='/system.slice/php8.2-fpm.service'),
    )
    for i in range(24):
        m.add(Proc(21000 + i * 37, 'php-fpm8.2', 1500, uid=33, caps=0, vm=mb(412.2 + i * 12.5),
                   anon=mb(318.0 + i * 9.7), file=mb(22.8), cpu=300.0 + i * 11, age=3600.0 - i * 61,
                   flags=0x400040))
    m.add(Proc(22101, 'php-fpm8.2', 1500, uid=33, caps=0, vm=gb(12.4), anon=gb(11.9), file=mb(23.0), cpu=410.0,
               age=430.0, flags=0x400040))
    story = ("A 64 GiB web cache node, no swap, with vm.oom_kill_allocating_task = 1: the admin runs tens of "
             "thousands of tasks on such nodes and wants the OOM killer to kill whoever is allocating instead "
             "of scanning them all. memcached (1402) holds 39 GB; a PHP worker (22101) is importing a "
             "12 GB file into memory. The OOM happens while PHP worker 21000 (350 MB) allocates. The admin "
             "wants the allocating task killed, as configured, even though 22101 is the better victim.")
    notes = ("the sysctl predates 2010 (2.6.24): with it, every heuristic takes the allocating task, never "
             "its children, and writes 'Out of memory (oom_kill_allocating_task)'.")
    return m, scenario_file('allocating-task', 'vm.oom_kill_allocating_task kills whoever allocates',
                            '64 GiB web cache node, 32 CPUs, no swap, vm.oom_kill_allocating_task 1', story,
                            'kill 21000 php-fpm8.2', ['rewrite', 'kernel', 'legacy'], [], 'none', 21000, notes)


@scenario
def no_killable():
    m = Machine('no-killable', mem_total=1001476, ncpu=2, uptime=200 * 86400 + 12.0)
    base_system(m)
    up = m.uptime
    for p in m.procs:
        if p.has_mm:
            p.adj = -1000
    m.add(Proc(601, 'dropbear', 1, vm=mb(3.4), anon=mb(0.3), file=mb(1.6), cpu=40.0, age=up - 8, adj=-1000,
               cgroup='/system.slice/dropbear.service'),
          Proc(655, 'appliance-ctl', 1, vm=mb(912.4), anon=mb(771.9), file=mb(12.1), threads=6, cpu=90000.0,
               age=up - 9, adj=-1000, cgroup='/system.slice/appliance.service'))
    story = ("A 1 GiB network appliance, no swap, whose vendor set oom_score_adj -1000 on every process it "
             "ships 'so that nothing important gets killed'. Its control daemon (655) leaks and fills the "
             "memory. Nothing can be killed; the expected outcome is 'Out of memory and no killable "
             "processes...' (which the kernel follows with a panic). The admin's real fix is to take the "
             "-1000 off the leaking daemon.")
    notes = "oom_score_adj -1000 on everything leaves every heuristic without a candidate."
    return m, scenario_file('no-killable', 'Every process protected with oom_score_adj -1000',
                            '1 GiB network appliance, 2 CPUs, no swap', story, 'no-killable',
                            ['rewrite', 'kernel', 'legacy'], [], 'none', 655, notes)

# ---- an independent model of the three heuristics (for --predict) --------------------------------

def isqrt(x):
    return math.isqrt(x)


def parse_scenario(text):
    out, key = {}, None
    for line in text.splitlines():
        if not line.strip() or line.startswith('#'):
            continue
        if line[0] in ' \t' and key:
            out[key] += ' ' + line.strip()
            continue
        key, _, val = line.partition(':')
        key = key.strip()
        out[key] = val.strip()
    return out


def model_select(m, mi, sc, heuristic):
    """Who each heuristic kills, from SPEC sections 5-7; written apart from liboom."""
    by_pid = m.by_pid
    cons = sc['constraint'].split()
    trigger = by_pid.get(int(sc['trigger']))
    lru = lambda d: d['Active(anon)'] + d['Inactive(anon)'] + d['Active(file)'] + d['Inactive(file)']
    if heuristic == 'rewrite':
        total = (lru(mi) + mi['SwapTotal']) // 4
    else:
        total = (mi['MemTotal'] + mi['SwapTotal']) // 4
    cand = lambda p: True
    if cons[0] == 'memcg':
        path = cons[1]
        lim = m.memcg.get(path, {})
        if lim.get('max') is not None:
            t = lim['max'] // 4096 + mi['SwapTotal'] // 4
            if lim.get('swap_max') is not None:
                t = min(t, (lim['max'] + lim['swap_max']) // 4096)
            total = t
        cand = lambda p: p.cgroup == path or p.cgroup.startswith(path.rstrip('/') + '/')
    elif cons[0] in ('cpuset-of', 'nodes'):
        nodes = parse_list(by_pid[int(cons[1])].mems) if cons[0] == 'cpuset-of' else parse_list(cons[1])
        nl = m.node_rows
        total = mi['SwapTotal'] // 4 + sum(lru(nl[n]) for n in nodes) // 4
        if cons[0] == 'cpuset-of':
            cand = lambda p: bool(parse_list(p.mems) & nodes)
        else:
            def cand(p):
                if p.policy == 'default' or p.policy.startswith('prefer') or p.policy == 'local':
                    return True
                return bool(parse_list(p.policy.split(':')[1]) & nodes)
    killable = lambda p: p.pid != 1 and not p.kthread and p.has_mm
    if trigger and (trigger.sigkill or (trigger.exiting and trigger.has_mm)):
        return 'in-progress', trigger, trigger
    pan = m.sysctl['panic_on_oom']
    if pan == 2 or (pan == 1 and cons[0] == 'none'):
        return 'panic', None, None
    if m.sysctl['oom_kill_allocating_task'] and trigger and killable(trigger) and cand(trigger) \
            and trigger.adj != -1000 and cons[0] != 'memcg':
        return 'kill', trigger, trigger
    thres = m.forkbomb_thres if m.forkbomb_thres is not None else 1000
    kids = {}
    for p in m.procs:
        kids.setdefault(p.ppid, []).append(p)

    def score(p):
        if not killable(p) or p.adj == -1000:
            return None
        if heuristic == 'rewrite':
            s = (p.rss // 4 + p.swap // 4) * 1000 // max(total, 1)
            if thres:
                fk = [c for c in kids.get(p.pid, []) if c.has_mm and int(round(c.cpu * HZ)) < HZ]
                if len(fk) > thres:
                    s += sum(c.rss // 4 for c in fk) // thres
            if (p.caps >> CAP_SYS_ADMIN) & 1:
                s -= 30
            s += p.adj
            return max(0, min(1000, s))
        if heuristic == 'kernel':
            return p.rss // 4 + p.swap // 4 + p.pte // 4 + p.adj * (total // 1000)
        pts = p.vm // 4
        for c in kids.get(p.pid, []):
            if c.has_mm:
                pts += (c.vm // 4) // 2 + 1
        cpu_time = int(round(p.cpu * HZ)) >> 10
        run_time = (int(m.uptime) - start_ticks(m, p) // HZ) >> 10
        if cpu_time:
            pts //= isqrt(cpu_time)
        if run_time:
            pts //= isqrt(isqrt(run_time))
        if p.nice > 0:
            pts *= 2
        if (p.caps >> 21) & 1 or (p.caps >> 24) & 1:
            pts //= 4
        if (p.caps >> 17) & 1:
            pts //= 4
        adj = 15 if p.adj == 1000 else min(15, cdiv(p.adj * 17, 1000))
        if adj > 0:
            pts = max(pts, 1) << adj
        elif adj < 0:
            pts >>= -adj
        return pts

    chosen, best = None, None
    for p in sorted(m.procs, key=lambda q: q.pid):
        if not killable(p) or not cand(p):
            continue
        if p.sigkill or (p.exiting and p.has_mm):
            return 'in-progress', p, p
        s = score(p)
        if s is None:
            continue
        if heuristic == 'rewrite':
            if s > 0 and (best is None or s > best):
                chosen, best = p, s
        elif heuristic == 'kernel':
            if best is None or s >= best:
                chosen, best = p, s
        else:
            if best is None or s > best:
                chosen, best = p, s
    if chosen is None:
        return 'no-killable', None, None
    victim = chosen
    if heuristic == 'rewrite':
        vbest = 0
        for c in sorted(kids.get(chosen.pid, []), key=lambda q: q.pid):
            if not cand(c):
                continue
            s = score(c)
            if s is not None and s > vbest:
                victim, vbest = c, s
    elif heuristic == 'legacy':
        for c in sorted(kids.get(chosen.pid, []), key=lambda q: q.pid):
            if c.has_mm and c.adj != -1000 and cand(c) and killable(c):
                victim = c
                break
    return 'kill', chosen, victim


def expect_matches(m, expect, outcome, victim):
    for alt in expect.split(' or '):
        w = alt.split()
        if w[0] == 'kill' and outcome == 'kill' and victim.pid == int(w[1]):
            return True
        if w[0] == 'kill-child-of' and outcome == 'kill' and victim.ppid == int(w[1]):
            return True
        if w[0] == outcome and w[0] != 'kill':
            return True
    return False


def predict(name, m, mi, text):
    sc = parse_scenario(text)
    cells = []
    for h in ('legacy', 'rewrite', 'kernel'):
        outcome, chosen, victim = model_select(m, mi, sc, h)
        what = outcome if outcome != 'kill' else '%d %s' % (victim.pid, victim.comm)
        ok = expect_matches(m, sc['expect'], outcome, victim)
        flag = 'right' if ok else 'WRONG'
        if h in sc['assert'].split() and not ok:
            flag = 'FAIL'
        cells.append('%s %s' % (what, flag))
    print('%-16s %-24s | %s' % (name, sc['expect'][:24], ' | '.join('%-26s' % c for c in cells)))


def generate(names, outdir, do_predict=False):
    for name in names:
        m, text = SCENARIOS[name]()
        mi = write_tree(m, os.path.join(outdir, name), text)
        m.node_rows = []
        for n in range(len(m.nodes)):
            rows = {}
            with open(os.path.join(outdir, name, 'sys/devices/system/node/node%d/meminfo' % n)) as f:
                for line in f:
                    w = line.split()
                    rows[w[2].rstrip(':')] = int(w[3])
            m.node_rows.append(rows)
        if do_predict:
            predict(name, m, mi, text)


def main(argv):
    args = [a for a in argv if not a.startswith('--')]
    names = args or sorted(SCENARIOS)
    for n in names:
        if n not in SCENARIOS:
            raise SystemExit('unknown scenario %s (have: %s)' % (n, ' '.join(sorted(SCENARIOS))))
    if '--check' in argv:
        with tempfile.TemporaryDirectory() as tmp:
            generate(names, tmp)
            bad = 0
            for n in names:
                r = subprocess.run(['diff', '-r', '-q', os.path.join(tmp, n), os.path.join(HERE, n)])
                bad |= r.returncode
            if bad:
                raise SystemExit('the committed trees differ from what mkscenario.py generates')
            print('%d scenario trees match their description' % len(names))
        return
    if '--predict' in argv:
        with tempfile.TemporaryDirectory() as tmp:
            generate(names, tmp, do_predict=True)
        return
    generate(names, HERE)


if __name__ == '__main__':
    main(sys.argv[1:])
