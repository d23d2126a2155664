# The real task runners (just, deno, bun, pnpm, yarn) from the npm registry, pinned by
# test/setup/runners/package-lock.json, installed once under .cache/runners. Sourced by scripts/test.sh.
runners_dir=.cache/runners
if ! cmp -s test/setup/runners/package-lock.json "$runners_dir/package-lock.json"; then
  rm -rf "$runners_dir" && mkdir -p "$runners_dir"
  cp test/setup/runners/package.json test/setup/runners/package-lock.json "$runners_dir/"
  (cd "$runners_dir" && npm ci --no-audit --no-fund --loglevel=error)
fi
export COMMAND_SCOUT_RUNNERS_BIN="$PWD/$runners_dir/node_modules/.bin"
export PATH="$COMMAND_SCOUT_RUNNERS_BIN:$PATH"
