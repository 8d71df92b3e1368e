#!/usr/bin/env bats
# oomctl victim against the live system: the kernel heuristic names the process
# the kernel itself ranks highest, and a memory cgroup this test creates.

load helpers
bats_require_minimum_version 1.5.0

setup() {
	CHILD=
	GROUP_DIR=
}

teardown() {
	if [ -n "$CHILD" ]; then
		kill "$CHILD" 2>/dev/null || true
		wait "$CHILD" 2>/dev/null || true
	fi
	# The group is empty once its only task is gone; a removal can race the exit: retry.
	if [ -n "$GROUP_DIR" ] && [ -d "$GROUP_DIR" ]; then
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			rmdir "$GROUP_DIR" 2>/dev/null && break
			sleep 0.1
		done
	fi
}

# max_oom_score: the highest /proc/PID/oom_score now, and the PIDs holding it ("SCORE PID...").
max_oom_score() {
	# One awk over every file (processes that vanish meanwhile are skipped).
	awk 'FNR == 1 { split(FILENAME, p, "/"); s[p[3]] = $1 + 0; if ($1 + 0 > best) best = $1 + 0 }
	     END { out = best; for (pid in s) if (s[pid] == best) out = out " " pid; print out }' \
		/proc/[0-9]*/oom_score 2>/dev/null
}

@test "live: victim --heuristic kernel names the process with the highest /proc/PID/oom_score" {
	[ "$(cat /proc/sys/vm/panic_on_oom)" = 0 ] || skip "vm.panic_on_oom is set here: the outcome is a panic"
	ok=no
	# Processes come and go between the readings: retry a few times, a moment apart.
	for _ in $(seq 15); do
		read -r before _ <<<"$(max_oom_score)"
		# oomctl itself is left out (--what-if its own PID=-1000): under ASan or
		# valgrind it is the biggest process, and gone before its score is read.
		run bash -c 'exec "$0" victim --heuristic kernel --json --what-if $$=-1000' "$OOMCTL"
		[ "$status" -eq 0 ]
		read -r after pids <<<"$(max_oom_score)"
		pid=$(jq -r .victim.pid <<<"$output")
		score=$(cat "/proc/$pid/oom_score" 2>/dev/null) || score=
		# Ties aside: the victim holds the highest oom_score (one of those with it).
		if [ "$before" = "$after" ] && [ "$(jq -r .outcome <<<"$output")" = kill ] &&
			[ "$score" = "$after" ] && [[ " $pids " == *" $pid "* ]]; then
			ok=yes
			break
		fi
		sleep 0.3
	done
	[ $ok = yes ] || { echo "victim $pid (oom_score ${score:-?}) vs highest $after ($pids)"; false; }
	# No constraint given: a system-wide OOM.
	[ "$(jq -r .constraint.type <<<"$output")" = none ]
}

@test "live: victim --memcg names the one task of a memory cgroup created here" {
	local mnt own kind line
	# The hierarchy the library uses: v1 memory when mounted (hybrid systems), else cgroup2.
	line=$(awk '$9 == "cgroup" && $0 ~ /[ ,]memory([ ,]|$)/ { print $4, $5; exit }' /proc/self/mountinfo)
	if [ -n "$line" ]; then
		kind=v1
		own=$(awk -F: '$2 == "memory" { print $3; exit }' /proc/self/cgroup)
	else
		line=$(awk '$9 == "cgroup2" { print $4, $5; exit }' /proc/self/mountinfo)
		kind=v2
		own=$(awk -F: '$1 == "0" && $2 == "" { print $3; exit }' /proc/self/cgroup)
	fi
	[ -n "$line" ] && [ -n "$own" ] || skip "no memory cgroup hierarchy mounted"
	read -r mroot mnt <<<"$line"
	# A group path as /proc/PID/cgroup shows it, and its directory under the mount.
	group="${own%/}/liboom-victim-$$"
	case $mroot in
	/) GROUP_DIR="$mnt$group" ;;
	*) [[ "$group" == "$mroot/"* ]] || skip "our cgroup $own is outside the mounted $kind root $mroot"
	   GROUP_DIR="$mnt${group#"$mroot"}" ;;
	esac
	mkdir "$GROUP_DIR" 2>/dev/null || { GROUP_DIR=; skip "cannot create a $kind memory cgroup under $mnt$own"; }
	sleep 1000 &
	CHILD=$!
	echo "$CHILD" >"$GROUP_DIR/cgroup.procs" 2>/dev/null || skip "cannot move a process into $GROUP_DIR ($kind)"
	grep -q ":$group\$" "/proc/$CHILD/cgroup" || skip "the process did not land in $group"
	# Any eligible task is a kernel-heuristic victim, however small (rewrite wants a score above 0).
	run "$OOMCTL" victim --memcg "$group" --heuristic kernel --json
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.outcome, .victim.pid, .victim.name, .candidates, .constraint.type, .constraint.memcg]' <<<"$output")" = \
	  "[\"kill\",$CHILD,\"sleep\",1,\"memcg\",\"$group\"]" ]
	run "$OOMCTL" victim --memcg "$group" --heuristic kernel
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "Memory cgroup out of memory: Killed process $CHILD (sleep) total-vm:"* ]]
	# Nothing is killed.
	kill -0 "$CHILD"
}
