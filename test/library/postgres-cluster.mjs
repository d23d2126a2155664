// A throwaway PostgreSQL cluster for the db recipe tests: initdb into a temp dir, start on
// 127.0.0.1 on a free port (trust auth, no fsync, pg_stat_statements preloaded), stop and delete
// at the end. The server refuses to run as root, so as root it runs as the `postgres` user.
import { readdirSync, existsSync } from 'node:fs'
import { mkdtemp, rm, chown } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServer } from 'node:net'
import { once } from 'node:events'
import { execFileSync } from 'node:child_process'
import { sh } from './harness.mjs'

/** The server's bin dir: $COMMAND_SCOUT_PG_BIN (set by test/setup/30-postgres.sh), else the newest under /usr/lib/postgresql. */
export function pgBin() {
  const fromEnv = process.env.COMMAND_SCOUT_PG_BIN
  if (fromEnv && existsSync(join(fromEnv, 'initdb'))) return fromEnv
  const base = '/usr/lib/postgresql'
  if (!existsSync(base)) return undefined
  const versions = readdirSync(base).filter((v) => existsSync(join(base, v, 'bin/initdb'))).sort((a, b) => Number(b) - Number(a))
  return versions.length ? join(base, versions[0], 'bin') : undefined
}

const asRoot = process.getuid?.() === 0

function serverUser() {
  if (!asRoot) return undefined
  try {
    const [uid, gid] = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim().split('\n').concat(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim())
    return { uid: Number(uid), gid: Number(gid) }
  } catch {
    return undefined
  }
}

/** Why the cluster cannot start here, or false. */
export function clusterUnavailable() {
  if (!pgBin()) return 'PostgreSQL server binaries not found (test/setup/30-postgres.sh installs postgresql as root)'
  if (asRoot && !serverUser()) return 'running as root and there is no postgres user to run the server as'
  return false
}

async function freePort() {
  const s = createServer().listen(0, '127.0.0.1')
  await once(s, 'listening')
  const { port } = s.address()
  await new Promise((r) => s.close(r))
  return port
}

/** Runs a server binary, as postgres when we are root. */
function serverCommand(bin, args) {
  const quoted = args.map((a) => `'${String(a).replace(/'/g, `'\\''`)}'`).join(' ')
  return asRoot ? `runuser -u postgres -- '${bin}' ${quoted}` : `'${bin}' ${quoted}`
}

/**
 * Starts a cluster; resolves with {env, dir, port, startStandby, stop}. `env` holds PGHOST, PGPORT, PGUSER
 * for every client command. `extra` adds server settings.
 */
export async function startCluster({ extra = [] } = {}) {
  const bin = pgBin()
  const dir = await mkdtemp(join(tmpdir(), 'scout-pg-'))
  const user = serverUser()
  if (user) await chown(dir, user.uid, user.gid)
  const servers = []
  const start = async (data, port, settings) => {
    const opts = [`-c listen_addresses=127.0.0.1 -p ${port} -c unix_socket_directories=${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off`, ...settings].join(' ')
    const r = await sh(serverCommand(join(bin, 'pg_ctl'), ['start', '-D', data, '-w', '-t', '30', '-l', `${data}.log`, '-o', opts]))
    if (r.code !== 0) throw new Error(`pg_ctl start failed: ${r.stdout}${r.stderr}\n${(await sh(`cat '${data}.log'`)).stdout}`)
    servers.push(data)
  }
  const data = join(dir, 'primary')
  let port
  try {
    const init = await sh(serverCommand(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C']))
    if (init.code !== 0) throw new Error(`initdb failed: ${init.stdout}${init.stderr}`)
    port = await freePort()
    await start(data, port, ['-c shared_preload_libraries=pg_stat_statements', ...extra])
  } catch (error) {
    // A cluster that did not come up leaves nothing behind: no server, no folder.
    for (const d of servers) await sh(serverCommand(join(bin, 'pg_ctl'), ['stop', '-D', d, '-m', 'immediate', '-w']))
    await rm(dir, { recursive: true, force: true })
    throw error
  }
  const env = { PGHOST: '127.0.0.1', PGPORT: String(port), PGUSER: 'postgres', PGCONNECT_TIMEOUT: '10' }
  return {
    env, dir, port,
    /** A streaming standby of this cluster (pg_basebackup -R); resolves with its client env. */
    async startStandby() {
      const standby = join(dir, 'standby')
      const b = await sh(serverCommand(join(bin, 'pg_basebackup'), ['-h', '127.0.0.1', '-p', port, '-U', 'postgres', '-D', standby, '-R', '-X', 'stream', '--no-sync', '-c', 'fast']))
      if (b.code !== 0) throw new Error(`pg_basebackup failed: ${b.stderr}`)
      const standbyPort = await freePort()
      await start(standby, standbyPort, ["-c primary_conninfo='host=127.0.0.1 port=" + port + " user=postgres application_name=scout_standby'"])
      return { ...env, PGPORT: String(standbyPort) }
    },
    async stop() {
      for (const d of servers.reverse()) await sh(serverCommand(join(bin, 'pg_ctl'), ['stop', '-D', d, '-m', 'immediate', '-w']))
      await rm(dir, { recursive: true, force: true })
    },
  }
}
