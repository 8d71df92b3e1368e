#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1-or-later
# Hostile input (issue 7, item 4), one case per test; the table is in
# tests/README ("Hostile input table"). Process names any user can choose,
# /proc files cut short or absurd, PID directories that are symlinks, and
# command-line values an admin may mistype. For each: a clear message, the
# documented exit status, nothing written (the fixture copy is checksummed
# before and after), and no partial output line.
# Fixtures: tests/fixtures/hostile-names/ and hostile-files/, made by
# tests/cli/helpers/make-hostile-fixtures.sh from basic/ (every hostile PID is
# a copy of 1187 with one thing changed). Expected names are computed here
# from the fixture's own bytes (sed, python3), never by the tools.

load helpers
bats_require_minimum_version 1.5.0

NAMES="$FIXTURES/hostile-names"
FILES="$FIXTURES/hostile-files"

ROW_2636='^\[ *[0-9]+\] +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +-?[0-9]+ +-?[0-9]+ .*$'
ROW_MODERN='^\[ *[0-9]+\] +[0-9]+ +[0-9]+( +[0-9]+){7} +-?[0-9]+ .*$'
ROW_PROM='^[a-z_]+(\{[a-z_]+="([^"\\]|\\.)*"(,[a-z_]+="([^"\\]|\\.)*")*\})? -?[0-9]+$'

# tree_sum DIR: one checksum over names, types, modes, link targets and contents.
tree_sum() {
	(
		cd "$1" || exit 1
		find . -printf '%p %y %m %l\n' | LC_ALL=C sort
		find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r md5sum
	) | md5sum
}

# runf CMD...: runs CMD with stdout and stderr in files ($OUT, $ERR) and sets
# $status; fails if either stream ends in a partial line.
runf() {
	OUT="$BATS_TEST_TMPDIR/out.$$"
	ERR="$BATS_TEST_TMPDIR/err.$$"
	status=0
	"$@" >"$OUT" 2>"$ERR" </dev/null || status=$?
	whole_lines "$OUT"
	whole_lines "$ERR"
	output=$(cat "$OUT")
	stderr=$(cat "$ERR")
}

# whole_lines FILE: empty, or ending in a newline.
whole_lines() {
	if [ -s "$1" ] && [ "$(tail -c 1 "$1" | od -An -tx1 | tr -d ' ')" != 0a ]; then
		echo "partial last line in $1: $(tail -c 80 "$1" | od -c | tail -3)"
		return 1
	fi
}

# raw_comm ROOT PID: the comm bytes of ROOT/proc/PID/stat (first '(' to last ')').
raw_comm() {
	sed -z 's/^[^(]*(//; s/)[^)]*$//' "$1/proc/$2/stat"
}

# escaped: stdin escaped as the tools document it for terminals: printable
# ASCII and valid UTF-8 from U+00A0 pass, every other byte and '\' as \xNN.
escaped() {
	python3 -c '
import sys
s = sys.stdin.buffer.read().decode("utf-8", errors="surrogateescape")
out = []
for ch in s:
    o = ord(ch)
    if 0x20 <= o < 0x7f and ch != "\\":
        out.append(ch)
    elif 0xdc80 <= o <= 0xdcff:
        out.append("\\x%02x" % (o - 0xdc00))
    elif o >= 0xa0 and not 0xd800 <= o <= 0xdfff:
        out.append(ch)
    else:
        out.extend("\\x%02x" % b for b in ch.encode("utf-8"))
sys.stdout.write("".join(out))'
}

# all_match REGEX: every line of stdin matches (else prints the first that does not).
all_match() {
	local bad
	bad=$(grep -a -E -v -m 1 -- "$1") || true
	if [ -n "$bad" ]; then
		printf 'malformed or half line: %q\n' "$bad"
		return 1
	fi
}

# absent PATTERN FILE: no line of FILE matches PATTERN (grep -E).
absent() {
	if grep -a -E -q -- "$1" "$2"; then
		echo "unexpected line matching $1:"
		grep -a -E -- "$1" "$2"
		return 1
	fi
}

# no_control FILE: no control byte but newline (and the \r a pty adds) in FILE.
no_control() {
	if LC_ALL=C grep -q -P '[\x00-\x09\x0b\x0c\x0e-\x1f\x7f]' "$1"; then
		echo "control bytes in $1:"
		LC_ALL=C grep -a -P '[\x00-\x09\x0b\x0c\x0e-\x1f\x7f]' "$1" | od -c | head -5
		return 1
	fi
}

# on_tty CMD...: CMD with stdout on a pseudo-terminal (script(1)); output in $OUT.
on_tty() {
	local cmd
	OUT="$BATS_TEST_TMPDIR/tty.$$"
	printf -v cmd '%q ' "$@"
	script -qec "$cmd" /dev/null </dev/null >"$OUT"
}

# check_name PID: the hostile-names process PID in every output, pipe and terminal.
check_name() {
	local pid=$1 raw esc ref want
	raw=$(raw_comm "$NAMES" "$pid"; echo .)
	raw=${raw%.}
	esc=$(printf '%s' "$raw" | escaped)

	# 2.6.36 and modern into a pipe: raw bytes, as the kernel logs them; the
	# numbers are 1187's (the process it was copied from), the PID its own.
	runf "$OOM_DUMP" --root "$NAMES"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	ref=$(grep -a '^\[ 1187\] ' "$OUT")
	want=$(printf '%s' "$ref" | sed "s/^\[ 1187\]     0  1187 /[ $pid]     0  $pid /; s/ bash\$/ /")
	grep -a -F -x -q -- "$want$raw" "$OUT" || {
		echo "2.6.36: no row '$want$raw'"
		cat -A "$OUT"
		false
	}
	runf "$OOM_DUMP" --root "$NAMES" --format modern
	[ "$status" -eq 0 ]
	ref=$(grep -a '^\[   1187\] ' "$OUT")
	want=$(printf '%s' "$ref" | sed "s/^\[   1187\]     0  1187 /[   $pid]     0  $pid /; s/ bash\$/ /")
	grep -a -F -x -q -- "$want$raw" "$OUT"

	# On a terminal: escaped, the whole row on one line, no control byte.
	on_tty "$OOM_DUMP" --root "$NAMES"
	no_control "$OUT"
	want=$(grep -a '^\[ 1187\] ' <(tr -d '\r' <"$OUT") | sed "s/^\[ 1187\]     0  1187 /[ $pid]     0  $pid /; s/ bash\$/ /")
	tr -d '\r' <"$OUT" | grep -a -F -x -q -- "$want$esc"

	# JSON: valid, and the name decodes to the raw bytes where they are UTF-8.
	runf "$OOM_DUMP" --root "$NAMES" --format json
	[ "$status" -eq 0 ]
	no_control "$OUT"
	[ "$(jq -r ".tasks[] | select(.tgid == $pid) | .pid" "$OUT")" = "$pid" ]
	if printf '%s' "$raw" | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1; then
		[ "$(jq -j ".tasks[] | select(.tgid == $pid) | .name" "$OUT"; echo .)" = "$raw." ]
	fi

	# Prometheus: every sample line well-formed, this process in each metric once.
	runf "$OOM_DUMP" --root "$NAMES" --format prometheus
	[ "$status" -eq 0 ]
	no_control "$OUT"
	grep -v '^# \(HELP\|TYPE\) ' "$OUT" | all_match "$ROW_PROM"
	[ "$(grep -c "^oom_score{pid=\"$pid\"," "$OUT")" -eq 1 ]

	# oomtop -b: always escaped (not a kernel format), one line per process.
	runf "$OOMTOP" --root "$NAMES" -b -n 1 -p "$pid"
	[ "$status" -eq 0 ]
	no_control "$OUT"
	[ "$(grep -c "^ *$pid root " "$OUT")" -eq 1 ]
	grep -a -F -q -- " $esc" <(grep "^ *$pid root " "$OUT")

	# oomctl get: escaped into a pipe and on a terminal (not a kernel
	# format), JSON escaped; oomctl explain names it escaped.
	runf "$OOMCTL" get --root "$NAMES" --no-headers -o pid,comm "$pid"
	[ "$status" -eq 0 ]
	no_control "$OUT"
	[ "$(cat "$OUT")" = "$pid $esc" ]
	on_tty "$OOMCTL" get --root "$NAMES" --no-headers -o pid,comm "$pid"
	no_control "$OUT"
	[ "$(tr -d '\r' <"$OUT")" = "$pid $esc" ]
	runf "$OOMCTL" get --root "$NAMES" --json "$pid"
	[ "$status" -eq 0 ]
	no_control "$OUT"
	jq -e ".[0].pid == $pid" "$OUT" >/dev/null
	runf "$OOMCTL" explain --root "$NAMES" "$pid"
	[ "$status" -eq 0 ]
	no_control "$OUT"
}

@test "name with ')' and '(' inside: comm runs to the last ')'" {
	[ "$(raw_comm "$NAMES" 2001)" = "a) (b) c)" ]
	check_name 2001
}

@test "name with leading, trailing and double spaces" {
	[ "$(raw_comm "$NAMES" 2002)" = " lead  trail " ]
	check_name 2002
}

@test "name with a newline: raw in kernel formats into a pipe, escaped everywhere else" {
	[ "$(raw_comm "$NAMES" 2003)" = $'new\nline' ]
	check_name 2003
}

@test "name with printf conversions (%n %s %x %p %%) printed literally" {
	[ "$(raw_comm "$NAMES" 2004)" = '%n%s%x%p%%' ]
	check_name 2004
}

@test "name with terminal escape sequences (OSC title, clear screen, cursor home)" {
	[ "$(raw_comm "$NAMES" 2005)" = $'\e]0;pwn\a\e[2J\e[H' ]
	check_name 2005
}

@test "name with invalid UTF-8 (stray bytes, a cut sequence)" {
	[ "$(raw_comm "$NAMES" 2006)" = $'\xff\xfe\xc3(\xe2\x82' ]
	check_name 2006
}

@test "name of 15 bytes, the kernel's longest" {
	[ "$(raw_comm "$NAMES" 2007 | wc -c)" -eq 15 ]
	check_name 2007
}

@test "name with backslashes (status shows them doubled)" {
	grep -q -F 'Name:	back\\slash\\' "$NAMES/proc/2008/status"
	check_name 2008
}

@test "name with quotes, comma and braces (JSON and Prometheus label syntax)" {
	check_name 2009
}

# ---- live processes that rename themselves ------------------------------

setup_named() {
	NAMED="$BATS_TEST_TMPDIR/named"
	[ -x "$NAMED" ] || cc -O1 -o "$NAMED" "$BATS_TEST_DIRNAME/helpers/named.c"
}

teardown() {
	if [ -n "${LIVE_PID:-}" ]; then
		# The process and its children (the renamed shell's sleep), by PID.
		pkill -KILL -P "$LIVE_PID" 2>/dev/null || true
		kill -KILL "$LIVE_PID" 2>/dev/null || true
	fi
}

# live_check PID RAW: the live process PID, named RAW, in every output.
live_check() {
	local pid=$1 raw=$2 esc
	esc=$(printf '%s' "$raw" | escaped)
	[ "$(cat "/proc/$pid/comm"; echo .)" = "$raw"$'\n.' ]
	runf "$OOM_DUMP"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	grep -a -E -q "^\[ *$pid\] +[0-9]+ +$pid .* $(printf '%s' "${raw%%$'\n'*}" | sed 's/[][\.*^$(){}+?|/]/\\&/g')" "$OUT"
	runf "$OOM_DUMP" --format json
	[ "$status" -eq 0 ]
	no_control "$OUT"
	[ "$(jq -r ".tasks[] | select(.tgid == $pid) | .pid" "$OUT")" = "$pid" ]
	runf "$OOM_DUMP" --format prometheus
	[ "$status" -eq 0 ]
	no_control "$OUT"
	[ "$(grep -c "^oom_score{pid=\"$pid\"," "$OUT")" -eq 1 ]
	runf "$OOMTOP" -b -n 1 -p "$pid"
	[ "$status" -eq 0 ]
	no_control "$OUT"
	grep -a -F -q -- " $esc" <(grep "^ *$pid " "$OUT")
	on_tty "$OOMCTL" get --no-headers -o pid,comm "$pid"
	no_control "$OUT"
	[ "$(tr -d '\r' <"$OUT")" = "$pid $esc" ]
}

@test "live: a process names itself with a newline and escapes (prctl)" {
	setup_named
	LIVE_PID=$("$NAMED" $'x)\n\e[31m%n\xff' 30 &)
	live_check "$LIVE_PID" $'x)\n\e[31m%n\xff'
}

@test "live: a shell renames itself through /proc/self/comm (invalid UTF-8, ')', 15 bytes)" {
	local name=$'\xff) \xc3(\e[1m%s\\abc'
	[ "$(printf '%s' "$name" | wc -c)" -eq 15 ]
	# The subshell names itself (printf is a builtin), then waits on a child.
	LIVE_PID=$( (printf '%s' "$name" >/proc/self/comm; echo "$BASHPID"; exec >&-; exec 2>&-; sleep 30) &)
	live_check "$LIVE_PID" "$name"
}

@test "live: a name of 16 bytes is cut to 15 by the kernel (prctl)" {
	setup_named
	LIVE_PID=$("$NAMED" 'sixteen-bytes-xy' 30 &)
	live_check "$LIVE_PID" 'sixteen-bytes-x'
}

# ---- /proc files ----------------------------------------------------------

# bad_pid PID MESSAGE: the hostile-files process PID is left out of every
# dump that needs the bad file (the others still print, whole), and oomctl get
# and set fail on it with "oomctl: PID: MESSAGE", exit 1, nothing written.
bad_pid() {
	local pid=$1 msg=$2 root before f
	for f in 2.6.36 modern json prometheus; do
		runf "$OOM_DUMP" --root "$FILES" --format "$f"
		[ "$status" -eq 0 ]
		[ -z "$stderr" ]
		grep -a -q '\b1187\b' "$OUT"
	done
	runf "$OOM_DUMP" --root "$FILES"
	tail -n +2 "$OUT" | all_match "$ROW_2636"
	runf "$OOM_DUMP" --root "$FILES" --format modern
	tail -n +3 "$OUT" | all_match "$ROW_MODERN"
	runf "$OOM_DUMP" --root "$FILES" --format json
	jq -e . "$OUT" >/dev/null
	runf "$OOMTOP" --root "$FILES" -b -n 1
	[ "$status" -eq 0 ]

	runf "$OOMCTL" get --root "$FILES" "$pid" 1187
	[ "$status" -eq 1 ]
	[ "$stderr" = "oomctl: $pid: $msg" ]
	# 1187 is still shown, and $pid is not.
	grep -q '^ *1187 ' "$OUT"
	absent "^ *$pid " "$OUT"

	root=$(fixture hostile-files)
	before=$(tree_sum "$root")
	runf "$OOMCTL" set --root "$root" --score-adj 300 "$pid"
	[ "$status" -eq 1 ]
	[ "$stderr" = "oomctl: $pid: $msg" ]
	[ -z "$output" ]
	[ "$(tree_sum "$root")" = "$before" ]
}

@test "/proc file truncated: stat cut inside the comm" {
	bad_pid 3001 "its /proc files are malformed or cut short"
	# The modern table needs no stat, so there 3001 is a whole row.
	runf "$OOM_DUMP" --root "$FILES" --format modern
	grep -q '^\[   3001\] ' "$OUT"
	runf "$OOM_DUMP" --root "$FILES"
	absent '^\[ 3001\] ' "$OUT"
}

@test "/proc file empty: oom_score_adj" {
	bad_pid 3002 "its /proc files are malformed or cut short"
	runf "$OOM_DUMP" --root "$FILES" --format modern
	absent '^\[   3002\] ' "$OUT"
}

@test "/proc file with huge numbers: RssAnon past 64 bits, vsize at ULONG_MAX" {
	bad_pid 3003 "its /proc files are malformed or cut short"
	runf "$OOM_DUMP" --root "$FILES" --format json
	[ "$(jq '[.tasks[] | select(.pid == 3003)] | length' "$OUT")" -eq 0 ]
}

@test "/proc file with huge numbers: oom_score_adj 99999999999999999999" {
	bad_pid 3008 "its /proc files are malformed or cut short"
}

@test "/proc file with a missing field: status without RssAnon/RssFile/RssShmem" {
	# Documented choice of the library: a missing Rss* line counts as 0 (the
	# 2.6.36 kernel had no such lines at all); the row stays whole.
	runf "$OOM_DUMP" --root "$FILES"
	[ "$status" -eq 0 ]
	grep -q '^\[ 3004\]     0  3004     1314        0 ' "$OUT"
	tail -n +2 "$OUT" | all_match "$ROW_2636"
}

@test "/proc file not a number: oom_score_adj '5x'" {
	bad_pid 3005 "its /proc files are malformed or cut short"
}

@test "/proc file truncated: status cut mid-line, no final newline" {
	bad_pid 3006 "its /proc files are malformed or cut short"
}

@test "/proc file with an overlong comm (4096 bytes in stat): a whole row, no overflow" {
	runf "$OOM_DUMP" --root "$FILES"
	[ "$status" -eq 0 ]
	grep -E -q '^\[ 3007\]     0  3007 .* A+$' "$OUT"
	runf "$OOMCTL" get --root "$FILES" --no-headers -o pid,comm 3007
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^3007\ A+$ ]]
}

@test "/proc file empty: stat of a process that exited between reads" {
	bad_pid 3009 "its /proc files are malformed or cut short"
}

@test "/proc file with a 64 KiB line: status Name" {
	runf "$OOM_DUMP" --root "$FILES" --format modern
	[ "$status" -eq 0 ]
	grep -E -q '^\[   3010\] .* N+$' "$OUT"
	tail -n +3 "$OUT" | all_match "$ROW_MODERN"
}

@test "/proc file with a negative size: RssFile -4 kB" {
	bad_pid 3011 "its /proc files are malformed or cut short"
}

@test "/proc files malformed: oomctl explain says so, as get and set do (exit 1)" {
	local pid bad=()
	for pid in 3001 3002 3003 3005 3006 3009 3011; do
		runf "$OOMCTL" explain --root "$FILES" "$pid"
		[ "$status" -eq 1 ]
		[ -z "$output" ]
		[ "$stderr" = "oomctl: $pid: its /proc files are malformed or cut short" ] || bad+=("$stderr")
	done
	printf '%s\n' "${bad[@]}"
	[ "${#bad[@]}" -eq 0 ]
}

@test "/proc file unreadable (mode 000, read as nobody): a clear permission message" {
	command -v setpriv >/dev/null || skip "setpriv not installed"
	local dir root before
	dir=$(mktemp -d /tmp/liboom-hostile.XXXXXX)
	chmod 755 "$dir"
	cp -a "$FILES" "$dir/root"
	cp "$OOM_DUMP" "$OOMCTL" "$dir/"
	chmod -R a+rX "$dir"
	root="$dir/root"
	chmod 000 "$root/proc/1187/status"
	before=$(tree_sum "$root")
	runf setpriv --reuid=65534 --regid=65534 --clear-groups "$dir/oomctl" get --root "$root" 1187
	[ "$status" -eq 1 ]
	[ "$stderr" = "oomctl: 1187: Permission denied" ]
	runf setpriv --reuid=65534 --regid=65534 --clear-groups "$dir/oom-dump" --root "$root"
	[ "$status" -eq 0 ]
	absent '^\[ 1187\]' "$OUT"
	tail -n +2 "$OUT" | all_match "$ROW_2636"
	runf setpriv --reuid=65534 --regid=65534 --clear-groups "$dir/oomctl" set --root "$root" --score-adj 5 1187
	[ "$status" -eq 1 ]
	[ "$stderr" = "oomctl: 1187: Permission denied" ]
	[ "$(tree_sum "$root")" = "$before" ]
	rm -rf "$dir"
}

# symlink_pid PID: a PID directory that is a symlink is no process: skipped by
# dumps, "no such process" (exit 1) for get, set and explain, nothing written.
symlink_pid() {
	local pid=$1 root before
	runf "$OOM_DUMP" --root "$FILES"
	[ "$status" -eq 0 ]
	absent "^\[ *$pid\]" "$OUT"
	runf "$OOMCTL" explain --root "$FILES" "$pid"
	[ "$status" -eq 1 ]
	[ "$stderr" = "oomctl: $pid: no such process" ]
	root=$(fixture hostile-files)
	before=$(tree_sum "$root")
	runf "$OOMCTL" set --root "$root" --score-adj 300 "$pid"
	[ "$status" -eq 1 ]
	[ "$(tree_sum "$root")" = "$before" ]
	runf "$OOMCTL" get --root "$FILES" "$pid"
	[ "$status" -eq 1 ]
	[ "$stderr" = "oomctl: $pid: no such process" ]
}

@test "PID directory that is a dangling symlink" {
	[ -L "$FILES/proc/3100" ]
	[ ! -e "$FILES/proc/3100" ]
	symlink_pid 3100
}

@test "PID directory that is a symlink to another PID inside the root" {
	[ -L "$FILES/proc/3101" ]
	symlink_pid 3101
}

@test "PID directory that is a symlink out of the root (/proc/self, ../../outside)" {
	[ "$(readlink "$FILES/proc/3102")" = /proc/self ]
	symlink_pid 3102
	symlink_pid 3103
}

# ---- command-line values -----------------------------------------------------
# Policy (tests/README, "Hostile input table"): every integer option and
# argument is decimal only, with an optional sign; no blanks, no 0x, no octal
# (010 is ten, unlike the kernel's own oom_score_adj parser), no trailing junk;
# out of range is an error, never clamped. A bad value is exit 2 with
# "TOOL: ..." naming the value or the range, and nothing is read or written.

# value_cmds: one command per line (words separated by \x1f, so that '' stays a
# word) taking the value @V somewhere. @R is a fixture copy (written to), @B the
# read-only basic tree.
value_cmds() {
	local v=@V t=$'\x1f'
	cat <<LIST
oomctl${t}set${t}--root${t}@R${t}--score-adj${t}$v${t}1187
oomctl${t}set${t}--root${t}@R${t}--by${t}$v${t}1187
oomctl${t}set${t}--root${t}@R${t}--adj${t}$v${t}1187
oomctl${t}convert${t}--score-adj${t}$v
oomctl${t}convert${t}--adj${t}$v
oomctl${t}get${t}--root${t}@B${t}--${t}$v
oomctl${t}explain${t}--root${t}@B${t}--${t}$v
oomctl${t}victim${t}--root${t}@B${t}--task${t}$v
oomctl${t}victim${t}--root${t}@B${t}--what-if${t}1187=$v
oomctl${t}sysctl${t}--root${t}@R${t}vm.oom_forkbomb_thres=$v
oom-dump${t}--root${t}@B${t}-n${t}$v
oom-dump${t}--root${t}@B${t}--task${t}$v
oom-dump${t}--root${t}@B${t}--cpuset-of${t}$v
oomtop${t}--root${t}@B${t}-b${t}-n${t}$v
oomtop${t}--root${t}@B${t}-b${t}-n${t}1${t}-d${t}$v
oomtop${t}--root${t}@B${t}-b${t}-n${t}1${t}-p${t}$v
LIST
}

# run_value_cmd LINE ROOT V: runs one line of value_cmds (via runf) with V for @V.
run_value_cmd() {
	local -a w
	local i
	mapfile -t w < <(printf '%s\n' "$1" | tr '\037' '\n')
	for i in "${!w[@]}"; do
		case ${w[$i]} in
		@R) w[$i]=$2 ;;
		@B) w[$i]=$FIXTURES/basic ;;
		*) w[$i]=${w[$i]//@V/$3} ;;
		esac
	done
	w[0]="$OOM_TOOLS_DIR/${w[0]}"
	runf "${w[@]}"
}

# rejected V [ACCEPTED_PATTERN]: every command refuses V with exit 2, a
# one-line message, no output, nothing written. Commands matching the
# pattern are known to accept V (a reported bug): the test is then skipped.
rejected() {
	local v=$1 line root before bad=() buggy=()
	root=$(fixture basic)
	before=$(tree_sum "$root")
	while IFS= read -r line; do
		run_value_cmd "$line" "$root" "$v"
		if [ "$status" -ne 2 ] || [ -n "$output" ] ||
			! [[ "$stderr" == oom*": "*"'$v'"* || "$stderr" == oom*" must be between "* ||
				"$stderr" == oom*"invalid delay '$v'"* || "$stderr" == "oomtop: -p needs at least one PID"* ]]; then
			# shellcheck disable=SC2053 # $2 is a glob pattern
			if [ -n "${2:-}" ] && [[ "$line" == $2 ]]; then
				buggy+=("$line")
			else
				bad+=("$(printf '%s => exit %s, stdout %q, stderr %q' "${line//$'\x1f'/ }" "$status" "${output:0:60}" "$stderr")")
			fi
		fi
	done < <(value_cmds)
	[ "$(tree_sum "$root")" = "$before" ]
	if [ "${#bad[@]}" -gt 0 ]; then
		printf '%s\n' "${bad[@]}"
		return 1
	fi
	if [ "${#buggy[@]}" -gt 0 ]; then
		printf 'accepted: %s\n' "${buggy[@]}"
		return 1
	fi
}

@test "value '': not a number (exit 2), nothing written" {
	rejected ''
}

@test "value ' 5': leading blank refused (exit 2), nothing written" {
	rejected ' 5'
}

@test "value '5x': trailing junk refused (exit 2), nothing written" {
	rejected '5x'
}

@test "value '5<newline>': a trailing newline (the kernel's files allow one) refused (exit 2)" {
	rejected $'5\n'
}

@test "value '0x10': hexadecimal refused (exit 2), nothing written" {
	rejected '0x10'
}

@test "value '99999999999999999999': out of range (exit 2), nothing written" {
	rejected '99999999999999999999'
}

@test "value '-0': zero where zero is valid, out of range for PIDs and counts" {
	local root
	root=$(fixture basic)
	run --separate-stderr "$OOMCTL" set --root "$root" --score-adj 300 1187
	[ "$status" -eq 0 ]
	run --separate-stderr "$OOMCTL" set --root "$root" --score-adj -0 1187
	[ "$status" -eq 0 ]
	[ "$(cat "$root/proc/1187/oom_score_adj")" = 0 ]
	run --separate-stderr "$OOMCTL" set --root "$root" --by -0 1187
	[ "$status" -eq 0 ]
	[ "$(cat "$root/proc/1187/oom_score_adj")" = 0 ]
	run --separate-stderr "$OOMCTL" convert --adj -0
	[ "$status" -eq 0 ]
	[ "$output" = 0 ]
	run --separate-stderr "$OOMCTL" sysctl --root "$root" vm.oom_forkbomb_thres=-0
	[ "$status" -eq 0 ]
	[ "$(cat "$root/var/lib/liboom/vm.oom_forkbomb_thres")" = 0 ]
	run --separate-stderr "$OOMCTL" get --root "$root" -- -0
	[ "$status" -eq 2 ]
	[ "$stderr" = "oomctl: PID must be between 1 and 2147483647" ]
	run --separate-stderr "$OOM_DUMP" --root "$root" -n -0
	[ "$status" -eq 2 ]
	[ "$stderr" = "oom-dump: -n must be between 1 and 1000000000" ]
	run --separate-stderr "$OOMTOP" --root "$root" -b -n -0
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	run --separate-stderr "$OOMTOP" --root "$root" -b -n 1 -d -0
	[ "$status" -eq 2 ]
	[ -z "$output" ]
}

@test "value '+5': an explicit plus sign is five everywhere" {
	local root
	root=$(fixture basic)
	run --separate-stderr "$OOMCTL" set --root "$root" --score-adj +5 1187
	[ "$status" -eq 0 ]
	[ "$(cat "$root/proc/1187/oom_score_adj")" = 5 ]
	run --separate-stderr "$OOMCTL" set --root "$root" --by +5 1187
	[ "$status" -eq 0 ]
	[ "$(cat "$root/proc/1187/oom_score_adj")" = 10 ]
	run --separate-stderr "$OOMCTL" convert --adj +5
	[ "$output" = $((5 * 1000 / 17)) ]
	run --separate-stderr "$OOMCTL" sysctl --root "$root" vm.oom_forkbomb_thres=+5
	[ "$status" -eq 0 ]
	[ "$(cat "$root/var/lib/liboom/vm.oom_forkbomb_thres")" = 5 ]
	run --separate-stderr "$OOMCTL" get --root "$root" +5
	[ "$status" -eq 1 ]
	[ "$stderr" = "oomctl: 5: no such process" ]
	run --separate-stderr "$OOM_DUMP" --root "$root" -f json -n +5
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | jq '.tasks | length')" -eq 5 ]
	run --separate-stderr "$OOMTOP" --root "$root" -b -n 1 -d +5 -p +1187
	[ "$status" -eq 0 ]
	[[ "$output" == *"delay 5s"* ]]
}

@test "value '010': decimal ten, not octal eight (unlike the kernel's parser)" {
	local root
	root=$(fixture basic)
	run --separate-stderr "$OOMCTL" set --root "$root" --score-adj 010 1187
	[ "$status" -eq 0 ]
	[ "$(cat "$root/proc/1187/oom_score_adj")" = 10 ]
	run --separate-stderr "$OOMCTL" convert --adj 010
	[ "$output" = $((10 * 1000 / 17)) ]
	run --separate-stderr "$OOMCTL" get --root "$root" 010
	[ "$status" -eq 1 ]
	[ "$stderr" = "oomctl: 10: no such process" ]
	run --separate-stderr "$OOMTOP" --root "$root" -b -n 1 -d 010
	[ "$status" -eq 0 ]
	[[ "$output" == *"delay 10s"* ]]
}

@test "'--' tricks: option-like values and arguments, nothing written" {
	local root before
	root=$(fixture basic)
	before=$(tree_sum "$root")
	# --score-adj takes the next word, even "--": not a number.
	run --separate-stderr "$OOMCTL" set --root "$root" --score-adj -- 1187
	[ "$status" -eq 2 ]
	[ "$stderr" = "oomctl: oom_score_adj: '--' is not a number" ]
	# After "--", options are PIDs and must be numbers.
	run --separate-stderr "$OOMCTL" set --root "$root" --score-adj 5 1187 -- --adj
	[ "$status" -eq 2 ]
	[ "$stderr" = "oomctl: PID: '--adj' is not a number" ]
	run --separate-stderr "$OOMCTL" set --root "$root" --score-adj 5 -- -1187
	[ "$status" -eq 2 ]
	[ "$stderr" = "oomctl: PID must be between 1 and 2147483647" ]
	run --separate-stderr "$OOMCTL" get --root "$root" -- 1187 --json
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "oomctl: PID: '--json' is not a number" ]
	# Without "--", "-0" and "-5" are options, and unknown ones.
	run --separate-stderr "$OOMCTL" get --root "$root" -5
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "oomctl get: invalid option -- '5'" ]
	run --separate-stderr "$OOMCTL" sysctl --root "$root" -- -n
	[ "$status" -eq 2 ]
	[[ "$stderr" == "oomctl: unknown sysctl '-n' "* ]]
	run --separate-stderr "$OOMCTL" run --score-adj 5 --
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "oomctl run: no command given" ]
	# After "--", run's command is taken literally, even "--help" (exit 127 as env(1)).
	run -127 --separate-stderr "$OOMCTL" run --score-adj 5 -- --help
	[ "$stderr" = "oomctl: --help: No such file or directory" ]
	[ "$(tree_sum "$root")" = "$before" ]
}

# ---- sysctl values ---------------------------------------------------------------

@test "sysctl values out of range: exit 2, nothing written, not even the valid ones before" {
	local root before v
	root=$(fixture basic)
	before=$(tree_sum "$root")
	for v in vm.panic_on_oom=3 vm.panic_on_oom=-1 vm.oom_dump_tasks=2 vm.oom_kill_allocating_task=2 \
		vm.oom_kill_allocating_task=-1 vm.oom_forkbomb_thres=-1 vm.oom_forkbomb_thres=2147483648; do
		runf "$OOMCTL" sysctl --root "$root" vm.panic_on_oom=1 vm.oom_forkbomb_thres=7 "$v"
		[ "$status" -eq 2 ]
		[ -z "$output" ]
		[[ "$stderr" =~ ^oomctl:\ ${v%%=*}\ must\ be\ between\ -?[0-9]+\ and\ [0-9]+$ ]]
	done
	for v in vm.panic_on_oom= vm.panic_on_oom=1x "vm.panic_on_oom= 1" vm.panic_on_oom=0x1 vm.panic_on_oom==1 =1 vm.nope=1; do
		runf "$OOMCTL" sysctl --root "$root" vm.oom_dump_tasks=0 "$v"
		[ "$status" -eq 2 ]
		[ -z "$output" ]
		[[ "$stderr" == oomctl:\ * ]]
	done
	[ "$(tree_sum "$root")" = "$before" ]
}

@test "sysctl files that hold garbage or an out-of-range value are reported, not used" {
	local root v
	root=$(fixture basic)
	for v in abc '' 99999999999999999999 ' 1'; do
		printf '%s\n' "$v" >"$root/proc/sys/vm/panic_on_oom"
		runf "$OOMCTL" sysctl --root "$root" vm.panic_on_oom
		[ "$status" -eq 1 ]
		[ -z "$output" ]
		[[ "$stderr" == "oomctl: vm.panic_on_oom: "* ]]
		runf "$OOMCTL" victim --root "$root"
		[ "$status" -eq 1 ]
		[[ "$stderr" == "oomctl: vm.panic_on_oom: "* ]]
	done
	printf '7\n' >"$root/proc/sys/vm/panic_on_oom"
	runf "$OOMCTL" victim --root "$root"
	[ "$status" -eq 1 ]
	[[ "$stderr" == "oomctl: vm.panic_on_oom: "* ]]
}
