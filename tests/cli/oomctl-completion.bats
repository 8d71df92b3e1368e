#!/usr/bin/env bats
# The bash completion of oomctl: sub-commands, options, PIDs, sysctls, fields, heuristics.

load helpers

setup() {
	# shellcheck source=/dev/null
	source "$TOP/completions/oomctl"
}

# complete WORD...: completes the last WORD of "oomctl WORD..."; prints COMPREPLY sorted, one a line.
complete_words() {
	COMP_WORDS=(oomctl "$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE="${COMP_WORDS[*]}"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_oomctl
	printf '%s\n' "${COMPREPLY[@]}" | sort
}

@test "completion: registered for oomctl" {
	run complete -p oomctl
	[ "$status" -eq 0 ]
	[ "$output" = "complete -F _oomctl oomctl" ]
}

@test "completion: sub-commands, and every one of them is a real command" {
	run complete_words ""
	[ "$output" = $'convert\nexplain\nget\nmonitor\nrun\nset\nsysctl\nvictim' ]
	for c in $output; do
		"$OOMCTL" "$c" --help >/dev/null
	done
	run complete_words s
	[ "$output" = $'set\nsysctl' ]
	run complete_words --r
	[ "$output" = "--root" ]
}

@test "completion: each sub-command's options are the ones it accepts" {
	for c in get set run convert sysctl explain victim monitor; do
		run complete_words "$c" --
		[ "$status" -eq 0 ]
		[ -n "$output" ]
		for o in $output; do
			[ "$o" = -- ] && continue
			# Every option offered is one the sub-command's --help lists.
			"$OOMCTL" "$c" --help | grep -q -- "$o" || { echo "$c: $o not in --help"; false; }
		done
	done
	run complete_words set --
	[[ $'\n'"$output"$'\n' == *$'\n--score-adj\n'* ]]
	[[ $'\n'"$output"$'\n' == *$'\n--by\n'* ]]
	run complete_words convert --t
	[ "$output" = "--table" ]
}

@test "completion: PIDs from the live /proc, or from --root / OOM_ROOT" {
	sleep 100 &
	child=$!
	run complete_words set --score-adj 5 ""
	kill "$child"
	[[ $'\n'"$output"$'\n' == *$'\n'"$child"$'\n'* ]]
	[[ $'\n'"$output"$'\n' == *$'\n1\n'* ]]
	run complete_words get --root "$FIXTURES/ctl-explain" 10
	[ "$output" = $'100\n101\n102\n103\n104' ]
	OOM_ROOT="$FIXTURES/ctl-explain" run complete_words explain 2
	[ "$output" = $'2\n200' ]
}

@test "completion: sysctl names, with or without vm." {
	run complete_words sysctl ""
	[ "$output" = $'vm.oom_dump_tasks\nvm.oom_forkbomb_thres\nvm.oom_kill_allocating_task\nvm.panic_on_oom' ]
	for n in $output; do
		"$OOMCTL" sysctl --root "$FIXTURES/basic" "$n" >/dev/null
	done
	run complete_words sysctl vm.oom_k
	[ "$output" = "vm.oom_kill_allocating_task" ]
	run complete_words sysctl pan
	[ "$output" = "panic_on_oom" ]
}

@test "completion: heuristic names and -o fields, including after a comma" {
	run complete_words explain --heuristic ""
	[ "$output" = $'kernel\nlegacy\nrewrite' ]
	for h in $output; do
		"$OOMCTL" explain --root "$FIXTURES/basic" --heuristic "$h" 1 >/dev/null
	done
	run complete_words get -H k
	[ "$output" = "kernel" ]
	run complete_words get --heuristic=l
	[ "$output" = "--heuristic=legacy" ]
	run complete_words get -o ""
	[ "$(printf '%s\n' "$output" | wc -l)" -eq 11 ]
	"$OOMCTL" get --root "$FIXTURES/basic" -o "$(printf '%s\n' "$output" | paste -sd,)" 1 >/dev/null
	run complete_words get -o pid,oom_s
	[ "$output" = $'pid,oom_score\npid,oom_score_adj' ]
}

@test "completion: run completes a command name, then that command's files" {
	run complete_words run --score-adj 5 -- bas
	[[ $'\n'"$output"$'\n' == *$'\nbash\n'* ]]
	run complete_words run --score-adj 5 ls "$TOP/completions/oomc"
	[ "$output" = "$TOP/completions/oomctl" ]
	# The value of --root is a directory, not a sub-command.
	run complete_words --root "$FIXTURES/ctl-exp"
	[ "$output" = "$FIXTURES/ctl-explain" ]
}

@test "completion: victim's options, heuristics with all, PIDs, PID= for --what-if, memory cgroups" {
	run complete_words victim --
	for o in --memcg --cpuset-of --nodes --task --heuristic --what-if --json --root; do
		[[ $'\n'"$output"$'\n' == *$'\n'"$o"$'\n'* ]] || { echo "missing $o"; false; }
	done
	run complete_words victim --heuristic ""
	[ "$output" = $'all\nkernel\nlegacy\nrewrite' ]
	for h in $output; do
		"$OOMCTL" victim --root "$FIXTURES/basic" --heuristic "$h" >/dev/null
	done
	run complete_words victim --heuristic=a
	[ "$output" = "--heuristic=all" ]
	# "all" is victim's alone.
	run complete_words explain --heuristic a
	[ -z "$output" ]
	run complete_words victim --root "$FIXTURES/memcg-v2" --task 30
	[ "$output" = $'300\n301\n302\n303\n304' ]
	OOM_ROOT="$FIXTURES/numa-2node" run complete_words victim --cpuset-of 2
	[ "$output" = $'2\n200' ]
	run complete_words victim --root "$FIXTURES/memcg-v2" --what-if 30
	[ "$output" = $'300=\n301=\n302=\n303=\n304=' ]
	run complete_words victim --root "$FIXTURES/memcg-v2" --what-if 300=
	[ -z "$output" ]
	# cgroup2 (memcg-v2) and the v1 memory mount of a hybrid tree (memcg-v1); each one works.
	run complete_words victim --root "$FIXTURES/memcg-v2" --memcg /work/j
	[ "$output" = $'/work/job1\n/work/job2\n/work/job3' ]
	for g in $output; do
		"$OOMCTL" victim --root "$FIXTURES/memcg-v2" --memcg "$g" >/dev/null
	done
	run complete_words victim --root "$FIXTURES/memcg-v1" --memcg /docker/
	[ "$output" = $'/docker/app1\n/docker/app2\n/docker/app3' ]
	for g in $output; do
		"$OOMCTL" victim --root "$FIXTURES/memcg-v1" --memcg "$g" >/dev/null
	done
}
