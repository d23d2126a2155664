// A collector's result is reused only while everything it read is unchanged: each kind of change
// between two scans gives what a fresh scan gives, and the reuse across CLI processes goes
// through a private file that a damaged copy can't break.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
// The same copies of the modules as the helpers imported beside it (the package main gives its bundle's).
import { discover } from '../../dist/src/book/discover.js'
import { observing, stillHolds } from '../../dist/src/collectors/shared/observe.js'
import { envVar, readText } from '../../dist/src/collectors/shared/fs.js'
import { settled as settledFor, write } from '../support/files.mjs'
import { tempDir } from '../support/temp.mjs'

const BIN = new URL('../../bin/command-scout', import.meta.url).pathname
const SETTLE = 40

/** Waits until nothing under `dir` changed in the last `ms` (a state of the files, not a delay). */
const settled = (dir, ms = SETTLE * 2) => settledFor([dir], ms)

function repo(t) {
  const dir = tempDir(t, 'cs-cache-')
  write(join(dir, 'package.json'), JSON.stringify({ name: 'r', workspaces: ['packages/*'], scripts: { build: 'tsc' } }))
  write(join(dir, 'packages/a/package.json'), JSON.stringify({ name: 'a', scripts: { test: 'vitest' } }))
  write(join(dir, 'other1/package.json'), JSON.stringify({ name: 'o1', scripts: { one: 'echo 1' } }))
  write(join(dir, 'other2/package.json'), JSON.stringify({ name: 'o2', scripts: { two: 'echo 2' } }))
  symlinkSync('../other1', join(dir, 'packages/link'))
  write(join(dir, 'Makefile'), 'include rules.mk\nbuild: ## Build it\n\techo build\n')
  // A whole-second mtime, so that an edit can put exactly this one back.
  utimesSync(join(dir, 'Makefile'), 1_700_000_000, 1_700_000_000)
  write(join(dir, 'rules.mk'), 'lint:\n\techo lint\n')
  write(join(dir, 'justfile'), 'import "extra.just"\ndefault:\n  echo hi\n')
  write(join(dir, 'extra.just'), 'fmt:\n  echo fmt\n')
  return dir
}

const cached = (dir) => discover(dir, {}, { cache: { settleMs: SETTLE }, checkRunners: false })
const fresh = (dir) => discover(dir, {}, { cache: false, checkRunners: false })
const view = (r) => ({
  recipes: r.book.entries().map((x) => `${x.id} ${x.command} ${x.description} ${x.file}:${x.line ?? ''}`),
  diagnostics: r.diagnostics.map((d) => `${d.source} ${d.file}:${d.line ?? ''} ${d.message}`),
  files: r.detectedFiles,
})

/** Each change, and the sources whose results it must invalidate. */
const CHANGES = {
  'a same-size edit with the old mtime put back': (dir) => {
    const f = join(dir, 'Makefile')
    const before = statSync(f)
    writeFileSync(f, readFileSync(f, 'utf8').replace('build:', 'bxild:'))
    utimesSync(f, 1_700_000_000, 1_700_000_000)
    const after = statSync(f)
    assert.equal(after.mtimeMs, before.mtimeMs)
    assert.equal(after.size, before.size)
    return ['make']
  },
  'an edit of an included file': (dir) => (writeFileSync(join(dir, 'rules.mk'), 'lint:\n\techo lint\ncheck:\n\techo check\n'), ['make']),
  'an edit of an imported justfile': (dir) => (writeFileSync(join(dir, 'extra.just'), 'fmt2:\n  echo fmt\n'), ['just']),
  'a new workspace package': (dir) => (write(join(dir, 'packages/b/package.json'), JSON.stringify({ name: 'b', scripts: { dev: 'vite' } })), ['scripts']),
  'a removed workspace package': (dir) => (rmSync(join(dir, 'packages/a'), { recursive: true }), ['scripts']),
  'a workspace link pointed elsewhere': (dir) => {
    unlinkSync(join(dir, 'packages/link'))
    symlinkSync('../other2', join(dir, 'packages/link'))
    return ['scripts']
  },
  'a new manifest of another runner': (dir) => (write(join(dir, 'Taskfile.yml'), "version: '3'\ntasks:\n  hello:\n    cmds: [echo hi]\n"), ['task']),
  'a manifest replaced by a directory': (dir) => {
    rmSync(join(dir, 'rules.mk'))
    mkdirSync(join(dir, 'rules.mk'))
    return ['make']
  },
  'a manifest renamed away and back with other content': (dir) => {
    const f = join(dir, 'justfile')
    renameSync(f, `${f}.old`)
    writeFileSync(f, 'default:\n  echo other\n')
    rmSync(`${f}.old`)
    return ['just']
  },
  // Lists the same commands: only that it is not reused is checked.
  'a mode change': (dir) => (chmodSync(join(dir, 'rules.mk'), 0o600), ['make']),
}

for (const [name, change] of Object.entries(CHANGES)) {
  test(`cache: ${name} is seen; an unchanged repository is reused`, async (t) => {
    const dir = repo(t)
    await settled(dir)
    const first = cached(dir)
    const again = cached(dir)
    assert.deepEqual(view(again), view(first))
    assert.ok(again.reused.includes('make') && again.reused.includes('scripts') && again.reused.includes('just'), `reused: ${again.reused}`)
    const touched = change(dir)
    const after = cached(dir)
    assert.deepEqual(view(after), view(fresh(dir)))
    if (name !== 'a mode change') assert.notDeepEqual(view(after), view(first))
    for (const source of touched) assert.ok(!after.reused.includes(source), `${source} was reused after ${name}`)
    // Untouched collectors keep their results.
    assert.ok(after.reused.length > 0, 'nothing was reused')
  })
}

test('cache: a result read while its files were still changing is not kept; one that found no file is', (t) => {
  const dir = repo(t)
  discover(dir, {}, { checkRunners: false })
  const second = discover(dir, {}, { checkRunners: false })
  for (const source of ['make', 'scripts', 'just']) assert.ok(!second.reused.includes(source), `${source} was reused`)
  // "No Cargo.toml here" can't be racy: a file that appears later is a different answer.
  assert.ok(second.reused.includes('cargo'))
})

test('cache: observations record environment variables, and a changed value is a changed answer', () => {
  const name = 'COMMAND_SCOUT_TEST_OBSERVED'
  process.env[name] = 'one'
  try {
    const { observations } = observing(() => envVar(name))
    assert.equal(stillHolds(observations.seen), true)
    process.env[name] = 'two'
    assert.equal(stillHolds(observations.seen), false)
    delete process.env[name]
    assert.equal(stillHolds(observations.seen), false)
  } finally {
    delete process.env[name]
  }
})

test('cache: a file that turns into a FIFO is a changed answer', (t) => {
  const dir = tempDir(t, 'cs-cache-fifo-')
  const f = join(dir, 'Makefile')
  writeFileSync(f, 'a:\n')
  const { observations } = observing(() => readText(f))
  assert.equal(stillHolds(observations.seen), true)
  unlinkSync(f)
  execFileSync('mkfifo', [f])
  assert.equal(stillHolds(observations.seen), false)
})

test('cache: no collector asks the file system except through fs.ts and observe.ts', () => {
  const dir = new URL('../../src/collectors/', import.meta.url).pathname
  const files = readdirSync(dir, { recursive: true }).filter((n) => n.endsWith('.ts'))
  assert.ok(files.length > 20, `the collectors' sources are under ${dir}`)
  for (const name of files) {
    if (name === 'shared/observe.ts' || name === 'shared/fs.ts') continue
    const text = readFileSync(join(dir, name), 'utf8')
    for (const m of text.matchAll(/^import\s+(type\s+)?\{[^}]*\}\s+from\s+'node:fs(?:\/promises)?'/gm)) {
      assert.ok(m[1], `${name} imports node:fs (${m[0]}); use the helpers of src/collectors/shared/fs.ts, which record what a result depends on`)
    }
    assert.doesNotMatch(text, /process\.env\b/, `${name} reads process.env; use envVar() from src/collectors/shared/fs.ts`)
  }
  // fs.ts itself reads file contents only after an observed stat.
  assert.doesNotMatch(readFileSync(join(dir, 'shared/fs.ts'), 'utf8'), /\b(statSync|readdirSync|existsSync|lstatSync)\(|\brealpathSync(\.native)?\(/)
})

test('cache: the CLI reuses a result across processes through a private file; a damaged file is a miss', async (t) => {
  const dir = tempDir(t, 'cs-cache-cli-')
  const cacheBase = tempDir(t, 'cs-cache-home-')
  const cacheDir = join(cacheBase, 'scans')
  write(join(dir, 'Makefile'), 'build: ## Build it\n\techo build\n')
  // The per-root results file alone: a whole scan's record (test/cli/scan-record.test.mjs) is removed first.
  const scan = (...extra) => {
    for (const n of existsSync(cacheDir) ? readdirSync(cacheDir) : []) if (n.endsWith('.rec')) unlinkSync(join(cacheDir, n))
    return JSON.parse(execFileSync(process.execPath, [BIN, 'scan', '--format', 'json', '--root', dir, ...extra], { encoding: 'utf8', env: { ...process.env, COMMAND_SCOUT_CACHE_DIR: cacheBase } }))
  }
  const commands = (r) => r.recipes.map((x) => x.command)
  assert.deepEqual(commands(scan()), ['make', 'make build'])
  // The Makefile was just written: its result is not kept yet (those of collectors that found no file are).
  const kept = () => readdirSync(cacheDir).filter((n) => n.endsWith('.json')).flatMap((n) => Object.keys(JSON.parse(readFileSync(join(cacheDir, n), 'utf8')).entries))
  assert.ok(existsSync(cacheDir) && !kept().some((k) => k.includes('\0make\0')))
  await settled(dir, 2_100)
  assert.deepEqual(commands(scan()), ['make', 'make build'])
  const [file] = readdirSync(cacheDir).filter((n) => n.endsWith('.json'))
  assert.ok(kept().some((k) => k.includes('\0make\0')), 'the make result was not kept')
  assert.equal(statSync(cacheDir).mode & 0o777, 0o700)
  assert.equal(statSync(join(cacheDir, file)).mode & 0o777, 0o600)
  // The next process answers from the file: an edit of the stored command (not of the repository) shows.
  const path = join(cacheDir, file)
  writeFileSync(path, readFileSync(path, 'utf8').replace('"command":"make build"', '"command":"make build # from the cache"'))
  assert.deepEqual(commands(scan()), ['make', 'make build # from the cache'])
  // --no-cache reads the repository.
  assert.deepEqual(commands(scan('--no-cache')), ['make', 'make build'])
  // A damaged file: the scan is right, and the file is rewritten whole.
  writeFileSync(path, '{"format":1,"entries":')
  assert.deepEqual(commands(scan()), ['make', 'make build'])
  assert.doesNotThrow(() => JSON.parse(readFileSync(path, 'utf8')))
  // Entries that are the wrong shape are misses too.
  const data = JSON.parse(readFileSync(path, 'utf8'))
  for (const k of Object.keys(data.entries)) data.entries[k] = { seen: 'x', result: { recipes: [{}] } }
  writeFileSync(path, JSON.stringify(data))
  assert.deepEqual(commands(scan()), ['make', 'make build'])
  // A repository change after it was kept.
  writeFileSync(join(dir, 'Makefile'), 'build: ## Build it\n\techo build\ntest:\n\techo t\n')
  assert.deepEqual(commands(scan()), ['make', 'make build', 'make test'])
})
