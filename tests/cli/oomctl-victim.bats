#!/usr/bin/env bats
# oomctl victim on fixture trees: every constraint, the sysctls (copied trees
# edited), kills in progress, nobody to kill, the child sacrifice, --what-if,
# --heuristic all, JSON and errors. Expected figures are worked out by hand
# from the fixtures' files and READMEs (noted next to each), or taken from the
# scenario files' own "expect" lines, never from the code under test.

load helpers
bats_require_minimum_version 1.5.0

BASIC="$FIXTURES/basic"
V1="$FIXTURES/memcg-v1"
V2="$FIXTURES/memcg-v2"
NUMA2="$FIXTURES/numa-2node"
NUMA4="$FIXTURES/numa-4node"
SCEN="$TOP/tests/scenarios"

# sysctl_tree NAME FILE=VALUE...: a copy of fixture NAME with those proc/sys/vm files set.
sysctl_tree() {
	local root
	root=$(fixture "$1")
	shift
	for kv in "$@"; do
		printf '%s\n' "${kv#*=}" >"$root/proc/sys/vm/${kv%%=*}"
	done
	printf '%s\n' "$root"
}

# field LABEL: the value after a "label   value" line of the output.
field() {
	printf '%s\n' "$output" | awk -v l="$1" 'substr($0, 1, 19) == sprintf("%-18s ", l) { print substr($0, 20); exit }'
}

# ---- constraints ----------------------------------------------------------

@test "victim: system-wide on basic: +1000 hog under every heuristic; runner-up; totals from meminfo" {
	run "$OOMCTL" victim --root "$BASIC"
	[ "$status" -eq 0 ]
	# hog: rss 66932 kB = 16733 pages; LRU+swap (1568+7540+35052+41224+1048572) kB / 4 = 283489 pages;
	# 16733000/283489 = 59, -30 (CAP_SYS_ADMIN), +1000 = 1029 -> 1000.
	[ "${lines[0]}" = "Out of memory: Kill process 5882 (hog) score 1000 or sacrifice child" ]
	[ "${lines[1]}" = "Killed process 5882 (hog) total-vm:68016kB, anon-rss:65636kB, file-rss:1296kB" ]
	[ "$(field totalpages)" = "283489 pages (Active(anon) + Inactive(anon) + Active(file) + Inactive(file) + SwapTotal, /proc/meminfo)" ]
	# 11 processes; candidates: not init, not the 3 kernel threads = 7 (sshd at -1000 included).
	[ "$(field candidates)" = "7 of 11 processes" ]
	# runner-up: ":-) 1 2 3 4 5 6" (no capabilities) 1184 kB = 296 pages: 296000/283489 = 1;
	# the others with CAP_SYS_ADMIN lose 30 and clamp to 0.
	[ "$(field runner-up)" = "4035 (:-) 1 2 3 4 5 6), score 1" ]
	[ "$(field victim)" = "5882 (hog): the chosen task itself (no child of it scores above 0)" ]
	run "$OOMCTL" victim --root "$BASIC" -H kernel
	[ "$status" -eq 0 ]
	# The current kernel's one line; pgtables VmPTE 176 kB.
	[ "${lines[0]}" = "Out of memory: Killed process 5882 (hog) total-vm:68016kB, anon-rss:65636kB, file-rss:1296kB, shmem-rss:0kB, UID:0 pgtables:176kB oom_score_adj:1000" ]
	[ "$(field totalpages)" = "6433039 pages (MemTotal + SwapTotal, /proc/meminfo)" ]
	# The oom_score shown is the one in proc/5882/oom_score.
	[[ "$(field chosen)" == *"(oom_score $(cat "$BASIC/proc/5882/oom_score"))"* ]]
	[[ "$(field runner-up)" == "1187 (bash), score "*" points (oom_score $(cat "$BASIC/proc/1187/oom_score"))" ]]
}

@test "victim --memcg (v2): only the group's tasks, its limit, the worst child sacrificed (expected file)" {
	# memory.max 268435456 B, memory.swap.max 0: 65536 pages; runner 153600 kB = 38400 pages -> 585;
	# children: step-small 10240 pages -> 156, uploader (another group) and guard (-1000) skipped,
	# step-tiny 1 page -> 0. Candidates 300 301 303 304 of 15 processes.
	run "$OOMCTL" victim --root "$V2" --memcg /work/job1
	[ "$status" -eq 0 ]
	diff -u "$EXPECTED/oomctl-victim-memcg-v2-job1.txt" - <<<"$output"
}

@test "victim --memcg (v1, hybrid): memsw limit, ties first (rewrite) or last (kernel)" {
	# /docker/app3: limit HUGE, memsw 402653184 B = 98304 pages (no swap): 400 and 401 hold
	# 102400 kB = 25600 pages each: 25600000/98304 = 260.
	run "$OOMCTL" victim --root "$V1" --memcg /docker/app3
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "Memory cgroup out of memory: Kill process 400 (app3-nested) score 260 or sacrifice child" ]
	[ "$(field constraint)" = "memcg /docker/app3 (cgroup v1, limited)" ]
	[ "$(field totalpages)" = "98304 pages (the memory cgroup's limit)" ]
	[ "$(field candidates)" = "2 of 9 processes" ]
	[ "$(field runner-up)" = "401 (app3-b), score 260" ]
	run "$OOMCTL" victim --root "$V1" --memcg /docker/app3 -H kernel
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "Memory cgroup out of memory: Killed process 401 (app3-b) total-vm:"* ]]
	[[ "$(field chosen)" == *"the last in PID order)" ]]
	# /docker/app2: limit 268435456 B = memsw: 65536 pages.
	run "$OOMCTL" victim --root "$V1" --memcg /docker/app2
	[ "$(field totalpages)" = "65536 pages (the memory cgroup's limit)" ]
	# 65536 kB = 16384 pages: 16384000/65536 = 250.
	[ "${lines[0]}" = "Memory cgroup out of memory: Kill process 300 (app2) score 250 or sacrifice child" ]
}

@test "victim --cpuset-of: tasks sharing the nodes, against those nodes' LRU pages and swap" {
	# node1 LRU 917504 kB + SwapTotal 1048576 kB = 491520 pages; postgres (mems 0) is out.
	# batch: 614400 kB anon + 102400 kB swap = 179200 pages -> 364; redis 128000 pages -> 260.
	run "$OOMCTL" victim --root "$NUMA2" --cpuset-of 200
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "Out of memory: Kill process 400 (batch) score 364 or sacrifice child" ]
	[ "$(field constraint)" = "cpuset of 200 (nodes 1)" ]
	[ "$(field totalpages)" = "491520 pages (the allowed nodes' LRU pages + SwapTotal)" ]
	[ "$(field candidates)" = "6 of 9 processes" ]
	[ "$(field runner-up)" = "300 (redis), score 260" ]
	# Candidates: nginx, redis, redis-child, redis-guard, batch, sshd (not init, kthreadd, postgres);
	# batch (no children) total-vm 1236992 kB.
	diff -u "$EXPECTED/oomctl-victim-numa-2node-cpuset.txt" - <<<"$output"
}

@test "victim --nodes: bind/interleave elsewhere are out; a SIGKILL pending on node 3 stops the scan" {
	# node0 LRU 1703936 kB + swap 1048576 kB = 688128 pages; redis 128000 pages -> 186, its child
	# redis-child 25600 pages -> 37 sacrificed (redis-guard is -1000).
	run "$OOMCTL" victim --root "$NUMA2" --nodes 0
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "Out of memory: Kill process 300 (redis) score 186 or sacrifice child" ]
	[ "$(field constraint)" = "mempolicy (nodes 0)" ]
	[ "$(field totalpages)" = "688128 pages (the allowed nodes' LRU pages + SwapTotal)" ]
	[ "$(field victim)" = "301 (redis-child), score 37: the child of 300 with the highest score, sacrificed in its parent's place (seed 005)" ]
	# numa-4node, node 2: 262144 kB LRU, no swap = 65536 pages; delta 25600 pages -> 390,
	# epsilon-b (bind:2) 20480 pages -> 312; alpha, beta, gamma bind elsewhere.
	run "$OOMCTL" victim --root "$NUMA4" --nodes 2
	[ "${lines[0]}" = "Out of memory: Kill process 400 (delta) score 390 or sacrifice child" ]
	[ "$(field runner-up)" = "502 (epsilon-b), score 312" ]
	[ "$(field candidates)" = "4 of 10 processes" ]
	# The node list as sysfs writes it, in text and JSON.
	run "$OOMCTL" victim --root "$NUMA4" --nodes 3,0,1 --json
	[ "$(jq -c .constraint <<<"$output")" = '{"type":"mempolicy","kernel_name":"CONSTRAINT_MEMORY_POLICY","nodes":"0-1,3"}' ]
	run "$OOMCTL" victim --root "$NUMA4" --nodes 0-1,3
	[ "$(field constraint)" = "mempolicy (nodes 0-1,3)" ]
	# node 3: "dying" has SIGKILL pending; the kernel logs nothing. 131072 kB LRU, no swap =
	# 32768 pages; candidates epsilon, epsilon-a (default policies) and dying (bind:3).
	run "$OOMCTL" victim --root "$NUMA4" --nodes 3
	[ "$status" -eq 0 ]
	diff -u "$EXPECTED/oomctl-victim-numa-4node-in-progress.txt" - <<<"$output"
	run "$OOMCTL" victim --root "$NUMA4" --nodes 3 -H kernel
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "heuristic          kernel (current mainline, v5.9+)" ]
	[ "$(field outcome)" = "nobody: a kill is already in progress: 900 (dying) has SIGKILL pending; the OOM killer waits for its memory to come back (seed 003)" ]
}

# ---- sysctls and the allocating task ----------------------------------------

@test "victim --task with vm.oom_kill_allocating_task=1: that task (score 0 logged), its worst child sacrificed" {
	root=$(sysctl_tree basic oom_kill_allocating_task=1)
	run "$OOMCTL" victim --root "$root" --task 1187
	[ "$status" -eq 0 ]
	# bash's children: "a) b c" and the newline one score 1-30 -> 0, sshd -1000, ":-) 1 2 3 4 5 6" 1.
	[ "${lines[0]}" = "Out of memory (oom_kill_allocating_task): Kill process 1187 (bash) score 0 or sacrifice child" ]
	[ "${lines[1]}" = "Killed process 4035 (:-) 1 2 3 4 5 6) total-vm:2344kB, anon-rss:92kB, file-rss:1092kB" ]
	[ "$(field runner-up)" = "" ]
	run "$OOMCTL" victim --root "$root" --task 1187 -H kernel
	[ "${lines[0]}" = "Out of memory (oom_kill_allocating_task): Killed process 1187 (bash) total-vm:5256kB, anon-rss:1224kB, file-rss:2932kB, shmem-rss:0kB, UID:0 pgtables:56kB oom_score_adj:0" ]
	# An unkillable allocating task (-1000) is passed over: the scan picks hog.
	run "$OOMCTL" victim --root "$root" --task 4034
	[ "${lines[0]}" = "Out of memory: Kill process 5882 (hog) score 1000 or sacrifice child" ]
	# The sysctl off: --task changes nothing.
	run "$OOMCTL" victim --root "$BASIC" --task 1187
	[ "${lines[0]}" = "Out of memory: Kill process 5882 (hog) score 1000 or sacrifice child" ]
	# Never for a memcg OOM.
	root=$(sysctl_tree memcg-v2 oom_kill_allocating_task=1)
	run "$OOMCTL" victim --root "$root" --memcg /work/job1 --task 301
	[ "${lines[0]}" = "Memory cgroup out of memory: Kill process 300 (runner) score 585 or sacrifice child" ]
}

@test "victim: panic_on_oom 1 panics system-wide only; 2 panics under any constraint (exit 0)" {
	root=$(sysctl_tree basic panic_on_oom=1)
	run "$OOMCTL" victim --root "$root"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "Out of memory: system-wide panic_on_oom is enabled" ]
	[[ "$(field outcome)" == "panic: vm.panic_on_oom is 1 and this OOM is system-wide"* ]]
	root=$(sysctl_tree memcg-v2 panic_on_oom=1)
	run "$OOMCTL" victim --root "$root" --memcg /work/job1
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "Memory cgroup out of memory: Kill process 300 (runner) score 585 or sacrifice child" ]
	run "$OOMCTL" victim --root "$root"
	[ "${lines[0]}" = "Out of memory: system-wide panic_on_oom is enabled" ]
	root=$(sysctl_tree numa-2node panic_on_oom=1)
	run "$OOMCTL" victim --root "$root" --cpuset-of 200
	[ "${lines[0]}" = "Out of memory: Kill process 400 (batch) score 364 or sacrifice child" ]
	run "$OOMCTL" victim --root "$root" --nodes 0 --json
	[ "$(jq -r .outcome <<<"$output")" = kill ]
	[ "$(jq -r .total_source <<<"$output")" = nodes ]
	run "$OOMCTL" victim --root "$BASIC" --json -H all
	[ "$(jq -r .total_source <<<"$output" | tr '\n' ' ')" = "ram+swap lru+swap ram+swap " ]
	for tree in basic memcg-v2 numa-2node; do
		root=$(sysctl_tree $tree panic_on_oom=2)
		case $tree in
		basic) opt=() ;;
		memcg-v2) opt=(--memcg /work/job1) ;;
		numa-2node) opt=(--cpuset-of 200) ;;
		esac
		run "$OOMCTL" victim --root "$root" "${opt[@]}"
		[ "$status" -eq 0 ]
		[ "${lines[0]}" = "Out of memory: compulsory panic_on_oom is enabled" ]
		[[ "$(field outcome)" == "panic: vm.panic_on_oom is 2, which panics on every OOM"* ]]
		[ "$(field sysctls)" = "vm.panic_on_oom = 2, vm.oom_kill_allocating_task = 0" ]
	done
	# The scenarios agree.
	run "$OOMCTL" victim --root "$SCEN/panic-system" --json -H all
	[ "$(jq -r .outcome <<<"$output" | sort -u)" = panic ]
	[ "$(jq -r .would_panic <<<"$output" | sort -u)" = true ]
}

@test "victim: a kill already in progress (exiting with an mm) chooses nobody; the allocating task itself" {
	run "$OOMCTL" victim --root "$V2" --memcg /batch
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "heuristic          rewrite (the 2010 rewrite as posted, 2.6.36)" ]
	[ "$(field outcome)" = "nobody: a kill is already in progress: 700 (batch-exit) is exiting with its memory; the OOM killer waits for its memory to come back (seed 003)" ]
	run "$OOMCTL" victim --root "$V2" --memcg /batch --json -H all
	[ "$(jq -c '[.outcome, .in_progress.pid, .victim, (.lines | length)]' <<<"$output" | sort -u)" = '["in-progress",700,null,0]' ]
	# The allocating task itself being killed: nothing else is looked at.
	run "$OOMCTL" victim --root "$NUMA4" --task 900 --json
	[ "$(jq -c '[.outcome, .in_progress.pid, .candidates]' <<<"$output")" = '["in-progress",900,8]' ]
}

@test "victim: nobody killable panics system-wide, not in a memcg" {
	run "$OOMCTL" victim --root "$SCEN/no-killable"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "Out of memory and no killable processes..." ]
	[[ "$(field outcome)" == "nobody: no candidate scores above 0; the kernel panics"* ]]
	# Every task of /work/job1 protected by --what-if: the group's tasks wait.
	run "$OOMCTL" victim --root "$V2" --memcg /work/job1 --what-if 300=-1000 --what-if 301=-1000 --what-if 304=-1000 --json
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.outcome, .would_panic, .lines]' <<<"$output")" = '["no-killable",false,["Out of memory and no killable processes..."]]' ]
}

# ---- --what-if ------------------------------------------------------------

@test "victim --what-if changes the decision, only in the snapshot; repeatable, reported" {
	before=$(cat "$V2/proc/301/oom_score_adj")
	# step-small at +1000: 156 + 1000 -> 1000, above runner's 585; it has no children.
	run "$OOMCTL" victim --root "$V2" --memcg /work/job1 --what-if 301=1000
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "Memory cgroup out of memory: Kill process 301 (step-small) score 1000 or sacrifice child" ]
	[ "$(field what-if)" = "301: oom_score_adj 1000 instead of 0" ]
	[ "$(field runner-up)" = "300 (runner), score 585" ]
	[ "$(cat "$V2/proc/301/oom_score_adj")" = "$before" ]
	# hog protected: the runner-up of before is chosen.
	run "$OOMCTL" victim --root "$BASIC" --what-if 5882=-1000
	[ "${lines[0]}" = "Out of memory: Kill process 4035 (:-) 1 2 3 4 5 6) score 1 or sacrifice child" ]
	# Repeated: the last value wins; JSON lists each.
	run "$OOMCTL" victim --root "$BASIC" --what-if 5882=-1000 --what-if 5882=0 --json
	[ "$(jq -c '[.chosen.pid, .what_if]' <<<"$output")" = '[5882,[{"pid":5882,"oom_score_adj":-1000,"was":1000},{"pid":5882,"oom_score_adj":0,"was":1000}]]' ]
	# 16733000/283489 = 59, -30: 29 without the +1000.
	[ "$(jq .chosen.score <<<"$output")" -eq 29 ]
}

@test "victim --what-if errors: malformed, out of range, unknown PID (exit 2)" {
	for w in 300 =5 abc=1 300=abc 300=1001 300=-1001 0=5 "300= 5" 300=5x; do
		run --separate-stderr "$OOMCTL" victim --root "$V2" --what-if "$w"
		[ "$status" -eq 2 ] || { echo "--what-if '$w': $status"; false; }
		[ -z "$output" ]
		[ -n "$stderr" ]
	done
	run --separate-stderr "$OOMCTL" victim --root "$V2" --what-if 300=1001
	[ "$stderr" = "oomctl: --what-if ADJ must be between -1000 and 1000" ]
	run --separate-stderr "$OOMCTL" victim --root "$V2" --what-if 99999=5
	[ "$status" -eq 2 ]
	[ "$stderr" = "oomctl: --what-if 99999=5: no such process" ]
	[ -z "$output" ]
}

# ---- --heuristic all and JSON ---------------------------------------------

@test "victim --heuristic all: one report per heuristic, then the summary (expected file)" {
	# forking-server: legacy kills the master's first worker (seed 005), rewrite and kernel the
	# leaking worker (the scenario's notes and README table).
	run "$OOMCTL" victim --root "$SCEN/forking-server" --task 4721 -H all
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -c '^heuristic ')" -eq 3 ]
	[ "$(printf '%s\n' "$output" | grep '^== ')" = $'== legacy ==\n== rewrite ==\n== kernel ==' ]
	diff -u "$EXPECTED/oomctl-victim-all-forking-server.txt" - <<<"$(printf '%s\n' "$output" | tail -n 4)"
	# The same snapshot and constraint for all three (memcg-v2 job1: 4 candidates each).
	run "$OOMCTL" victim --root "$V2" --memcg /work/job1 -H all
	[ "$(printf '%s\n' "$output" | grep -c '^candidates         4 of 15 processes$')" -eq 3 ]
	[ "$(printf '%s\n' "$output" | grep -c '^totalpages         65536 pages ')" -eq 3 ]
}

@test "victim --json: one object per heuristic, valid for jq, names escaped, the kernel lines included" {
	run "$OOMCTL" victim --root "$V2" --memcg /work/job1 --json -H all
	[ "$status" -eq 0 ]
	[ "$(jq -s length <<<"$output")" -eq 3 ]
	[ "$(jq -r .heuristic <<<"$output" | tr '\n' ' ')" = "legacy rewrite kernel " ]
	[ "$(jq -c 'select(.heuristic == "rewrite") | [.outcome, .chosen.pid, .chosen.score, .runner_up.pid, .victim.pid, .victim.score, .sacrificed, .candidates, .totalpages]' <<<"$output")" = \
	  '["kill",300,585,301,301,156,true,4,65536]' ]
	[ "$(jq -r .total_source <<<"$output" | sort -u)" = memcg ]
	[ "$(jq -c 'select(.heuristic == "rewrite") | .constraint' <<<"$output")" = \
	  '{"type":"memcg","kernel_name":"CONSTRAINT_MEMCG","memcg":"/work/job1","cgroup_version":2,"limited":true}' ]
	[ "$(jq -r 'select(.heuristic == "rewrite") | .lines[1]' <<<"$output")" = "Killed process 301 (step-small) total-vm:90112kB, anon-rss:40960kB, file-rss:0kB" ]
	# Mainline: no sacrifice.
	[ "$(jq -c 'select(.heuristic == "kernel") | [.victim.pid, .sacrificed, (.lines | length)]' <<<"$output")" = '[300,false,1]' ]
	# A name with a newline, a backslash and ESC round-trips through JSON.
	root=$(sysctl_tree basic oom_kill_allocating_task=1)
	run "$OOMCTL" victim --root "$root" --task 4031 --json -H all
	[ "$status" -eq 0 ]
	[ "$(jq -r 'select(.heuristic == "kernel") | .victim.name' <<<"$output")" = "$(printf 'new\nline\\\033[31m')" ]
	[ "$(jq -r 'select(.heuristic == "kernel") | .lines[0]' <<<"$output")" = \
	  "$(printf 'Out of memory (oom_kill_allocating_task): Killed process 4031 (new\nline\\\033[31m) total-vm:2344kB, anon-rss:92kB, file-rss:1084kB, shmem-rss:0kB, UID:0 pgtables:40kB oom_score_adj:0')" ]
	[ "$(jq -c 'select(.heuristic == "rewrite") | [.allocating_task, .message, .task]' <<<"$output")" = \
	  '[true,"Out of memory (oom_kill_allocating_task)",4031]' ]
}

@test "victim: kernel lines raw into a pipe, escaped on a terminal; the reasons always escaped" {
	root=$(sysctl_tree basic oom_kill_allocating_task=1)
	run "$OOMCTL" victim --root "$root" --task 4031 -H kernel
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(printf 'Killed process 4031 (new\nline\\\033[31m) total-vm')"* ]]
	[[ "$output" == *$'\nchosen             4031 (new\\x0aline\\x5c\\x1b[31m), score '* ]]
	command -v script >/dev/null || skip "script(1) not installed"
	run script -qec "$OOMCTL victim --root $root --task 4031 -H kernel" /dev/null
	[[ "$(printf '%s' "$output" | tr -d '\r' | head -n 1)" == 'Out of memory (oom_kill_allocating_task): Killed process 4031 (new\x0aline\x5c\x1b[31m) total-vm:'* ]]
}

# ---- the scenario corpus --------------------------------------------------

# scenario_value DIR KEY: the value of "KEY: value" in DIR/scenario (first line only).
scenario_value() {
	sed -n "s/^$2: *//p" "$1/scenario" | head -n 1
}

@test "victim on every scenario: each heuristic the scenario asserts picks its expected outcome" {
	n=0
	for dir in "$SCEN"/*/; do
		dir=${dir%/}
		[ -f "$dir/scenario" ] || continue
		expect=$(scenario_value "$dir" expect)
		trigger=$(scenario_value "$dir" trigger)
		read -r ctype carg <<<"$(scenario_value "$dir" constraint)"
		case $ctype in
		none) opt=() ;;
		memcg) opt=(--memcg "$carg") ;;
		cpuset-of) opt=(--cpuset-of "$carg") ;;
		nodes) opt=(--nodes "$carg") ;;
		*) echo "$dir: unknown constraint $ctype"; false ;;
		esac
		run "$OOMCTL" victim --root "$dir" --task "$trigger" "${opt[@]}" -H all --json
		[ "$status" -eq 0 ] || { echo "$dir: exit $status: $output"; false; }
		for h in $(scenario_value "$dir" assert); do
			got=$(jq -r --arg h "$h" 'select(.heuristic == $h) |
				if .outcome == "kill" then "kill \(.victim.pid) \(.victim.name) \(if .sacrificed then .chosen.pid else "" end)"
				else .outcome end' <<<"$output")
			ok=no
			# "kill PID NAME", "kill-child-of PID", or an outcome; alternatives split on " or ".
			while IFS= read -r alt; do
				case $alt in
				"kill-child-of "*) [[ "$got" == "kill "* && "$got" == *" ${alt#kill-child-of }" ]] && ok=yes ;;
				"kill "*) [[ "$got" == "$alt" || "$got" == "$alt "* ]] && ok=yes ;;
				*) [ "$got" = "$alt" ] && ok=yes ;;
				esac
			done <<<"${expect// or /$'\n'}"
			[ $ok = yes ] || { echo "$(basename "$dir") $h: expected '$expect', got '$got'"; false; }
			n=$((n + 1))
		done
	done
	[ "$n" -ge 20 ]
}

# ---- errors ---------------------------------------------------------------

@test "victim: usage errors exit 2, read errors exit 1; nothing on stdout" {
	for args in "--memcg /a --nodes 0" "--cpuset-of 200 --nodes 0" "--memcg work/job1" "--heuristic bogus" \
		"--task 0" "--task x" "--cpuset-of -1" "extra" "--nodes x" "--cpuset-of 99999" "--task 99999"; do
		# shellcheck disable=SC2086
		run --separate-stderr "$OOMCTL" victim --root "$NUMA2" $args
		[ "$status" -eq 2 ] || { echo "$args: $status $stderr"; false; }
		[ -z "$output" ]
	done
	run --separate-stderr "$OOMCTL" victim --root "$NUMA2" --heuristic bogus
	[[ "$stderr" == *"unknown heuristic 'bogus' (rewrite, kernel, legacy, all)"* ]]
	run --separate-stderr "$OOMCTL" victim --root "$NUMA2" --task 99999
	[ "$stderr" = "oomctl: --task 99999: no such process" ]
	run --separate-stderr "$OOMCTL" victim --root "$V2" --memcg /nonexistent
	[ "$status" -eq 1 ]
	[[ "$stderr" == "oomctl: --memcg /nonexistent: "* ]]
	run --separate-stderr "$OOMCTL" victim --root "$NUMA2" --nodes 7
	[ "$status" -eq 1 ]
	run --separate-stderr "$OOMCTL" victim --root "$BATS_TEST_TMPDIR/nonexistent"
	[ "$status" -eq 1 ]
	root=$(fixture basic)
	rm "$root/proc/meminfo"
	run --separate-stderr "$OOMCTL" victim --root "$root"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	root=$(fixture basic)
	printf 'x\n' >"$root/proc/sys/vm/panic_on_oom"
	run --separate-stderr "$OOMCTL" victim --root "$root"
	[ "$status" -eq 1 ]
	[[ "$stderr" == "oomctl: vm.panic_on_oom: "* ]]
}

@test "victim: a tree without the sysctl files reads them as 0; --root before the command; OOM_ROOT" {
	root=$(fixture memcg-v2)
	rm "$root/proc/sys/vm/panic_on_oom" "$root/proc/sys/vm/oom_kill_allocating_task"
	run "$OOMCTL" --root "$root" victim --memcg /work/job1
	[ "$status" -eq 0 ]
	[ "$(field sysctls)" = "vm.panic_on_oom = 0, vm.oom_kill_allocating_task = 0" ]
	[ "${lines[0]}" = "Memory cgroup out of memory: Kill process 300 (runner) score 585 or sacrifice child" ]
	OOM_ROOT="$V2" run "$OOMCTL" victim --memcg /work/job1
	[ "${lines[0]}" = "Memory cgroup out of memory: Kill process 300 (runner) score 585 or sacrifice child" ]
}
