// The deno collector against the real deno (test/setup/runners, on PATH after
// `source test/setup/10-runners.sh`): `deno task` with no task name prints the task list of the
// config in its directory (and a member's list adds the root's, marked "(workspace)"). On temp
// copies of the fixtures, deno's lists must equal the collector's: names, order, descriptions,
// commands and dependencies. deno gets no network: a dead proxy and no update check.
import { describe, it as test } from 'node:test'
import assert from 'node:assert/strict'
import { accessSync, constants, cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { denoCollector } from '../../dist/src/collectors/deno/collect.js'

const FIXTURES = new URL('../fixtures/deno/', import.meta.url).pathname

function findBin(name) {
  for (const dir of [process.env.COMMAND_SCOUT_RUNNERS_BIN, ...(process.env.PATH ?? '').split(delimiter)].filter(Boolean)) {
    try {
      accessSync(join(dir, name), constants.X_OK)
      return join(dir, name)
    } catch {}
  }
  return undefined
}
const DENO = findBin('deno')
const skip = DENO ? false : 'deno is not on PATH or in COMMAND_SCOUT_RUNNERS_BIN; run `source test/setup/10-runners.sh` (npm test does)'
const DEAD = 'http://127.0.0.1:9/'
const execFileAsync = promisify(execFile)

/** `deno task` in `dir`: {ok, tasks: [{name, description, command, dependencies}]} of that config only. */
async function denoTasks(dir, home) {
  const env = { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1', DENO_DIR: join(home, '.deno'), HTTP_PROXY: DEAD, HTTPS_PROXY: DEAD }
  let stdout
  try {
    ({ stdout } = await execFileAsync(DENO, ['task'], { cwd: dir, env, encoding: 'utf8', timeout: 60_000 }))
  } catch (error) {
    return { ok: false, stderr: error.stderr, tasks: [] }
  }
  const tasks = []
  for (const line of stdout.split('\n')) {
    const head = /^- (.+?)( \(workspace\))?$/.exec(line)
    if (head) {
      tasks.push({ name: head[1], inherited: !!head[2], description: [], command: undefined, dependencies: [] })
      continue
    }
    const task = tasks.at(-1)
    const body = /^ {4}(.*)$/.exec(line)
    if (!task || !body) continue
    const text = body[1]
    if (text.startsWith('// ')) task.description.push(text.slice(3))
    else if (text.startsWith('depends on: ')) task.dependencies = text.slice('depends on: '.length).split(', ')
    else task.command = text
  }
  return {
    ok: true,
    tasks: tasks.filter((t) => !t.inherited).map((t) => ({ name: t.name, description: t.description.join('\n') || t.command || '', dependencies: t.dependencies })),
  }
}

function ours(result, cwd) {
  return result.recipes.filter((r) => r.cwd === cwd).map((r) => ({ name: r.name, description: r.description, dependencies: [...r.prerequisites] }))
}

async function compare(name) {
  const dir = mkdtempSync(join(tmpdir(), `scout-deno-${name}-`))
  try {
    cpSync(join(FIXTURES, name), dir, { recursive: true })
    const result = denoCollector.collect({ root: join(FIXTURES, name), options: { enabled: true } })
    const dirs = ['.', ...new Set(result.files.map((f) => f.includes('/') ? f.slice(0, f.lastIndexOf('/')) : '.'))]
    for (const cwd of new Set(dirs)) {
      const deno = await denoTasks(join(dir, cwd), dir)
      assert.ok(deno.ok, `deno task failed in ${cwd}: ${deno.stderr}`)
      assert.deepEqual(ours(result, cwd), deno.tasks, `${name}: ${cwd}`)
    }
    return result
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('the deno collector against deno task', { concurrency: 4 }, () => {
  for (const name of ['tasks', 'both-configs', 'duplicate-task', 'no-tasks', 'missing-comma', 'workspace']) {
    test(`deno task lists the same tasks as the collector: ${name}`, { skip }, async () => {
      await compare(name)
    })
  }

  test('deno lists exactly the workspace members the collector found (globs, negation, node_modules decoys)', { skip }, async () => {
    const result = await compare('workspace')
    assert.deepEqual([...new Set(result.recipes.map((r) => r.cwd))], ['.', 'packages/core', 'packages/http', 'tools/cli'])
  })

  test('a file deno refuses is a diagnostic with deno\'s own line and column, and no tasks', { skip }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scout-deno-broken-'))
    try {
      cpSync(join(FIXTURES, 'broken-jsonc'), dir, { recursive: true })
      const deno = await denoTasks(dir, dir)
      assert.equal(deno.ok, false)
      const [, line, column] = /line (\d+) column (\d+)/.exec(deno.stderr)
      const result = denoCollector.collect({ root: join(FIXTURES, 'broken-jsonc'), options: { enabled: true } })
      assert.deepEqual(result.recipes, [])
      assert.match(result.diagnostics[0].message, new RegExp(`line ${line}, column ${column}:`))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('deno refuses a config with a byte-order mark; the collector says so and why', { skip }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scout-deno-bom-'))
    try {
      cpSync(join(FIXTURES, 'bom'), dir, { recursive: true })
      const deno = await denoTasks(dir, dir)
      assert.equal(deno.ok, false)
      assert.match(deno.stderr, /Unexpected token on line 1 column 1/)
      const result = denoCollector.collect({ root: join(FIXTURES, 'bom'), options: { enabled: true } })
      assert.equal(result.diagnostics[0].severity, 'error')
      assert.match(result.diagnostics[0].message, /byte-order mark, and deno refuses the file/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('where deno is stricter: one bad task makes deno refuse the file; the collector lists the good ones and names the bad', { skip }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scout-deno-bad-'))
    try {
      cpSync(join(FIXTURES, 'bad-tasks'), dir, { recursive: true })
      assert.equal((await denoTasks(dir, dir)).ok, false)
      const result = denoCollector.collect({ root: join(FIXTURES, 'bad-tasks'), options: { enabled: true } })
      assert.deepEqual(result.recipes.map((r) => r.name), ['ok', 'bad-command', 'bad-deps', 'last'])
      assert.equal(result.diagnostics.length, 4)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
