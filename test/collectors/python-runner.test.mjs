// The python collector against the real runners (pinned in test/setup/python-tools, installed by
// test/setup/40-tools.sh): on a temp copy of every fixture, poe's task list (`poe _list_tasks`, the
// names its shell completion uses, and the "Configured tasks" of `poe --help` for the help texts),
// `pdm run --json` (less the `_` names `pdm run --list` hides) and `hatch env show --json` (each
// env's scripts after templates and matrices) must agree with the collector's recipes. A runner
// that refuses the file must meet a collector diagnostic. rye can't be installed here (see the
// skipped test at the end), so rye scripts are checked by the fixtures only.
import { describe, it as test } from 'node:test'
import assert from 'node:assert/strict'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { pythonCollector } from '../../dist/src/collectors/python/collect.js'
import { rng } from '../support/random.mjs'
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

// poe's include: generated include graphs (TOML, JSON and YAML files, nested includes relative to
// the including file, ${POE_CONF_DIR} and ${POE_ROOT}, cycles, recursive = false, names defined
// twice, private names, groups, missing files) must list what `poe _list_tasks` lists, in its order;
// and a configuration poe refuses to run because of an include must list no poe task, with an error.
describe('poe include: the collector against poe', { concurrency: 2 }, () => {
  const skip = skipWithout('poe', 'poe (poethepoet)')
  const write = (dir, files) => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true })
      writeFileSync(join(dir, path), text)
    }
  }
  const withFiles = async (label, files, fn) => {
    const dir = mkdtempSync(join(tmpdir(), 'scout-py-include-'))
    try {
      write(dir, files)
      return await fn(dir, pythonCollector.collect({ root: dir, options: { enabled: true } }))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }

  test('generated include graphs: the collector lists what poe _list_tasks lists, in order', { skip }, async () => {
    const r = rng(Number(process.env.FUZZ_SEED ?? 20261201))
    const pick = (n) => Math.floor(r() * n)
    const names = ['build', 'test', 'lint', '_private', 'docs', 'fmt', 'serve', 'check']
    const tasksOf = (file) => Object.fromEntries(names.filter(() => pick(3) === 0).map((n) => [n, `echo ${n} from ${file}`]))
    const tomlValue = (v) => (Array.isArray(v) ? `[${v.map(tomlValue).join(', ')}]` : v && typeof v === 'object' ? `{ ${Object.entries(v).map(([k, x]) => `${k} = ${tomlValue(x)}`).join(', ')} }` : JSON.stringify(v))
    const toml = (prefix, opts) => {
      const lines = []
      if (opts.include !== undefined) lines.push(`${prefix ? `[${prefix}]\n` : ''}include = ${tomlValue(opts.include)}`)
      lines.push(`[${prefix ? `${prefix}.` : ''}tasks]`, ...Object.entries(opts.tasks).map(([k, v]) => `${k} = ${JSON.stringify(v)}`))
      if (opts.groups) for (const [g, t] of Object.entries(opts.groups)) lines.push(`[${prefix ? `${prefix}.` : ''}groups.${g}.tasks]`, ...Object.entries(t).map(([k, v]) => `${k} = ${JSON.stringify(v)}`))
      return `${lines.join('\n')}\n`
    }
    const yaml = (opts) => [
      ...(opts.include !== undefined ? [`include: ${JSON.stringify(opts.include)}`] : []),
      'tasks:', ...Object.entries(opts.tasks).map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`), ...(Object.keys(opts.tasks).length ? [] : ['  {}']),
    ].join('\n').replace('tasks:\n  {}', 'tasks: {}') + '\n'
    for (let k = 0; k < 12; k++) {
      const files = {}
      const paths = ['a.toml', 'sub/b.toml', 'sub/c.json', 'd.yaml', 'sub/deep/e.toml']
      const refTo = (fromDir, target) => {
        const rel = relative(fromDir, target) || target
        return pick(4) === 0 ? (pick(2) ? `\${POE_CONF_DIR}/${rel}` : `\${POE_ROOT}/${target}`) : rel
      }
      const includesFrom = (fromDir) => paths.filter(() => pick(3) === 0).concat(pick(5) === 0 ? ['nowhere.toml'] : [])
        .map((p) => (pick(4) === 0 ? { path: refTo(fromDir, p), recursive: pick(2) === 0, ...(pick(2) ? { cwd: '.' } : {}) } : refTo(fromDir, p)))
      for (const p of paths) {
        if (pick(5) === 0) continue
        const dir = dirname(p) === '.' ? '' : dirname(p)
        const opts = { tasks: tasksOf(p), ...(pick(2) ? { include: includesFrom(dir) } : {}) }
        if (p.endsWith('.json')) files[p] = JSON.stringify(opts, null, 2)
        else if (p.endsWith('.yaml')) files[p] = yaml(opts)
        else files[p] = toml(pick(2) ? 'tool.poe' : '', { ...opts, ...(pick(3) === 0 ? { groups: { g: { [`g${k}`]: 'echo g' } } } : {}) })
      }
      files['pyproject.toml'] = `[project]\nname = "gen"\nversion = "0"\n\n${toml('tool.poe', { tasks: tasksOf('pyproject.toml'), include: includesFrom('') })}`
      await withFiles(`generated case ${k}`, files, async (dir, result) => {
        const list = await run('poe', ['_list_tasks'], dir)
        assert.ok(list.ok, `generated case ${k}: poe _list_tasks fails: ${list.stderr}`)
        const theirs = list.stdout.trim().split(/\s+/).filter(Boolean)
        assert.deepEqual(result.diagnostics.filter((d) => d.severity === 'error'), [], `generated case ${k}: ${JSON.stringify(files)}`)
        assert.deepEqual(recipesOf(result, 'poe').map((x) => x.name), theirs, `generated case ${k}: ${JSON.stringify(files, null, 1)}`)
      })
    }
  })

  const refusals = {
    'include is a number': { 'pyproject.toml': '[tool.poe]\ninclude = 3\ntasks.t = "echo ok"\n' },
    'an include table with an unknown key': { 'pyproject.toml': '[tool.poe]\ninclude = [{ path = "a.toml", extra = 1 }]\ntasks.t = "echo ok"\n', 'a.toml': 'tasks.a = "echo a"\n' },
    'an include with a blank cwd': { 'pyproject.toml': '[tool.poe]\ninclude = [{ path = "a.toml", cwd = " " }]\ntasks.t = "echo ok"\n', 'a.toml': 'tasks.a = "echo a"\n' },
    'an included file that is not TOML': { 'pyproject.toml': '[tool.poe]\ninclude = "a.toml"\ntasks.t = "echo ok"\n', 'a.toml': 'tasks.a = "echo a\n' },
    'an included JSON file that does not parse': { 'pyproject.toml': '[tool.poe]\ninclude = "a.json"\ntasks.t = "echo ok"\n', 'a.json': '{"tasks": ' },
    'an included file with an option poe does not know': { 'pyproject.toml': '[tool.poe]\ninclude = "a.toml"\ntasks.t = "echo ok"\n', 'a.toml': 'foo = 1\ntasks.a = "echo a"\n' },
    'an included file whose tasks are no table': { 'pyproject.toml': '[tool.poe]\ninclude = "a.toml"\ntasks.t = "echo ok"\n', 'a.toml': 'tasks = 3\n' },
    'an include of a directory': { 'pyproject.toml': '[tool.poe]\ninclude = "sub"\ntasks.t = "echo ok"\n', 'sub/x.toml': 'tasks.x = "echo x"\n' },
    'a task defined in tasks and in a group': { 'pyproject.toml': '[tool.poe]\ntasks.t = "echo ok"\n[tool.poe.groups.g.tasks]\nt = "echo again"\n' },
  }
  for (const [label, files] of Object.entries(refusals)) {
    test(`poe refuses to run any task when ${label}: the collector lists none, with an error`, { skip }, async () => {
      await withFiles(label, files, async (dir, result) => {
        const ran = await run('poe', ['t'], dir)
        assert.equal(ran.ok, false, `${label}: poe ran t (${ran.stdout})`)
        assert.deepEqual(recipesOf(result, 'poe'), [], label)
        assert.ok(result.diagnostics.some((d) => d.severity === 'error' && /poe refuses the whole configuration|poe refuses this file/.test(d.message)), `${label}: ${JSON.stringify(result.diagnostics)}`)
      })
    })
  }

  test('${POE_GIT_DIR} in an include: read when the scanned directory is the git work tree, as poe reads it; else a warning', { skip: skip || (toolBinary('git') ? false : 'git is not on PATH') }, async () => {
    const files = { 'pyproject.toml': '[tool.poe]\ninclude = "${POE_GIT_DIR}/tasks/a.toml"\ntasks.t = "echo ok"\n', 'tasks/a.toml': 'tasks.a = "echo a"\n' }
    await withFiles('no git', files, async (dir, result) => {
      const list = await run('poe', ['_list_tasks'], dir)
      assert.deepEqual(list.stdout.trim().split(/\s+/), ['t'], 'poe: no git repository, no include')
      assert.deepEqual(recipesOf(result, 'poe').map((x) => x.name), ['t'])
      assert.match(result.diagnostics.map((d) => d.message).join('\n'), /poe includes \$\{POE_GIT_DIR\}\/tasks\/a\.toml, which uses \$\{POE_GIT_DIR\}/)
    })
    await withFiles('git', files, async (dir) => {
      await execFileAsync(toolBinary('git'), ['init', '-q', dir])
      const result = pythonCollector.collect({ root: dir, options: { enabled: true } })
      const list = await run('poe', ['_list_tasks'], dir)
      assert.deepEqual(list.stdout.trim().split(/\s+/), ['t', 'a'], 'poe: the include from the git work tree')
      assert.deepEqual(recipesOf(result, 'poe').map((x) => x.name), ['t', 'a'])
      assert.deepEqual(result.diagnostics, [])
    })
  })

  test('a missing included file is only a warning: poe runs the other tasks, the collector lists them', { skip }, async () => {
    await withFiles('missing', { 'pyproject.toml': '[tool.poe]\ninclude = ["gone.toml", "a.toml"]\ntasks.t = "echo ok"\n', 'a.toml': 'tasks.a = "echo a"\n' }, async (dir, result) => {
      const ran = await run('poe', ['t'], dir)
      assert.ok(ran.ok && /ok/.test(ran.stdout), `poe t: ${ran.stderr}`)
      assert.deepEqual(recipesOf(result, 'poe').map((x) => x.name), ['t', 'a'])
      assert.equal(result.diagnostics.length, 1)
      assert.match(result.diagnostics[0].message, /poe includes gone\.toml, which does not exist/)
    })
  })
})
