#!/usr/bin/env bats
# `oomctl monitor`: process events for scripts (tools/monitor.c), and its polling fallback.
load helpers

setup() {
	"$OOMCTL" monitor --help >/dev/null 2>&1 || skip "oomctl has no monitor command"
	OUT="$BATS_TEST_TMPDIR/out"
	ERR="$BATS_TEST_TMPDIR/err"
	MON=
}

teardown() {
	[ -n "$MON" ] && kill "$MON" 2>/dev/null || true
}

# start_monitor ARG...: runs the monitor in the background until its first line is out.
start_monitor() {
	# Emptied here, not by the background redirection: a check below must not
	# see the previous run's output before the new process truncates it.
	: >"$OUT"
	: >"$ERR"
	"$@" >"$OUT" 2>"$ERR" &
	MON=$!
	local i
	for ((i = 0; i < 50; i++)); do
		[ -s "$OUT" ] && return 0
		sleep 0.1
	done
	cat "$ERR" >&2
	return 1
}

# stop_monitor SIGNAL: ends it and checks it ended cleanly.
stop_monitor() {
	kill -"$1" "$MON"
	local status=0
	wait "$MON" || status=$?
	MON=
	[ "$status" -eq 0 ]
}

@test "monitor --json: fork and exit events of processes started and reaped here" {
	start_monitor "$OOMCTL" monitor --json
	[ "$(jq -r 'select(.event == "start") | .mode' "$OUT")" = events ] || skip "process events not permitted here"
	sh -c 'echo $$ > "$1"; exit 3' sh "$BATS_TEST_TMPDIR/p1" || true
	sleep 30 &
	local s=$!
	sleep 0.2
	kill -9 "$s"
	wait "$s" || true
	sleep 0.5
	stop_monitor INT
	local p1
	p1=$(cat "$BATS_TEST_TMPDIR/p1")
	jq -e . "$OUT" >/dev/null
	[ "$(jq -c "select(.event == \"fork\" and .pid == $p1) | .ppid" "$OUT")" = "$BASHPID" ]
	# The name is read from /proc after the exec: a process that lived long enough has one.
	[ "$(jq -c "select(.event == \"exec\" and .pid == $p1) | .event" "$OUT")" = '"exec"' ]
	[ "$(jq -c "select(.event == \"exec\" and .pid == $s) | .comm" "$OUT")" = '"sleep"' ]
	[ "$(jq -c "select(.event == \"exit\" and .pid == $p1) | .status" "$OUT")" = 3 ]
	[ "$(jq -c "select(.event == \"exit\" and .pid == $s) | .signal" "$OUT")" = 9 ]
	[ "$(jq -c "select(.event == \"fork\" and .pid == $s) | .source" "$OUT")" = '"events"' ]
}

@test "monitor: text lines, ended by SIGTERM" {
	start_monitor "$OOMCTL" monitor
	[ "$(head -1 "$OUT")" = "start mode=events" ] || skip "process events not permitted here"
	sh -c 'echo $$ > "$1"; exit 5' sh "$BATS_TEST_TMPDIR/p1" || true
	sleep 0.5
	stop_monitor TERM
	local p1
	p1=$(cat "$BATS_TEST_TMPDIR/p1")
	grep -Eq "^fork pid=$p1 ppid=$BASHPID( |$)" "$OUT"
	grep -Eq "^exec pid=$p1( comm=sh)?$" "$OUT"
	grep -Eq "^exit pid=$p1 ppid=$BASHPID status=5$" "$OUT"
}

@test "monitor: a parent whose short-lived children pass the threshold is flagged" {
	start_monitor "$OOMCTL" monitor --json --threshold 20
	[ "$(jq -r 'select(.event == "start") | .mode' "$OUT")" = events ] || skip "process events not permitted here"
	bash -c 'echo $$ > "$1"; for ((i = 0; i < 60; i++)); do /bin/true; done' bash "$BATS_TEST_TMPDIR/p1"
	# A quiet parent with a few children is not.
	bash -c 'echo $$ > "$1"; for ((i = 0; i < 5; i++)); do /bin/true; done' bash "$BATS_TEST_TMPDIR/p2"
	sleep 0.5
	stop_monitor INT
	local p1 p2
	p1=$(cat "$BATS_TEST_TMPDIR/p1")
	p2=$(cat "$BATS_TEST_TMPDIR/p2")
	[ "$(jq -c "select(.event == \"forkbomb\" and .pid == $p1) | [.children, .threshold]" "$OUT")" = "[21,20]" ]
	[ -z "$(jq -c "select(.event == \"forkbomb\" and .pid == $p2)" "$OUT")" ]
}

@test "monitor: the text warning names the parent and the threshold" {
	start_monitor "$OOMCTL" monitor --threshold 10
	[ "$(head -1 "$OUT")" = "start mode=events" ] || skip "process events not permitted here"
	bash -c 'echo $$ > "$1"; for ((i = 0; i < 30; i++)); do /bin/true; done' bash "$BATS_TEST_TMPDIR/p1"
	sleep 0.5
	stop_monitor INT
	grep -Eq "^warning: forkbomb: $(cat "$BATS_TEST_TMPDIR/p1") \(bash\) has 11 children younger than one second \([0-9]+ exited\), over vm.oom_forkbomb_thres 10$" "$OUT"
}

@test "monitor: where events are not permitted it polls, and still sees processes come and go" {
	unshare -r true 2>/dev/null || skip "no user namespaces here"
	# In a user namespace the kernel ignores proc connector subscriptions.
	start_monitor unshare -r "$OOMCTL" monitor --json --interval 0.2
	[ "$(jq -r 'select(.event == "start") | .mode' "$OUT")" = polling ]
	grep -q "not permitted" "$ERR"
	sleep 30 &
	local s=$!
	sleep 0.8
	kill "$s"
	wait "$s" || true
	sleep 0.8
	stop_monitor INT
	[ "$(jq -c "select(.event == \"fork\" and .pid == $s) | [.ppid, .comm, .source]" "$OUT")" = "[$BASHPID,\"sleep\",\"poll\"]" ]
	[ "$(jq -c "select(.event == \"exit\" and .pid == $s) | .status" "$OUT")" = null ]
}

@test "monitor --poll, and on a --root tree, polls" {
	start_monitor "$OOMCTL" monitor --poll --interval 0.2
	[ "$(head -1 "$OUT")" = "start mode=polling" ]
	stop_monitor TERM
	start_monitor "$OOMCTL" --root "$FIXTURES/basic" monitor --interval 0.2
	[ "$(head -1 "$OUT")" = "start mode=polling" ]
	grep -q -- "--root" "$ERR"
	sleep 0.5
	stop_monitor INT
	# Nothing changes in a saved tree.
	[ "$(wc -l < "$OUT")" -eq 1 ]
}

@test "monitor: bad usage exits 2" {
	run "$OOMCTL" monitor --threshold -1
	[ "$status" -eq 2 ]
	run "$OOMCTL" monitor --interval 0
	[ "$status" -eq 2 ]
	run "$OOMCTL" monitor extra
	[ "$status" -eq 2 ]
}
