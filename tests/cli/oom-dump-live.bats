#!/usr/bin/env bats
# oom-dump against the live /proc.

load helpers

@test "2.6.36 table of the live system lists this shell with its pid and uid" {
	run "$OOM_DUMP" --root /
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "[ pid ]   uid  tgid total_vm      rss cpu oom_adj oom_score_adj name" ]
	row=$(printf '%s\n' "$output" | awk -v p=$$ '$0 ~ "^\\[ *"p"\\]"')
	[ -n "$row" ]
	[ "$(echo "$row" | awk -F'] *' '{print $2}' | awk '{print $1, $2}')" = "$(id -ru) $$" ]
}

@test "no kernel thread and no init appear in the live table" {
	run "$OOM_DUMP"
	[ "$status" -eq 0 ]
	! printf '%s\n' "$output" | grep -q '^\[    1\]'
	! printf '%s\n' "$output" | grep -qw 'kthreadd'
}
