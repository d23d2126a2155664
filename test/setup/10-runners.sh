# The real task runners (just, deno, bun, pnpm, yarn) from the npm registry, pinned exactly in
# test/setup/runners/package.json and its lockfile, installed once under .cache/runners.
# Sourced by scripts/test.sh. (npm ci refuses these locks: the runners' builds for other
# platforms are optional dependencies the registry does not list for this one; npm install
# with the committed lock installs the same versions.)
runners_dir=.cache/runners
if ! cmp -s test/setup/runners/package-lock.json "$runners_dir/.installed-lock.json"; then
  rm -rf "$runners_dir" && mkdir -p "$runners_dir"
  cp test/setup/runners/package.json test/setup/runners/package-lock.json "$runners_dir/"
  (cd "$runners_dir" && npm install --no-audit --no-fund --loglevel=error)
  cp test/setup/runners/package-lock.json "$runners_dir/.installed-lock.json"
fi
export COMMAND_SCOUT_RUNNERS_BIN="$PWD/$runners_dir/node_modules/.bin"
export PATH="$COMMAND_SCOUT_RUNNERS_BIN:$PATH"
