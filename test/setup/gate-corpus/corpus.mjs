// The gate corpus's pinned list and the layout of its cache, shared by the installer (fetch.mjs)
// and the test that reads it (test/gate/corpus-support.mjs): which packages, where each one's
// files go, and the stamp that says whether the cache holds exactly what the list pins.
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** This folder: the list, the backends, the installer and the review. */
export const LIST_DIR = new URL('.', import.meta.url).pathname
/** The cache the installer fills (git-ignored). */
export const CACHE_DIR = new URL('../../../.cache/gate-corpus/', import.meta.url).pathname

/** Files whose change means the cache must be fetched again: the list, the backends, the installer's rules. */
const STAMPED = ['packages.txt', 'pypi-backends.txt', 'fetch.mjs', 'corpus.mjs']

/**
 * The pinned packages: `{ id, registry, name, version, spec, key }`. `id` is the list's own text
 * (`npm:vite@8.3.8`), `spec` what the registry's client is given, `key` the cache folder's name.
 * Throws on a line that is neither form, so a typo fails the install instead of shrinking the corpus.
 */
export function readList(text = readFileSync(join(LIST_DIR, 'packages.txt'), 'utf8')) {
  const packages = []
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.replace(/#.*/, '').trim()
    if (!line) continue
    const npm = /^npm\s+((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)@(\d[\w.+-]*)$/i.exec(line)
    const pypi = /^pypi\s+([A-Za-z0-9][\w.-]*)==(\d[\w.+!-]*)$/.exec(line)
    if (npm) packages.push(entry('npm', npm[1], npm[2], `${npm[1]}@${npm[2]}`))
    else if (pypi) packages.push(entry('pypi', pypi[1], pypi[2], `${pypi[1]}==${pypi[2]}`))
    else throw new Error(`packages.txt:${i + 1}: not \`npm NAME@VERSION\` or \`pypi NAME==VERSION\`: ${raw}`)
  }
  const ids = new Set()
  for (const p of packages) {
    if (ids.has(p.id)) throw new Error(`packages.txt lists ${p.id} twice`)
    ids.add(p.id)
  }
  return packages
}

function entry(registry, name, version, spec) {
  return { id: `${registry}:${spec}`, registry, name, version, spec, key: `${registry}-${spec.replace('/', '__')}` }
}

/** The sha-256 of the stamped files, in a fixed order: what a complete install records. */
export function listStamp() {
  const hash = createHash('sha256')
  for (const file of STAMPED) hash.update(`${file}\n`).update(readFileSync(join(LIST_DIR, file)))
  return hash.digest('hex')
}

/**
 * What the cache holds: `{ ok: true, packages }` when its stamp matches the list, else
 * `{ ok: false, why }` with the installer's own reason when it wrote one.
 */
export function cacheState(cache = CACHE_DIR) {
  const failed = join(cache, 'failed.txt')
  if (existsSync(failed)) return { ok: false, why: `the gate corpus did not install: ${readFileSync(failed, 'utf8').trim()}` }
  const stampFile = join(cache, 'stamp')
  if (!existsSync(stampFile)) return { ok: false, why: `the gate corpus is not installed in ${cache} (source test/setup/50-gate-corpus.sh; npm test does)` }
  if (readFileSync(stampFile, 'utf8').trim() !== listStamp()) {
    return { ok: false, why: `the gate corpus in ${cache} is not the one test/setup/gate-corpus/packages.txt pins (source test/setup/50-gate-corpus.sh)` }
  }
  const packages = readList().map((p) => ({ ...p, files: join(cache, 'packages', p.key, 'files'), shippedList: join(cache, 'packages', p.key, 'shipped.txt') }))
  const absent = packages.filter((p) => !existsSync(p.files)).map((p) => p.id)
  if (absent.length) return { ok: false, why: `the gate corpus cache lacks ${absent.join(', ')}` }
  return { ok: true, packages }
}

/** The files of a cached package, as paths relative to its folder (for tests and checks). */
export function cachedFiles(dir, prefix = '') {
  const out = []
  for (const e of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name
    if (e.isDirectory()) out.push(...cachedFiles(dir, rel))
    else out.push(rel)
  }
  return out
}
