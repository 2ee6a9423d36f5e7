#!/usr/bin/env bash
# Lets `make test` compile the next build while the previous build's suites run: the suites
# are mostly single-threaded, so on two cores a niced compile beside them costs them little
# and saves most of the compile's wall time.
#   scripts/background_build.sh start LOGDIR NAME COMMAND...   runs COMMAND niced, in the background
#   scripts/background_build.sh wait LOGDIR NAME               waits for it, prints its output,
#                                                              exits with its status
set -uo pipefail
action=$1 logdir=$2 name=$3
shift 3
mkdir -p "$logdir"
output=$logdir/$name-build.txt status=$logdir/$name-build.status
case $action in
  start)
    rm -f "$status"
    (nice -n 10 "$@" >"$output" 2>&1 </dev/null; echo $? >"$status") &
    ;;
  wait)
    if [[ ! -f $output ]]; then echo "background_build: $name was not started" >&2; exit 1; fi
    while [[ ! -s $status ]]; do sleep 2; done
    cat "$output"
    exit "$(cat "$status")"
    ;;
  *)
    echo "usage: $0 start|wait LOGDIR NAME [COMMAND...]" >&2
    exit 2
    ;;
esac
