#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# make bench: liboom's tools against ps, top and floor scanners at N idle
# processes (issue 9). Never a test: it prints numbers and pass/fail marks.
#
# Usage: tests/bench/bench.sh [-q] [-n N,N...] [-r ROUNDS] [-c NAME,...] [-S] [-P] [-t SEC] [-o DIR]
#   -n  idle process counts (default 1000,10000)
#   -r  measured rounds per N (default 15); a round runs every command once, in turn
#   -c  tools to run (default all: oom-dump-2636, oom-dump-modern, oom-dump-json-rw,
#       oom-dump-prom, oomctl-victim, oomtop-b); ps, top and the floors always run
#   -S  skip the strace syscall counts
#   -P  no SCHED_FIFO: by default the runs are under chrt -f 10 when allowed, which
#       shields them from other (CFS) load on the machine
#   -t  kill a run after SEC seconds (default 120)
#   -q  quick smoke run: -n 300 -r 3
#   -o  result directory (default build/bench/results)
# Environment: BENCH_BIN (default build/bench) holds spawn, floor and run.
set -u -o pipefail

TOP="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$TOP" || exit 1
BIN="${BENCH_BIN:-$TOP/build/bench}"
NS="1000,10000"
REPS=15
ONLY=""
STRACE=1
RT=1
TIMEOUT=120
OUT="$TOP/build/bench/results"

usage() {
	sed -n '6,17s/^# \{0,1\}//p' "$0" >&2
	exit "${1:-2}"
}

while getopts "qn:r:c:SPt:o:h" opt; do
	case $opt in
	q) NS=300 REPS=3 ;;
	n) NS=$OPTARG ;;
	r) REPS=$OPTARG ;;
	c) ONLY=$OPTARG ;;
	S) STRACE=0 ;;
	P) RT=0 ;;
	t) TIMEOUT=$OPTARG ;;
	o) OUT=$OPTARG ;;
	h) usage 0 ;;
	*) usage ;;
	esac
done
[ $OPTIND -gt $# ] || usage
NS=${NS//,/ }
for n in $NS; do
	[[ $n =~ ^[0-9]+$ ]] || { echo "bench: bad N '$n'" >&2; exit 2; }
done
[[ $REPS =~ ^[1-9][0-9]*$ ]] || { echo "bench: bad ROUNDS '$REPS'" >&2; exit 2; }
[[ $TIMEOUT =~ ^[1-9][0-9]*$ ]] || { echo "bench: bad SEC '$TIMEOUT'" >&2; exit 2; }
for b in spawn floor run; do
	[ -x "$BIN/$b" ] || { echo "bench: $BIN/$b missing (run make bench)" >&2; exit 1; }
done
[ "$STRACE" = 0 ] || command -v strace >/dev/null || { echo "bench: strace missing (or use -S)" >&2; exit 1; }
mkdir -p "$OUT" || exit 1
# Only our own files: -o may name a directory that holds others.
rm -f "$OUT"/spawn.* "$OUT"/raw.* "$OUT"/median.* "$OUT"/calls.* "$OUT"/strace.* "$OUT"/procs.* \
	"$OUT"/load.* "$OUT"/table.md

# name|command, in the order of every round. The -lib floors do what the
# floors do plus what liboom's reader does on top (openat2, a read to EOF),
# which splits a tool's loss into syscall pattern and user-space work.
ALL_CMDS=(
	"ps|ps -e -o pid,uid,tgid,vsz,rss,psr,comm"
	"top|top -b -n 1"
	"floor-status|$BIN/floor status"
	"floor-status-lib|$BIN/floor -2 -e status"
	"floor-stat|$BIN/floor stat"
	"floor-stat-lib|$BIN/floor -2 -e stat"
	"oom-dump-2636|tools/oom-dump"
	"oom-dump-modern|tools/oom-dump --format modern"
	"oom-dump-json-rw|tools/oom-dump --format json --heuristic rewrite"
	"oom-dump-prom|tools/oom-dump --format prometheus"
	"oomctl-victim|tools/oomctl victim"
	"oomtop-b|tools/oomtop -b -n 1"
)
# The floor each command is held to: the files its output needs at least.
FLOORS="oom-dump-2636=floor-stat oom-dump-modern=floor-status oom-dump-json-rw=floor-status"
FLOORS="$FLOORS oom-dump-prom=floor-status oomctl-victim=floor-status oomtop-b=floor-stat ps=floor-stat top=floor-stat"
FLOORS="$FLOORS floor-status-lib=floor-status floor-stat-lib=floor-stat"

wanted() {
	case "$1" in ps | top | floor-*) return 0 ;; esac
	[ -z "$ONLY" ] || [[ ",$ONLY," == *",$1,"* ]]
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
	# shellcheck disable=SC2086 # the commands are split on spaces on purpose
	err=$(timeout "$TIMEOUT" $cmd 2>&1 >/dev/null)
	rc=$?
	if [ $rc -ne 0 ]; then
		NOTES+=("$name: skipped, '$cmd' exits $rc: $(printf '%s' "$err" | head -n 1)")
		continue
	fi
	NAMES+=("$name")
	CMD[$name]=$cmd
done

RUN=("$BIN/run")
SCHED="normal (CFS) priority"
if [ "$RT" = 1 ] && chrt -f 10 true 2>/dev/null; then
	RUN=(chrt -f 10 "$BIN/run")
	SCHED="SCHED_FIFO 10 (chrt -f 10)"
fi

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

loadavg() {
	cut -d' ' -f1-3 /proc/loadavg
}

echo "bench: $(uname -r), $(nproc) CPUs, N = $NS, $REPS rounds, $SCHED, results in $OUT"
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
	load0=$(loadavg)
	echo "N=$n: $p0 processes, load $load0; $REPS rounds of: ${NAMES[*]}"
	args=()
	for name in "${NAMES[@]}"; do
		[ ${#args[@]} -gt 0 ] && args+=("::")
		# shellcheck disable=SC2206 # the commands are split on spaces on purpose
		args+=("$name" ${CMD[$name]})
	done
	"${RUN[@]}" -r "$REPS" -w 1 -t "$TIMEOUT" -o "$OUT/raw.$n" "${args[@]}" >"$OUT/median.$n" || exit 1
	: >"$OUT/calls.$n"
	if [ "$STRACE" = 1 ]; then
		for name in "${NAMES[@]}"; do
			# shellcheck disable=SC2086
			timeout "$TIMEOUT" strace -c -f -o "$OUT/strace.$n.$name" ${CMD[$name]} >/dev/null 2>&1
			awk -v k="$name" '$NF == "total" { print k "\t" $4 }' "$OUT/strace.$n.$name" >>"$OUT/calls.$n"
		done
	fi
	p1=$(count_procs)
	echo $(((p0 + p1) / 2)) >"$OUT/procs.$n"
	echo "$load0 / $(loadavg)" >"$OUT/load.$n"
	stop_spawn
done

# ---- the tables ------------------------------------------------------------
# Shared awk: reads a median file into arrays; floor[] maps a command to its floor.
AWK_LOAD='
	BEGIN {
		FS = "\t"
		nf = split(floors, fl, " ")
		for (i = 1; i <= nf; i++) { split(fl[i], kv, "="); floor[kv[1]] = kv[2] }
	}
	function load(file, sfx,    l, a) {
		while ((getline l < file) > 0) {
			split(l, a, "\t")
			fails[a[1] sfx] = a[3]; wall[a[1] sfx] = a[4]; cpu[a[1] sfx] = a[5]; rss[a[1] sfx] = a[8]
		}
		close(file)
	}
	function ratio(a, b) { return b > 0 ? a / b : 0 }
	function fmt(x) { return x > 0 ? sprintf("%.2f", x) : "" }
'
NAMELIST="${NAMES[*]}"
HI=${NS##* }
LO=${NS%% *}

{
	echo "Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs," \
		"kernel $(uname -r), $(date -u '+%Y-%m-%d %H:%M UTC')."
	echo "Medians of $REPS alternated rounds at $SCHED; RSS is the largest of the rounds;"
	echo "ratios are of medians. Targets (issue 9) are on wall time; 'ok CPU' applies them to CPU"
	echo "time (user+sys), which other load on the machine disturbs less."
	for n in $NS; do
		echo
		echo "N = $n idle processes ($(cat "$OUT/procs.$n") in /proc), load average before / after: $(cat "$OUT/load.$n"):"
		echo
		awk -v names="$NAMELIST" -v floors="$FLOORS" -v procs="$(cat "$OUT/procs.$n")" \
			-v callsfile="$OUT/calls.$n" "$AWK_LOAD"'
			function verdict(k, m,    x, f, ok) {
				x = ratio(m[k], m["ps"]); f = ratio(m[k], m[floor[k]])
				if (k == "oom-dump-modern") ok = x <= 0.45 && f <= 1.15
				else if (k == "oom-dump-2636") ok = x <= 0.75 && f <= 1.15
				else if (k == "oom-dump-json-rw" || k == "oomctl-victim") ok = x <= 0.85
				else if (k == "oomtop-b") ok = ratio(cpu[k], cpu["top"]) <= 0.5
				else ok = 1
				ok = ok && rss[k] < 8192 && fails[k] == 0
				return ok ? "pass" : "FAIL"
			}
			END {
				while ((getline l < callsfile) > 0) { split(l, a, "\t"); calls[a[1]] = a[2] }
				load(FILENAME, "")
				print "| command | wall ms | CPU ms | RSS MiB | wall µs/proc | CPU µs/proc | syscalls/proc | × ps wall | × ps CPU | × floor wall | × floor CPU | × top CPU | target | ok wall | ok CPU |"
				print "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|---|---|"
				nn = split(names, nm, " ")
				for (i = 1; i <= nn; i++) {
					k = nm[i]; tool = k ~ /^oom/
					tgt = ""
					if (k == "oom-dump-modern") tgt = "≤0.45 ps, ≤1.15 floor"
					else if (k == "oom-dump-2636") tgt = "≤0.75 ps, ≤1.15 floor"
					else if (k == "oom-dump-json-rw" || k == "oomctl-victim") tgt = "≤0.85 ps"
					else if (k == "oomtop-b") tgt = "CPU ≤0.5 top"
					if (tool) tgt = tgt (tgt != "" ? ", " : "") "RSS <8 MiB"
					if (fails[k] > 0) tgt = tgt " (" fails[k] " runs failed)"
					printf "| %s | %.1f | %.1f | %.1f | %.1f | %.1f | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
						k, wall[k] / 1000, cpu[k] / 1000, rss[k] / 1024,
						wall[k] / procs, cpu[k] / procs,
						k in calls ? sprintf("%.1f", calls[k] / procs) : "-",
						fmt(ratio(wall[k], wall["ps"])), fmt(ratio(cpu[k], cpu["ps"])),
						k in floor ? fmt(ratio(wall[k], wall[floor[k]])) : "",
						k in floor ? fmt(ratio(cpu[k], cpu[floor[k]])) : "",
						k == "top" || k == "oomtop-b" ? fmt(ratio(cpu[k], cpu["top"])) : "",
						tgt, tool ? verdict(k, wall) : "", tool ? verdict(k, cpu) : ""
				}
			}' "$OUT/median.$n"
	done

	if [ "$LO" != "$HI" ]; then
		echo
		echo "Linearity: cost per process at $HI against $LO (target ≤1.2 for the tools); '÷ floor' divides"
		echo "by the same ratio of the matching floor scanner, i.e. what the kernel itself adds:"
		echo
		awk -v names="$NAMELIST" -v floors="$FLOORS" -v plo="$(cat "$OUT/procs.$LO")" \
			-v phi="$(cat "$OUT/procs.$HI")" -v lo="$LO" -v hi="$HI" "$AWK_LOAD"'
			END {
				load(FILENAME, "lo"); load(hifile, "hi")
				printf "| command | wall µs/proc at %s | at %s | ratio | ÷ floor | CPU µs/proc at %s | at %s | ratio | ÷ floor | ok wall | ok CPU |\n", lo, hi, lo, hi
				print "|---|--:|--:|--:|--:|--:|--:|--:|--:|---|---|"
				nn = split(names, nm, " ")
				for (i = 1; i <= nn; i++) {
					k = nm[i]; f = floor[k]
					wr = ratio(wall[k "hi"] / phi, wall[k "lo"] / plo)
					cr = ratio(cpu[k "hi"] / phi, cpu[k "lo"] / plo)
					wf = f != "" ? ratio(wr, ratio(wall[f "hi"] / phi, wall[f "lo"] / plo)) : 0
					cf = f != "" ? ratio(cr, ratio(cpu[f "hi"] / phi, cpu[f "lo"] / plo)) : 0
					printf "| %s | %.1f | %.1f | %.2f | %s | %.1f | %.1f | %.2f | %s | %s | %s |\n", k,
						wall[k "lo"] / plo, wall[k "hi"] / phi, wr, fmt(wf),
						cpu[k "lo"] / plo, cpu[k "hi"] / phi, cr, fmt(cf),
						k ~ /^oom/ ? (wr <= 1.2 ? "pass" : "FAIL") : "",
						k ~ /^oom/ ? (cr <= 1.2 ? "pass" : "FAIL") : ""
				}
			}' hifile="$OUT/median.$HI" "$OUT/median.$LO"
	fi

	# Where each tool loses against its floor, per process, at the largest N.
	echo
	echo "Where the tools lose against their floor at N = $HI, CPU µs per process (floor: the floor"
	echo "scanner; syscall pattern: its -lib twin minus it, i.e. openat2 and a read() to EOF per file;"
	echo "user space and rest: the tool minus the -lib twin, i.e. parsing, other files, sorting, output):"
	echo
	awk -v names="$NAMELIST" -v floors="$FLOORS" -v procs="$(cat "$OUT/procs.$HI")" "$AWK_LOAD"'
		END {
			load(FILENAME, "")
			print "| command | floor | + syscall pattern | + user space and rest | = tool CPU | tool wall - floor wall |"
			print "|---|--:|--:|--:|--:|--:|"
			nn = split(names, nm, " ")
			for (i = 1; i <= nn; i++) {
				k = nm[i]; f = floor[k]; l = f "-lib"
				if (k !~ /^oom/ || !(f in cpu) || !(l in cpu)) continue
				printf "| %s | %.2f | %+.2f | %+.2f | %.2f | %+.2f |\n", k, cpu[f] / procs,
					(cpu[l] - cpu[f]) / procs, (cpu[k] - cpu[l]) / procs,
					cpu[k] / procs, (wall[k] - wall[f]) / procs
			}
		}' "$OUT/median.$HI"

	if [ "$STRACE" = 1 ]; then
		procs=$(cat "$OUT/procs.$HI")
		echo
		echo "Syscalls per process at N = $HI (strace -c -f):"
		echo
		echo "| command | openat | openat2 | read | pread64 | close | getdents64 | other | total |"
		echo "|---|--:|--:|--:|--:|--:|--:|--:|--:|"
		for name in "${NAMES[@]}"; do
			[ -f "$OUT/strace.$HI.$name" ] || continue
			awk -v name="$name" -v procs="$procs" '
				/^-/ || /^%/ || NF < 5 { next }
				$NF == "total" { total = $4; next }
				{ c[$NF] += $4 }
				END {
					o = total - c["openat"] - c["openat2"] - c["read"] - c["pread64"] - c["close"] - c["getdents64"]
					printf "| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", name,
						c["openat"] / procs, c["openat2"] / procs, c["read"] / procs, c["pread64"] / procs,
						c["close"] / procs, c["getdents64"] / procs, o / procs, total / procs
				}' "$OUT/strace.$HI.$name"
		done
	fi
	if [ ${#NOTES[@]} -gt 0 ]; then
		echo
		printf 'Note: %s\n' "${NOTES[@]}"
	fi
} | tee "$OUT/table.md"
