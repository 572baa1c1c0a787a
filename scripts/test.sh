#!/usr/bin/env bash
# `npm test`: every suite, in order, none skipped silently. Each suite runs even when an earlier one failed, so
# one run shows every failure; the last line sums the tests of all suites and their time, and the exit code says
# pass or fail. Each step's wall time is printed as it ends and kept in test-results/step-times.txt (name, seconds,
# ok or failed, tab-separated) for the summary.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results
rm -f test-results/*.json test-results/step-times.txt
failed_steps=()

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
step "server (SQLite)" env TEST_DB=sqlite npx vitest run --project server --reporter=default --reporter=json --outputFile.json=test-results/vitest-server-sqlite.json
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  step "server (PostgreSQL)" env TEST_DB=postgres npx vitest run --project server --reporter=default --reporter=json --outputFile.json=test-results/vitest-server-postgres.json
  # Two real server processes behind nginx on one PostgreSQL database, one Redis and a fake S3 (issue 32).
  step "cluster (2 instances)" npx vitest run --project cluster --reporter=default --reporter=json --outputFile.json=test-results/vitest-cluster.json
else
  echo
  echo "=== server (PostgreSQL), cluster (2 instances): not run — set TEST_DATABASE_URL=postgres://... to run them"
fi
step "build" npx vite build --logLevel warn
step "e2e (Chromium)" env PLAYWRIGHT_JSON_OUTPUT_NAME=test-results/playwright.json npx playwright test --reporter=list,json

echo
node scripts/test-summary.mjs "${failed_steps[@]+"${failed_steps[@]}"}"
[ ${#failed_steps[@]} -eq 0 ]
