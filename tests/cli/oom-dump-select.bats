#!/usr/bin/env bats
# oom-dump with constraints (--memcg, --cpuset-of, --nodes) and --select, on the
# memcg-v2 and numa-2node trees (figures in their READMEs).

load helpers

MEMCG="$FIXTURES/memcg-v2"
NUMA="$FIXTURES/numa-2node"

@test "--memcg lists only the group's tasks (not a child in another group) against its limit" {
	run "$OOM_DUMP" --root "$MEMCG" --memcg /work/job1 -f json
	[ "$status" -eq 0 ]
	# memory.max 268435456 B, memory.swap.max 0: 65536 pages
	[ "$(jq -c '{totalpages, constraint, t: [.tasks[].tgid]}' <<<"$output")" = \
	  '{"totalpages":65536,"constraint":"memcg","t":[300,301,303,304]}' ]
	# runner: 38400 pages * 1000 / 65536 = 585
	[ "$(jq '.tasks[] | select(.tgid == 300) | .score' <<<"$output")" -eq 585 ]
}

@test "--memcg --select prints the 2.6.36 kill lines after the table, sacrificing the child" {
	run "$OOM_DUMP" --root "$MEMCG" --memcg /work/job1 --select
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "[ pid ]   uid  tgid total_vm      rss cpu oom_adj oom_score_adj name" ]
	[ "${#lines[@]}" -eq 7 ]
	[ "${lines[5]}" = "Memory cgroup out of memory: Kill process 300 (runner) score 585 or sacrifice child" ]
	# step-small: 22528 pages * 4 kB, 10240 pages * 4 kB anon
	[ "${lines[6]}" = "Killed process 301 (step-small) total-vm:90112kB, anon-rss:40960kB, file-rss:0kB" ]
}

@test "--select names a kill already in progress and chooses nobody" {
	run "$OOM_DUMP" --root "$MEMCG" --memcg /batch --select -f modern
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "a kill is already in progress: 700 (batch-exit)" ]
	run "$OOM_DUMP" --root "$MEMCG" --memcg /batch --select -f json
	[ "$(jq -c '.selection | [.outcome, .in_progress.pid, .victim, (.lines | length)]' <<<"$output")" = \
	  '["in-progress",700,null,0]' ]
}

@test "--cpuset-of lists the tasks sharing its nodes, against those nodes' memory" {
	run "$OOM_DUMP" --root "$NUMA" --cpuset-of 200 -f json
	[ "$status" -eq 0 ]
	# node1 LRU 917504 kB + SwapTotal 1048576 kB = 491520 pages; postgres (mems 0) is out
	[ "$(jq -c '{totalpages, constraint, t: [.tasks[].tgid]}' <<<"$output")" = \
	  '{"totalpages":491520,"constraint":"cpuset","t":[200,300,301,302,400,500]}' ]
}

@test "--nodes: bind and interleave policies elsewhere are not candidates; --select in json and prometheus" {
	run "$OOM_DUMP" --root "$NUMA" --nodes 0 -f json --select
	[ "$status" -eq 0 ]
	# node0 LRU 1703936 kB + SwapTotal 1048576 kB = 688128 pages; nginx (interleave:1), batch (bind:1) out
	[ "$(jq -c '{totalpages, constraint, t: [.tasks[].tgid]}' <<<"$output")" = \
	  '{"totalpages":688128,"constraint":"mempolicy","t":[100,300,301,302,500]}' ]
	[ "$(jq -c '.selection | [.outcome, .chosen.pid, .victim.pid, .sacrificed]' <<<"$output")" = '["kill",300,301,true]' ]
	[ "$(jq -r '.selection.lines[0]' <<<"$output")" = "Out of memory: Kill process 300 (redis) score 186 or sacrifice child" ]
	run "$OOM_DUMP" --root "$NUMA" --nodes 0 -f prometheus --select
	[ "$status" -eq 0 ]
	grep -qx 'oom_next_victim{pid="301",comm="redis-child"} 37' <<<"$output"
	grep -qx 'oom_totalpages{heuristic="rewrite"} 688128' <<<"$output"
}

@test "--select on the basic tree: a zombie leader (PF_EXITING, mm lent by a thread) stalls nothing; +1000 hog dies" {
	# 2.6.36 waited only for an exiting task with its own mm; a zombie leader has none.
	# hog (pid 5882) has oom_score_adj 1000: top score under every heuristic, no children.
	for h in rewrite kernel legacy; do
		run "$OOM_DUMP" --root "$FIXTURES/basic" --select -H $h -f json
		[ "$status" -eq 0 ]
		[ "$(jq -c '.selection | [.outcome, .in_progress, .chosen.pid, .victim.pid]' <<<"$output")" = '["kill",null,5882,5882]' ]
	done
}

@test "constraint errors: two at once is usage (2), a missing group or node fails (1)" {
	run "$OOM_DUMP" --root "$NUMA" --memcg /x --nodes 0
	[ "$status" -eq 2 ]
	run "$OOM_DUMP" --root "$MEMCG" --memcg /nonexistent
	[ "$status" -eq 1 ]
	[[ "$output" == *"--memcg /nonexistent"* ]]
	run "$OOM_DUMP" --root "$NUMA" --nodes 7
	[ "$status" -eq 1 ]
	run "$OOM_DUMP" --root "$NUMA" --cpuset-of 0
	[ "$status" -eq 2 ]
	run "$OOM_DUMP" --from-log - --select </dev/null
	[ "$status" -eq 2 ]
}

@test "--select with --save replays the same decision" {
	"$OOM_DUMP" --root "$FIXTURES/basic" --select -f json --save "$BATS_TEST_TMPDIR/s" >"$BATS_TEST_TMPDIR/a"
	"$OOM_DUMP" --root "$BATS_TEST_TMPDIR/s" --select -f json | cmp - "$BATS_TEST_TMPDIR/a"
}

@test "--save with a constraint records its files too, and the replay is identical" {
	for spec in "memcg-v2 --memcg /work/job3" "memcg-v2 --memcg /" "memcg-v1 --memcg /docker/app2" \
		"memcg-v1 --memcg /docker/app3/nested" "numa-2node --cpuset-of 200" "numa-2node --nodes 0-1"; do
		set -- $spec
		tree=$1
		shift
		d="$BATS_TEST_TMPDIR/s-$tree-$(echo "$*" | tr -c 'a-z0-9' _)"
		"$OOM_DUMP" --root "$FIXTURES/$tree" "$@" --select -f json --save "$d" >"$d.out"
		"$OOM_DUMP" --root "$d" "$@" --select -f json | cmp - "$d.out"
		"$OOM_DUMP" --root "$FIXTURES/$tree" "$@" --select -f json | cmp - "$d.out"
	done
	# v1: the group's two limit files and mountinfo; numa: only the nodes asked for
	d="$BATS_TEST_TMPDIR/s-memcg-v1-__memcg__docker_app2_"
	cmp "$d/sys/fs/cgroup/memory/docker/app2/memory.memsw.limit_in_bytes" \
		"$FIXTURES/memcg-v1/sys/fs/cgroup/memory/docker/app2/memory.memsw.limit_in_bytes"
	cmp "$d/proc/self/mountinfo" "$FIXTURES/memcg-v1/proc/self/mountinfo"
	[ -f "$d/proc/200/cgroup" ]
	d="$BATS_TEST_TMPDIR/s-numa-2node-__cpuset_of_200_"
	[ -f "$d/sys/devices/system/node/node1/meminfo" ] && [ ! -e "$d/sys/devices/system/node/node0" ]
	[ -f "$d/proc/200/status" ]
}
