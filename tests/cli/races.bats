#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1-or-later
# Races (issue 7, item 3): the tools run in a loop on the live system while
# hundreds of short-lived processes start and die around them, some of them
# multi-threaded with a leader that exits first (a zombie leader whose threads
# live on). None may fail, crash, print a half row or report a process twice.
# RACE_SECONDS (default 4) bounds each test; five tests, about 20 s in all.

load helpers
bats_require_minimum_version 1.5.0

RACE_SECONDS=${RACE_SECONDS:-4}

# Rows as each format prints them (see SPEC section 9): every field present.
ROW_2636='^\[ *[0-9]+\] +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +-?[0-9]+ +-?[0-9]+ .+$'
ROW_MODERN='^\[ *[0-9]+\] +[0-9]+ +[0-9]+( +[0-9]+){7} +-?[0-9]+ .+$'
ROW_PROM='^[a-z_]+(\{[a-z_]+="([^"\\]|\\.)*"(,[a-z_]+="([^"\\]|\\.)*")*\})? -?[0-9]+$'
ROW_GET='^ *[0-9]+ +-?[0-9]+ +-?[0-9]+ +[0-9]+ +[0-9]+ .+$'
ROW_TOP='^ *[0-9]+ [^ ]+ +[0-9]+ +[0-9]+ +-?[0-9]+ +[0-9.]+[BKMGT]? +[0-9.]+[BKMGT]? +[0-9.]+ .+$'

setup_file() {
	export RACE_DIR="$BATS_FILE_TMPDIR/race"
	mkdir -p "$RACE_DIR"
	cc -O1 -pthread -o "$RACE_DIR/leader-exit" "$BATS_TEST_DIRNAME/helpers/leader-exit.c"
	# setsid: the load is its own process group, killed as one in teardown_file.
	setsid "$BATS_TEST_DIRNAME/helpers/race-load.sh" "$RACE_DIR/leader-exit" "$RACE_DIR/pgid" \
		</dev/null >/dev/null 2>&1 3>&- &
	disown # no "Killed" job report when teardown_file kills it
	for _ in $(seq 50); do
		[ -s "$RACE_DIR/pgid" ] && break
		sleep 0.1
	done
	export LOAD_PGID
	LOAD_PGID=$(cat "$RACE_DIR/pgid")
	# It must really be a group of its own, or teardown would kill too much.
	[ "$(ps -o pgid= -p "$LOAD_PGID" | tr -d ' ')" = "$LOAD_PGID" ]
}

teardown_file() {
	if [ -n "${LOAD_PGID:-}" ]; then
		kill -KILL -- "-$LOAD_PGID" 2>/dev/null || true
	fi
}

# unique_col N: fails (printing the duplicates) if column N of stdin repeats.
unique_col() {
	local dups
	dups=$(awk -v n="$1" '{ print $n }' | sort | uniq -d)
	if [ -n "$dups" ]; then
		echo "reported twice: $dups"
		return 1
	fi
}

# all_match REGEX: fails (printing the line) unless every line of stdin matches.
all_match() {
	local bad
	bad=$(grep -Ev -- "$1") || true
	if [ -n "$bad" ]; then
		printf 'half or malformed row: %q\n' "$bad"
		return 1
	fi
}

# load_pids: some current members of the load's process group.
load_pids() {
	pgrep -g "$LOAD_PGID" | head -n 20 | tr '\n' ' '
}

@test "race: the load is running (processes come and go, zombie leaders among them)" {
	local a b
	a=$(load_pids)
	sleep 0.5
	b=$(load_pids)
	[ -n "$a" ]
	[ -n "$b" ]
	[ "$a" != "$b" ]
	# A zombie leader with live threads shows up within seconds (15 on a loaded machine).
	local end=$((SECONDS + 15)) seen=0 p
	while ((SECONDS < end && !seen)); do
		for p in $(pgrep -g "$LOAD_PGID"); do
			if grep -q '^State:.Z' "/proc/$p/status" 2>/dev/null &&
				[ "$(ls "/proc/$p/task" 2>/dev/null | wc -l)" -gt 1 ]; then
				seen=1
			fi
		done
	done
	[ "$seen" = 1 ]
}

@test "race: oom-dump 2.6.36 and modern: exit 0, whole rows, no PID or TGID twice" {
	local end=$((SECONDS + RACE_SECONDS)) n=0 f
	while ((SECONDS < end)); do
		for f in 2.6.36 modern; do
			run --separate-stderr "$OOM_DUMP" --format "$f"
			[ "$status" -eq 0 ] || { echo "$f: exit $status: $stderr"; false; }
			[ -z "$stderr" ] || { echo "$f: $stderr"; false; }
			if [ "$f" = 2.6.36 ]; then
				[ "${lines[0]}" = "[ pid ]   uid  tgid total_vm      rss cpu oom_adj oom_score_adj name" ]
				printf '%s\n' "${lines[@]:1}" | all_match "$ROW_2636"
				printf '%s\n' "${lines[@]:1}" | tr -d '[]' | unique_col 1
				printf '%s\n' "${lines[@]:1}" | tr -d '[]' | unique_col 3
			else
				[ "${lines[0]}" = "Tasks state (memory values in pages):" ]
				printf '%s\n' "${lines[@]:2}" | all_match "$ROW_MODERN"
				printf '%s\n' "${lines[@]:2}" | tr -d '[]' | unique_col 1
				printf '%s\n' "${lines[@]:2}" | tr -d '[]' | unique_col 3
			fi
			n=$((n + 1))
		done
	done
	echo "# $n dumps" >&3
	[ "$n" -ge 1 ]
}

@test "race: oom-dump json and prometheus: valid, whole, no process twice" {
	local end=$((SECONDS + RACE_SECONDS)) n=0 dups
	while ((SECONDS < end)); do
		run --separate-stderr "$OOM_DUMP" --format json
		[ "$status" -eq 0 ]
		[ -z "$stderr" ]
		# Valid JSON as a whole, and no tgid twice.
		printf '%s\n' "$output" | jq -e '(.tasks | map(.tgid) | length) == (.tasks | map(.tgid) | unique | length)' >/dev/null
		printf '%s\n' "$output" | jq -e '(.tasks | map(.pid) | length) == (.tasks | map(.pid) | unique | length)' >/dev/null
		run --separate-stderr "$OOM_DUMP" --format prometheus
		[ "$status" -eq 0 ]
		[ -z "$stderr" ]
		printf '%s\n' "$output" | grep -v '^# \(HELP\|TYPE\) ' | all_match "$ROW_PROM"
		# Per metric, each pid once.
		dups=$(printf '%s\n' "$output" | grep -o '^[a-z_]*{pid="[0-9]*"' | sort | uniq -d)
		[ -z "$dups" ] || { echo "reported twice: $dups"; false; }
		n=$((n + 1))
	done
	echo "# $n dumps" >&3
	[ "$n" -ge 1 ]
}

@test "race: oomctl get on racing PIDs: each PID a row or 'no such process' (exit 1), never twice" {
	local end=$((SECONDS + RACE_SECONDS)) n=0 pids rows failed p
	while ((SECONDS < end)); do
		pids=$(load_pids)
		[ -n "$pids" ] || continue
		# shellcheck disable=SC2086
		run --separate-stderr "$OOMCTL" get $pids
		if [ "$status" -eq 1 ]; then
			printf '%s\n' "$stderr" | all_match '^oomctl: [0-9]+: no such process$'
		else
			[ "$status" -eq 0 ]
		[ -z "$stderr" ]
		fi
		[ "${lines[0]}" = "    PID OOM_SCORE_ADJ OOM_ADJ OOM_SCORE SCORE COMMAND" ]
		printf '%s\n' "${lines[@]:1}" | all_match "$ROW_GET"
		rows=$(printf '%s\n' "${lines[@]:1}" | awk 'NF { print $1 }' | sort -n)
		failed=$(printf '%s\n' "$stderr" | sed -n 's/^oomctl: \([0-9]*\): no such process$/\1/p' | sort -n)
		# Rows and failures together are the PIDs asked for, each exactly once.
		diff <(printf '%s\n' $pids | sort -n) <(printf '%s\n' $rows $failed | sed '/^$/d' | sort -n)
		n=$((n + 1))
	done
	echo "# $n runs" >&3
	[ "$n" -ge 1 ]
}

@test "race: oomctl victim and oomtop -b -n 1: exit 0, whole rows, no PID twice" {
	local end=$((SECONDS + RACE_SECONDS)) n=0 hdr
	while ((SECONDS < end)); do
		run --separate-stderr "$OOMCTL" victim
		[ "$status" -eq 0 ] || { echo "victim: exit $status: $stderr"; false; }
		[ -z "$stderr" ]
		[[ "$output" == *$'\noutcome '* ]]
		run --separate-stderr "$OOMCTL" victim --json
		[ "$status" -eq 0 ]
		[ -z "$stderr" ]
		printf '%s\n' "$output" | jq -e .outcome >/dev/null
		run --separate-stderr "$OOMTOP" -b -n 1
		[ "$status" -eq 0 ] || { echo "oomtop: exit $status: $stderr"; false; }
		[ -z "$stderr" ]
		hdr=$(printf '%s\n' "${lines[@]}" | grep -n '^ *PID USER ' | cut -d: -f1)
		[ -n "$hdr" ]
		printf '%s\n' "${lines[@]:$hdr}" | all_match "$ROW_TOP"
		printf '%s\n' "${lines[@]:$hdr}" | unique_col 1
		n=$((n + 1))
	done
	echo "# $n rounds" >&3
	[ "$n" -ge 1 ]
}
