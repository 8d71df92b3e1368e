#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1-or-later
# Privilege and writes (issue 7, item 5). As nobody (setpriv --reuid=65534
# --regid=65534 --clear-groups): reading works, writing another user's process
# or a sysctl fails with a clear message, exit 1, and changes nothing. As
# anyone: oomctl set refuses a PID reused between reading and writing; the
# forkbomb threshold file is never half-written, however the writer dies; no
# tool follows a symlink out of --root.
# Files under the checkout may not be readable to nobody, so the tools and
# fixture copies are copied to a world-readable directory first.

load helpers
bats_require_minimum_version 1.5.0

NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)

setup() {
	[ "$(id -u)" -eq 0 ] || skip "needs root (to become nobody)"
	command -v setpriv >/dev/null || skip "setpriv (util-linux) not installed"
	PRIV=$(mktemp -d /tmp/liboom-priv.XXXXXX)
	chmod 755 "$PRIV"
	mkdir "$PRIV/bin"
	cp "$OOM_DUMP" "$OOMCTL" "$OOMTOP" "$PRIV/bin/"
	chmod -R a+rX "$PRIV"
	P_DUMP="$PRIV/bin/oom-dump"
	P_CTL="$PRIV/bin/oomctl"
	P_TOP="$PRIV/bin/oomtop"
	KIDS=()
}

teardown() {
	local p
	for p in "${KIDS[@]}"; do
		kill -KILL "$p" 2>/dev/null || true
	done
	[ -z "${PRIV:-}" ] || rm -rf "$PRIV"
}

# priv_fixture NAME [OWNER]: a world-readable copy of fixture NAME under $PRIV
# (owned by OWNER if given); prints its path.
priv_fixture() {
	local dst="$PRIV/root-$1"
	rm -rf "$dst"
	cp -a "$FIXTURES/$1" "$dst"
	chmod -R a+rX "$dst"
	[ -z "${2:-}" ] || chown -R "$2" "$dst"
	printf '%s\n' "$dst"
}

# tree_sum DIR: one checksum over names, types, modes, owners, links and contents.
tree_sum() {
	(
		cd "$1" || exit 1
		find . -printf '%p %y %m %U %l\n' | LC_ALL=C sort
		find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r md5sum
	) | md5sum
}

# start_sleeper: a root-owned process for nobody to try; its PID in $SLEEPER.
start_sleeper() {
	sleep 60 &
	SLEEPER=$!
	KIDS+=("$SLEEPER")
}

# ---- reading as nobody ----------------------------------------------------------

@test "nobody: reading the live system works (oom-dump each format, get, explain, victim, oomtop)" {
	local f
	start_sleeper
	for f in 2.6.36 modern json prometheus; do
		run --separate-stderr "${NOBODY[@]}" "$P_DUMP" --format "$f"
		[ "$status" -eq 0 ]
		[ -z "$stderr" ]
		# Root's processes are there too, not only nobody's.
		[[ "$output" == *"$SLEEPER"* ]]
	done
	run --separate-stderr "${NOBODY[@]}" "$P_CTL" get --no-headers -o pid,uid,oom_score_adj,comm "$SLEEPER"
	[ "$status" -eq 0 ]
	[ "$output" = "$SLEEPER 0 $(cat "/proc/$SLEEPER/oom_score_adj") sleep" ]
	run --separate-stderr "${NOBODY[@]}" "$P_CTL" explain "$SLEEPER"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	run --separate-stderr "${NOBODY[@]}" "$P_CTL" victim
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	run --separate-stderr "${NOBODY[@]}" "$P_CTL" sysctl
	[ "$status" -eq 0 ]
	[[ "$output" == *"vm.panic_on_oom = $(cat /proc/sys/vm/panic_on_oom)"* ]]
	run --separate-stderr "${NOBODY[@]}" "$P_TOP" -b -n 1 -p "$SLEEPER"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	printf '%s\n' "$output" | grep -q "^ *$SLEEPER root "
}

@test "nobody: reading a fixture tree owned by root works and matches root's reading" {
	local root f mine theirs
	root=$(priv_fixture basic)
	for f in 2.6.36 modern json prometheus; do
		mine=$("$OOM_DUMP" --root "$root" --format "$f")
		theirs=$("${NOBODY[@]}" "$P_DUMP" --root "$root" --format "$f")
		[ "$mine" = "$theirs" ]
	done
	mine=$("$OOMCTL" victim --root "$root")
	theirs=$("${NOBODY[@]}" "$P_CTL" victim --root "$root")
	[ "$mine" = "$theirs" ]
	run --separate-stderr "${NOBODY[@]}" "$P_TOP" --root "$root" -b -n 1
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
}

# ---- writing as nobody ------------------------------------------------------------

@test "nobody: setting another user's oom_score_adj is EACCES, exit 1, unchanged" {
	local before
	start_sleeper
	before=$(cat "/proc/$SLEEPER/oom_score_adj")
	run --separate-stderr "${NOBODY[@]}" "$P_CTL" set --score-adj 500 "$SLEEPER"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[ "$stderr" = "oomctl: $SLEEPER: cannot set oom_score_adj to 500: permission denied" ]
	run --separate-stderr "${NOBODY[@]}" "$P_CTL" set --by 7 "$SLEEPER"
	[ "$status" -eq 1 ]
	[ "$stderr" = "oomctl: $SLEEPER: cannot set oom_score_adj to $((before + 7)): permission denied" ]
	run --separate-stderr "${NOBODY[@]}" "$P_CTL" set --adj 3 "$SLEEPER"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"oomctl: $SLEEPER: cannot set oom_score_adj to $((3 * 1000 / 17)): permission denied" ]]
	[ "$(cat "/proc/$SLEEPER/oom_score_adj")" = "$before" ]
}

@test "nobody: one PID refused does not stop the others; each failure reported (exit 1)" {
	local mine
	start_sleeper
	# nobody's own process: raising it is allowed.
	"${NOBODY[@]}" sleep 60 &
	mine=$!
	KIDS+=("$mine")
	run --separate-stderr "${NOBODY[@]}" "$P_CTL" set -v --score-adj 400 "$SLEEPER" "$mine"
	[ "$status" -eq 1 ]
	[ "$stderr" = "oomctl: $SLEEPER: cannot set oom_score_adj to 400: permission denied" ]
	[ "$output" = "$mine: 0 -> 400" ]
	[ "$(cat "/proc/$mine/oom_score_adj")" = 400 ]
	[ "$(cat "/proc/$SLEEPER/oom_score_adj")" = 0 ]
}

@test "nobody: lowering below oom_score_adj_min needs CAP_SYS_RESOURCE (clear message, unchanged)" {
	local mine
	"${NOBODY[@]}" sleep 60 &
	mine=$!
	KIDS+=("$mine")
	run --separate-stderr "${NOBODY[@]}" "$P_CTL" set --score-adj 100 "$mine"
	[ "$status" -eq 0 ]
	run --separate-stderr "${NOBODY[@]}" "$P_CTL" set --score-adj -1 "$mine"
	[ "$status" -eq 1 ]
	[[ "$stderr" == "oomctl: $mine: cannot lower oom_score_adj from 100 to -1: permission denied: lowering it needs CAP_SYS_RESOURCE"* ]]
	[ "$(cat "/proc/$mine/oom_score_adj")" = 100 ]
	run --separate-stderr "${NOBODY[@]}" "$P_CTL" run --score-adj -5 -- true
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"cannot lower oom_score_adj from 0 to -5: permission denied"* ]]
}

@test "nobody: writing a root-owned fixture is EACCES, exit 1, tree unchanged" {
	local root before
	root=$(priv_fixture basic)
	before=$(tree_sum "$root")
	run --separate-stderr "${NOBODY[@]}" "$P_CTL" set --root "$root" --score-adj 300 1187 4030
	[ "$status" -eq 1 ]
	[ "${stderr_lines[0]}" = "oomctl: 1187: cannot set oom_score_adj to 300: permission denied" ]
	[ "${stderr_lines[1]}" = "oomctl: 4030: cannot set oom_score_adj to 300: permission denied" ]
	run --separate-stderr "${NOBODY[@]}" "$P_CTL" sysctl --root "$root" vm.panic_on_oom=1
	[ "$status" -eq 1 ]
	[ "$stderr" = "oomctl: vm.panic_on_oom: permission denied: writing OOM sysctls needs root; nothing changed" ]
	# The threshold has no kernel file here: the library's own file cannot be made either.
	run --separate-stderr "${NOBODY[@]}" "$P_CTL" sysctl --root "$root" vm.oom_forkbomb_thres=5
	[ "$status" -eq 1 ]
	[ "$stderr" = "oomctl: vm.oom_forkbomb_thres: permission denied: writing OOM sysctls needs root; nothing changed" ]
	[ "$(tree_sum "$root")" = "$before" ]
}

@test "nobody: live sysctl writes are refused cleanly, values unchanged" {
	local before
	before=$(cat /proc/sys/vm/panic_on_oom)
	run --separate-stderr "${NOBODY[@]}" "$P_CTL" sysctl vm.panic_on_oom="$before"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[ "$stderr" = "oomctl: vm.panic_on_oom: permission denied: writing OOM sysctls needs root; nothing changed" ]
	run --separate-stderr "${NOBODY[@]}" "$P_CTL" sysctl vm.oom_dump_tasks=1 vm.oom_kill_allocating_task=0
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[[ "$stderr" == *"permission denied: writing OOM sysctls needs root; nothing changed" ]]
	[ "$(cat /proc/sys/vm/panic_on_oom)" = "$before" ]
}

# ---- PID reuse between reading and writing -------------------------------------

# adj_fifo ROOT PID CMD...: ROOT/proc/PID/oom_score_adj becomes a FIFO; once
# oomctl has read it (the last file it reads before writing), CMD runs, then
# the FIFO serves "0" (the same trick as oomctl.bats).
adj_fifo() {
	local dir="$1/proc/$2"
	shift 2
	rm "$dir/oom_score_adj"
	mkfifo -m 666 "$dir/oom_score_adj"
	(
		exec 3>"$dir/oom_score_adj"
		"$@"
		printf '0\n' >&3
	) &
	FIFO_WRITER=$!
}

# restat DIR: another process now has this PID (start time + 1); the comm must
# have no blank (field 22 is then the start time).
restat() {
	awk '{ $22 = $22 + 1; print }' "$1/stat" >"$1/stat.new"
	cat "$1/stat.new" >"$1/stat"
	rm "$1/stat.new"
}

# replace DIR: the process exits and a new one gets its PID: a new directory.
replace() {
	mv "$1" "$1.gone"
	cp -a "$1.gone" "$1"
	rm "$1/oom_score_adj"
	printf '0\n' >"$1/oom_score_adj"
	restat "$1"
}

@test "set: PID reused between reading and writing (start time changed), as nobody: refused, nothing written" {
	local root before
	root=$(priv_fixture basic 65534:65534)
	adj_fifo "$root" 1187 restat "$root/proc/1187"
	run --separate-stderr timeout 10 "${NOBODY[@]}" "$P_CTL" set --root "$root" -v --score-adj 300 1187
	wait "$FIFO_WRITER"
	[ "$status" -eq 1 ]
	[ "$stderr" = "oomctl: 1187: process ID was reused by another process; nothing changed" ]
	[ -z "$output" ]
	# The FIFO is still a FIFO: nothing was written through it, nor next to it.
	[ -p "$root/proc/1187/oom_score_adj" ]
	[ -z "$(find "$root/proc/1187" -newer "$root/proc/1187/stat" -type f ! -name stat)" ]
}

@test "set: PID reused by a new process directory between reading and writing: the new one is untouched" {
	local root
	root=$(fixture basic)
	# 1187 (bash): no blank in its name, so field 22 of stat is the start time.
	adj_fifo "$root" 1187 replace "$root/proc/1187"
	run --separate-stderr timeout 10 "$OOMCTL" set --root "$root" -v --score-adj 300 1187
	wait "$FIFO_WRITER"
	# Whatever was reported, the process now holding PID 1187 keeps its value.
	[ "$(cat "$root/proc/1187/oom_score_adj")" = 0 ]
	[ "$status" -eq 1 ]
	[ "$stderr" = "oomctl: 1187: process ID was reused by another process; nothing changed" ]
	[ -z "$output" ]
}

# ---- the forkbomb threshold file, killed writers --------------------------------

@test "sysctl: vm.oom_forkbomb_thres is never half-written when the writer is SIGKILLed at random" {
	local root file ka i v old new got killed=0 done=0 n=${KILL_ROUNDS:-150} ctl t0 span
	root=$(fixture basic)
	# The binary itself: a valgrind wrapper script would die alone and leave
	# the real writer running.
	ctl=$OOMCTL
	head -c 4 "$ctl" | grep -q ELF || ctl=$TOP/tools/oomctl
	[ ! -e "$root/proc/sys/vm/oom_forkbomb_thres" ]
	file="$root/var/lib/liboom/vm.oom_forkbomb_thres"
	ka="$BATS_TEST_TMPDIR/kill-at"
	cc -O1 -o "$ka" "$BATS_TEST_DIRNAME/helpers/kill-at.c"
	# Kill moments spread over twice the time one whole write takes here.
	t0=$(date +%s%N)
	"$ctl" sysctl --root "$root" vm.oom_forkbomb_thres=1 >/dev/null
	span=$((($(date +%s%N) - t0) / 500))
	old=1
	for ((i = 0; i < n; i++)); do
		# Values of different lengths, so that a cut or mixed write shows.
		case $((i % 3)) in
		0) new=2147483647 ;;
		1) new=$((i + 2)) ;;
		2) new=1000000 ;;
		esac
		v=$("$ka" $(((RANDOM * 32768 + RANDOM) % span)) "$ctl" sysctl --root "$root" "vm.oom_forkbomb_thres=$new")
		case $v in
		killed) killed=$((killed + 1)) ;;
		"exited 0") done=$((done + 1)) ;;
		*) echo "round $i: $v"; false ;;
		esac
		got=$(od -An -c "$file" | tr -s ' ')
		if [ "$(cat "$file")" = "$new" ]; then
			old=$new
		fi
		# Exactly one whole decimal line, the old value or the new one.
		[ "$(cat "$file")" = "$old" ] || { echo "round $i: file holds '$got' (old $old, new $new)"; false; }
		[ "$(wc -l <"$file")" -eq 1 ]
		# And the tools still read it.
		[ "$("$ctl" sysctl --root "$root" -n vm.oom_forkbomb_thres)" = "$old" ]
	done
	echo "# $killed writers killed, $done finished (kills within $span us)" >&3
	[ "$killed" -gt 0 ]
	[ "$done" -gt 0 ]
}

@test "sysctl: a killed writer leaves no temporary file behind" {
	local root ka i ctl=$OOMCTL
	head -c 4 "$ctl" | grep -q ELF || ctl=$TOP/tools/oomctl
	root=$(fixture basic)
	ka="$BATS_TEST_TMPDIR/kill-at"
	cc -O1 -o "$ka" "$BATS_TEST_DIRNAME/helpers/kill-at.c"
	"$ctl" sysctl --root "$root" vm.oom_forkbomb_thres=1 >/dev/null
	for ((i = 0; i < 60; i++)); do
		"$ka" $((RANDOM % 4000)) "$ctl" sysctl --root "$root" "vm.oom_forkbomb_thres=$i" >/dev/null
	done
	"$OOMCTL" sysctl --root "$root" vm.oom_forkbomb_thres=2 >/dev/null
	run ls -A "$root/var/lib/liboom"
	# Temporary files of killed writers are swept by the next write.
	[ "$output" = vm.oom_forkbomb_thres ]
}

# ---- symlinks out of --root --------------------------------------------------------

# outside: a directory outside every root, with a file the tools must never touch.
make_outside() {
	OUTSIDE="$BATS_TEST_TMPDIR/outside"
	mkdir -p "$OUTSIDE/vm"
	printf '2\n' >"$OUTSIDE/vm/panic_on_oom"
	printf '7\n' >"$OUTSIDE/vm.oom_forkbomb_thres"
	OUT_SUM=$(tree_sum "$OUTSIDE")
}

@test "symlink out of --root: proc/PID -> /proc/self is no process for any tool" {
	local root
	root=$(fixture basic)
	ln -s /proc/self "$root/proc/1234"
	run --separate-stderr "$OOM_DUMP" --root "$root"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | grep -c '^\[ *1234\]' | grep -qx 0
	[[ "$output" != *oom-dump* ]]
	run --separate-stderr "$OOM_DUMP" --root "$root" --task 1234 --header
	[ "$status" -eq 1 ]
	run --separate-stderr "$OOM_DUMP" --root "$root" --cpuset-of 1234
	[ "$status" -eq 1 ]
	run --separate-stderr "$OOMCTL" get --root "$root" 1234
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -le 1 ]
	run --separate-stderr "$OOMCTL" explain --root "$root" 1234
	[ "$status" -eq 1 ]
	# (victim calls a --task that is no process an invalid value: exit 2)
	run --separate-stderr "$OOMCTL" victim --root "$root" --task 1234
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	run --separate-stderr "$OOMTOP" --root "$root" -b -n 1 -p 1234,1187
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	printf '%s\n' "$output" | grep -q '^ *1187 root '
	printf '%s\n' "$output" | grep -c '^ *1234 ' | grep -qx 0
	# Only the symlink asked for: an empty ranking (no rows, exit 0).
	run --separate-stderr "$OOMTOP" --root "$root" -b -n 1 -p 1234
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ "${lines[-1]}" =~ ^\ +PID\ USER ]]
	# And the real process behind /proc/self was not written to.
	run --separate-stderr "$OOMCTL" set --root "$root" --score-adj 999 1234
	[ "$status" -eq 1 ]
	[ "$(cat /proc/self/oom_score_adj)" != 999 ]
	[ "$(cat "/proc/$$/oom_score_adj")" != 999 ]
}

@test "symlink out of --root: var/lib/liboom -> outside: threshold neither read nor written there" {
	local root
	make_outside
	root=$(fixture basic)
	mkdir -p "$root/var/lib"
	ln -s "$OUTSIDE" "$root/var/lib/liboom"
	run --separate-stderr "$OOMCTL" sysctl --root "$root" vm.oom_forkbomb_thres=5
	[ "$status" -eq 1 ]
	[[ "$stderr" == "oomctl: vm.oom_forkbomb_thres: "* ]]
	run --separate-stderr "$OOMCTL" sysctl --root "$root" -n vm.oom_forkbomb_thres
	[ "$status" -eq 1 ]
	[ "$output" != 7 ]
	[ "$(tree_sum "$OUTSIDE")" = "$OUT_SUM" ]
	[ ! -e "$OUTSIDE/lib" ]
	# var itself a symlink: the same.
	rm -rf "${root:?}/var"
	ln -s "$OUTSIDE" "$root/var"
	run --separate-stderr "$OOMCTL" sysctl --root "$root" vm.oom_forkbomb_thres=5
	[ "$status" -eq 1 ]
	[ "$(tree_sum "$OUTSIDE")" = "$OUT_SUM" ]
}

@test "symlink out of --root: proc/sys/vm/panic_on_oom and proc/sys -> outside" {
	local root
	make_outside
	root=$(fixture basic)
	ln -sfn "$OUTSIDE/vm/panic_on_oom" "$root/proc/sys/vm/panic_on_oom"
	run --separate-stderr "$OOMCTL" sysctl --root "$root" vm.panic_on_oom
	[ "$status" -eq 1 ]
	[ "$output" != "vm.panic_on_oom = 2" ]
	run --separate-stderr "$OOMCTL" sysctl --root "$root" vm.panic_on_oom=1
	[ "$status" -eq 1 ]
	run --separate-stderr "$OOMCTL" victim --root "$root"
	[ "$status" -eq 1 ]
	[[ "$output" != *"would panic"* ]]
	rm -rf "${root:?}/proc/sys"
	ln -s "$OUTSIDE/.." "$root/proc/sys"
	run --separate-stderr "$OOMCTL" sysctl --root "$root" vm.panic_on_oom=0
	[ "$status" -eq 1 ]
	[ "$(tree_sum "$OUTSIDE")" = "$OUT_SUM" ]
}

@test "symlink out of --root: proc -> /proc, proc/meminfo -> /proc/meminfo, sys -> /sys are refused" {
	local root
	root=$(fixture basic)
	rm -rf "${root:?}/proc/meminfo"
	ln -s /proc/meminfo "$root/proc/meminfo"
	run --separate-stderr "$OOM_DUMP" --root "$root"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	run --separate-stderr "$OOMTOP" --root "$root" -b -n 1
	[ "$status" -eq 1 ]
	root=$(fixture basic)
	rm -rf "${root:?}/sys"
	ln -s /sys "$root/sys"
	run --separate-stderr "$OOM_DUMP" --root "$root" --nodes 0
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	root=$(fixture basic)
	rm -rf "${root:?}/proc"
	ln -s /proc "$root/proc"
	run --separate-stderr "$OOM_DUMP" --root "$root"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	run --separate-stderr "$OOMCTL" get --root "$root" $$
	[ "$status" -eq 1 ]
	[ -z "$output" ]
}

@test "symlink out of --root: the refusal says so (not 'Invalid cross-device link')" {
	local root
	root=$(fixture basic)
	rm -f "${root:?}/proc/meminfo"
	ln -s /proc/meminfo "$root/proc/meminfo"
	run --separate-stderr "$OOM_DUMP" --root "$root"
	[ "$status" -eq 1 ]
	[[ "$stderr" != *"cross-device"* ]]
	[[ "$stderr" == *"symbolic link"* ]]
}
