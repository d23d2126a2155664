// The task collector against the real go-task (the pinned go-task-bin wheel, installed by
// test/setup/40-tools.sh): `task --list-all --json --sort none` on a temp copy of every fixture
// and of generated Taskfiles must list the same tasks as the collector, in the same order, with
// the same aliases, lines, files and descriptions (go-task's desc; the collector falls back to
// the summary's first line where there is no desc, so that is what it is compared with then).
// go-task merges included Taskfiles concurrently, so with --sort none their tasks come in a
// different order from run to run: the root Taskfile's own tasks are compared in order, and the
// whole list as a set. A Taskfile go-task refuses must give the collector an error, or a warning
// that the include go-task could not read is not listed (a path needing run-time values).
// go-task evaluates `sh:` variables to list tasks, so each copy is a git repository (the
// realistic fixture asks git for a version). KEEP=1 keeps a failing generated case in /tmp/gen-N.
import { describe, it as test } from 'node:test'
import assert from 'node:assert/strict'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { taskCollector } from '../../dist/src/collectors/task/collect.js'
import { rng } from '../support/random.mjs'
import { skipWithout, toolBinary } from '../support/tool-binary.mjs'

const FIXTURES = new URL('../fixtures/task/', import.meta.url).pathname
const TASK = toolBinary('task')
const skip = skipWithout('task', 'go-task')
const execFileAsync = promisify(execFile)

async function goTaskList(dir) {
  const env = { ...process.env, NO_COLOR: '1', TASK_X_REMOTE_TASKFILES: '0', HOME: dir }
  try {
    const { stdout } = await execFileAsync(TASK, ['--list-all', '--json', '--sort', 'none'], { cwd: dir, env, encoding: 'utf8', timeout: 60_000 })
    return { ok: true, tasks: JSON.parse(stdout).tasks }
  } catch (error) {
    // With no task to list go-task exits non-zero but still prints the (empty) JSON list.
    try {
      return { ok: true, tasks: JSON.parse(error.stdout).tasks }
    } catch {}
    return { ok: false, stderr: `${error.stderr ?? ''}${error.message}` }
  }
}

const firstLine = (text) => (text ?? '').split('\n').map((l) => l.trim()).find((l) => l !== '') ?? ''

async function compareDir(source, label) {
  const dir = mkdtempSync(join(tmpdir(), 'scout-task-'))
  try {
    cpSync(source, dir, { recursive: true })
    await execFileAsync('git', ['init', '-q', dir]).catch(() => {})
    await execFileAsync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'x'], { cwd: dir }).catch(() => {})
    const result = taskCollector.collect({ root: dir, options: { enabled: true } })
    const real = await goTaskList(dir)
    if (!real.ok) {
      if (result.files.length === 0) {
        assert.match(real.stderr, /No Taskfile found/, `${label}: no Taskfile for either`)
        assert.deepEqual(result.recipes, [])
        return { result, real }
      }
      const said = result.diagnostics.some((d) => d.severity === 'error' || /not listed|not fetched/.test(d.message))
      assert.ok(said, `${label}: go-task refuses it (${real.stderr.trim().split('\n')[0]}), so the collector must say why`)
      return { result, real }
    }
    const theirs = real.tasks.map((t) => ({
      name: t.name,
      aliases: t.aliases ?? [],
      description: t.desc || firstLine(t.summary),
      file: relative(dir, t.location.taskfile),
      line: t.location.line,
    }))
    const ours = result.recipes.map((r) => ({ name: r.name, aliases: [...r.aliases], description: r.description, file: r.file, line: r.line }))
    const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
    assert.deepEqual([...ours].sort(byName), [...theirs].sort(byName), `${label}: the collector lists what task --list-all lists`)
    const rootFile = result.files[0]
    assert.deepEqual(ours.filter((t) => t.file === rootFile).map((t) => t.name), theirs.filter((t) => t.file === rootFile).map((t) => t.name), `${label}: the root Taskfile's tasks in file order`)
    return { result, real }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('the task collector against go-task', { concurrency: 4 }, () => {
  for (const name of readdirSync(FIXTURES).sort()) {
    test(`task --list-all --json agrees with the collector: ${name}`, { skip }, async () => {
      await compareDir(join(FIXTURES, name), name)
    })
  }

  test('generated Taskfiles (includes, aliases, internal tasks, desc and summary): go-task and the collector agree', { skip }, async () => {
    const r = rng(Number(process.env.FUZZ_SEED ?? 20261201))
    const pick = (n) => Math.floor(r() * n)
    for (let k = 0; k < 40; k++) {
      const base = mkdtempSync(join(tmpdir(), 'scout-task-gen-'))
      try {
        const names = new Set()
        const task = (prefix) => {
          let name
          do name = `${prefix}${pick(40)}`; while (names.has(name))
          names.add(name)
          const lines = [`  ${name}:`]
          if (pick(2)) lines.push(`    desc: ${['Build it', 'Run the tests', '"quoted: desc"', "'single'"][pick(4)]}`)
          if (pick(3) === 0) lines.push('    summary: |', '      First summary line', '      second')
          if (pick(3) === 0) lines.push(`    aliases: [${prefix}a${pick(9)}${k}]`)
          if (pick(5) === 0) lines.push('    internal: true')
          lines.push(`    cmds: [echo ${name}]`)
          return lines.join('\n')
        }
        const inc = pick(3)
        const includes = []
        for (let i = 0; i < inc; i++) {
          const flatten = pick(4) === 0
          mkdirSync(join(base, `inc${i}`), { recursive: true })
          writeFileSync(join(base, `inc${i}`, 'Taskfile.yml'), `version: '3'\n\ntasks:\n${Array.from({ length: 1 + pick(4) }, () => task(`i${i}t`)).join('\n')}\n`)
          includes.push(`  inc${i}:\n    taskfile: ./inc${i}${flatten ? '\n    flatten: true' : ''}${pick(3) === 0 ? `\n    aliases: [x${i}]` : ''}${pick(4) === 0 ? '\n    internal: true' : ''}`)
        }
        writeFileSync(join(base, 'Taskfile.yml'), `version: '3'\n${includes.length ? `\nincludes:\n${includes.join('\n')}\n` : ''}\ntasks:\n${Array.from({ length: 1 + pick(8) }, () => task('t')).join('\n')}\n`)
        await compareDir(base, `generated case ${k}`).catch((e) => { if (process.env.KEEP) cpSync(base, `/tmp/gen-${k}`, { recursive: true }); throw e })
      } finally {
        rmSync(base, { recursive: true, force: true })
      }
    }
  })
})
