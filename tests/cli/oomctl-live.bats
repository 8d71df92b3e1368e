#!/usr/bin/env bats
# oomctl against the live /proc, on processes these tests start themselves.

load helpers
bats_require_minimum_version 1.5.0

setup() {
	sleep 100 &
	CHILD=$!
	PARENT=$BASHPID
}

teardown() {
	kill "$CHILD" 2>/dev/null || true
	wait "$CHILD" 2>/dev/null || true
}

# Whether this process holds CAP_SYS_RESOURCE (bit 24 of CapEff).
have_cap_sys_resource() {
	local eff
	eff=$(awk '$1 == "CapEff:" { print $2 }' /proc/self/status)
	(((0x$eff >> 24) & 1))
}

@test "live: set and get a child's oom_score_adj; get shows the kernel's own figures" {
	run --separate-stderr "$OOMCTL" set -v --score-adj 300 "$CHILD"
	[ "$status" -eq 0 ]
	[ "$output" = "$CHILD: 0 -> 300" ]
	[ "$(cat /proc/$CHILD/oom_score_adj)" = 300 ]
	run "$OOMCTL" get --no-headers -o pid,oom_score_adj,oom_adj,comm "$CHILD"
	[ "$status" -eq 0 ]
	# oom_adj as the kernel itself reads it back.
	[ "$output" = "$CHILD 300 $(cat /proc/$CHILD/oom_adj) sleep" ]
	[ "$(cat /proc/$CHILD/oom_adj)" = 5 ]
	# The kernel heuristic reproduces /proc/PID/oom_score (a sleeping child does not change).
	run "$OOMCTL" get -H kernel --no-headers -o oom_score,score "$CHILD"
	read -r kernel ours <<<"$output"
	[ "$kernel" = "$(cat /proc/$CHILD/oom_score)" ]
	[ "$ours" = "$kernel" ]
	run "$OOMCTL" get --json "$CHILD"
	[ "$(printf '%s' "$output" | jq -r '.[0].comm')" = sleep ]
}

@test "live: raise, lower within the allowed range, then lowering below it needs CAP_SYS_RESOURCE" {
	run "$OOMCTL" set -v --score-adj 500 "$CHILD"
	[ "$output" = "$CHILD: 0 -> 500" ]
	run "$OOMCTL" set -v --by -300 "$CHILD"
	[ "$status" -eq 0 ]
	[ "$output" = "$CHILD: 500 -> 200" ]
	run --separate-stderr "$OOMCTL" set -v --score-adj -100 "$CHILD"
	if have_cap_sys_resource; then
		[ "$status" -eq 0 ]
		[ "$(cat /proc/$CHILD/oom_score_adj)" = -100 ]
		skip "this process has CAP_SYS_RESOURCE: lowering is allowed here"
	fi
	[ "$status" -eq 1 ]
	[ "$stderr" = "oomctl: $CHILD: cannot lower oom_score_adj from 200 to -100: permission denied: lowering it needs CAP_SYS_RESOURCE, which oomctl does not have (even root lacks it in some containers)" ]
	[ -z "$output" ]
	[ "$(cat /proc/$CHILD/oom_score_adj)" = 200 ]
}

@test "live: another user's process cannot be changed: plain permission denied" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to switch to nobody"
	command -v setpriv >/dev/null || skip "setpriv(1) not installed"
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups "$OOMCTL" set --score-adj 500 "$CHILD"
	[ "$status" -eq 1 ]
	[ "$stderr" = "oomctl: $CHILD: cannot set oom_score_adj to 500: permission denied" ]
	[ "$(cat /proc/$CHILD/oom_score_adj)" = 0 ]
}

@test "live: a kernel thread is refused, an unknown PID is no such process" {
	kthread=$(awk '$1 == "Kthread:" && $2 == 1 { print FILENAME; exit }' /proc/2/status /proc/[0-9]*/status 2>/dev/null |
		cut -d/ -f3)
	[ -n "$kthread" ] || skip "no kernel thread visible (PID namespace)"
	run --separate-stderr "$OOMCTL" set --score-adj 100 "$kthread"
	[ "$status" -eq 1 ]
	[ "$stderr" = "oomctl: $kthread: is a kernel thread; it has no oom_score_adj of its own, nothing changed" ]
	[ "$(cat /proc/$kthread/oom_score_adj)" = 0 ]
	gone=$(($(cat /proc/sys/kernel/pid_max) + 1))
	run --separate-stderr "$OOMCTL" set --score-adj 100 "$gone" "$CHILD"
	[ "$status" -eq 1 ]
	[ "$stderr" = "oomctl: $gone: no such process" ]
	[ "$(cat /proc/$CHILD/oom_score_adj)" = 100 ]
	run --separate-stderr "$OOMCTL" get "$gone"
	[ "$status" -eq 1 ] && [ "$stderr" = "oomctl: $gone: no such process" ]
}

@test "live: a process that has exited is no such process" {
	sh -c 'exit 0' &
	dead=$!
	wait "$dead"
	run --separate-stderr "$OOMCTL" set --score-adj 100 "$dead"
	[ "$status" -eq 1 ]
	[ "$stderr" = "oomctl: $dead: no such process" ]
}

@test "live: run sets its own value, then executes the command with it" {
	run --separate-stderr "$OOMCTL" run --score-adj 700 -- cat /proc/self/oom_score_adj
	[ "$status" -eq 0 ]
	[ "$output" = 700 ]
	[ -z "$stderr" ]
	# Without "--", the command's own options stay the command's.
	run "$OOMCTL" run --score-adj 300 sh -c 'cat /proc/$$/oom_score_adj; exit 7'
	[ "$status" -eq 7 ]
	[ "$output" = 300 ]
	run --separate-stderr "$OOMCTL" run --adj 3 -- cat /proc/self/oom_score_adj
	[ "$status" -eq 0 ]
	[ "$output" = $((3 * 1000 / 17)) ]
	[ "$stderr" = "oomctl: oom_adj is deprecated, please use oom_score_adj instead." ]
}

@test "live: run exits 127 for a command not found, 126 for one not executable" {
	run -127 --separate-stderr "$OOMCTL" run --score-adj 100 -- no-such-command-oomctl
	[ "$status" -eq 127 ]
	[ "$stderr" = "oomctl: no-such-command-oomctl: No such file or directory" ]
	printf 'echo hi\n' >"$BATS_TEST_TMPDIR/not-executable"
	chmod 644 "$BATS_TEST_TMPDIR/not-executable"
	run --separate-stderr "$OOMCTL" run --score-adj 100 -- "$BATS_TEST_TMPDIR/not-executable"
	[ "$status" -eq 126 ]
	[ "$stderr" = "oomctl: $BATS_TEST_TMPDIR/not-executable: Permission denied" ]
	run --separate-stderr "$OOMCTL" run --score-adj 100 -- "$BATS_TEST_TMPDIR"
	[ "$status" -eq 126 ]
}

@test "live: run refuses bad values and lowering without CAP_SYS_RESOURCE, without running CMD" {
	marker="$BATS_TEST_TMPDIR/ran"
	run --separate-stderr "$OOMCTL" run --score-adj 1001 -- touch "$marker"
	[ "$status" -eq 2 ]
	[ "$stderr" = "oomctl: oom_score_adj must be between -1000 and 1000" ]
	[ ! -e "$marker" ]
	run --separate-stderr "$OOMCTL" run --score-adj 5
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "oomctl run: no command given" ]
	have_cap_sys_resource && skip "this process has CAP_SYS_RESOURCE"
	[ "$(cat /proc/self/oom_score_adj)" -ge 0 ] || skip "this shell already runs below 0"
	run --separate-stderr "$OOMCTL" run --score-adj -500 -- touch "$marker"
	[ "$status" -eq 1 ]
	[[ "$stderr" == "oomctl: "*": cannot lower oom_score_adj from "*" to -500: permission denied: lowering it needs CAP_SYS_RESOURCE, which oomctl does not have (even root lacks it in some containers)" ]]
	[ ! -e "$marker" ]
}

@test "live: sysctl reads the kernel's values; nobody may not write them" {
	run "$OOMCTL" sysctl -n vm.panic_on_oom vm.oom_dump_tasks vm.oom_kill_allocating_task
	[ "$status" -eq 0 ]
	[ "$output" = "$(cat /proc/sys/vm/panic_on_oom /proc/sys/vm/oom_dump_tasks /proc/sys/vm/oom_kill_allocating_task)" ]
	[ "$(id -u)" -eq 0 ] || skip "needs root to switch to nobody"
	before=$(cat /proc/sys/vm/panic_on_oom)
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups "$OOMCTL" sysctl "vm.panic_on_oom=$before"
	[ "$status" -eq 1 ]
	[ "$stderr" = "oomctl: vm.panic_on_oom: permission denied: writing OOM sysctls needs root; nothing changed" ]
	[ "$(cat /proc/sys/vm/panic_on_oom)" = "$before" ]
}

@test "live: explain a child: the kernel heuristic matches /proc/PID/oom_score, and a rank" {
	"$OOMCTL" set --score-adj 1000 "$CHILD"
	run --separate-stderr "$OOMCTL" explain -H kernel "$CHILD"
	[ "$status" -eq 0 ]
	s=$(cat /proc/$CHILD/oom_score)
	printf '%s\n' "$output" | grep -qx "kernel oom_score   $s by the kernel heuristic, $s in /proc/$CHILD/oom_score (match)"
	printf '%s\n' "$output" | grep -qx "oom_score_adj      +1000 \* (totalpages / 1000) = .*"
	# With +1000 a small child outranks every process at 0 or below; others may be at 1000 too.
	rank=$(printf '%s\n' "$output" | awk '$1 == "rank" { print $2 }')
	[ "$rank" -ge 1 ]
	at_max=$(cat /proc/[0-9]*/oom_score_adj 2>/dev/null | grep -cx 1000)
	[ "$rank" -le "$at_max" ]
}

@test "live: get --json on every process is valid; vanished ones are only 'no such process'" {
	pids=$(cd /proc && echo [0-9]*)
	run --separate-stderr "$OOMCTL" get --json -o pid,ppid,uid,state,oom_score_adj,oom_adj,oom_score,score,rss,swap,comm $pids
	[ "$status" -eq 0 ] || [ "$status" -eq 1 ]
	[ "$(printf '%s' "$output" | jq length)" -ge 3 ]
	# Only processes that exited meanwhile may fail.
	[ -z "$(printf '%s\n' "${stderr_lines[@]}" | grep -v ': no such process$' | grep .)" ]
	[ "$(printf '%s' "$output" | jq -r ".[] | select(.pid == $CHILD) | \"\(.ppid) \(.uid) \(.comm)\"")" = "$PARENT $(id -ru) sleep" ]
	[ "$(printf '%s' "$output" | jq -r ".[] | select(.pid == $CHILD) | .oom_score")" = "$(cat /proc/$CHILD/oom_score)" ]
}

@test "live: run needs exactly one value option (exit 2)" {
	run --separate-stderr "$OOMCTL" run --adj 3 --score-adj 4 -- true
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "oomctl run: give only one of --score-adj and --adj" ]
	run --separate-stderr "$OOMCTL" run -- true
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "oomctl run: give one of --score-adj and --adj" ]
}
