#!/usr/bin/env bash
# Everything CI runs: install the package's dependencies, build, install the pinned tools the
# tests compare against or run in (test/setup/*.sh, cached under .cache/), then every test.
# Usage: npm test [-- SUITE...]   (suites are folders under test/, e.g. unit collectors e2e)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
npm run --silent build
[ ! -d recipes ] || node bin/command-scout recipes validate recipes   # an invalid shipped recipe fails CI
mkdir -p .cache
for setup in test/setup/*.sh; do
  [ -e "$setup" ] || continue
  # shellcheck disable=SC1090
  source "$setup"
done
node scripts/run-tests.mjs "$@"
