#!/usr/bin/env bash
# Prints the Chromium the browser tests use: CHROME_PATH, else /usr/bin/chromium. When there is none and we
# run as root with apt-get, installs Debian's chromium and its headless shell, which most e2e tests run in
# (test/e2e/helpers/chromium-args.ts), and says so; otherwise fails with the command to run.
set -euo pipefail
candidate="${CHROME_PATH:-/usr/bin/chromium}"
if [ -x "$candidate" ]; then echo "$candidate"; exit 0; fi
if [ -n "${CHROME_PATH:-}" ]; then
  echo "CHROME_PATH=$CHROME_PATH is not an executable Chromium." >&2
  exit 1
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Chromium not found: installing Debian's chromium for the browser tests (apt-get install -y chromium chromium-headless-shell)..." >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-headless-shell) >&2
  if [ -x /usr/bin/chromium ]; then echo /usr/bin/chromium; exit 0; fi
fi
echo "Chromium is needed for the end-to-end tests and was not found. Install it with:" >&2
echo "  sudo apt-get install -y chromium chromium-headless-shell      (or set CHROME_PATH to a Chromium/Chrome binary)" >&2
exit 1
