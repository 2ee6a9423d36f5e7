#!/usr/bin/env bash
# Totals the suite logs written by scripts/run_tests.sh. For each LOGDIR/*.log, the last
# line of the form "... N passed, M failed" (our runners) or doctest's
# "[doctest] test cases: T | N passed | M failed" gives the suite's counts; a suite that
# exited non-zero without reporting a failure (crash, sanitizer, timeout) counts one failure.
# Each suite's line also gives its time (LOGDIR/*.time). The last line printed is
# "N passed, M failed"; exits 1 if anything failed.
#
# Usage: scripts/summarize_tests.sh LOGDIR
set -uo pipefail

logdir=${1:?usage: $0 LOGDIR}
total_pass=0 total_fail=0 bad=0
failed=()
shopt -s nullglob
logs=("$logdir"/*.log)

echo "=== summary"
if ((${#logs[@]} == 0)); then
  echo "no test logs in $logdir"
  bad=1
fi
for log in "${logs[@]}"; do
  name=$(basename "$log" .log)
  rc=$(cat "${log%.log}.rc" 2>/dev/null || echo 1)
  # Strip colour codes, then find the last summary line.
  counts=$(sed -e 's/\x1b\[[0-9;]*m//g' "$log" | awk '
    /\[doctest\] test cases:/ {
      if (match($0, /[0-9]+ passed/)) p = substr($0, RSTART, RLENGTH) + 0
      if (match($0, /[0-9]+ failed/)) f = substr($0, RSTART, RLENGTH) + 0
      found = 1; next
    }
    /[0-9]+ passed, [0-9]+ failed[ \t]*$/ {
      match($0, /[0-9]+ passed, [0-9]+ failed[ \t]*$/)
      split(substr($0, RSTART, RLENGTH), w, " ")
      p = w[1] + 0; f = w[3] + 0; found = 1
    }
    END { if (found) print p, f }')
  if [[ -z $counts ]]; then
    pass=0 fail=1 note=" (no summary line; exit status $rc)"
  else
    read -r pass fail <<<"$counts"
    note=""
    if [[ $rc != 0 ]] && ((fail == 0)); then
      fail=1 note=" (exit status $rc after reporting no failure)"
    fi
  fi
  took=$(sed -n 's/.* took \([0-9]*s\)$/ in \1/p' "${log%.log}.time" 2>/dev/null)
  printf '%s: %d passed, %d failed%s%s\n' "$name" "$pass" "$fail" "$note" "$took"
  total_pass=$((total_pass + pass))
  total_fail=$((total_fail + fail))
  ((fail > 0)) && failed+=("$name: $fail failed$note|$log")
done

# Where the time went: the steps of make test (scripts/step_clock.sh) and the builds that ran
# in the background beside them (scripts/background_build.sh).
if [[ -f $logdir/steps.txt ]]; then
  echo "=== time per step (wall; background builds overlap the steps)"
  while IFS= read -r line; do
    seconds=${line##* }
    printf '%s: %d:%02d\n' "${line% *}" $((seconds / 60)) $((seconds % 60))
  done <"$logdir/steps.txt"
  for file in "$logdir"/*-build.seconds; do
    seconds=$(<"$file")
    printf 'background %s build: %d:%02d\n' "$(basename "$file" -build.seconds)" $((seconds / 60)) $((seconds % 60))
  done
fi
# The failures last, next to the totals, where a truncated log still shows them: each failed
# suite with its first failing checks.
if ((${#failed[@]} > 0)); then
  echo "=== failed suites"
  for entry in "${failed[@]}"; do
    echo "${entry%|*}"
    sed -e 's/\x1b\[[0-9;]*m//g' "${entry##*|}" | grep -E '^(FAIL|not ok)|ERROR|[Ee]rror:|failed:|FAILED' | head -3 | cut -c1-240 | sed 's/^/    /'
  done
fi
echo "$total_pass passed, $total_fail failed"
((total_fail == 0 && bad == 0))
