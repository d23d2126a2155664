# Debian's chromium for the browser tests of the recipe pages (test/serve), driven by playwright-core.
# Sourced by scripts/test.sh. Installs it once (a machine that has it pays nothing) and names the binary
# in COMMAND_SCOUT_CHROMIUM; the browser tests skip, saying why, when it is missing.
_scout_chromium=$(command -v chromium 2>/dev/null || true)
if [ -z "$_scout_chromium" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "test/setup/40-chromium.sh: installing chromium" >&2
    # Other installs may hold the dpkg lock: wait for it rather than fail.
    { apt-get -o DPkg::Lock::Timeout=600 update -qq &&
      DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends chromium; } >&2 ||
      echo "test/setup/40-chromium.sh: could not install chromium; the browser tests will skip" >&2
    _scout_chromium=$(command -v chromium 2>/dev/null || true)
  else
    echo "test/setup/40-chromium.sh: chromium is missing (apt-get install chromium as root); the browser tests will skip" >&2
  fi
fi
if [ -n "$_scout_chromium" ]; then export COMMAND_SCOUT_CHROMIUM="$_scout_chromium"; fi
unset _scout_chromium
