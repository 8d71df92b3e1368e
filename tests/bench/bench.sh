#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# make bench: liboom's tools against ps, top and a floor scanner, at N idle
# processes (issue 9). Never a test: it prints numbers and pass/fail marks.
#
# Usage: tests/bench/bench.sh [-q] [-n N,N...] [-r REPS] [-c NAME,NAME...] [-S] [-o DIR]
#   -n  idle process counts (default 1000,10000)
#   -r  measured rounds per N (default 11); every round runs each command once, in turn
#   -c  commands to run (default all; ps and the floors are always added for the ratios)
#   -S  skip the strace syscall counts
#   -q  quick smoke run: -n 300 -r 3
#   -o  result directory (default build/bench/results)
# Environment: BENCH_BIN (default build/bench) holds spawn, floor and run.
set -u -o pipefail

TOP="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$TOP" || exit 1
BIN="${BENCH_BIN:-$TOP/build/bench}"
NS="1000,10000"
REPS=11
ONLY=""
STRACE=1
OUT="$TOP/build/bench/results"

while getopts "qn:r:c:So:h" opt; do
	case $opt in
	q) NS=300; REPS=3 ;;
	n) NS=$OPTARG ;;
	r) REPS=$OPTARG ;;
	c) ONLY=$OPTARG ;;
	S) STRACE=0 ;;
	o) OUT=$OPTARG ;;
	*) sed -n '6,13s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
	esac
done
NS=${NS//,/ }
for n in $NS; do
	[[ $n =~ ^[0-9]+$ ]] || { echo "bench: bad N '$n'" >&2; exit 2; }
done
[[ $REPS =~ ^[1-9][0-9]*$ ]] || { echo "bench: bad REPS '$REPS'" >&2; exit 2; }
for b in spawn floor run; do
	[ -x "$BIN/$b" ] || { echo "bench: $BIN/$b missing (run make bench)" >&2; exit 1; }
done
mkdir -p "$OUT" || exit 1
rm -f "$OUT"/*

# name|command: the order is the order of every round.
ALL_CMDS=(
	"ps|ps -e -o pid,uid,tgid,vsz,rss,psr,comm"
	"top|top -b -n 1"
	"floor-status|$BIN/floor status"
	"floor-stat|$BIN/floor stat"
	"oom-dump-2636|tools/oom-dump"
	"oom-dump-modern|tools/oom-dump --format modern"
	"oom-dump-json-rw|tools/oom-dump --format json --heuristic rewrite"
	"oomctl-victim|tools/oomctl victim"
	"oomtop-b|tools/oomtop -b -n 1"
)
# The floor each command is held to (the files its output needs at least).
declare -A FLOOR=(
	[oom-dump-2636]=floor-stat [oom-dump-modern]=floor-status [oom-dump-json-rw]=floor-status
	[oomctl-victim]=floor-status [oomtop-b]=floor-stat [ps]=floor-stat [top]=floor-stat
)

wanted() {
	[ -z "$ONLY" ] && return 0
	case "$1" in ps | top | floor-status | floor-stat) return 0 ;; esac
	[[ ",$ONLY," == *",$1,"* ]]
}

# Probe each command on the live system first: a tool or option still being
# written is skipped with a note instead of failing the run.
NAMES=()
declare -A CMD
NOTES=()
for e in "${ALL_CMDS[@]}"; do
	name=${e%%|*} cmd=${e#*|}
	wanted "$name" || continue
	exe=${cmd%% *}
	if ! command -v "$exe" >/dev/null 2>&1; then
		NOTES+=("$name: skipped, $exe does not exist")
		continue
	fi
	# shellcheck disable=SC2086 # split on spaces on purpose
	err=$(timeout 60 $cmd 2>&1 >/dev/null)
	rc=$?
	if [ $rc -ne 0 ]; then
		NOTES+=("$name: skipped, '$cmd' exits $rc: $(printf '%s' "$err" | head -n 1)")
		continue
	fi
	NAMES+=("$name")
	CMD[$name]=$cmd
done

SPAWN_PID=""
SPAWN_PGID=""
stop_spawn() {
	[ -n "$SPAWN_PGID" ] && kill -TERM -- "-$SPAWN_PGID" 2>/dev/null
	if [ -n "$SPAWN_PID" ]; then
		# The helper reaps its children, then exits; KILL the group if it hangs.
		for _ in $(seq 100); do kill -0 "$SPAWN_PID" 2>/dev/null || break; sleep 0.1; done
		kill -0 "$SPAWN_PID" 2>/dev/null && kill -KILL -- "-$SPAWN_PGID" 2>/dev/null
		wait "$SPAWN_PID" 2>/dev/null
	fi
	SPAWN_PID="" SPAWN_PGID=""
}
trap 'stop_spawn' EXIT
trap 'stop_spawn; exit 130' INT TERM

count_procs() {
	local p=(/proc/[0-9]*)
	echo ${#p[@]}
}

echo "bench: $(uname -r), $(nproc) CPUs, N = $NS, $REPS rounds, results in $OUT"
for n in $NS; do
	"$BIN/spawn" "$n" >"$OUT/spawn.$n" &
	SPAWN_PID=$!
	for _ in $(seq 1200); do
		grep -q '^ready' "$OUT/spawn.$n" 2>/dev/null && break
		kill -0 "$SPAWN_PID" 2>/dev/null || break
		sleep 0.1
	done
	if ! grep -q '^ready' "$OUT/spawn.$n"; then
		echo "bench: could not spawn $n processes (ulimit -u $(ulimit -u), pid_max" \
			"$(cat /proc/sys/kernel/pid_max), threads-max $(cat /proc/sys/kernel/threads-max))" >&2
		exit 1
	fi
	SPAWN_PGID=$(awk '{print $2}' "$OUT/spawn.$n")
	p0=$(count_procs)
	echo "N=$n: $p0 processes; $REPS rounds of: ${NAMES[*]}"
	args=()
	for name in "${NAMES[@]}"; do
		[ ${#args[@]} -gt 0 ] && args+=("::")
		# shellcheck disable=SC2206 # the commands are split on spaces on purpose
		args+=("$name" ${CMD[$name]})
	done
	"$BIN/run" -r "$REPS" -w 1 -o "$OUT/raw.$n" "${args[@]}" >"$OUT/median.$n" || exit 1
	if [ "$STRACE" = 1 ]; then
		for name in "${NAMES[@]}"; do
			# shellcheck disable=SC2086
			strace -c -f -o "$OUT/strace.$n.$name" ${CMD[$name]} >/dev/null 2>&1
		done
	fi
	p1=$(count_procs)
	echo $(((p0 + p1) / 2)) >"$OUT/procs.$n"
	stop_spawn
done

# ---- the tables ------------------------------------------------------------
# Per N: medians, ratios to ps and to the matching floor, syscalls per process.
{
	echo "Machine: $(nproc) CPUs, kernel $(uname -r), $(date -u +%Y-%m-%d)."
	echo "Medians of $REPS alternated rounds; RSS is the largest of the rounds; ratios are of medians."
	for n in $NS; do
		procs=$(cat "$OUT/procs.$n")
		echo
		echo "N = $n idle processes ($procs in /proc):"
		echo
		echo "| command | wall ms | CPU ms | RSS MiB | µs/proc | syscalls/proc | × ps wall | × floor wall | × top CPU | target | ok |"
		echo "|---|--:|--:|--:|--:|--:|--:|--:|--:|---|---|"
		for name in "${NAMES[@]}"; do
			f=${FLOOR[$name]:-}
			calls=""
			if [ -f "$OUT/strace.$n.$name" ]; then
				calls=$(awk '$NF == "total" { print $4 }' "$OUT/strace.$n.$name")
			fi
			awk -v name="$name" -v floor="$f" -v procs="$procs" -v calls="$calls" -F'\t' '
				{ wall[$1] = $4; cpu[$1] = $5; rss[$1] = $8; fails[$1] = $3 }
				function r(a, b) { return b > 0 ? sprintf("%.2f", a / b) : "" }
				END {
					w = wall[name]; c = cpu[name]
					xps = r(w, wall["ps"]); xfl = floor != "" ? r(w, wall[floor]) : ""
					xtop = r(c, cpu["top"])
					tgt = ""; ok = 1; tool = name ~ /^oom/
					if (name == "oom-dump-modern") {
						tgt = "≤0.45 ps, ≤1.15 floor"; ok = xps + 0 <= 0.45 && xfl + 0 <= 1.15
					} else if (name == "oom-dump-2636") {
						tgt = "≤0.75 ps, ≤1.15 floor"; ok = xps + 0 <= 0.75 && xfl + 0 <= 1.15
					} else if (name == "oom-dump-json-rw" || name == "oomctl-victim") {
						tgt = "≤0.85 ps"; ok = xps + 0 <= 0.85
					} else if (name == "oomtop-b") {
						tgt = "CPU ≤0.5 top"; ok = xtop + 0 <= 0.5
					}
					if (tool) {
						tgt = tgt (tgt != "" ? ", " : "") "RSS <8 MiB"
						ok = ok && rss[name] < 8192
					}
					if (fails[name] > 0)
						tgt = tgt " (" fails[name] " runs failed)"
					printf "| %s | %.1f | %.1f | %.1f | %.1f | %s | %s | %s | %s | %s | %s |\n",
						name, w / 1000, c / 1000, rss[name] / 1024, w / procs,
						calls != "" ? sprintf("%.1f", calls / procs) : "-",
						name == "ps" ? "1.00" : xps, xfl, name == "top" || name == "oomtop-b" ? xtop : "",
						tgt, tool ? (ok ? "pass" : "FAIL") : ""
				}' "$OUT/median.$n"
		done
	done

	# Linearity: wall per process at the largest N against the smallest.
	# shellcheck disable=SC2086
	set -- $NS
	if [ $# -ge 2 ]; then
		lo=$1 hi=${!#}
		plo=$(cat "$OUT/procs.$lo") phi=$(cat "$OUT/procs.$hi")
		echo
		echo "Linearity: wall µs per process at $hi against $lo (target ≤1.2 for the tools):"
		echo
		echo "| command | µs/proc at $lo | µs/proc at $hi | ratio | ok |"
		echo "|---|--:|--:|--:|---|"
		for name in "${NAMES[@]}"; do
			a=$(awk -F'\t' -v k="$name" '$1 == k { print $4 }' "$OUT/median.$lo")
			b=$(awk -F'\t' -v k="$name" '$1 == k { print $4 }' "$OUT/median.$hi")
			awk -v name="$name" -v a="$a" -v b="$b" -v pa="$plo" -v pb="$phi" 'BEGIN {
				x = a / pa; y = b / pb; q = y / x
				printf "| %s | %.1f | %.1f | %.2f | %s |\n", name, x, y, q,
					name ~ /^oom/ ? (q <= 1.2 ? "pass" : "FAIL") : ""
			}'
		done
	fi

	# Where the syscalls go, per process, at the largest N.
	if [ "$STRACE" = 1 ]; then
		# shellcheck disable=SC2086
		set -- $NS
		hi=${!#}
		procs=$(cat "$OUT/procs.$hi")
		echo
		echo "Syscalls per process at N = $hi (strace -c -f):"
		echo
		echo "| command | openat | openat2 | read | pread64 | close | getdents64 | other | total |"
		echo "|---|--:|--:|--:|--:|--:|--:|--:|--:|"
		for name in "${NAMES[@]}"; do
			[ -f "$OUT/strace.$hi.$name" ] || continue
			awk -v name="$name" -v procs="$procs" '
				/^-/ || /^%/ || NF < 5 { next }
				$NF == "total" { total = $4; next }
				{ c[$NF] += $4 }
				END {
					o = total - c["openat"] - c["openat2"] - c["read"] - c["pread64"] - c["close"] - c["getdents64"]
					printf "| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", name,
						c["openat"] / procs, c["openat2"] / procs, c["read"] / procs, c["pread64"] / procs,
						c["close"] / procs, c["getdents64"] / procs, o / procs, total / procs
				}' "$OUT/strace.$hi.$name"
		done
	fi
	if [ ${#NOTES[@]} -gt 0 ]; then
		echo
		printf 'Note: %s\n' "${NOTES[@]}"
	fi
} | tee "$OUT/table.md"
