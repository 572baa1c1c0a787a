#!/usr/bin/env bash
# `npm test`: every suite, none skipped silently. Each suite runs even when an earlier one failed, so one run shows
# every failure; the last line sums the tests of all suites and the run's wall time, and the exit code says pass or
# fail. Each step's wall time is printed as it ends and kept in test-results/step-times.txt (name, seconds, ok or
# failed, tab-separated) for the summary.
#
# Two groups of steps run beside each other. In each, the steps that wait (on PostgreSQL, timers, child processes, a
# browser) run at normal priority, and the steps that only compute run at the lowest (nice 19) in the cores they
# leave idle, so they take little from the steps whose tests have deadlines:
# - the server suites on SQLite and PostgreSQL and the cluster test, beside the type check, the lint and the build;
# - the browser suite, beside the unit+model suite.
# Measured on the 2-core machine (stop 45): alone, the browser suite kept it 87% busy and the server group 85-89%;
# the unit+model suite ran after the server group, 83 s at 98%. Beside the browser suite at nice 19 it took 7.6 min
# instead, and the browser suite 34 s longer (574 s against 540 s): 49 s off the run. With every step in one group
# (the server suites at nice 5) the machine was 99% busy, but 7 tests of the starved steps timed out, so the groups
# stay two. The two groups: the first 163 s (against 36 s for the type check group and 142 s for the server group
# one after the other), the browser group 515 s; npm test 11 min 19 s, 95% busy (13 min 39 s, 88%, before).
# A step beside others writes its output to test-results/logs/, printed whole when its group ends.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results/logs
rm -f test-results/*.json test-results/step-times.txt test-results/logs/*.log
failed_steps=()
run_started=$EPOCHREALTIME
# The whole machine's busy CPU time (/proc/stat: user, nice, system, irq, softirq, steal), in clock ticks: how much
# work the run was, which compares across machines and loads better than its wall time (issue 29).
busy_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat 2>/dev/null || echo 0; }
run_busy=$(busy_ticks)

# Runs one step and records its time and outcome in test-results/logs/<n>.status (seconds, ok|failed).
run_step() {
  local n="$1" name="$2"; shift 2
  local started=$EPOCHREALTIME status=ok
  "$@" || status=failed
  awk -v a="$started" -v b="$EPOCHREALTIME" -v s="$status" 'BEGIN { printf "%.1f\t%s\n", b - a, s }' > "test-results/logs/$n.status"
}

# Reports a finished step: its line, its time in step-times.txt, and its name among the failed ones if so.
report_step() {
  local n="$1" name="$2" seconds status
  IFS=$'\t' read -r seconds status < "test-results/logs/$n.status"
  echo "=== $name: $status in $seconds s"
  printf '%s\t%s\t%s\n' "$name" "$seconds" "$status" >> test-results/step-times.txt
  [ "$status" = ok ] || failed_steps+=("$name")
}

steps_run=0
# A step alone: its output as it comes.
step() {
  local name="$1"; shift
  steps_run=$((steps_run + 1))
  echo
  echo "=== $name: $*"
  run_step "$steps_run" "$name" "$@"
  report_step "$steps_run" "$name"
}

# A group: `group "name" cmd... -- "name" cmd... --` runs the steps at once and prints each one whole, in order.
group() {
  local names=() numbers=() pids=() cmd=()
  while [ $# -gt 0 ]; do
    local name="$1"; shift
    cmd=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do cmd+=("$1"); shift; done
    shift
    steps_run=$((steps_run + 1))
    names+=("$name"); numbers+=("$steps_run")
    echo
    echo "=== $name: ${cmd[*]} (beside the others of its group; its output follows when it ends)"
    run_step "$steps_run" "$name" "${cmd[@]}" > "test-results/logs/$steps_run.log" 2>&1 &
    pids+=($!)
  done
  wait "${pids[@]}"
  for i in "${!names[@]}"; do
    echo
    echo "=== ${names[$i]}: output"
    cat "test-results/logs/${numbers[$i]}.log"
    report_step "${numbers[$i]}" "${names[$i]}"
  done
}

CHROME_PATH="$(bash scripts/find-chromium.sh)" || { echo "npm test: no Chromium, cannot run the browser tests." >&2; exit 1; }
export CHROME_PATH
if [ -z "${CHROME_HEADLESS_SHELL:-}" ] && [ ! -x /usr/bin/chromium-headless-shell ]; then
  echo "npm test: no Chromium headless shell (apt-get install -y chromium-headless-shell, or CHROME_HEADLESS_SHELL=...):"
  echo "          the browser tests run in the whole Chromium, about a quarter slower."
fi

vitest_json() { echo "--reporter=default --reporter=json --outputFile.json=test-results/vitest-$1.json"; }
server_group=("server (SQLite)" env TEST_DB=sqlite npx vitest run --project server $(vitest_json server-sqlite) --)
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  # The cluster test: two real server processes behind nginx on one PostgreSQL database, one Redis and a fake S3
  # (issue 32).
  server_group+=(
    "server (PostgreSQL)" env TEST_DB=postgres npx vitest run --project server $(vitest_json server-postgres) --
    "cluster (2 instances)" npx vitest run --project cluster $(vitest_json cluster) --
  )
else
  echo
  echo "=== server (PostgreSQL), cluster (2 instances): not run — set TEST_DATABASE_URL=postgres://... to run them"
fi
group "${server_group[@]}" \
  "typecheck" nice -n 19 npx tsc --noEmit -p tsconfig.json -- \
  "lint" nice -n 19 npx eslint . --max-warnings 0 -- \
  "build" nice -n 19 npx vite build --logLevel warn --
group \
  "e2e (Chromium)" env PLAYWRIGHT_JSON_OUTPUT_NAME=test-results/playwright.json npx playwright test --reporter=list,json -- \
  "unit+model" nice -n 19 npx vitest run --project unit $(vitest_json unit) --
awk -v a="$run_started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f\n", b - a }' > test-results/wall-seconds.txt
echo "$(( $(busy_ticks) - run_busy )) $(getconf CLK_TCK) $(nproc)" > test-results/cpu-ticks.txt

echo
node scripts/test-summary.mjs "${failed_steps[@]+"${failed_steps[@]}"}"
[ ${#failed_steps[@]} -eq 0 ]
