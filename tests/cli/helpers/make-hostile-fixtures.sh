#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# make-hostile-fixtures.sh: (re)creates tests/fixtures/hostile-names/ and
# tests/fixtures/hostile-files/ from tests/fixtures/basic/. Every hostile
# process is a copy of basic's 1187 (bash) with its own PID in stat and status
# and one thing changed, so its row must equal 1187's but for that thing.
# Run from the top of the tree; the output is committed.
set -eu
B=tests/fixtures/basic

# base DST: a root with init and 1187 only, and basic's system-wide files.
base() {
	rm -rf "$1"
	mkdir -p "$1/proc"
	cp -a "$B/sys" "$1/"
	cp -a "$B/proc/meminfo" "$B/proc/uptime" "$B/proc/sys" "$B/proc/1" "$B/proc/1187" "$1/proc/"
}

# clone ROOT PID: proc/PID as a copy of 1187 with PID in stat and status.
clone() {
	local d="$1/proc/$2"
	cp -a "$B/proc/1187" "$d"
	sed -i "1s/^1187 /$2 /" "$d/stat"
	sed -i "s/^\(Tgid\|Pid\|NStgid\|NSpid\):\t1187\$/\1:\t$2/" "$d/status"
}

# rename ROOT PID RAW STATUS_NAME: comm RAW in stat, the Name: line as the
# kernel escapes it (only '\n' and '\\'; every other byte raw).
rename() {
	local d="$1/proc/$2" raw=$3 esc=$4
	{
		printf '%s (%s)' "$2" "$raw"
		sed '1s/^[0-9]* (bash)//' "$d/stat"
	} >"$d/stat.new"
	mv "$d/stat.new" "$d/stat"
	awk -v n="$esc" 'NR == 1 { print "Name:\t" n; next } { print }' "$d/status" >"$d/status.new"
	mv "$d/status.new" "$d/status"
}

N=tests/fixtures/hostile-names
base "$N"
i=2001
while IFS='|' read -r raw esc; do
	raw=$(printf '%b' "$raw")
	esc=$(printf '%b' "$esc")
	clone "$N" $i
	rename "$N" $i "$raw" "$esc"
	i=$((i + 1))
done <<'LIST'
a) (b) c)|a) (b) c)
 lead  trail |\x20lead  trail\x20
new\nline|new\\\\nline
%n%s%x%p%%|%n%s%x%p%%
\e]0;pwn\a\e[2J\e[H|\e]0;pwn\a\e[2J\e[H
\xff\xfe\xc3(\xe2\x82|\xff\xfe\xc3(\xe2\x82
fifteen-bytes-x|fifteen-bytes-x
back\\slash\\|back\\\\\\\\slash\\\\\\\\
"q",{x="y"}|"q",{x="y"}
LIST

F=tests/fixtures/hostile-files
base "$F"
for p in 3001 3002 3003 3004 3005 3006 3007 3008 3009 3010 3011; do
	clone "$F" $p
done
# 3001: stat cut inside the comm (no closing parenthesis).
printf '3001 (ba' >"$F/proc/3001/stat"
# 3002: oom_score_adj empty.
: >"$F/proc/3002/oom_score_adj"
# 3003: huge numbers: RssAnon past 64 bits, vsize at ULONG_MAX.
sed -i 's/^RssAnon:.*/RssAnon:\t99999999999999999999999 kB/' "$F/proc/3003/status"
sed -i 's/^\(3003 ([^)]*) \([^ ]* \)\{20\}\)[0-9]*/\118446744073709551615/' "$F/proc/3003/stat"
# 3004: status without the Rss* lines (missing fields).
sed -i '/^Rss/d' "$F/proc/3004/status"
# 3005: oom_score_adj not a number.
printf '5x\n' >"$F/proc/3005/oom_score_adj"
# 3006: status cut in the middle of a line, no newline at the end.
head -c 300 "$B/proc/1187/status" | sed "s/1187/3006/g" >"$F/proc/3006/status"
# 3007: a comm of 4096 bytes in stat (a kernel never writes more than 15).
{
	printf '3007 ('
	head -c 4096 /dev/zero | tr '\0' A
	sed '1s/^[0-9]* (bash)/)/' "$B/proc/1187/stat"
} >"$F/proc/3007/stat"
# 3008: oom_score_adj out of range with a huge value.
printf '99999999999999999999\n' >"$F/proc/3008/oom_score_adj"
# 3009: stat empty, status fine (a process that exited between reads).
: >"$F/proc/3009/stat"
# 3010: status with a 64 KiB Name: line.
{
	printf 'Name:\t'
	head -c 65536 /dev/zero | tr '\0' N
	printf '\n'
	tail -n +2 "$F/proc/3010/status"
} >"$F/proc/3010/status.new"
mv "$F/proc/3010/status.new" "$F/proc/3010/status"
# 3011: negative numbers where only unsigned ones belong.
sed -i 's/^RssFile:.*/RssFile:\t-4 kB/' "$F/proc/3011/status"
# Symlinks where PID directories belong: dangling, inside the root, out of it.
ln -s 4999 "$F/proc/3100"
ln -s 1187 "$F/proc/3101"
ln -s /proc/self "$F/proc/3102"
ln -s ../../outside "$F/proc/3103"
