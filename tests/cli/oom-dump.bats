#!/usr/bin/env bats
# oom-dump on fixture trees: every format and option, against expected outputs
# written from the fixtures' own numbers (see tests/fixtures/README).

load helpers

BASIC="$FIXTURES/basic"

@test "2.6.36 format (the default) matches the expected table" {
	run "$OOM_DUMP" --root "$BASIC"
	[ "$status" -eq 0 ]
	diff <(printf '%s\n' "$output") "$EXPECTED/oom-dump-basic-2.6.36.txt"
}

@test "--format 2.6.36 is the default, and OOM_ROOT selects the tree" {
	OOM_ROOT="$BASIC" run "$OOM_DUMP" --format 2.6.36
	[ "$status" -eq 0 ]
	diff <(printf '%s\n' "$output") "$EXPECTED/oom-dump-basic-2.6.36.txt"
}

@test "modern format matches the expected table" {
	run "$OOM_DUMP" --root "$BASIC" --format modern
	[ "$status" -eq 0 ]
	diff <(printf '%s\n' "$output") "$EXPECTED/oom-dump-basic-modern.txt"
}

@test "kernel formats: no init, no kernel thread; the zombie leader is dumped with its live thread's pid" {
	run "$OOM_DUMP" --root "$BASIC" -f modern
	[ "$status" -eq 0 ]
	! grep -q '^\[      1\]' <<<"$output"
	! grep -qE 'kthreadd|ksoftirqd|kswapd' <<<"$output"
	grep -qE '^\[   4036\]     0  4032 .* zombie-leader$' <<<"$output"
}

@test "json (rewrite): run fields and every task match the reference, through jq" {
	"$OOM_DUMP" --root "$BASIC" -f json >"$BATS_TEST_TMPDIR/out.json"
	jq -e . "$BATS_TEST_TMPDIR/out.json" >/dev/null
	{ jq -S -c '{totalpages, heuristic, constraint}' "$BATS_TEST_TMPDIR/out.json"
	  jq -S -c '.tasks[]' "$BATS_TEST_TMPDIR/out.json"; } >"$BATS_TEST_TMPDIR/got"
	diff "$BATS_TEST_TMPDIR/got" "$EXPECTED/oom-dump-basic-rewrite.jsonl"
}

@test "json (kernel heuristic): score equals the kernel's oom_score for every task" {
	"$OOM_DUMP" --root "$BASIC" -f json --heuristic kernel >"$BATS_TEST_TMPDIR/out.json"
	{ jq -S -c '{totalpages, heuristic, constraint}' "$BATS_TEST_TMPDIR/out.json"
	  jq -S -c '.tasks[]' "$BATS_TEST_TMPDIR/out.json"; } >"$BATS_TEST_TMPDIR/got"
	diff "$BATS_TEST_TMPDIR/got" "$EXPECTED/oom-dump-basic-kernel.jsonl"
	[ "$(jq '[.tasks[] | select(.score != .oom_score)] | length' "$BATS_TEST_TMPDIR/out.json")" -eq 0 ]
}

@test "json (legacy heuristic) is valid and names its heuristic" {
	run "$OOM_DUMP" --root "$BASIC" -f json -H legacy
	[ "$status" -eq 0 ]
	[ "$(jq -r '.heuristic' <<<"$output")" = legacy ]
	[ "$(jq -r '[.tasks[].heuristic] | unique | join(",")' <<<"$output")" = legacy ]
	# sshd has oom_score_adj -1000: never a candidate under any heuristic
	[ "$(jq '.tasks[] | select(.tgid == 4034) | .score' <<<"$output")" -eq 0 ]
}

@test "json escapes names: newline, backslash and ESC" {
	run "$OOM_DUMP" --root "$BASIC" -f json
	[ "$status" -eq 0 ]
	grep -qF '"name":"new\nline\\\u001b[31m"' <<<"$output"
	[ "$(jq -r '.tasks[] | select(.tgid == 4031) | .name' <<<"$output" | od -An -c | tr -s ' ')" = \
	  "$(printf 'new\nline\\\033[31m\n' | od -An -c | tr -s ' ')" ]
	[ "$(jq -r '.tasks[] | select(.tgid == 4030) | .name' <<<"$output")" = 'a) b c' ]
}

@test "prometheus matches the expected exposition" {
	run "$OOM_DUMP" --root "$BASIC" --format prometheus
	[ "$status" -eq 0 ]
	diff <(printf '%s\n' "$output") "$EXPECTED/oom-dump-basic.prom"
}

@test "prometheus: every sample line is name{labels} value, with no timestamp" {
	run "$OOM_DUMP" --root "$BASIC" -f prometheus
	[ "$status" -eq 0 ]
	! grep -v '^#' <<<"$output" | grep -vqE '^[a-z_]+(\{([a-z]+="([^"\\]|\\.)*",?)+\})? -?[0-9]+$'
	[ "$(grep -c '^# TYPE' <<<"$output")" -eq "$(grep -c '^# HELP' <<<"$output")" ]
	# each metric's samples form one group, right after its own HELP and TYPE
	awk '/^# HELP/ { if (seen[$3]++) exit 1; cur = $3; next } /^# TYPE/ { if ($3 != cur) exit 1; next }
		{ n = $0; sub(/[{ ].*/, "", n); if (n != cur) exit 1 }' <<<"$output"
	! grep -q "$(printf '\033')" <<<"$output"
}

@test "--sort score -n 2 gives the two highest scores, ties in PID order" {
	run "$OOM_DUMP" --root "$BASIC" -f json --sort score -n 2
	[ "$status" -eq 0 ]
	want=$(tail -n +2 "$EXPECTED/oom-dump-basic-rewrite.jsonl" | jq -s -c '[sort_by(-.score, .tgid)[:2][] | .tgid]')
	[ "$(jq -c '[.tasks[].tgid]' <<<"$output")" = "$want" ]
}

@test "--sort rss and --sort swap order by memory, biggest first" {
	run "$OOM_DUMP" --root "$BASIC" -f json --sort rss
	want=$(tail -n +2 "$EXPECTED/oom-dump-basic-rewrite.jsonl" | jq -s -c '[sort_by(-.rss, .tgid)[] | .tgid]')
	[ "$(jq -c '[.tasks[].tgid]' <<<"$output")" = "$want" ]
	run "$OOM_DUMP" --root "$BASIC" -f 2.6.36 --sort swap -n 1
	[ "${#lines[@]}" -eq 2 ]
	[[ "${lines[1]}" == "[ 1187]"*" bash" ]]
}

@test "-n N keeps the header and the first N rows" {
	run "$OOM_DUMP" --root "$BASIC" -f modern -n 3
	[ "$status" -eq 0 ]
	# two header lines, three rows; the third name holds a newline
	diff <(printf '%s\n' "$output") <(head -n 6 "$EXPECTED/oom-dump-basic-modern.txt")
}

@test "--header --task prints the 2.6.36 invoked oom-killer line first" {
	run "$OOM_DUMP" --root "$BASIC" --header --task 5882
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "hog invoked oom-killer: gfp_mask=0x0, order=0, oom_adj=15, oom_score_adj=1000" ]
	diff <(printf '%s\n' "${lines[@]:1}") "$EXPECTED/oom-dump-basic-2.6.36.txt"
	run "$OOM_DUMP" --root "$BASIC" --header --task 4034 -f modern
	[ "${lines[0]}" = "sshd invoked oom-killer: gfp_mask=0x0, order=0, oom_adj=-17, oom_score_adj=-1000" ]
	run "$OOM_DUMP" --root "$BASIC" --header --task 4030 -f json
	[ "$(jq -c '.trigger' <<<"$output")" = '{"pid":4030,"name":"a) b c","gfp_mask":0,"order":0,"oom_adj":0,"oom_score_adj":0}' ]
}

@test "--header without --task, bad values and unknown names are usage errors (2)" {
	for args in "--header" "-f xml" "--heuristic foo" "--sort name" "-n 0" "-n x" "--task -3" \
		"--save-cmdline" "-f prometheus --header --task 1" "extra" "--from-log - --sort score"; do
		run "$OOM_DUMP" --root "$BASIC" $args
		[ "$status" -eq 2 ] || { echo "args: $args -> $status"; false; }
	done
}

@test "--task of a missing process fails (1), and a missing root fails (1)" {
	run "$OOM_DUMP" --root "$BASIC" --header --task 99999
	[ "$status" -eq 1 ]
	[[ "$output" == *"99999"* ]]
	run "$OOM_DUMP" --root "$BATS_TEST_TMPDIR/nonexistent"
	[ "$status" -eq 1 ]
}

@test "names are raw when stdout is a pipe, escaped on a terminal" {
	run "$OOM_DUMP" --root "$BASIC"
	grep -q "$(printf '\033')\[31m" <<<"$output"
	script -qec "$OOM_DUMP --root $BASIC" /dev/null >"$BATS_TEST_TMPDIR/tty"
	grep -qF 'new\x0aline\x5c\x1b[31m' "$BATS_TEST_TMPDIR/tty"
	! grep -q "$(printf '\033')" "$BATS_TEST_TMPDIR/tty"
}

@test "--save then --root replays the identical report, in every format" {
	for f in 2.6.36 modern json prometheus; do
		rm -rf "$BATS_TEST_TMPDIR/saved"
		"$OOM_DUMP" --root "$BASIC" -f $f --save "$BATS_TEST_TMPDIR/saved" >"$BATS_TEST_TMPDIR/a"
		"$OOM_DUMP" --root "$BATS_TEST_TMPDIR/saved" -f $f >"$BATS_TEST_TMPDIR/b"
		cmp "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
		"$OOM_DUMP" --root "$BASIC" -f $f | cmp - "$BATS_TEST_TMPDIR/a"
	done
}

@test "--save copies only what the format reads, byte for byte, never environ" {
	d="$BATS_TEST_TMPDIR/m"
	"$OOM_DUMP" --root "$BASIC" -f modern --save "$d" >/dev/null
	[ -f "$d/proc/5882/status" ] && [ -f "$d/proc/5882/oom_score_adj" ]
	[ ! -e "$d/proc/5882/stat" ] && [ ! -e "$d/proc/5882/oom_score" ]
	cmp "$d/proc/4031/status" "$BASIC/proc/4031/status"
	cmp "$d/proc/meminfo" "$BASIC/proc/meminfo"
	[ -f "$d/proc/4032/task/4036/status" ]
	d="$BATS_TEST_TMPDIR/j"
	"$OOM_DUMP" --root "$BASIC" -f json --save "$d" >/dev/null
	cmp "$d/proc/4031/stat" "$BASIC/proc/4031/stat"
	# oom_score is computed (the kernel heuristic reproduces it), never read (SPEC 4)
	[ ! -e "$d/proc/5882/oom_score" ]
	[ "$(jq '.tasks[] | select(.tgid == 5882) | .oom_score' <<<"$("$OOM_DUMP" --root "$d" -f json)")" = "$(cat "$BASIC/proc/5882/oom_score")" ]
	cmp "$d/proc/sys/vm/panic_on_oom" "$BASIC/proc/sys/vm/panic_on_oom"
	[ -z "$(find "$d" -name environ -o -name cmdline)" ]
}

@test "--save refuses a tree that already has proc/ (1), and --save-cmdline adds cmdline" {
	root=$(fixture basic)
	printf 'sleep\0100\0' >"$root/proc/5882/cmdline"
	run "$OOM_DUMP" --root "$root" --save "$root"
	[ "$status" -eq 1 ]
	"$OOM_DUMP" --root "$root" --save "$BATS_TEST_TMPDIR/c" --save-cmdline >/dev/null
	cmp "$BATS_TEST_TMPDIR/c/proc/5882/cmdline" "$root/proc/5882/cmdline"
}

@test "--save on the live system replays identically" {
	"$OOM_DUMP" -f json --save "$BATS_TEST_TMPDIR/live" >"$BATS_TEST_TMPDIR/a"
	"$OOM_DUMP" -f json --root "$BATS_TEST_TMPDIR/live" >"$BATS_TEST_TMPDIR/b"
	cmp "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
	[ -z "$(find "$BATS_TEST_TMPDIR/live" -name environ)" ]
	[ "$(jq '.tasks | length' "$BATS_TEST_TMPDIR/a")" -gt 0 ]
}

@test "rewrite forkbomb penalty: stat is read for sorting by score even in the modern format" {
	root=$(fixture basic)
	# liboom's own copy of the never-merged sysctl: bash (1187) has 4 children under 1 s of CPU
	mkdir -p "$root/var/lib/liboom"
	echo 2 >"$root/var/lib/liboom/vm.oom_forkbomb_thres"
	# (1039 + 512) * 1000 / 283489 = 5; + (317 + 294 + 338 + 296) / 2 = 622; - 30 (CAP_SYS_ADMIN) = 597
	run "$OOM_DUMP" --root "$root" -f json
	[ "$(jq '.tasks[] | select(.tgid == 1187) | .score' <<<"$output")" -eq 597 ]
	run "$OOM_DUMP" --root "$root" -f modern --sort score -n 2
	[ "$status" -eq 0 ]
	[[ "${lines[2]}" == "[   5882]"*" hog" ]]
	[[ "${lines[3]}" == "[   1187]"*" bash" ]]
	run "$OOM_DUMP" --root "$root" -f prometheus
	grep -qx 'oom_vm_oom_forkbomb_thres 2' <<<"$output"
	grep -qx 'oom_heuristic_score{pid="1187",comm="bash"} 597' <<<"$output"
	# the saved tree carries the threshold and the children's stat files
	"$OOM_DUMP" --root "$root" -f modern --sort score --save "$BATS_TEST_TMPDIR/fb" >"$BATS_TEST_TMPDIR/a"
	cmp "$BATS_TEST_TMPDIR/fb/var/lib/liboom/vm.oom_forkbomb_thres" "$root/var/lib/liboom/vm.oom_forkbomb_thres"
	[ -f "$BATS_TEST_TMPDIR/fb/proc/4030/stat" ]
	"$OOM_DUMP" --root "$BATS_TEST_TMPDIR/fb" -f modern --sort score | cmp - "$BATS_TEST_TMPDIR/a"
}

@test "legacy heuristic: sorting by score works from a saved tree too (stat and uptime saved)" {
	"$OOM_DUMP" --root "$BASIC" -f modern -H legacy --sort score --save "$BATS_TEST_TMPDIR/lg" >"$BATS_TEST_TMPDIR/a"
	[ -f "$BATS_TEST_TMPDIR/lg/proc/uptime" ] && [ -f "$BATS_TEST_TMPDIR/lg/proc/1187/stat" ]
	"$OOM_DUMP" --root "$BATS_TEST_TMPDIR/lg" -f modern -H legacy --sort score | cmp - "$BATS_TEST_TMPDIR/a"
	# legacy badness grows with total_vm: hog (17004 pages, oom_adj 15) is first
	[[ "$(sed -n 3p "$BATS_TEST_TMPDIR/a")" == "[   5882]"*" hog" ]]
}

@test "each format reads only what it needs: removing the other files changes nothing" {
	root=$(fixture basic)
	rm -f "$root"/proc/*/oom_score "$root"/proc/*/task/*/oom_score "$root"/proc/*/cgroup "$root"/proc/*/numa_maps \
		"$root"/proc/*/statm "$root"/proc/*/task/*/statm
	run "$OOM_DUMP" --root "$root"
	diff <(printf '%s\n' "$output") "$EXPECTED/oom-dump-basic-2.6.36.txt"
	rm -f "$root"/proc/*/stat "$root"/proc/*/task/*/stat
	run "$OOM_DUMP" --root "$root" -f modern
	diff <(printf '%s\n' "$output") "$EXPECTED/oom-dump-basic-modern.txt"
	# the kernel heuristic needs no CPU times either
	run "$OOM_DUMP" --root "$root" -f modern -H kernel --sort score -n 1
	[[ "${lines[2]}" == "[   5882]"*" hog" ]]
}
