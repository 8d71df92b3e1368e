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

# live_compare FORMAT: every process ps(1) shows with an mm (vsz > 0, not init) and that
# lives through the dump is listed with ps's uid and total_vm, and an rss within tolerance.
# ps runs before and after the dump; only processes whose vsz did not move are held to it.
live_compare() {
	local d="$BATS_TEST_TMPDIR" pk=$(( $(getconf PAGESIZE) / 1024 ))
	ps -e -o pid=,ruid=,vsz=,rss= >"$d/ps1"
	"$OOM_DUMP" --format "$1" >"$d/dump"
	ps -e -o pid=,ruid=,vsz=,rss= >"$d/ps2"
	# tgid uid total_vm rss from the rows (a name may span lines: only "[ N]" lines count)
	awk '/^\[ *[0-9]+\]/ { sub(/^\[ *[0-9]+\] */, ""); print $2, $1, $3, $4 }' "$d/dump" >"$d/rows"
	[ -s "$d/rows" ]
	awk -v pk="$pk" '
		FILENAME == ARGV[1] { v1[$1] = $3; r1[$1] = $4; u[$1] = $2; next }
		FILENAME == ARGV[2] { if ($1 in v1) { v2[$1] = $3; r2[$1] = $4 } next }
		{ have[$1] = 1; uid[$1] = $2; vm[$1] = $3; rss[$1] = $4 }
		END {
			bad = 0; n = 0
			for (p in v2) {
				if (p == 1 || v1[p] == 0 || v2[p] == 0) continue
				n++
				if (!(p in have)) { print "missing from the dump: " p; bad++; continue }
				if (uid[p] != u[p]) { print p ": uid " uid[p] " != ps " u[p]; bad++ }
				# (no int(): mawk clamps it to 32 bits; vsz is a whole number of pages in kB)
				if (v1[p] == v2[p] && vm[p] * pk != v1[p]) { print p ": total_vm " vm[p] " != ps " v1[p] " kB"; bad++ }
				lo = (r1[p] < r2[p] ? r1[p] : r2[p]) / pk; hi = (r1[p] > r2[p] ? r1[p] : r2[p]) / pk
				tol = 64 + hi / 10
				if (rss[p] < lo - tol || rss[p] > hi + tol) { print p ": rss " rss[p] " outside ps " lo "-" hi; bad++ }
			}
			print n " processes compared"
			exit bad > 0 || n == 0
		}' "$d/ps1" "$d/ps2" "$d/rows"
}

# A process that maps and unmaps between ps and the dump (sanitizer runs do) can still slip
# through the before/after check: a real mismatch fails all three tries.
live_compare_retry() {
	local i
	for i in 1 2 3; do
		live_compare "$1" && return 0
	done
	return 1
}

@test "live --format modern lists every ps process with an mm, same pid, uid, total_vm, rss" {
	live_compare_retry modern
}

@test "live --format 2.6.36 lists every ps process with an mm, same pid, uid, total_vm, rss" {
	live_compare_retry 2.6.36
}

@test "live json passes jq and the kernel heuristic reproduces oom_score" {
	"$OOM_DUMP" -f json -H kernel >"$BATS_TEST_TMPDIR/live.json"
	jq -e '.tasks | length > 0' "$BATS_TEST_TMPDIR/live.json"
	# a racing process may change between its files; nearly all must agree exactly
	total=$(jq '.tasks | length' "$BATS_TEST_TMPDIR/live.json")
	off=$(jq '[.tasks[] | select(.score != .oom_score)] | length' "$BATS_TEST_TMPDIR/live.json")
	[ $((off * 50)) -le "$total" ]
}
