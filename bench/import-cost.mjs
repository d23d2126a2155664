// Where the load time of one of the bundle's entries goes: every module it loads after dsh's own
// @deepseek-ai packages, by part (a package under node_modules, or a folder of dist/src/), with the
// imports that lead into each part from outside it, and what each part costs the entry: the entry's
// import time with the part already loaded, against without, in fresh processes (medians of paired
// rounds, order alternating). That difference is what the entry saves when the part's imports become
// lazy and nothing else at start needs it. Runs on the pinned Node 24 (its module.registerHooks
// records the graph as it loads). Usage (after npm run build):
//   node bench/import-cost.mjs [adapter|chef|curated/plugin|skills|collectors/make|bundle|. ...]
//   (default: every enabled row alone, then `bundle`, all enabled rows in one process as dsh loads
//   them, then `.`, the package main)
//   IMPORT_ROUNDS=5 (default), IMPORT_TOP=12 parts per entry.
import { spawnSync } from 'node:child_process'
import { relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { bundleRows, entryFile, loadNode, peerPackages, REPO } from './load-support.mjs'
import { median } from './support.mjs'

const ROUNDS = Number(process.env.IMPORT_ROUNDS ?? 5)
const TOP = Number(process.env.IMPORT_TOP ?? 12)
const node = loadNode()
const dshPeers = peerPackages(node.path)
/** dsh's packages for a harness entry; none for the package main, which an embedding imports alone. */
let peers = dshPeers

/** The modules an entry loads after the peers, and the edges between them (Node's resolve hook). */
function graphOf(entries) {
  const program = `
    import { registerHooks } from 'node:module'
    const [peers, entries] = JSON.parse(process.argv[1])
    const seen = new Set(); const edges = []; const before = new Set(); let recording = false
    registerHooks({ resolve(spec, ctx, next) {
      const r = next(spec, ctx)
      if (!recording) before.add(r.url)
      else if (!r.url.startsWith('node:') && !seen.has(r.url + ' ' + ctx.parentURL)) {
        seen.add(r.url + ' ' + ctx.parentURL)
        edges.push([ctx.parentURL, r.url])
      }
      return r
    } })
    for (const p of peers) await import(p)
    recording = true
    for (const e of entries) await import(e)
    process.stdout.write(JSON.stringify(edges.filter(([, u]) => !before.has(u))))`
  const args = ['--input-type=module', '-e', program, JSON.stringify([peers, entries.map((e) => pathToFileURL(e).href)])]
  const r = spawnSync(node.path, args, { cwd: REPO, encoding: 'utf8', maxBuffer: 1 << 26 })
  if (r.status !== 0) {
    throw new Error(`recording ${entries.join(', ')} failed (module.registerHooks needs Node >= 22.15): ${r.stderr.trim().split('\n').slice(-2).join(' ')}`)
  }
  return JSON.parse(r.stdout)
}

/** A module's part: `pkg <name>` under node_modules, else its folder under dist/src (risk and each collector format on their own). */
function partOf(url) {
  if (!url.startsWith('file:')) return url
  const path = fileURLToPath(url)
  const nm = path.lastIndexOf('/node_modules/')
  if (nm >= 0) {
    const rest = path.slice(nm + 14).split('/')
    return `pkg ${rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`
  }
  const rel = relative(`${REPO}dist/src`, path).split('/')
  if (rel.length === 1) return `src/${rel[0]}`
  const deeper = (rel[0] === 'book' && rel[1] === 'risk') || (rel[0] === 'collectors' && rel.length > 2) || (rel[0] === 'dsh' && rel[1] === 'entries')
  if (deeper) return `src/${rel[0]}/${rel[1]}`
  return `src/${rel[0]}`
}

const short = (url) => (url?.startsWith('file:') ? relative(REPO, fileURLToPath(url)) : url)

/**
 * The entry's import time in a fresh process after the peers and `preload`: CPU time (user and
 * system, every thread), which load on a shared machine disturbs far less than wall time.
 */
function timeImport(entries, preload) {
  const program = `
    const [peers, preload, entries] = JSON.parse(process.argv[1])
    for (const p of peers) await import(p)
    for (const p of preload) await import(p)
    const c = process.cpuUsage()
    for (const e of entries) await import(e)
    const d = process.cpuUsage(c)
    process.stdout.write(String((d.user + d.system) / 1000))`
  const args = ['--input-type=module', '-e', program, JSON.stringify([peers, preload, entries.map((e) => pathToFileURL(e).href)])]
  const r = spawnSync(node.path, args, { cwd: REPO, encoding: 'utf8' })
  if (r.status !== 0) throw new Error(r.stderr)
  return Number(r.stdout)
}

function blame(label, entries) {
  const edges = graphOf(entries)
  // A package's part is the package our code imports it through: execa's dependencies count as execa.
  const modules = new Map()
  for (const [parent, url] of edges) {
    if (modules.has(url)) continue
    const own = partOf(url)
    modules.set(url, own.startsWith('pkg ') && modules.get(parent)?.startsWith('pkg ') ? modules.get(parent) : own)
  }
  const parts = new Map()
  for (const [url, part] of modules) {
    const p = parts.get(part) ?? { urls: [], into: new Set() }
    p.urls.push(url)
    parts.set(part, p)
  }
  for (const [parent, url] of edges) {
    const part = modules.get(url)
    const from = modules.get(parent) ?? partOf(parent)
    if (from !== part) parts.get(part).into.add(`${short(parent)} -> ${short(url)}`)
  }
  const entryParts = new Set(entries.map((e) => partOf(pathToFileURL(e).href)))
  const candidates = [...parts].filter(([part]) => !entryParts.has(part))
  const base = []
  const saved = new Map(candidates.map(([part]) => [part, []]))
  for (let i = 0; i < ROUNDS; i++) {
    for (const [part, p] of candidates) {
      const urls = p.urls.filter((u) => u.startsWith('file:'))
      const pair = i % 2 === 0 ? [timeImport(entries, []), timeImport(entries, urls)] : [timeImport(entries, urls), timeImport(entries, [])].reverse()
      base.push(pair[0])
      saved.get(part).push(pair[0] - pair[1])
    }
  }
  console.log(`\n${label}: ${modules.size} modules${peers.length ? ' after the peers' : ''}, ${median(base).toFixed(1)} ms of CPU to import (${node.label})`)
  console.log('| part | modules | CPU saved when it is not loaded at start | imports into it from outside |')
  console.log('|---|---|---|---|')
  const rows = candidates.map(([part, p]) => [part, p, median(saved.get(part))]).sort((a, b) => b[2] - a[2]).slice(0, TOP)
  for (const [part, p, s] of rows) {
    const into = [...p.into]
    console.log(`| ${part} | ${p.urls.length} | ${s.toFixed(1)} ms | ${into.slice(0, 4).join('; ')}${into.length > 4 ? `; … (${into.length})` : ''} |`)
  }
}

const args = process.argv.slice(2)
const enabled = [...new Set(bundleRows().filter((r) => !r.disabled).map((r) => r.file))]
const MAIN = `${REPO}dist/src/index.js`
/** A target: `.` the package main, `bundle` every enabled row at once (as dsh loads them), else a row's subpath. */
const target = (a) => [a, a === '.' ? [MAIN] : a === 'bundle' ? enabled : [entryFile(`dsh-command-scout/${a}`)]]
const targets = args.length
  ? args.map(target)
  : [...new Map(bundleRows().filter((r) => !r.disabled).map((r) => [r.file, [r.name, [r.file]]])).values(), target('bundle'), target('.')]
for (const [label, files] of targets) {
  peers = files[0] === MAIN ? [] : dshPeers
  blame(label, files)
}
