// The python collector against the real runners (pinned in test/setup/python-tools, installed by
// test/setup/40-tools.sh): on a temp copy of every fixture, poe's task list (`poe _list_tasks`, the
// names its shell completion uses, and the "Configured tasks" of `poe --help` for the help texts),
// `pdm run --json` (less the `_` names `pdm run --list` hides) and `hatch env show --json` (each
// env's scripts after templates and matrices) must agree with the collector's recipes. A runner
// that refuses the file must meet a collector diagnostic. rye can't be installed here (see the
// skipped test at the end), so rye scripts are checked by the fixtures only.
import { describe, it as test } from 'node:test'
import assert from 'node:assert/strict'
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { pythonCollector } from '../../dist/collectors/python.js'
import { toolBinary, skipWithout } from '../support/tool-binary.mjs'

const FIXTURES = new URL('../fixtures/python/', import.meta.url).pathname
const execFileAsync = promisify(execFile)
const names = readdirSync(FIXTURES).sort()

async function run(tool, args, cwd) {
  const env = { ...process.env, NO_COLOR: '1', HOME: cwd, PDM_CHECK_UPDATE: 'false', PDM_HOME: join(cwd, '.pdm'), HATCH_DATA_DIR: join(cwd, '.hatch'), HATCH_CACHE_DIR: join(cwd, '.hatch-cache'), HTTP_PROXY: 'http://127.0.0.1:9/', HTTPS_PROXY: 'http://127.0.0.1:9/' }
  try {
    const { stdout, stderr } = await execFileAsync(toolBinary(tool), args, { cwd, env, encoding: 'utf8', timeout: 120_000 })
    return { ok: true, stdout, stderr }
  } catch (error) {
    return { ok: false, stdout: error.stdout ?? '', stderr: `${error.stderr ?? ''}${error.message}` }
  }
}

async function withCopy(name, fn) {
  const dir = mkdtempSync(join(tmpdir(), `scout-py-${name}-`))
  try {
    cpSync(join(FIXTURES, name), dir, { recursive: true })
    return await fn(dir, pythonCollector.collect({ root: dir, options: { enabled: true } }))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const recipesOf = (result, runner) => result.recipes.filter((r) => r.runner === runner)
const refused = (result) => result.diagnostics.length > 0

describe('the python collector against poe, pdm and hatch', { concurrency: 3 }, () => {
  for (const name of names) {
    test(`poe lists the collector's poe tasks: ${name}`, { skip: skipWithout('poe', 'poe (poethepoet)') }, async () => {
      await withCopy(name, async (dir, result) => {
        const list = await run('poe', ['_list_tasks'], dir)
        const ours = recipesOf(result, 'poe').map((r) => r.name)
        if (!list.ok) return assert.ok(refused(result), `poe refuses ${name} (${list.stderr.split('\n')[0]}), the collector must say why`)
        const theirs = list.stdout.trim().split(/\s+/).filter(Boolean)
        // poe lists a task it would refuse to run; the collector leaves it out and says why.
        const dropped = theirs.filter((t) => !ours.includes(t))
        for (const t of dropped) assert.ok(result.diagnostics.some((d) => d.message.includes(`"${t}"`)), `${name}: poe lists ${t}, the collector neither lists it nor says why`)
        assert.deepEqual(ours, theirs.filter((t) => ours.includes(t)), `${name}: the same tasks, in order`)
        const help = await run('poe', ['--help'], dir)
        const section = help.stdout.split('Configured tasks:')[1] ?? ''
        for (const line of section.split('\n')) {
          const m = /^ {2}(\S+)\s{2,}(\S.*)$/.exec(line)
          if (!m || !ours.includes(m[1])) continue
          assert.equal(recipesOf(result, 'poe').find((r) => r.name === m[1]).description, m[2].trim(), `${name}: help of ${m[1]}`)
        }
      })
    })

    test(`pdm run --json lists the collector's pdm scripts: ${name}`, { skip: skipWithout('pdm') }, async () => {
      await withCopy(name, async (dir, result) => {
        const list = await run('pdm', ['run', '--json'], dir)
        if (!list.ok) return assert.ok(refused(result), `pdm refuses ${name} (${list.stderr.split('\n').find((l) => /Error/.test(l))}), the collector must say why`)
        const theirs = Object.values(JSON.parse(list.stdout)).filter((s) => !s.name.startsWith('_'))
        const ours = recipesOf(result, 'pdm')
        assert.deepEqual(ours.map((r) => r.name).sort(), theirs.map((s) => s.name).sort(), `${name}: the same scripts`)
        for (const s of theirs) {
          // pdm prints a cmd list's Python repr (['pytest', '-q']) as its help; the collector joins it.
          const help = s.kind === 'cmd' && Array.isArray(s.args) && s.help === `[${s.args.map((a) => `'${a}'`).join(', ')}]` ? s.args.join(' ') : s.help
          assert.equal(ours.find((r) => r.name === s.name).description, help, `${name}: help of ${s.name}`)
        }
      })
    })

    test(`hatch env show --json runs the collector's hatch scripts: ${name}`, { skip: skipWithout('hatch') }, async () => {
      await withCopy(name, async (dir, result) => {
        const show = await run('hatch', ['env', 'show', '--json'], dir)
        if (!show.ok) return assert.ok(refused(result), `hatch refuses ${name} (${show.stderr.split('\n')[0]}), the collector must say why`)
        const envs = Object.entries(JSON.parse(show.stdout)).filter(([env]) => !env.startsWith('hatch-'))
        const ours = recipesOf(result, 'hatch')
        const byName = new Map(ours.map((r) => [r.name, r]))
        const theirs = new Set()
        for (const [env, conf] of envs) {
          const base = env.split('.')[0] // a matrix env `py.py3.11` is run as `hatch run py:...`
          for (const [script, commands] of Object.entries(conf.scripts ?? {})) {
            const qualified = base === 'default' ? script : `${base}:${script}`
            theirs.add(qualified)
            const own = byName.get(qualified)
            // Not listed under this env: it is inherited, so some listed recipe runs the same commands.
            const same = own ?? ours.find((r) => (r.name === script || r.name.endsWith(`:${script}`)) && r.description === commands.join(' && '))
            assert.ok(same, `${name}: hatch has ${qualified}, and the collector lists no recipe with its commands`)
            assert.equal(same.description, commands.join(' && '), `${name}: commands of ${qualified}`)
          }
        }
        for (const r of ours) assert.ok(theirs.has(r.name), `${name}: the collector lists ${r.name}, which hatch does not have`)
      })
    })
  }
})

test('rye run --list agrees with the collector\'s rye scripts', {
  skip: 'rye cannot be installed here: it ships through its own installer (release downloads this machine cannot reach), and the "rye" name on PyPI is an unrelated project; rye scripts are checked by the fixtures only',
}, () => {})
