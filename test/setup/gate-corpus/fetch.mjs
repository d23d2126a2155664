// Installs the gate corpus: every package test/setup/gate-corpus/packages.txt pins, fetched with
// the registries' own clients (`npm pack` for npm tarballs, `pip download --no-binary :all:` for
// PyPI sdists), and of each one only what the gate reads kept under .cache/gate-corpus/packages/:
// the manifests the collectors read, the shell scripts, and the small files a kept manifest or
// script names (a Makefile's include, `./scripts/release`). Each package's shipped.txt lists the
// other files it ships that the repository tracks, which the test marks tracked: all of an sdist's
// (the project's source tree), and of an npm tarball (build output, mostly) only the root-level
// documents. An npm tarball's nested package.json files without scripts are build markers and are
// not kept. A complete install is swapped in at once and stamped; a failed one leaves failed.txt
// with the reason, which the test skips with.
//   node test/setup/gate-corpus/fetch.mjs [--check]   (--check: exit 0 when the cache is current)
import { spawn } from 'node:child_process'
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, posix } from 'node:path'
import { CACHE_DIR, LIST_DIR, cacheState, listStamp, readList } from './corpus.mjs'

/** A bound on a broken install (a registry that stops answering), not a measure: a fresh one takes well under a minute. */
const DEADLINE_MS = 300_000
const NPM_BATCHES = 4
const PIP_CHUNK = 7
const PIP_PARALLEL = 3
const EXTRACT_PARALLEL = 4
/** What the body readers read at most (BodyContext.read) and what counts as a small script. */
const MAX_MANIFEST = 1 << 20
const MAX_SCRIPT = 64 << 10
const MAX_KEPT = 2000
const MAX_SHIPPED = 50_000

/** Files the collectors and body readers read, by path inside the package. */
const MANIFEST = new RegExp([
  '(^|/)(package\\.json|package-lock\\.json|npm-shrinkwrap\\.json|pnpm-lock\\.yaml|pnpm-workspace\\.yaml|yarn\\.lock|bun\\.lockb?)$',
  '(^|/)((GNU)?[Mm]akefile|[^/]+\\.mk|\\.?[Jj]ustfile|[^/]+\\.just|[Tt]askfile(\\.dist)?\\.ya?ml|deno\\.jsonc?|composer\\.json)$',
  '(^|/)(\\.?mise(\\.local)?\\.toml|(\\.mise|mise|\\.config/mise)/config(\\.local)?\\.toml|\\.config/mise(\\.local)?\\.toml)$',
  '(^|/)((\\.mise|\\.config/mise)/tasks|mise-tasks)/[^/]+$',
  '(^|/)(pyproject\\.toml|hatch\\.toml|tox\\.ini|noxfile\\.py|nx\\.json|project\\.json|workspace\\.json|Cargo\\.toml|go\\.mod)$',
  '(^|/)(CMake(User)?Presets\\.json|\\.vscode/tasks\\.json|\\.gitignore)$',
].join('|'))
const SHELL_SCRIPT = /\.(sh|bash)$/
/** What a mentioned file may be to be kept: a script or a runner's include, not a program's source. */
const MENTIONED_KIND = /(^|\/)[^/.]+$|\.(sh|bash|zsh|ksh|mk|make|just|ya?ml|toml|env)$/
/**
 * Of an npm tarball, which holds build output rather than the repository's sources, the files that
 * every repository tracks: its root-level readme, licence, changelog and the like.
 */
const TRACKED_DOCS = /^(readme|licen[cs]e|copying|changelog|changes|history|contributing|authors|contributors|notice|security|code_of_conduct)([.-][^/]*)?$/i
/** What an sdist build adds to the tree and no repository tracks: PKG-INFO and the .egg-info folder. */
const SDIST_METADATA = /^PKG-INFO$|(^|\/)[^/]+\.egg-info(\/|$)/
/** Member names kept at all: plain relative paths, never into node_modules or a .git folder. */
const SAFE_NAME = /^[\w@+.,=~ -]+(\/[\w@+.,=~ -]+)*$/

const deadline = AbortSignal.timeout(DEADLINE_MS)

async function install(cache) {
  const parent = dirname(cache.replace(/\/$/, ''))
  mkdirSync(parent, { recursive: true })
  // What an install that was killed left behind.
  for (const stale of readdirSync(parent).filter((n) => n.startsWith('.gate-corpus-'))) rmSync(join(parent, stale), { recursive: true, force: true })
  const work = mkdtempSync(join(parent, '.gate-corpus-'))
  const started = Date.now()
  try {
    const packages = readList()
    const out = join(work, 'corpus')
    const took = {}
    // Each registry's packages are sifted as soon as its own fetch is done, while the other's goes on.
    const sift = async (registry, fetch) => {
      const list = packages.filter((p) => p.registry === registry)
      const archives = await fetch(list, work)
      took[registry] = Date.now() - started
      const kept = await pool(list, EXTRACT_PARALLEL, (p) => keepPackage(p, archives.get(p.id), join(out, 'packages', p.key)))
      return list.map((p, i) => [p.id, kept[i]])
    }
    const index = Object.fromEntries((await Promise.all([sift('npm', fetchNpm), sift('pypi', fetchPypi)])).flat())
    writeFileSync(join(out, 'index.json'), JSON.stringify(index, null, 1) + '\n')
    writeFileSync(join(out, 'stamp'), `${listStamp()}\n`)
    rmSync(cache, { recursive: true, force: true })
    renameSync(out, cache)
    const kept = Object.values(index).reduce((n, i) => n + i.kept, 0)
    const s = (ms) => `${(ms / 1000).toFixed(1)} s`
    const fetched = `npm ${s(took.npm)}, pypi ${s(took.pypi)}`
    console.error(`test/setup/gate-corpus: ${packages.length} packages, ${kept} files kept, in ${s(Date.now() - started)} (fetched: ${fetched})`)
  } catch (error) {
    rmSync(cache, { recursive: true, force: true })
    mkdirSync(cache, { recursive: true })
    const why = deadline.aborted ? `the install took longer than ${DEADLINE_MS / 1000} s (${error.message})` : error.message
    writeFileSync(join(cache, 'failed.txt'), `${why}\n`)
    console.error(`test/setup/gate-corpus: ${why}`)
    process.exitCode = 1
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

/** `npm pack` in a few batches at once, into a cache of its own; resolves to id -> tarball. */
async function fetchNpm(packages, work) {
  const dest = join(work, 'npm')
  mkdirSync(dest, { recursive: true })
  const batches = Array.from({ length: NPM_BATCHES }, (_, i) => packages.filter((_, k) => k % NPM_BATCHES === i)).filter((b) => b.length)
  const archives = new Map()
  await Promise.all(batches.map(async (batch) => {
    const args = ['pack', '--json', '--ignore-scripts', '--loglevel=error', '--fetch-retries=2', '--fetch-timeout=60000',
      '--cache', join(work, 'npm-cache'), '--pack-destination', dest, ...batch.map((p) => p.spec)]
    const r = await run('npm', args, { cwd: work })
    if (r.code !== 0) throw new Error(`npm pack failed (${r.code}): ${tail(r.stderr)}`)
    const packed = new Map(JSON.parse(r.stdout).map((e) => [e.id, e.filename]))
    for (const p of batch) {
      const file = packed.get(p.spec)
      if (!file || !existsSync(join(dest, file))) throw new Error(`npm pack did not give ${p.spec}`)
      archives.set(p.id, join(dest, file))
    }
  }))
  return archives
}

/**
 * `pip download --no-binary :all:` with the pinned build backends importable: pip reads each
 * sdist's metadata before it saves it, and without build isolation it does so with those instead
 * of installing a backend per sdist (which takes minutes). Resolves to id -> sdist.
 */
async function fetchPypi(packages, work) {
  if (!packages.length) return new Map()
  const backends = join(work, 'backends')
  const env = { ...process.env, PYTHONPATH: backends, PATH: `${join(backends, 'bin')}:${process.env.PATH}` }
  Object.assign(env, { PIP_DISABLE_PIP_VERSION_CHECK: '1', PIP_ROOT_USER_ACTION: 'ignore' })
  const quiet = ['--quiet', '--retries', '2', '--timeout', '60', '--cache-dir', join(work, 'pip-cache')]
  const pip = (args) => run('python3', ['-m', 'pip', ...args, ...quiet], { cwd: work, env })
  const r = await pip(['install', '--target', backends, '--only-binary', ':all:', '-r', join(LIST_DIR, 'pypi-backends.txt')])
  if (r.code !== 0) throw new Error(`the build backends did not install: ${tail(r.stderr)}`)
  const dest = join(work, 'pypi')
  const chunks = []
  for (let i = 0; i < packages.length; i += PIP_CHUNK) chunks.push(packages.slice(i, i + PIP_CHUNK))
  // --python-version: a pinned release may need a newer Python than this machine's to install; only its files are read.
  const download = ['download', '--no-deps', '--no-binary', ':all:', '--no-build-isolation', '--python-version', '3.13', '-d', dest]
  await pool(chunks, PIP_PARALLEL, async (chunk) => {
    const res = await pip([...download, ...chunk.map((p) => p.spec)])
    if (res.code !== 0) throw new Error(`pip download ${chunk.map((p) => p.spec).join(' ')} failed: ${tail(res.stderr)}`)
  })
  const files = readdirSync(dest)
  const archives = new Map()
  for (const p of packages) {
    const file = files.find((f) => sdistOf(f, p))
    if (!file) throw new Error(`pip download did not give an sdist of ${p.spec}`)
    archives.set(p.id, join(dest, file))
  }
  return archives
}

/** Whether `file` is the sdist of `p` (its name normalized as PEP 625 spells it). */
function sdistOf(file, p) {
  const m = /^(.+)-([^-]+)\.tar\.gz$/.exec(file)
  const norm = (s) => s.toLowerCase().replace(/[-_.]+/g, '_')
  return Boolean(m) && norm(m[1]) === norm(p.name) && m[2] === p.version
}

/** Keeps a package's manifests, scripts and the files they name, and its shipped.txt; returns what was kept. */
async function keepPackage(p, archive, dir) {
  const members = await listArchive(archive)
  const files = join(dir, 'files')
  mkdirSync(files, { recursive: true })
  const byPath = new Map(members.map((m) => [m.path, m]))
  const keptPaths = await extractKept(archive, members, files, byPath)
  removeOddEntries(files)
  if (p.registry === 'npm') {
    for (const path of buildMarkers(files, keptPaths)) keptPaths.delete(path)
    pruneEmptyFolders(files)
  }
  const shipped = shippedTracked(p, members)
  writeFileSync(join(dir, 'shipped.txt'), shipped.join('\n') + (shipped.length ? '\n' : ''))
  const bytes = [...keptPaths].reduce((n, path) => n + byPath.get(path).size, 0)
  return { kept: keptPaths.size, bytes, shipped: shipped.length }
}

/** Extracts the manifests and scripts, then the files they name, a few rounds deep (a script that sources another). */
async function extractKept(archive, members, files, byPath) {
  const wanted = (m) => (MANIFEST.test(m.path) && m.size <= MAX_MANIFEST) || (SHELL_SCRIPT.test(m.path) && m.size <= MAX_SCRIPT)
  const kept = members.filter(wanted).slice(0, MAX_KEPT)
  const keptPaths = new Set(kept.map((m) => m.path))
  await extract(archive, kept, files)
  for (let round = 0, fresh = kept; round < 3 && fresh.length && keptPaths.size < MAX_KEPT; round++) {
    fresh = mentioned(fresh, files, byPath).filter((m) => !keptPaths.has(m.path)).slice(0, MAX_KEPT - keptPaths.size)
    for (const m of fresh) keptPaths.add(m.path)
    await extract(archive, fresh, files)
  }
  return keptPaths
}

/** The shipped files the repository tracks: an sdist's all but its build metadata, an npm tarball's root-level documents. */
function shippedTracked(p, members) {
  const all = members.map((m) => m.path)
  const tracked = p.registry === 'pypi' ? all.filter((path) => !SDIST_METADATA.test(path)) : all.filter((path) => TRACKED_DOCS.test(path))
  return tracked.slice(0, MAX_SHIPPED).sort()
}

/** Folders a build writes in, in a published npm package. */
const BUILD_FOLDER = /(^|\/)(dist|build|out|lib|es|esm|cjs|mjs|umd|types)\//

/**
 * The nested package.json files of an npm tarball that are build output or data rather than a
 * manifest of the repository: those in a build folder (`{"type": "module"}` in dist/esm, a copy of
 * the manifest tsc put in dist/cjs) and those that declare no scripts (a test fixture). Removed, so
 * that the build folders they sit in are not taken for tracked ones. Returns their paths.
 */
function buildMarkers(files, keptPaths) {
  const removed = []
  for (const path of keptPaths) {
    if (!path.includes('/') || posix.basename(path) !== 'package.json') continue
    let manifest
    try {
      manifest = JSON.parse(readFileSync(join(files, path), 'utf8'))
    } catch {}
    const scripts = manifest && typeof manifest.scripts === 'object' && manifest.scripts !== null
    if (scripts && !BUILD_FOLDER.test(path)) continue
    rmSync(join(files, path), { force: true })
    removed.push(path)
  }
  return removed
}

/** The regular files of a tarball: `{ name, path, size }`, `path` without the top folder; odd names left out. */
async function listArchive(archive) {
  const r = await run('tar', ['-tvzf', archive, '--numeric-owner'], {})
  if (r.code !== 0) throw new Error(`tar could not list ${archive}: ${tail(r.stderr)}`)
  const members = []
  for (const line of r.stdout.split('\n')) {
    const m = /^-\S*\s+\S+\s+(\d+)\s+\d{4}-\d\d-\d\d\s+\d\d:\d\d(?::\d\d)?\s(.+)$/.exec(line)
    if (!m) continue
    const name = m[2]
    const path = name.split('/').slice(1).join('/')
    if (!path || !SAFE_NAME.test(name) || /(^|\/)(\.\.?|node_modules|\.git)(\/|$)/.test(path)) continue
    members.push({ name, path, size: Number(m[1]) })
  }
  return members
}

/** Extracts the members into `dir`, without their top folder. */
async function extract(archive, members, dir) {
  if (!members.length) return
  const list = join(dir, '..', 'members.txt')
  writeFileSync(list, members.map((m) => m.name).join('\n') + '\n')
  const r = await run('tar', ['-xzf', archive, '-C', dir, '--strip-components=1', '--no-same-owner', '--no-same-permissions',
    '--no-wildcards', '--verbatim-files-from', '-T', list], {})
  rmSync(list)
  if (r.code !== 0) throw new Error(`tar could not extract from ${archive}: ${tail(r.stderr)}`)
}

/** Members that the kept files name by a relative path (from their own folder or the package's), small and script-like. */
function mentioned(kept, files, byPath) {
  const found = new Map()
  for (const m of kept) {
    let text
    try {
      text = readFileSync(join(files, m.path), 'utf8')
    } catch {
      continue
    }
    const here = posix.dirname(m.path)
    for (const [word] of text.matchAll(/[\w@+.-]*[\w@+-](?:\/[\w@+.-]+)*/g)) {
      for (const candidate of [posix.normalize(posix.join(here, word)), posix.normalize(word)]) {
        const member = byPath.get(candidate)
        if (member && member.size <= MAX_SCRIPT && MENTIONED_KIND.test(candidate)) found.set(candidate, member)
      }
    }
  }
  return [...found.values()]
}

/** Anything that is not a plain file or folder (none is extracted, but a tarball is data): removed. */
function removeOddEntries(dir) {
  for (const e of readdirSync(dir)) {
    const abs = join(dir, e)
    const st = lstatSync(abs)
    if (st.isDirectory()) removeOddEntries(abs)
    else if (!st.isFile()) rmSync(abs, { force: true })
  }
}

/** Removes the folders that hold no file (left by removed build markers); returns whether `dir` is empty now. */
function pruneEmptyFolders(dir, top = true) {
  let empty = true
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory() && pruneEmptyFolders(join(dir, e.name), false)) rmSync(join(dir, e.name), { recursive: true, force: true })
    else empty = false
  }
  return empty && !top
}

/** Runs `fn` over `items`, at most `n` at once; resolves to the results in order, rejects on the first error. */
async function pool(items, n, fn) {
  const results = new Array(items.length)
  let next = 0
  const lane = async () => {
    while (next < items.length) {
      const i = next++
      results[i] = await fn(items[i])
    }
  }
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, lane))
  return results
}

/** Runs a program (no shell), ended when the install's deadline passes; resolves to its code and output. */
function run(cmd, args, { cwd, env }) {
  return new Promise((resolve, reject) => {
    if (deadline.aborted) return reject(new Error(`${cmd}: the deadline passed`))
    const child = spawn(cmd, args, { cwd, env: env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], signal: deadline })
    const out = [], err = []
    child.stdout.on('data', (d) => out.push(d))
    child.stderr.on('data', (d) => err.push(d))
    child.on('error', (error) => reject(new Error(`${cmd}: ${error.message}`)))
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }))
  })
}

function tail(text, n = 600) {
  const t = text.trim()
  return t.length > n ? `…${t.slice(-n)}` : t
}

if (process.argv.includes('--check')) process.exit(cacheState().ok ? 0 : 1)
await install(CACHE_DIR)
