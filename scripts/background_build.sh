#!/usr/bin/env bash
# Lets `make test` compile the next build while the previous build's suites run: the suites
# are mostly single-threaded, so on two cores a niced compile beside them costs them little
# and saves most of the compile's wall time.
#   scripts/background_build.sh start LOGDIR NAME COMMAND...   runs COMMAND niced, in the background
#   scripts/background_build.sh wait LOGDIR NAME               waits for it, prints its output,
#                                                              exits with its status (1 with a
#                                                              message naming it when it failed
#                                                              or died without one)
#   scripts/background_build.sh stop LOGDIR NAME               stops it if it still runs
# The build runs in a session of its own and is stopped, whole, when the process that
# started it (BACKGROUND_BUILD_OWNER, default the caller: the Makefile passes make's pid)
# exits first (make test failing or interrupted), and when NAME is started again while an
# earlier one still runs (both would write the same build directory). Nothing reads stdin.
set -uo pipefail
if (($# < 3)); then
  echo "usage: $0 start|wait|stop LOGDIR NAME [COMMAND...]" >&2
  exit 2
fi
action=$1 logdir=$2 name=$3
shift 3
mkdir -p "$logdir"
output=$logdir/$name-build.txt status=$logdir/$name-build.status
lock=$logdir/$name-build.lock session=$logdir/$name-build.session

# Stops the build of NAME if it runs, and waits until its wrapper is gone (it holds the lock).
stop_build() {
  if [[ -s $session ]] && ! flock -n "$lock" true; then
    pkill -TERM -s "$(cat "$session")" 2>/dev/null
    if ! timeout 30 flock "$lock" true; then
      pkill -KILL -s "$(cat "$session")" 2>/dev/null
      flock "$lock" true
    fi
  fi
}

case $action in
  start)
    if (($# == 0)); then echo "usage: $0 start LOGDIR NAME COMMAND..." >&2; exit 2; fi
    stop_build
    rm -f "$status" "$session" "${status%.status}.seconds"
    owner=${BACKGROUND_BUILD_OWNER:-$PPID}
    # The wrapper holds the lock (fd 9, closed for the build and the watchdog) until it has
    # written the status; the watchdog ends the session when the owner is gone.
    # shellcheck disable=SC2016  # expanded by the inner bash
    setsid bash -c '
      lock=$1 session=$2 status=$3 output=$4 owner=$5
      shift 5
      exec 9>"$lock"
      flock 9
      echo $$ >"$session"
      (while kill -0 "$owner" 2>/dev/null; do sleep 2; done; pkill -TERM -s $$) 9>&- &
      watchdog=$!
      nice -n 10 "$@" >"$output" 2>&1 9>&-
      rc=$?
      echo "$SECONDS" >"${status%.status}.seconds"
      echo $rc >"$status"
      kill "$watchdog" 2>/dev/null
    ' background-build "$lock" "$session" "$status" "$output" "$owner" "$@" </dev/null >/dev/null 2>&1 &
    # Back once the wrapper holds the lock, so that a `wait` right after finds it running.
    for _ in $(seq 300); do
      [[ -s $session ]] && exit 0
      sleep 0.1
    done
    echo "background_build: the $name build did not start" >&2
    exit 1
    ;;
  wait)
    if [[ ! -f $lock ]]; then echo "background_build: the $name build was not started" >&2; exit 1; fi
    flock "$lock" true  # until the wrapper is gone
    cat "$output" 2>/dev/null
    if [[ ! -s $status ]]; then
      stop_build
      pkill -TERM -s "$(cat "$session")" 2>/dev/null  # what the dead wrapper left running
      echo "background_build: the $name build stopped without an exit status (killed?); its output: $output" >&2
      exit 1
    fi
    rc=$(cat "$status")
    if ((rc != 0)); then
      echo "background_build: the $name build failed (exit status $rc); its output is above and in $output" >&2
    fi
    exit "$rc"
    ;;
  stop)
    stop_build
    ;;
  *)
    echo "usage: $0 start|wait|stop LOGDIR NAME [COMMAND...]" >&2
    exit 2
    ;;
esac
