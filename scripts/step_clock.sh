#!/usr/bin/env bash
# Marks the end of a step of `make test`: appends "NAME SECONDS" to LOGDIR/steps.txt, the
# wall seconds since the previous mark (or, for the first, since STARTED, the epoch second
# make began), so that summarize_tests.sh shows where a run's time went.
# Usage: scripts/step_clock.sh LOGDIR STARTED NAME
set -uo pipefail
logdir=${1:?usage: $0 LOGDIR STARTED NAME} started=${2:?} name=${3:?}
mkdir -p "$logdir"
now=$(date +%s)
last=$(cat "$logdir/steps.last" 2>/dev/null || echo "$started")
echo "$name $((now - last))" >>"$logdir/steps.txt"
echo "$now" >"$logdir/steps.last"
