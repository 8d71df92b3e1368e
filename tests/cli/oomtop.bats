#!/usr/bin/env bats
# oomtop batch mode on fixture trees, options, the man page and the completion.
load helpers
bats_require_minimum_version 1.5.0

# The table without the USER column: names of uids other than 0 depend on the host's passwd.
table_without_user() {
	sed -n '/^    PID /,$p' | cut -c1-8,22-
}

@test "batch: rewrite ranking of the basic tree matches the hand-checked table" {
	run "$OOMTOP" -b -n 1 --root "$FIXTURES/basic"
	[ "$status" -eq 0 ]
	diff -u "$EXPECTED/oomtop-basic-rewrite.txt" <(printf '%s\n' "$output" | table_without_user)
}

@test "batch: header shows totalpages and its source, memory, sysctls, heuristic, counts, polling" {
	run "$OOMTOP" -b -n 1 --root "$FIXTURES/basic"
	[ "$status" -eq 0 ]
	# LRU (1568+7540+35052+41224 kB) + SwapTotal 1048572 kB = 1133956 kB = 283489 pages.
	[ "${lines[0]}" = "totalpages 283489 (LRU+SwapTotal)  MemTotal 23G  SwapTotal 1023M" ]
	[ "${lines[1]}" = "vm.panic_on_oom 0  vm.oom_dump_tasks 1  vm.oom_kill_allocating_task 0  vm.oom_forkbomb_thres 1000" ]
	# 7 dumpable processes (not init, not the three kernel threads), sshd at -1000.
	[ "${lines[2]}" = "heuristic rewrite  constraint none  delay 2s  processes 7 (1 at -1000)  polling" ]
}

@test "batch: the kernel heuristic reproduces the kernel's own oom_score column" {
	run "$OOMTOP" -b -n 1 --root "$FIXTURES/basic" --heuristic kernel
	[ "$status" -eq 0 ]
	[[ "${lines[2]}" == "heuristic kernel "* ]]
	n=0
	while read -r pid user score oom_score rest; do
		[ "$pid" = PID ] && continue
		[ "$score" = "$oom_score" ] || { echo "pid $pid: $score != $oom_score"; return 1; }
		n=$((n + 1))
	done < <(printf '%s\n' "$output" | sed -n '/^    PID /,$p')
	[ "$n" -eq 7 ]
	# MemTotal+SwapTotal = 25732156 kB = 6433039 pages.
	[[ "${lines[0]}" == "totalpages 6433039 (MemTotal+SwapTotal) "* ]]
}

@test "batch: -p, -u, --sort and the escaped command" {
	run "$OOMTOP" -b -n 1 --root "$FIXTURES/basic" -p 4030,1187,4034 --sort rss
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | sed -n '/^    PID /,$p' | awk 'NR > 1 { print $1 }' | tr '\n' ' ')" = "1187 4034 4030 " ]
	run "$OOMTOP" -b -n 1 --root "$FIXTURES/basic" -u 1000
	[ "$(printf '%s\n' "$output" | sed -n '/^    PID /,$p' | awk 'NR > 1 { print $1 }')" = 4035 ]
	run "$OOMTOP" -b -n 1 --root "$FIXTURES/basic" -p 4031
	[[ "$output" == *' new\x0aline\x5c\x1b[31m'* ]]
	[[ "$output" != *$'\e'* ]]
	run "$OOMTOP" -b -n 1 --root "$FIXTURES/basic" --sort command
	[ "$(printf '%s\n' "$output" | sed -n '/^    PID /,$p' | awk 'NR == 2 { print $1 }')" = 4035 ]
}

@test "batch: --memcg scores a group's tasks against its limit" {
	run "$OOMTOP" -b -n 1 --root "$FIXTURES/memcg-v2" --memcg /work/job1
	[ "$status" -eq 0 ]
	# memory.max 256 MiB and memory.swap.max 0: 65536 pages.
	[ "${lines[0]}" = "totalpages 65536 (memcg limit)  MemTotal 4.0G  SwapTotal 2.0G" ]
	[[ "${lines[2]}" == "heuristic rewrite  constraint memcg /work/job1  delay 2s  candidates 4 (1 at -1000)  polling" ]]
	# runner 153600 kB = 38400 pages: 38400 * 1000 / 65536 = 585; step-small 10240 pages: 156.
	# uploader (302) is runner's child in another group: not a candidate.
	[ "$(printf '%s\n' "$output" | sed -n '/^    PID /,$p' | awk 'NR > 1 { print $1 ":" $3 }' | tr '\n' ' ')" = "300:585 301:156 304:0 303:0 " ]
}

@test "batch: --nodes scores against the listed nodes' memory" {
	run "$OOMTOP" -b -n 1 --root "$FIXTURES/numa-2node" --nodes 1
	[ "$status" -eq 0 ]
	# node1's LRU 917504 kB + SwapTotal 1048576 kB = 491520 pages.
	[[ "${lines[0]}" == "totalpages 491520 (nodes) "* ]]
	# batch: (614400 + 102400 kB) / 4 * 1000 / 491520 = 364; postgres (bound to node 0) is left out.
	[ "$(printf '%s\n' "$output" | sed -n '/^    PID /,$p' | awk 'NR == 2 { print $1 ":" $3 }')" = "400:364" ]
	! printf '%s\n' "$output" | grep -q ' postgres$'
}

@test "batch: constraint errors and conflicts" {
	run "$OOMTOP" -b -n 1 --root "$FIXTURES/memcg-v2" --memcg /no/such/group
	[ "$status" -eq 1 ]
	[[ "$output" == *"--memcg"* ]]
	run "$OOMTOP" -b -n 1 --memcg /a --nodes 0
	[ "$status" -eq 2 ]
	run "$OOMTOP" -b -n 1 --cpuset-of 0
	[ "$status" -eq 2 ]
}

@test "batch: -n 2 -d 0.1 prints two rankings" {
	run "$OOMTOP" -b -n 2 -d 0.1 --root "$FIXTURES/basic"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -c '^totalpages ')" -eq 2 ]
	[ "$(printf '%s\n' "$output" | grep -c ' hog$')" -eq 2 ]
}

@test "batch: OOM_ROOT is the default root" {
	OOM_ROOT="$FIXTURES/basic" run "$OOMTOP" -b -n 1
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "totalpages 283489 "* ]]
}

@test "batch: the live system lists this shell" {
	run "$OOMTOP" -b -n 1 -p $$
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | sed -n '/^    PID /,$p' | awk 'NR == 2 { print $1 }')" = $$ ]
	[ "$(printf '%s\n' "$output" | sed -n '/^    PID /,$p' | awk 'NR == 2 { print $5 }')" = "$(cat /proc/$$/oom_score_adj)" ]
}

@test "bad usage exits 2 and changes nothing" {
	for bad in "-d 0" "-d abc" "-d -1" "-n 0" "-p 12x" "--heuristic foo" "--sort bogus" "-u no-such-user-xyz" "extra"; do
		# shellcheck disable=SC2086
		run "$OOMTOP" -b $bad
		[ "$status" -eq 2 ] || { echo "$bad: $status"; return 1; }
	done
	run "$OOMTOP" -b -n 1 --root /nonexistent
	[ "$status" -eq 1 ]
}

@test "an unknown option is named by each tool as itself, not by the path it was run from" {
	local tool
	for tool in "$OOM_DUMP" "$OOMCTL" "$OOMTOP"; do
		run --separate-stderr "$tool" --no-such-option
		[ "$status" -eq 2 ]
		[ "${stderr_lines[0]}" = "${tool##*/}: unrecognized option '--no-such-option'" ]
		[ "${stderr_lines[1]}" = "Try \`${tool##*/} --help' or \`${tool##*/} --usage' for more information." ]
	done
	run --separate-stderr "$OOMCTL" victim -Q
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "oomctl victim: invalid option -- 'Q'" ]
}

@test "without a terminal and without -b it refuses" {
	run "$OOMTOP" -n 1 </dev/null
	[ "$status" -eq 1 ]
	[[ "$output" == *"-b"* ]]
}

@test "--help and --version" {
	run "$OOMTOP" --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"--batch"* && "$output" == *"--heuristic"* ]]
	run "$OOMTOP" --version
	[ "$status" -eq 0 ]
}

@test "man page renders cleanly and covers options, keys, exit status" {
	run groff -man -ww -z "$TOP/man/oomtop.1"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	text=$(groff -man -Tascii -P-cbu "$TOP/man/oomtop.1")
	for word in -d, -n, -b, -p, -u, --heuristic= --sort= --root= --memcg= --cpuset-of= --nodes= --poll OOM_ROOT "EXIT STATUS" KEYS \
		CAP_SYS_RESOURCE "top(1)" "oom-dump(8)" "oomctl(8)"; do
		[[ "$text" == *"$word"* ]] || { echo "missing $word"; return 1; }
	done
}

@test "bash completion offers options, sort columns, heuristics and PIDs" {
	complete_words() {
		# shellcheck disable=SC1091
		source "$TOP/completions/oomtop"
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		COMPREPLY=()
		_oomtop
		printf '%s\n' "${COMPREPLY[@]}"
	}
	run complete_words oomtop --heur
	[ "$output" = "--heuristic" ]
	run complete_words oomtop --heuristic ""
	[ "$(printf '%s\n' "$output" | sort | tr '\n' ' ')" = "kernel legacy rewrite " ]
	run complete_words oomtop --sort r
	[ "$output" = "rss" ]
	run complete_words oomtop -p "$$"
	[[ "$output" == *"$$"* ]]
}

@test "live: the OOM_SCORE column, computed not read, equals /proc/PID/oom_score" {
	python3 -c 'import time; x = b"\1" * (64 << 20); time.sleep(30)' &
	local hog=$! i
	sleep 0.5
	for ((i = 0; i < 5; i++)); do
		before=$(cat /proc/$hog/oom_score)
		shown=$("$OOMTOP" -b -n 1 -p "$$,$hog" | awk -v p=$hog '$1 == p {print $4}')
		after=$(cat /proc/$hog/oom_score)
		# Memory that moved between the reads is a retry, not a failure.
		[ "$before" = "$after" ] && break
	done
	kill $hog
	[ -n "$shown" ]
	[ "$shown" = "$before" ]
	[ "$("$OOMTOP" -b -n 1 -p $$ | awk -v p=$$ '$1 == p {print $4}')" = "$(cat /proc/$$/oom_score)" ]
}
