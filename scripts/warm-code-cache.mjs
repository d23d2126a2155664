// Ships V8's code cache for the bundle's scan path (dist/src/code-cache/): the build scans a small
// repository with one manifest of every format (each collector's sample, from the collector table),
// in every output format, so that the bytecode of every collector, parser and renderer is in the
// cache before a user's first scan (otherwise the first repository scanned would decide which code
// gets cached, for good). The launcher uses these files when its own cache
// has none for the subcommand, and only on the Node version that built them (V8 refuses any
// other); they are owned like the bundle, so they are trusted like it. Each carries the hash of
// its bytes the launcher checks (src/cli/launcher.ts), as the runs below wrote them.
import { execFileSync } from 'node:child_process'
import { chmodSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const out = join(root, 'dist/src/code-cache')
const bundle = join(root, 'dist/src/cli.bundle.cjs')
if (!existsSync(bundle)) {
  rmSync(out, { recursive: true, force: true })
  process.exit(0)
}
// Already made for this build and this Node: nothing to do (a running CLI may be reading it).
const build = /^\/\*command-scout build ([0-9a-f]+)\*\//.exec(readFileSync(bundle, 'utf8'))?.[1]
const wanted = ['docs', 'scan'].map((s) => `${s}-${process.version}-${process.arch}-${build}.bin`)
if (build && wanted.every((n) => existsSync(join(out, n)))) process.exit(0)

// One sample per collector, from its row of the collector table (src/base/collector-table.ts).
const { sampleRepository } = await import(new URL('../dist/src/base/collector-table.js', import.meta.url).href)
const FILES = sampleRepository()

/** The newest mtime or ctime of anything under `dir`. */
function newestChange(dir) {
  let newest = 0
  for (const name of ['', ...readdirSync(dir, { recursive: true })]) {
    const st = lstatSync(join(dir, name))
    newest = Math.max(newest, st.mtimeMs, st.ctimeMs)
  }
  return newest
}

/**
 * Waits until nothing under `dir` changed for longer than a scan's SETTLE_MS (2 s): only then does a
 * scan keep its results and remember itself, the code of which then gets into the cache too.
 */
function settle(dir) {
  const sleeper = new Int32Array(new SharedArrayBuffer(4))
  while (Date.now() - newestChange(dir) <= 2_200) Atomics.wait(sleeper, 0, 0, 100)
}

const repo = mkdtempSync(join(tmpdir(), 'command-scout-warm-'))
const cache = mkdtempSync(join(tmpdir(), 'command-scout-warm-cache-'))
try {
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true })
    writeFileSync(join(repo, path), text)
  }
  const env = { ...process.env, COMMAND_SCOUT_CACHE_DIR: cache, COMMAND_SCOUT_CACHE: '', COMMAND_SCOUT_CODE_CACHE: 'refresh' }
  const cli = (...args) => execFileSync(process.execPath, [join(root, 'bin/command-scout'), ...args], { env, stdio: ['ignore', 'ignore', 'ignore'] })
  // Each run adds what it compiled to the cache the one before left (COMMAND_SCOUT_CODE_CACHE=refresh).
  for (const format of ['json', 'table', 'markdown']) cli('scan', '--format', format, '--no-cache', '--root', repo)
  cli('docs', '--output', '-', '--no-cache', '--root', repo)
  // A user's first scan also writes its results and remembers itself (src/book/scan-cache.ts,
  // scan-record.ts), and a later one reads them back: those paths too, once the sample has settled
  // as a user's repository has (a scan keeps nothing read from files still changing).
  settle(repo)
  cli('scan', '--format', 'json', '--root', repo)
  cli('scan', '--format', 'table', '--root', repo)
  cli('docs', '--output', '-', '--root', repo)
  const code = join(cache, 'code')
  // Made beside and renamed into place, so that no run ever sees half of it; made new (never one already there).
  const next = `${out}.${process.pid}.tmp`
  rmSync(next, { recursive: true, force: true })
  mkdirSync(next, { mode: 0o755 })
  for (const name of readdirSync(code)) {
    if (!/^(scan|docs)-.*\.bin$/.test(name)) continue
    cpSync(join(code, name), join(next, name))
    chmodSync(join(next, name), 0o644)
  }
  rmSync(out, { recursive: true, force: true })
  renameSync(next, out)
} catch (error) {
  // A build without the shipped cache still works: the first run of each subcommand writes one.
  console.warn(`command-scout: the shipped code cache was not made (${error.message.split('\n')[0]})`)
} finally {
  rmSync(repo, { recursive: true, force: true })
  rmSync(cache, { recursive: true, force: true })
}
