#!/usr/bin/env bats
# oom-dump --from-log: kernel logs of every dump_tasks format (tests/fixtures/logs/).

load helpers
bats_require_minimum_version 1.5.0

LOGS="$FIXTURES/logs"

@test "every log format re-prints as the expected 2.6.36 report" {
	for f in 2.6.36-syslog 3.10-dmesg 4.4-journal 4.15-dmesg-T 4.19-dmesg-caller 6.8-journal; do
		run "$OOM_DUMP" --from-log "$LOGS/$f.log"
		[ "$status" -eq 0 ] || { echo "$f: $status"; false; }
		diff <(printf '%s\n' "$output") "$EXPECTED/oom-dump-log-$f.txt"
	done
}

@test "a 2.6.36 log re-prints byte for byte (its own lines, prefixes stripped)" {
	run "$OOM_DUMP" --from-log "$LOGS/2.6.36-syslog.log"
	[ "$status" -eq 0 ]
	diff <(printf '%s\n' "$output") \
		<(sed -n 's/^.* kernel: \[ *[0-9.]*\] //p' "$LOGS/2.6.36-syslog.log" |
			grep -E 'invoked oom-killer|^\[|Kill process|Killed process')
}

@test "a 6.8 log re-prints in the modern format with its constraint and kill lines" {
	run "$OOM_DUMP" --from-log "$LOGS/6.8-journal.log" --format modern
	[ "$status" -eq 0 ]
	diff <(printf '%s\n' "$output") "$EXPECTED/oom-dump-log-6.8-journal.modern.txt"
}

@test "stdin works as '-'" {
	run "$OOM_DUMP" --from-log - <"$LOGS/3.10-dmesg.log"
	[ "$status" -eq 0 ]
	diff <(printf '%s\n' "$output") "$EXPECTED/oom-dump-log-3.10-dmesg.txt"
}

@test "json: one object per report with trigger, constraint, tasks and victim" {
	run "$OOM_DUMP" --from-log "$LOGS/6.8-journal.log" -f json
	[ "$status" -eq 0 ]
	[ "$(jq '.reports | length' <<<"$output")" -eq 2 ]
	[ "$(jq -r '.reports[0].constraint' <<<"$output")" = CONSTRAINT_MEMCG ]
	[ "$(jq -r '.reports[0].victim.message' <<<"$output")" = "Memory cgroup out of memory" ]
	[ "$(jq -c '.reports[0].victim | [.pid, .uid, .pgtables_kb, .shmem_rss_kb]' <<<"$output")" = '[912,998,8500,0]' ]
	[ "$(jq -r '.reports[1].trigger.name' <<<"$output")" = 'a) b c' ]
	[ "$(jq -c '.reports[1].tasks[2] | [.pid, .rss_anon, .rss_file, .rss_shmem, .pgtables_bytes, .oom_score_adj]' <<<"$output")" = '[913,400,620,0,53248,0]' ]
	[ "$(jq -r '.reports[1].tasks[2].name' <<<"$output")" = "$(printf 'new\033line')" ]
	grep -qF 'new\u001bline' <<<"$output"
	[ "$(jq -r '.reports[1].table_format' <<<"$output")" = 6.8 ]
}

@test "json: each kernel's columns are kept under their own names" {
	run "$OOM_DUMP" --from-log "$LOGS/2.6.36-syslog.log" -f json
	[ "$(jq -c '.reports[0].tasks[4] | [.pid, .cpu, .oom_adj, .oom_score_adj, .name]' <<<"$output")" = '[2403,1,7,411,"firefox-bin"]' ]
	[ "$(jq -c '.reports[0].chosen' <<<"$output")" = '{"pid":2690,"name":"a) b c","score":1000}' ]
	run "$OOM_DUMP" --from-log "$LOGS/3.10-dmesg.log" -f json
	[ "$(jq -c '.reports[0].tasks[4] | [.nr_ptes, .swapents, .rss]' <<<"$output")" = '[1810,11432,921433]' ]
	run "$OOM_DUMP" --from-log "$LOGS/4.4-journal.log" -f json
	[ "$(jq -c '.reports[0].tasks[0] | [.nr_ptes, .nr_pmds]' <<<"$output")" = '[23,3]' ]
	[ "$(jq -r '.reports[0].table_format' <<<"$output")" = 4.0 ]
	run "$OOM_DUMP" --from-log "$LOGS/4.15-dmesg-T.log" -f json
	[ "$(jq -c '.reports[0].tasks[3] | [.pgtables_bytes, .swapents, .oom_score_adj]' <<<"$output")" = '[12152832,32768,500]' ]
	run "$OOM_DUMP" --from-log "$LOGS/4.19-dmesg-caller.log" -f json
	[ "$(jq -r '.reports[0] | .table_format + " " + .constraint' <<<"$output")" = "4.19 CONSTRAINT_NONE" ]
}

@test "a damaged report is reported on stderr, the others still print, exit 1" {
	run --separate-stderr "$OOM_DUMP" --from-log "$LOGS/damaged.log"
	[ "$status" -eq 1 ]
	diff <(printf '%s\n' "$output") "$EXPECTED/oom-dump-log-damaged.txt"
	[ "$(printf '%s\n' "$stderr" | grep -c 'damaged OOM report')" -eq 2 ]
	[[ "$stderr" == *"line 4: malformed task table row"* ]]
}

@test "--sort rss -n 1 picks the biggest task of each report" {
	run "$OOM_DUMP" --from-log "$LOGS/6.8-journal.log" --sort rss -n 1 -f json
	[ "$(jq -c '[.reports[].tasks[].pid]' <<<"$output")" = '[912,3001]' ]
}

@test "prometheus from a log: valid samples and a report count" {
	run "$OOM_DUMP" --from-log "$LOGS/6.8-journal.log" -f prometheus
	[ "$status" -eq 0 ]
	grep -qx 'oom_log_reports 2' <<<"$output"
	# each metric's samples form one group, right after its own HELP and TYPE
	awk '/^# HELP/ { if (seen[$3]++) exit 1; cur = $3; next } /^# TYPE/ { if ($3 != cur) exit 1; next }
		{ n = $0; sub(/[{ ].*/, "", n); if (n != cur) exit 1 }' <<<"$output"
	grep -qF 'oom_log_task_rss_pages{report="2",pid="913",comm="new\\x1bline"} 1020' <<<"$output"
	grep -qF 'oom_log_victim_rss_bytes{report="1",pid="912",comm="postgres"}' <<<"$output"
}

@test "a log without OOM reports prints nothing and says so" {
	run --separate-stderr "$OOM_DUMP" --from-log "$TOP/Makefile"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[[ "$stderr" == *"no OOM report"* ]]
	run "$OOM_DUMP" --from-log "$BATS_TEST_TMPDIR/missing.log"
	[ "$status" -eq 1 ]
}
