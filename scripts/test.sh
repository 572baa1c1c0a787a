#!/usr/bin/env bash
# `npm test`: every suite, none skipped silently. Each suite runs even when an earlier one failed, so one run shows
# every failure; the browser suite runs beside the server suites (see below). The last line sums the tests of all
# suites, the run's wall time and each step's, and the exit code says pass or fail. Each step's wall time is printed
# as it ends and kept in test-results/step-times.txt (name, seconds, ok or failed, tab-separated) for the summary.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results
rm -f test-results/*.json test-results/step-times.txt
failed_steps=()
run_started=$EPOCHREALTIME

step() {
  local name="$1"; shift
  local started=$EPOCHREALTIME status=ok
  echo
  echo "=== $name: $*"
  if ! "$@"; then failed_steps+=("$name"); status=failed; fi
  local seconds
  seconds=$(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
  echo "=== $name: $status in $seconds s"
  printf '%s\t%s\t%s\n' "$name" "$seconds" "$status" >> test-results/step-times.txt
}

CHROME_PATH="$(bash scripts/find-chromium.sh)" || { echo "npm test: no Chromium, cannot run the browser tests." >&2; exit 1; }
export CHROME_PATH

step "typecheck" npx tsc --noEmit -p tsconfig.json
step "lint" npx eslint . --max-warnings 0
step "unit+model" npx vitest run --project unit --reporter=default --reporter=json --outputFile.json=test-results/vitest-unit.json
step "build" npx vite build --logLevel warn

# The browser suite mostly waits (streamed replies, timers, page loads): with 3 workers its processes used about
# 0.8 CPU-seconds per second of the 2 cores, so the server suites run beside it in the time it leaves idle. Its
# output is kept in a file and printed when it ends, so the two do not interleave.
e2e_log=test-results/e2e-output.txt
( step "e2e (Chromium)" env PLAYWRIGHT_JSON_OUTPUT_NAME=test-results/playwright.json npx playwright test --reporter=list,json ) > "$e2e_log" 2>&1 &
e2e_pid=$!

step "server (SQLite)" env TEST_DB=sqlite npx vitest run --project server --reporter=default --reporter=json --outputFile.json=test-results/vitest-server-sqlite.json
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  step "server (PostgreSQL)" env TEST_DB=postgres npx vitest run --project server --reporter=default --reporter=json --outputFile.json=test-results/vitest-server-postgres.json
else
  echo
  echo "=== server (PostgreSQL): not run — set TEST_DATABASE_URL=postgres://... to run the server suite on PostgreSQL too"
fi

wait "$e2e_pid"
cat "$e2e_log"
# The step ran in a subshell: its outcome comes back through the step-times file.
if grep -q $'^e2e (Chromium)\t.*\tfailed$' test-results/step-times.txt; then failed_steps+=("e2e (Chromium)"); fi

echo
TEST_WALL_SECONDS=$(awk -v a="$run_started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }') \
  node scripts/test-summary.mjs "${failed_steps[@]+"${failed_steps[@]}"}"
[ ${#failed_steps[@]} -eq 0 ]
