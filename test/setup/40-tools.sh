# The real tools the newer collectors' tests compare against, pinned, installed once under .cache/:
# - go-task (the go-task-bin wheel), poethepoet, pdm and hatch from PyPI, in a venv
#   (test/setup/python-tools/requirements.txt);
# - mise (@jdxcode/mise ships the platform binary) and nx from npm (test/setup/node-tools);
# - composer and php-cli from Debian, when composer is not on PATH (apt is not cached here:
#   it installs once per machine and is skipped after that).
# go and cmake come with the machine. Sourced by scripts/test.sh. A tool that fails to install is
# reported and its tests skip with that reason; the rest of the suite still runs.
python_tools=.cache/python-tools
if ! cmp -s test/setup/python-tools/requirements.txt "$python_tools/.installed-requirements.txt"; then
  rm -rf "$python_tools"
  if python3 -m venv "$python_tools" \
    && "$python_tools/bin/pip" install --quiet --disable-pip-version-check -r test/setup/python-tools/requirements.txt; then
    cp test/setup/python-tools/requirements.txt "$python_tools/.installed-requirements.txt"
  else
    echo "test/setup/40-tools.sh: the Python tools did not install; their tests skip" >&2
  fi
fi
node_tools=.cache/node-tools
if ! cmp -s test/setup/node-tools/package-lock.json "$node_tools/.installed-lock.json"; then
  rm -rf "$node_tools" && mkdir -p "$node_tools"
  cp test/setup/node-tools/package.json test/setup/node-tools/package-lock.json "$node_tools/"
  if (cd "$node_tools" && npm install --no-audit --no-fund --loglevel=error); then
    cp test/setup/node-tools/package-lock.json "$node_tools/.installed-lock.json"
  else
    echo "test/setup/40-tools.sh: mise and nx did not install; their tests skip" >&2
  fi
fi
if ! command -v composer >/dev/null 2>&1; then
  { apt-get -o DPkg::Lock::Timeout=600 install -y -qq composer php-cli >/dev/null 2>&1 \
    || { apt-get update -qq >/dev/null 2>&1 && apt-get -o DPkg::Lock::Timeout=600 install -y -qq composer php-cli >/dev/null 2>&1; }; } \
    || echo "test/setup/40-tools.sh: composer did not install; its tests skip" >&2
fi
# Only the tools' own executables go on PATH (not the venv's python or pip).
export COMMAND_SCOUT_TOOLS_BIN="$PWD/.cache/tools-bin"
mkdir -p "$COMMAND_SCOUT_TOOLS_BIN"
for tool in "$python_tools/bin/task" "$python_tools/bin/poe" "$python_tools/bin/pdm" "$python_tools/bin/hatch" \
  "$node_tools/node_modules/.bin/mise" "$node_tools/node_modules/.bin/nx"; do
  [ -x "$tool" ] && ln -sf "$PWD/$tool" "$COMMAND_SCOUT_TOOLS_BIN/"
done
export PATH="$COMMAND_SCOUT_TOOLS_BIN:$PATH"
