#!/usr/bin/env bats
# oomctl on fixture trees (copied before any write): every sub-command, output
# mode and error message, with the exit status scripts rely on.
# Expected values come from the fixtures' own files (awk here) or from
# figures worked out by hand (tests/fixtures/ctl-explain/README), never from
# the code under test.

load helpers
bats_require_minimum_version 1.5.0

BASIC="$FIXTURES/basic"
CTL="$FIXTURES/ctl-explain"

# kernel_adj SADJ: how a current kernel reads oom_adj back (C division, capped at 15).
kernel_adj() {
	awk -v s="$1" 'BEGIN { a = (s == 1000) ? 15 : int(s * 17 / 1000); if (a > 15) a = 15; print a }'
}

# status_kb PID FIELD...: the sum of those kB fields of a basic process's status.
status_kb() {
	local pid=$1
	shift
	awk -v want=" $* " 'index(want, " " substr($1, 1, length($1) - 1) " ") { s += $2 } END { print s + 0 }' \
		"$BASIC/proc/$pid/status"
}

# ---- get ----------------------------------------------------------------

@test "get: default table on ctl-explain is the hand-computed one" {
	run --separate-stderr "$OOMCTL" get --root "$CTL" 1 2 100 101 200
	[ "$status" -eq 0 ]
	diff -u "$EXPECTED/oomctl-get-ctl-explain.txt" <(printf '%s\n' "$output")
	[ -z "$stderr" ]
}

@test "get: OOM_SCORE_ADJ, OOM_ADJ and OOM_SCORE of every basic process come from its files" {
	for d in "$BASIC"/proc/[0-9]*; do
		pid=${d##*/}
		sadj=$(cat "$d/oom_score_adj")
		run "$OOMCTL" get --root "$BASIC" --no-headers -o pid,oom_score_adj,oom_adj,oom_score "$pid"
		[ "$status" -eq 0 ]
		[ "$output" = "$pid $sadj $(kernel_adj "$sadj") $(cat "$d/oom_score")" ]
	done
}

@test "get: -o picks fields in order; --no-headers prints bare values for \$(...)" {
	run "$OOMCTL" get --root "$BASIC" -o oom_score_adj --no-headers 5882
	[ "$status" -eq 0 ]
	[ "$output" = "1000" ]
	run "$OOMCTL" get --root "$BASIC" --no-headers -o comm,pid,ppid,uid,state 4035 4030
	[ "${lines[0]}" = ":-) 1 2 3 4 5 6 4035 1187 1000 S" ]
	[ "${lines[1]}" = "a) b c 4030 1187 0 S" ]
	[ "${#lines[@]}" -eq 2 ]
	# Header names are accepted as field names too; the header line follows -o.
	run "$OOMCTL" get --root "$BASIC" -o PID,oom_adj 4034
	[ "${lines[0]}" = "    PID OOM_ADJ" ]
	[ "${lines[1]}" = "   4034     -17" ]
}

@test "get: rss and swap are in KiB, from status" {
	run "$OOMCTL" get --root "$BASIC" --no-headers -o rss,swap 1187
	[ "$status" -eq 0 ]
	[ "$output" = "$(status_kb 1187 RssAnon RssFile RssShmem) $(status_kb 1187 VmSwap)" ]
	[ "$output" != "0 0" ]
}

@test "get --json: valid for jq, every field, names escaped" {
	run --separate-stderr "$OOMCTL" get --root "$BASIC" --json 4031 5882
	[ "$status" -eq 0 ]
	# No raw control byte in JSON, whatever stdout is.
	! printf '%s' "$output" | LC_ALL=C grep -q $'\x1b'
	[ "$(printf '%s' "$output" | jq length)" -eq 2 ]
	[ "$(printf '%s' "$output" | jq -r '.[1] | "\(.pid) \(.oom_score_adj) \(.oom_adj) \(.oom_score) \(.score) \(.comm)"')" = "5882 1000 15 1334 1000 hog" ]
	# The name round-trips: newline, backslash and ESC, as stat holds them.
	[ "$(printf '%s' "$output" | jq -j '.[0].comm' | od -An -c | tr -s ' ')" = "$(printf 'new\nline\\\033[31m' | od -An -c | tr -s ' ')" ]
	run "$OOMCTL" get --root "$BASIC" --json -o pid,state 1187
	[ "$(printf '%s' "$output" | jq -c .)" = '[{"pid":1187,"state":"S"}]' ]
}

@test "get --json: an empty array when no PID could be read" {
	run --separate-stderr "$OOMCTL" get --root "$BASIC" --json 99
	[ "$status" -eq 1 ]
	[ "$(printf '%s' "$output" | jq -c .)" = "[]" ]
	[ "$stderr" = "oomctl: 99: no such process" ]
}

@test "get: COMMAND is escaped into a pipe and on a terminal (a name never splits a row)" {
	run "$OOMCTL" get --root "$BASIC" --no-headers -o comm 4031
	[ "$output" = 'new\x0aline\x5c\x1b[31m' ]
	command -v script >/dev/null || skip "script(1) not installed"
	run script -qec "$OOMCTL get --root $BASIC --no-headers -o comm 4031" /dev/null
	[ "$(printf '%s' "$output" | tr -d '\r')" = 'new\x0aline\x5c\x1b[31m' ]
}

@test "get: SCORE under --heuristic kernel is the kernel's oom_score for every process" {
	for d in "$BASIC"/proc/[0-9]*; do
		run "$OOMCTL" get --root "$BASIC" -H kernel --no-headers -o score "${d##*/}"
		[ "$status" -eq 0 ]
		[ "$output" = "$(cat "$d/oom_score")" ]
	done
}

@test "get: SCORE under rewrite and legacy (hand-computed ctl-explain values)" {
	run "$OOMCTL" get --root "$CTL" --no-headers -o pid,score 100 101 200
	[ "$output" = $'100 1000\n101 2\n200 20' ]
	run "$OOMCTL" get --root "$CTL" --heuristic legacy --no-headers -o pid,score 100 101 200
	[ "$output" = $'100 110004\n101 5000\n200 4687' ]
}

@test "get: unknown PID is reported, the others are still shown, exit 1" {
	run --separate-stderr "$OOMCTL" get --root "$BASIC" --no-headers -o pid 1187 99 5882
	[ "$status" -eq 1 ]
	[ "$output" = $'1187\n5882' ]
	[ "$stderr" = "oomctl: 99: no such process" ]
}

@test "get: bad PIDs, fields and heuristics are usage errors (exit 2)" {
	run --separate-stderr "$OOMCTL" get --root "$BASIC" 12x
	[ "$status" -eq 2 ]
	[ "$stderr" = "oomctl: PID: '12x' is not a number" ]
	[ -z "$output" ]
	run --separate-stderr "$OOMCTL" get --root "$BASIC" 0
	[ "$status" -eq 2 ]
	[ "$stderr" = "oomctl: PID must be between 1 and 2147483647" ]
	run --separate-stderr "$OOMCTL" get --root "$BASIC" -o pid,bogus 1
	[ "$status" -eq 2 ]
	[[ "${stderr_lines[0]}" == "oomctl get: unknown field 'bogus'"* ]]
	run --separate-stderr "$OOMCTL" get --root "$BASIC" -H newest 1
	[ "$status" -eq 2 ]
	[[ "${stderr_lines[0]}" == "oomctl get: unknown heuristic 'newest'"* ]]
	run --separate-stderr "$OOMCTL" get --root "$BASIC"
	[ "$status" -eq 2 ]
	[[ "${stderr_lines[0]}" == "oomctl get: no PID given" ]]
}

@test "get: OOM_ROOT is honoured, --root wins over it, before or after the command" {
	OOM_ROOT="$BASIC" run "$OOMCTL" get --no-headers -o comm 5882
	[ "$output" = "hog" ]
	OOM_ROOT=/nonexistent run "$OOMCTL" get --root "$CTL" --no-headers -o comm 100
	[ "$output" = "server" ]
	run "$OOMCTL" --root "$CTL" get --no-headers -o comm 100
	[ "$output" = "server" ]
	run --separate-stderr "$OOMCTL" get --root /nonexistent 1
	[ "$status" -eq 1 ]
	[[ "$stderr" == "oomctl: /nonexistent: cannot use as root: "* ]]
}

# ---- set ----------------------------------------------------------------

@test "set --score-adj on several PIDs, -v prints old -> new" {
	root=$(fixture basic)
	run --separate-stderr "$OOMCTL" set --root "$root" -v --score-adj 500 1187 4030
	[ "$status" -eq 0 ]
	[ "$output" = $'1187: 0 -> 500\n4030: 0 -> 500' ]
	[ -z "$stderr" ]
	[ "$(cat "$root/proc/1187/oom_score_adj")" = 500 ]
	[ "$(cat "$root/proc/4030/oom_score_adj")" = 500 ]
	# Without -v: silent.
	run "$OOMCTL" set --root "$root" --score-adj 600 1187
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[ "$(cat "$root/proc/1187/oom_score_adj")" = 600 ]
}

@test "set --score-adj -100 is the absolute value -100, in any option position" {
	root=$(fixture basic)
	run "$OOMCTL" set --root "$root" --score-adj 500 1187
	run "$OOMCTL" set --root "$root" -v --score-adj -100 1187
	[ "$status" -eq 0 ]
	[ "$output" = "1187: 500 -> -100" ]
	[ "$(cat "$root/proc/1187/oom_score_adj")" = -100 ]
	run "$OOMCTL" set --root "$root" -v 1187 --score-adj=-200
	[ "$output" = "1187: -100 -> -200" ]
}

@test "set: a shorter value replaces a longer one completely" {
	root=$(fixture basic)
	run "$OOMCTL" set --root "$root" --score-adj 500 1187
	run "$OOMCTL" set --root "$root" --score-adj 5 1187
	[ "$status" -eq 0 ]
	[ "$(cat "$root/proc/1187/oom_score_adj")" = 5 ]
	run "$OOMCTL" get --root "$root" --no-headers -o oom_score_adj 1187
	[ "$output" = 5 ]
}

@test "set --adj: converted with the 2.6.36 rule, deprecation warned once" {
	root=$(fixture basic)
	run --separate-stderr "$OOMCTL" set --root "$root" -v --adj -17 1187 4030
	[ "$status" -eq 0 ]
	[ "$stderr" = "oomctl: oom_adj is deprecated, please use oom_score_adj instead." ]
	[ "$output" = $'1187: 0 -> -1000\n4030: 0 -> -1000' ]
	run --separate-stderr "$OOMCTL" set --root "$root" --adj 8 1187
	[ "$(cat "$root/proc/1187/oom_score_adj")" = $((8 * 1000 / 17)) ]
	run --separate-stderr "$OOMCTL" set --root "$root" --adj 15 1187
	[ "$(cat "$root/proc/1187/oom_score_adj")" = 1000 ]
	run --separate-stderr "$OOMCTL" set --root "$root" --adj 16 1187
	[ "$status" -eq 2 ]
	[ "$stderr" = "oomctl: oom_adj must be between -17 and 15" ]
	[ "$(cat "$root/proc/1187/oom_score_adj")" = 1000 ]
}

@test "set: out of range, not a number and trailing junk change nothing (exit 2)" {
	root=$(fixture basic)
	for v in 1001 -1001 99999999999999999999; do
		run --separate-stderr "$OOMCTL" set --root "$root" --score-adj "$v" 1187 4030
		[ "$status" -eq 2 ]
		[ "$stderr" = "oomctl: oom_score_adj must be between -1000 and 1000" ]
	done
	for v in abc 10x "" " 5" 0x10; do
		run --separate-stderr "$OOMCTL" set --root "$root" --score-adj "$v" 1187
		[ "$status" -eq 2 ]
		[ "$stderr" = "oomctl: oom_score_adj: '$v' is not a number" ]
	done
	# A bad PID anywhere stops everything before the first write.
	run --separate-stderr "$OOMCTL" set --root "$root" --score-adj 300 1187 4030x
	[ "$status" -eq 2 ]
	[ "$stderr" = "oomctl: PID: '4030x' is not a number" ]
	[ "$(cat "$root/proc/1187/oom_score_adj")" = 0 ]
	[ "$(cat "$root/proc/4030/oom_score_adj")" = 0 ]
	diff -r "$BASIC" "$root"
}

@test "set --by: signed delta, clamped to -1000..1000 and said so" {
	root=$(fixture basic)
	run --separate-stderr "$OOMCTL" set --root "$root" -v --by 300 1187
	[ "$status" -eq 0 ]
	[ "$output" = "1187: 0 -> 300" ]
	[ -z "$stderr" ]
	run --separate-stderr "$OOMCTL" set --root "$root" -v --by -100 1187
	[ "$output" = "1187: 300 -> 200" ]
	run --separate-stderr "$OOMCTL" set --root "$root" -v --by 900 1187
	[ "$status" -eq 0 ]
	[ "$output" = "1187: 200 -> 1000" ]
	[ "$stderr" = "oomctl: 1187: 200 +900 = 1100 is out of range, clamped to 1000" ]
	run --separate-stderr "$OOMCTL" set --root "$root" -v --by -5000 1187 5882
	[ "$output" = $'1187: 1000 -> -1000\n5882: 1000 -> -1000' ]
	[ "${stderr_lines[0]}" = "oomctl: 1187: 1000 -5000 = -4000 is out of range, clamped to -1000" ]
	run --separate-stderr "$OOMCTL" set --root "$root" --by 1x 1187
	[ "$status" -eq 2 ]
	[ "$stderr" = "oomctl: --by: '1x' is not a number" ]
}

@test "set: each PID on its own; failures reported, the others done, exit 1" {
	root=$(fixture basic)
	run --separate-stderr "$OOMCTL" set --root "$root" -v --score-adj 300 1187 99 2 4030
	[ "$status" -eq 1 ]
	[ "$output" = $'1187: 0 -> 300\n4030: 0 -> 300' ]
	[ "${stderr_lines[0]}" = "oomctl: 99: no such process" ]
	[ "${stderr_lines[1]}" = "oomctl: 2: is a kernel thread; it has no oom_score_adj of its own, nothing changed" ]
	[ "$(cat "$root/proc/2/oom_score_adj")" = 0 ]
	[ "$(cat "$root/proc/4030/oom_score_adj")" = 300 ]
}

@test "set: options are exclusive and required; PIDs are required (exit 2)" {
	run --separate-stderr "$OOMCTL" set --root "$BASIC" --score-adj 1 --by 2 1187
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "oomctl set: give only one of --score-adj, --adj and --by" ]
	run --separate-stderr "$OOMCTL" set --root "$BASIC" 1187
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "oomctl set: give one of --score-adj, --adj and --by" ]
	run --separate-stderr "$OOMCTL" set --root "$BASIC" --score-adj 1
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "oomctl set: no PID given" ]
}

# adj_fifo ROOT PID CMD...: turns ROOT/proc/PID/oom_score_adj into a FIFO; once
# oomctl has read the process (the FIFO is the last file it reads) and before it
# writes, CMD runs; then the FIFO serves the old value "0".
adj_fifo() {
	local dir="$1/proc/$2"
	shift 2
	rm "$dir/oom_score_adj"
	mkfifo "$dir/oom_score_adj"
	(
		exec 3>"$dir/oom_score_adj"
		"$@"
		printf '0\n' >&3
	) &
	FIFO_WRITER=$!
}

# restat DIR: the process in DIR is replaced by another with the same PID (start time + 1).
restat() {
	awk '{ $22 = $22 + 1; print }' "$1/stat" >"$1/stat.new"
	mv "$1/stat.new" "$1/stat"
}

@test "set: PID reuse between read and write is detected; nothing written (exit 1)" {
	root=$(fixture basic)
	before=$(cut -d' ' -f22 "$root/proc/1187/stat")
	# bash has no blank in its name: field 22 of stat is the start time.
	adj_fifo "$root" 1187 restat "$root/proc/1187"
	run --separate-stderr timeout 10 "$OOMCTL" set --root "$root" -v --score-adj 300 1187
	wait "$FIFO_WRITER"
	[ "$(cut -d' ' -f22 "$root/proc/1187/stat")" -eq $((before + 1)) ]
	[ "$status" -eq 1 ]
	[ "$stderr" = "oomctl: 1187: process ID was reused by another process; nothing changed" ]
	[ -z "$output" ]
	[ -p "$root/proc/1187/oom_score_adj" ]
}

@test "set: a process that exits between read and write is 'no such process' (exit 1)" {
	root=$(fixture basic)
	adj_fifo "$root" 4030 rm -rf "$root/proc/4030"
	run --separate-stderr timeout 10 "$OOMCTL" set --root "$root" -v --score-adj 300 4030 1187
	wait "$FIFO_WRITER"
	[ "$status" -eq 1 ]
	[ "$stderr" = "oomctl: 4030: no such process" ]
	[ "$output" = "1187: 0 -> 300" ]
	[ ! -e "$root/proc/4030" ]
}

# ---- convert --------------------------------------------------------------

@test "convert: single values both ways" {
	run "$OOMCTL" convert --adj -17
	[ "$status" -eq 0 ] && [ "$output" = -1000 ]
	run "$OOMCTL" convert --adj 15
	[ "$output" = 1000 ]
	run "$OOMCTL" convert --adj 8
	[ "$output" = 470 ]
	run "$OOMCTL" convert --score-adj 500
	[ "$output" = 7 ]
	run "$OOMCTL" convert --score-adj 500 --kernel
	[ "$output" = 8 ]
	run "$OOMCTL" convert --score-adj 990 --kernel
	[ "$output" = 15 ]
	run "$OOMCTL" convert --score-adj -1000
	[ "$output" = -17 ]
	run "$OOMCTL" convert --score-adj -999
	[ "$output" = -14 ]
}

@test "convert: all 33 oom_adj and all 2001 oom_score_adj values match the kernel rules" {
	want=$(awk 'BEGIN { for (a = -17; a <= 15; a++) print (a == 15) ? 1000 : int(a * 1000 / 17) }')
	got=$(for a in $(seq -17 15); do "$OOMCTL" convert --adj "$a"; done)
	[ "$got" = "$want" ]
	want=$(awk 'BEGIN { for (s = -1000; s <= 1000; s++) print (s == -1000) ? -17 : int(s * 15 / 1000) }')
	got=$(for s in $(seq -1000 1000); do "$OOMCTL" convert --score-adj "$s"; done)
	[ "$got" = "$want" ]
	want=$(awk 'BEGIN { for (s = -1000; s <= 1000; s++) { a = (s == 1000) ? 15 : int(s * 17 / 1000); print (a > 15) ? 15 : a } }')
	got=$(for s in $(seq -1000 1000); do "$OOMCTL" convert --kernel --score-adj "$s"; done)
	[ "$got" = "$want" ]
}

@test "convert --table: every oom_adj with its oom_score_adj and both readings back" {
	run "$OOMCTL" convert --table
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 34 ]
	[ "${lines[0]}" = "OOM_ADJ OOM_SCORE_ADJ OOM_ADJ_2.6.36 OOM_ADJ_KERNEL" ]
	want=$(awk 'BEGIN { for (a = -17; a <= 15; a++) {
		s = (a == 15) ? 1000 : int(a * 1000 / 17)
		b = (s == -1000) ? -17 : int(s * 15 / 1000)
		k = (s == 1000) ? 15 : int(s * 17 / 1000); if (k > 15) k = 15
		print a, s, b, k } }')
	[ "$(printf '%s\n' "${lines[@]:1}" | awk '{ print $1, $2, $3, $4 }')" = "$want" ]
}

@test "convert: errors are usage errors (exit 2)" {
	run --separate-stderr "$OOMCTL" convert --adj 16
	[ "$status" -eq 2 ] && [ "$stderr" = "oomctl: oom_adj must be between -17 and 15" ]
	run --separate-stderr "$OOMCTL" convert --score-adj 1001
	[ "$status" -eq 2 ] && [ "$stderr" = "oomctl: oom_score_adj must be between -1000 and 1000" ]
	run --separate-stderr "$OOMCTL" convert --adj 1.5
	[ "$status" -eq 2 ] && [ "$stderr" = "oomctl: oom_adj: '1.5' is not a number" ]
	run --separate-stderr "$OOMCTL" convert
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "oomctl convert: give one of --adj N, --score-adj N and --table" ]
	run --separate-stderr "$OOMCTL" convert --adj 3 --kernel
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "oomctl convert: --kernel goes with --score-adj" ]
}

# ---- sysctl ---------------------------------------------------------------

@test "sysctl: lists all four like sysctl(8); -n prints values; names with or without vm." {
	v=$BASIC/proc/sys/vm
	run "$OOMCTL" sysctl --root "$BASIC"
	[ "$status" -eq 0 ]
	[ "$output" = "vm.panic_on_oom = $(cat "$v/panic_on_oom")
vm.oom_dump_tasks = $(cat "$v/oom_dump_tasks")
vm.oom_kill_allocating_task = $(cat "$v/oom_kill_allocating_task")
vm.oom_forkbomb_thres = 1000" ]
	run "$OOMCTL" sysctl --root "$CTL" -n oom_forkbomb_thres vm.oom_dump_tasks vm/panic_on_oom
	[ "$output" = $'3\n1\n0' ]
}

@test "sysctl NAME=VALUE writes the kernel file, or the liboom file for oom_forkbomb_thres" {
	root=$(fixture basic)
	run --separate-stderr "$OOMCTL" sysctl --root "$root" vm.panic_on_oom=2 oom_forkbomb_thres=3
	[ "$status" -eq 0 ]
	[ "$output" = $'vm.panic_on_oom = 2\nvm.oom_forkbomb_thres = 3' ]
	[ "$(cat "$root/proc/sys/vm/panic_on_oom")" = 2 ]
	[ "$(cat "$root/var/lib/liboom/vm.oom_forkbomb_thres")" = 3 ]
	run "$OOMCTL" sysctl --root "$root" -n vm.oom_forkbomb_thres
	[ "$output" = 3 ]
	# No temporary file is left behind.
	[ "$(ls -A "$root/var/lib/liboom")" = vm.oom_forkbomb_thres ]
}

@test "sysctl: unknown names and bad values are errors that change nothing (exit 2)" {
	root=$(fixture basic)
	run --separate-stderr "$OOMCTL" sysctl --root "$root" vm.panic_on_oom=1 vm.oom_kill_me=1
	[ "$status" -eq 2 ]
	[ "$stderr" = "oomctl: unknown sysctl 'vm.oom_kill_me' (vm.panic_on_oom, vm.oom_dump_tasks, vm.oom_kill_allocating_task, vm.oom_forkbomb_thres)" ]
	run --separate-stderr "$OOMCTL" sysctl --root "$root" panic_on_oom=1 oom_dump_tasks=2
	[ "$status" -eq 2 ]
	[ "$stderr" = "oomctl: vm.oom_dump_tasks must be between 0 and 1" ]
	run --separate-stderr "$OOMCTL" sysctl --root "$root" panic_on_oom=3
	[ "$stderr" = "oomctl: vm.panic_on_oom must be between 0 and 2" ]
	run --separate-stderr "$OOMCTL" sysctl --root "$root" oom_forkbomb_thres=-1
	[ "$stderr" = "oomctl: vm.oom_forkbomb_thres must be between 0 and 2147483647" ]
	run --separate-stderr "$OOMCTL" sysctl --root "$root" panic_on_oom=1 oom_dump_tasks=yes
	[ "$status" -eq 2 ]
	[ "$stderr" = "oomctl: vm.oom_dump_tasks: 'yes' is not a number" ]
	diff -r "$BASIC" "$root"
}

# as_nobody CMD...: runs CMD as uid/gid 65534, without supplementary groups.
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

@test "sysctl: a write without permission is reported; earlier writes are undone (exit 1)" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to set up files nobody can and cannot write"
	command -v setpriv >/dev/null || skip "setpriv(1) not installed"
	# A tree nobody can reach: panic_on_oom is nobody's, oom_dump_tasks root's (0644).
	top=$(mktemp -d)
	chmod 755 "$top"
	cp -a "$BASIC" "$top/root"
	chown 65534 "$top/root/proc/sys/vm/panic_on_oom"
	as_nobody "$OOMCTL" sysctl --root "$top/root" vm.panic_on_oom=1 >/dev/null || true
	[ "$(cat "$top/root/proc/sys/vm/panic_on_oom")" = 1 ] || { rm -rf "$top"; false; }
	run --separate-stderr as_nobody "$OOMCTL" sysctl --root "$top/root" vm.panic_on_oom=2 vm.oom_dump_tasks=0
	p=$(cat "$top/root/proc/sys/vm/panic_on_oom")
	d=$(cat "$top/root/proc/sys/vm/oom_dump_tasks")
	rm -rf "$top"
	[ "$status" -eq 1 ]
	[ "$stderr" = "oomctl: vm.oom_dump_tasks: permission denied: writing OOM sysctls needs root; nothing changed" ]
	[ -z "$output" ]
	[ "$p" = 1 ]
	[ "$d" = 1 ]
}

# ---- explain --------------------------------------------------------------

@test "explain: every term, hand-computed (rewrite, kernel, legacy; kernel thread)" {
	for c in 100-rewrite 100-kernel 100-legacy 200-rewrite 200-legacy; do
		run --separate-stderr "$OOMCTL" explain --root "$CTL" --heuristic "${c#*-}" "${c%-*}"
		[ "$status" -eq 0 ]
		diff -u "$EXPECTED/oomctl-explain-$c.txt" <(printf '%s\n' "$output")
	done
	run "$OOMCTL" explain --root "$CTL" 2
	[ "$status" -eq 0 ]
	diff -u "$EXPECTED/oomctl-explain-2.txt" <(printf '%s\n' "$output")
}

@test "explain: the forkbomb penalty follows vm.oom_forkbomb_thres" {
	root=$(fixture ctl-explain)
	"$OOMCTL" sysctl --root "$root" vm.oom_forkbomb_thres=4 >/dev/null
	run "$OOMCTL" explain --root "$root" 100
	[ "${lines[6]}" = "forkbomb penalty   +0 (4 children under 1 s of CPU, not more than vm.oom_forkbomb_thres 4)" ]
	[ "${lines[9]}" = "sum                220" ]
	[ "${lines[10]}" = "clamp 0..1000      220 (unchanged)" ]
	"$OOMCTL" sysctl --root "$root" vm.oom_forkbomb_thres=0 >/dev/null
	run "$OOMCTL" explain --root "$root" 100
	[ "${lines[6]}" = "forkbomb penalty   +0 (vm.oom_forkbomb_thres is 0: disabled)" ]
	"$OOMCTL" sysctl --root "$root" vm.oom_forkbomb_thres=1 >/dev/null
	run "$OOMCTL" explain --root "$root" 100
	[ "${lines[6]}" = "forkbomb penalty   +4000 (4 children under 1 s of CPU, more than vm.oom_forkbomb_thres 1: their rss 4000 pages / 1)" ]
}

@test "explain: ranks ties as each kernel picks (first in PID order; mainline: last)" {
	run "$OOMCTL" explain --root "$CTL" 101
	[ "${lines[-1]}" = "rank               3 of 6 candidates (8 processes)" ]
	run "$OOMCTL" explain --root "$CTL" 104
	[ "${lines[-1]}" = "rank               6 of 6 candidates (8 processes)" ]
	run "$OOMCTL" explain --root "$CTL" -H kernel 104
	[ "${lines[-1]}" = "rank               3 of 6 candidates (8 processes)" ]
	run "$OOMCTL" explain --root "$CTL" -H kernel 101
	[ "${lines[-1]}" = "rank               6 of 6 candidates (8 processes)" ]
	run "$OOMCTL" explain --root "$CTL" -H legacy 101
	[ "${lines[-1]}" = "rank               2 of 6 candidates (8 processes)" ]
}

@test "explain: the kernel heuristic matches oom_score for every basic process" {
	for d in "$BASIC"/proc/[0-9]*; do
		pid=${d##*/}
		run "$OOMCTL" explain --root "$BASIC" "$pid"
		[ "$status" -eq 0 ]
		line=$(printf '%s\n' "$output" | grep '^kernel oom_score')
		s=$(cat "$d/oom_score")
		[ "$line" = "kernel oom_score   $s by the kernel heuristic, $s in /proc/$pid/oom_score (match)" ]
	done
}

@test "explain: reasons a process is not a candidate; escaped names" {
	run "$OOMCTL" explain --root "$BASIC" 4034
	[ "${lines[2]}" = "candidate          no: oom_score_adj is -1000 (OOM_SCORE_ADJ_MIN)" ]
	run "$OOMCTL" explain --root "$BASIC" 1
	[ "${lines[2]}" = "candidate          no: init (PID 1)" ]
	run "$OOMCTL" explain --root "$BASIC" 4031
	[ "${lines[0]}" = 'process            4031 (new\x0aline\x5c\x1b[31m)' ]
	# A zombie leader whose thread lives on is scored with the thread's memory.
	run "$OOMCTL" explain --root "$BASIC" -H kernel 4032
	[ "${lines[2]}" != "candidate          no: it has no memory (no mm) left" ]
}

@test "explain: errors (unknown PID exit 1; usage exit 2)" {
	run --separate-stderr "$OOMCTL" explain --root "$BASIC" 99
	[ "$status" -eq 1 ] && [ "$stderr" = "oomctl: 99: no such process" ] && [ -z "$output" ]
	run --separate-stderr "$OOMCTL" explain --root "$BASIC" 1 2
	[ "$status" -eq 2 ] && [ "${stderr_lines[0]}" = "oomctl explain: explain takes one PID" ]
	run --separate-stderr "$OOMCTL" explain --root "$BASIC" -H bogus 1
	[ "$status" -eq 2 ]
	run --separate-stderr "$OOMCTL" explain --root "$BASIC" 1x
	[ "$status" -eq 2 ] && [ "$stderr" = "oomctl: PID: '1x' is not a number" ]
}

# ---- the tool ---------------------------------------------------------------

@test "--help, --usage and --version for the tool and every sub-command" {
	run "$OOMCTL" --help
	[ "$status" -eq 0 ]
	for c in get set run convert sysctl explain victim monitor; do
		printf '%s\n' "$output" | grep -q "^  $c "
	done
	for c in get set run convert sysctl explain victim monitor; do
		run "$OOMCTL" "$c" --help
		[ "$status" -eq 0 ]
		[[ "${lines[0]}" == "Usage: oomctl $c "* ]]
		printf '%s\n' "$output" | grep -q -- '--root=DIR'
		run "$OOMCTL" "$c" --usage
		[ "$status" -eq 0 ]
		[[ "${lines[0]}" == "Usage: oomctl $c "* ]]
		run "$OOMCTL" "$c" --version
		[ "$status" -eq 0 ] && [[ "$output" == "liboom "[0-9]* ]]
	done
	run "$OOMCTL" --version
	[ "$status" -eq 0 ] && [[ "$output" == "liboom "[0-9]* ]]
}

@test "no command or an unknown one is a usage error (exit 2)" {
	run --separate-stderr "$OOMCTL"
	[ "$status" -eq 2 ] && [ "${stderr_lines[0]}" = "oomctl: no command given" ]
	run --separate-stderr "$OOMCTL" kill 1
	[ "$status" -eq 2 ] && [ "${stderr_lines[0]}" = "oomctl: unknown command 'kill'" ]
	run --separate-stderr "$OOMCTL" get --bogus 1
	[ "$status" -eq 2 ]
}

@test "sysctl: a sysctl the kernel lacks is reported; the others still print; nothing written" {
	root=$(fixture basic)
	rm "$root/proc/sys/vm/oom_dump_tasks"
	run --separate-stderr "$OOMCTL" sysctl --root "$root"
	[ "$status" -eq 1 ]
	[ "$output" = $'vm.panic_on_oom = 0\nvm.oom_kill_allocating_task = 0\nvm.oom_forkbomb_thres = 1000' ]
	[ "$stderr" = "oomctl: vm.oom_dump_tasks: this kernel has no such sysctl" ]
	run --separate-stderr "$OOMCTL" sysctl --root "$root" vm.panic_on_oom=1 vm.oom_dump_tasks=1
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[ "$(cat "$root/proc/sys/vm/panic_on_oom")" = 0 ]
	[ ! -e "$root/proc/sys/vm/oom_dump_tasks" ]
}

@test "man page: every sub-command and every option of its --help is documented" {
	page=$(sed 's/\\-/-/g; s/\\f[BIRP]//g' "$TOP/man/oomctl.8")
	for c in get set run convert sysctl explain victim monitor; do
		grep -q "^\.B oomctl $c" <<<"$page"
		for o in $("$OOMCTL" "$c" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
			case $o in --help | --usage | --version) continue ;; esac
			grep -q -- "$o" <<<"$page" || { echo "oomctl $c $o is not in oomctl.8"; false; }
		done
	done
	for s in "EXIT STATUS" ENVIRONMENT FILES EXAMPLES "SEE ALSO"; do
		grep -q "^\.SH \"\?$s" <<<"$page"
	done
	grep -q 'choom (1)' <<<"$page"
	grep -q 'proc (5)' <<<"$page"
	grep -q 'oomctl (1)' <<<"$page"
	grep -q 'OOM_ROOT' <<<"$page"
	# monitor: since 6.6 the proc connector needs no capability, only the initial namespaces.
	grep -q 'since Linux 6.6 any user may listen to it' <<<"$page"
}

@test "a saved tree without oom_score: get shows '-' (null in JSON), explain says so" {
	root=$(fixture ctl-explain)
	rm "$root/proc/100/oom_score"
	run "$OOMCTL" get --root "$root" --no-headers -o pid,oom_score,score 100 101
	[ "$status" -eq 0 ]
	[ "$output" = $'100 - 1000\n101 667 2' ]
	run "$OOMCTL" get --root "$root" --json -o oom_score 100
	[ "$(printf '%s' "$output" | jq -c .)" = '[{"oom_score":null}]' ]
	run "$OOMCTL" explain --root "$root" 100
	[ "$status" -eq 0 ]
	[ "${lines[12]}" = "kernel oom_score   773 by the kernel heuristic (no /proc/100/oom_score to compare)" ]
}

@test "garbled /proc files are reported as such, the others still done (exit 1)" {
	root=$(fixture basic)
	printf 'garbage\n' >"$root/proc/4030/stat"
	run --separate-stderr "$OOMCTL" get --root "$root" --no-headers -o pid 4030 1187
	[ "$status" -eq 1 ]
	[ "$output" = 1187 ]
	[ "$stderr" = "oomctl: 4030: its /proc files are malformed or cut short" ]
	run --separate-stderr "$OOMCTL" set --root "$root" --score-adj 4 4030
	[ "$status" -eq 1 ]
	[ "$stderr" = "oomctl: 4030: its /proc files are malformed or cut short" ]
	[ "$(cat "$root/proc/4030/oom_score_adj")" = 0 ]
}
