# Debian tools the curated-recipe tests run for real (test/library): PostgreSQL for the db
# recipes, and lsof, ss, fuser, dig, nc, openssl, curl for the network recipes. Sourced by
# scripts/test.sh. Installs only what is missing (one apt-get update, then one install), so a
# machine that has them pays nothing. The db tests start and stop their own throwaway cluster
# (initdb/pg_ctl in a temp dir); this script only installs packages and names the server's bin dir.
_scout_missing=()
command -v lsof >/dev/null 2>&1 || _scout_missing+=(lsof)
command -v ss >/dev/null 2>&1 || _scout_missing+=(iproute2)
command -v fuser >/dev/null 2>&1 || _scout_missing+=(psmisc)
command -v dig >/dev/null 2>&1 || _scout_missing+=(bind9-dnsutils)
command -v openssl >/dev/null 2>&1 || _scout_missing+=(openssl)
command -v curl >/dev/null 2>&1 || _scout_missing+=(curl ca-certificates)
command -v nc >/dev/null 2>&1 || _scout_missing+=(netcat-openbsd)
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || _scout_missing+=(postgresql postgresql-contrib)
if [ "${#_scout_missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "test/setup/30-postgres.sh: installing ${_scout_missing[*]}" >&2
    # A failed install only costs the tests that need the tool: they skip and say which tool is missing.
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${_scout_missing[@]}"; } >&2 ||
      echo "test/setup/30-postgres.sh: could not install ${_scout_missing[*]}; the tests that need them will skip" >&2
  else
    echo "test/setup/30-postgres.sh: missing ${_scout_missing[*]} (install them as root with apt-get); the tests that need them will skip" >&2
  fi
fi
# The newest installed server's bin dir (initdb, pg_ctl are not on PATH in Debian's layout).
_scout_pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -n "$_scout_pg_bin" ]; then export COMMAND_SCOUT_PG_BIN="$_scout_pg_bin"; fi
unset _scout_missing _scout_pg_bin
