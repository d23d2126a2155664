// The body readers of the text manifests (just, Taskfile, mise, poe, pdm, hatch): each test writes
// manifests to a temp folder, runs the real collector for the recipe, then the reader, and checks
// lines, order, cwd, via and unknown parts. Where a runner can print what it would run without
// running it, generated manifests are compared with it: `just --dry-run`, `task --dry`,
// `mise run --dry-run`, `poe -d`; pdm and hatch have none, so their order is compared with a real
// run of manifests whose every command is `echo`, and the working directories with a real run of
// recipes whose every line is `pwd`. Each comparison skips with a reason when its runner is absent.
import { describe, it as test } from 'node:test'
import assert from 'node:assert/strict'
import { chmodSync, mkdirSync, readFileSync, realpathSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, isAbsolute, join, relative } from 'node:path'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { collectJust } from '../../dist/src/collectors/just/collect.js'
import { taskCollector } from '../../dist/src/collectors/task/collect.js'
import { collectMise } from '../../dist/src/collectors/mise/collect.js'
import { collectPython } from '../../dist/src/collectors/python/collect.js'
import { readJustBody } from '../../dist/src/book/risk/bodies/just.js'
import { readTaskBody } from '../../dist/src/book/risk/bodies/task.js'
import { readMiseBody } from '../../dist/src/book/risk/bodies/mise.js'
import { readPythonBody } from '../../dist/src/book/risk/bodies/python.js'
import { BODY_READERS } from '../../dist/src/book/risk/bodies/index.js'
import { findJust } from '../support/just-binary.mjs'
import { rng } from '../support/random.mjs'
import { tempDir } from '../support/temp.mjs'
import { skipWithout, toolBinary } from '../support/tool-binary.mjs'

const execFileAsync = promisify(execFile)
const JUST = findJust()
const skipJust = JUST ? false : 'just is not installed (source test/setup/10-runners.sh)'

// ------------------------------------------------------------------ shared helpers

/** The reader's context as the gate gives it: the real root, reads of regular files inside it, at most 1 MiB. */
function contextFor(root) {
  const real = realpathSync(root)
  return {
    root: real,
    memo: new Map(),
    read(abs) {
      try {
        const target = realpathSync(abs)
        const rel = relative(real, target)
        if (rel.startsWith('..') || isAbsolute(rel)) return undefined
        const st = statSync(target)
        if (!st.isFile() || st.size > 1024 * 1024) return undefined
        return readFileSync(target, 'utf8')
      } catch {
        return undefined
      }
    },
  }
}

/** Writes `files` (path → text) under `dir`. */
function write(dir, files) {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  return realpathSync(dir)
}

function only(recipes, name, runner) {
  const found = recipes.filter((r) => r.name === name && (runner === undefined || r.runner === runner))
  assert.equal(found.length, 1, `one recipe ${runner ?? ''} ${name} among ${recipes.map((r) => r.name).join(', ')}`)
  return found[0]
}

const texts = (body) => body.lines.map((l) => l.text)
/** Generated files, for a failure's message. */
const listing = (files) => Object.entries(files).map(([f, x]) => `--- ${f}\n${x}`).join('\n')

async function tool(bin, args, cwd, env = {}) {
  try {
    const { stdout, stderr } = await execFileAsync(bin, args, { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, encoding: 'utf8', timeout: 120_000 })
    return { ok: true, stdout, stderr }
  } catch (error) {
    return { ok: false, stdout: error.stdout ?? '', stderr: `${error.stderr ?? ''}${error.message}` }
  }
}

const pick = (r, list) => list[Math.floor(r() * list.length)]

/** A recipe as a collector would make it, for manifests the collector refuses (the reader must cope anyway). */
function recipeFor(source, name, file, fields = {}) {
  const command = { just: `just ${name}`, task: `task ${name}`, mise: `mise run ${name}` }[source] ?? `${fields.runner} ${name}`
  const empty = { prerequisites: [], variables: [], parameters: [], aliases: [] }
  return { id: `${source}:${name}`, source, runner: source, name, command, cwd: '.', description: '', file, ...empty, ...fields }
}

test('the text readers are the ones the gate maps each source to', () => {
  assert.equal(BODY_READERS.just, readJustBody)
  assert.equal(BODY_READERS.task, readTaskBody)
  assert.equal(BODY_READERS.mise, readMiseBody)
  assert.equal(BODY_READERS.python, readPythonBody)
})

// ------------------------------------------------------------------ just

function justBody(dir, name, args = []) {
  const result = collectJust(dir)
  assert.deepEqual(result.diagnostics.filter((d) => d.severity === 'error'), [], 'the justfile is one just accepts')
  return readJustBody(only(result.recipes, name), contextFor(dir), args)
}

describe('just bodies', () => {
  test('dependencies with arguments run first, && dependencies after, variables and parameters expanded', (t) => {
    const dir = write(tempDir(t, 'gate-just-'), {
      justfile: [
        'out := "dist" / "pkg"',
        'version := "1.0"',
        'release v=version *rest: clean (build v "fast") && (notify v)',
        '  @echo releasing {{v}} {{rest}}',
        '  -rm -rf {{out}}/old',
        'clean:',
        '  rm -rf {{out}}',
        'build ver mode:',
        '  cargo build --{{mode}} # {{ver}}',
        'notify who:',
        '  echo done {{quote(who)}}',
        '',
      ].join('\n'),
    })
    const body = justBody(dir, 'release', ['2.0', 'a', 'b'])
    assert.deepEqual(texts(body), ['rm -rf dist/pkg', 'cargo build --fast # 2.0', 'echo releasing 2.0 a b', 'rm -rf dist/pkg/old', "echo done '2.0'"])
    assert.deepEqual(body.lines.map((l) => l.via), [
      ['just release 2.0 a b', 'just clean'],
      ['just release 2.0 a b', 'just build 2.0 fast'],
      ['just release 2.0 a b'],
      ['just release 2.0 a b'],
      ['just release 2.0 a b', 'just notify 2.0'],
    ])
    assert.deepEqual(body.lines.map((l) => l.line), [7, 9, 4, 5, 11])
    assert.ok(body.lines.every((l) => l.cwd === '.' && l.file === 'justfile'))
    assert.deepEqual(body.unknown, [])
  })

  test('a backtick, env_var() and shell() are holes, and the commands they run are lines', (t) => {
    const dir = write(tempDir(t, 'gate-just-'), {
      justfile: [
        'target := `git rev-parse --show-toplevel`',
        'home := env_var("HOME")',
        'x := shell("rm -rf cache")',
        'wipe:',
        '  rm -rf {{target}}/build {{home}}/.cache',
        '',
      ].join('\n'),
    })
    const body = justBody(dir, 'wipe')
    // just evaluates every assignment before it runs a recipe: the backtick and shell() commands run.
    assert.deepEqual(texts(body), ['git rev-parse --show-toplevel', 'rm -rf cache', 'rm -rf "${target}"/build "${HOME}"/.cache'])
    assert.equal(body.lines[0].line, 1)
    assert.equal(body.unknown.length, 1)
    const part = body.unknown[0]
    assert.match(part.text, /rm -rf \{\{target\}\}\/build/)
    assert.match(part.text, /target := `git rev-parse --show-toplevel`/, 'the definition of the hole is part of the unknown text')
    assert.match(part.why, /backtick/)
    assert.match(part.why, /HOME/)
    assert.equal(part.line, 5)
  })

  test('set lazy leaves unused backticks alone', (t) => {
    const dir = write(tempDir(t, 'gate-just-'), { justfile: 'set lazy\nunused := `rm -rf /`\nok:\n  echo ok\n' })
    assert.deepEqual(texts(justBody(dir, 'ok')), ['echo ok'])
  })

  test('a parameter the call leaves out is a hole, not an empty word', (t) => {
    const dir = write(tempDir(t, 'gate-just-'), { justfile: 'clean dir:\n  rm -rf {{dir}}\n' })
    const body = justBody(dir, 'clean')
    assert.deepEqual(texts(body), ['rm -rf "${dir}"'])
    assert.match(body.unknown[0].why, /no value for the parameter `dir`/)
    assert.deepEqual(texts(justBody(dir, 'clean', ['build'])), ['rm -rf build'])
  })

  test('words past the parameters name further recipes, as just reads its command line', (t) => {
    const dir = write(tempDir(t, 'gate-just-'), { justfile: 'a x:\n  echo a {{x}}\nb:\n  rm -rf b\n' })
    const body = justBody(dir, 'a', ['1', 'b', 'nope'])
    assert.deepEqual(texts(body), ['echo a 1', 'rm -rf b'])
    assert.deepEqual(body.lines[1].via, ['just b'])
    assert.match(body.unknown[0].why, /`nope`/)
  })

  test('modules run in their directory, moved by working-directory settings and attributes, [no-cd] at the root', (t) => {
    const dir = write(tempDir(t, 'gate-just-'), {
      justfile: 'mod api\nmod web \'frontend/web.just\'\nimport \'tools/extra.just\'\n[no-cd]\nhere:\n  echo here\n',
      'api/mod.just': [
        'set working-directory := "src"',
        'v := "api-v"',
        'gen: (helper v)',
        '  echo gen {{v}}',
        'helper x:',
        '  echo help {{x}}',
        '[working-directory("deep")]',
        'd:',
        '  echo d',
        '',
      ].join('\n'),
      'frontend/web.just': 'build:\n  npm run build\n',
      'tools/extra.just': 'extra:\n  echo extra {{source_directory()}}\n',
    })
    const gen = justBody(dir, 'api::gen')
    assert.deepEqual(texts(gen), ['echo help api-v', 'echo gen api-v'])
    assert.deepEqual(gen.lines.map((l) => [l.cwd, l.file]), [['api/src', 'api/mod.just'], ['api/src', 'api/mod.just']])
    assert.deepEqual(gen.lines[0].via, ['just api::gen', 'just api::helper api-v'])
    assert.equal(justBody(dir, 'api::d').lines[0].cwd, 'api/src/deep')
    assert.equal(justBody(dir, 'web::build').lines[0].cwd, 'frontend')
    const extra = justBody(dir, 'extra')
    assert.deepEqual(texts(extra), [`echo extra ${join(dir, 'tools')}`])
    assert.deepEqual([extra.lines[0].cwd, extra.lines[0].file], ['.', 'tools/extra.just'])
    assert.equal(justBody(dir, 'here').lines[0].cwd, '.')
  })

  test('a shebang or [script] recipe is one script: a shell script as it is, python as python3 -c, another interpreter unknown', (t) => {
    const dir = write(tempDir(t, 'gate-just-'), {
      justfile: [
        'set unstable',
        'name := "world"',
        'sh:',
        '  #!/usr/bin/env bash',
        '  set -e',
        '  rm -rf {{name}}',
        'py:',
        '  #!/usr/bin/env -S python3 -u',
        '  import shutil',
        "  shutil.rmtree('{{name}}')",
        "[script('fish')]",
        'fish:',
        '  rm -rf {{name}}',
        '[script]',
        'plain:',
        '  -echo not stripped',
        '',
      ].join('\n'),
    })
    assert.deepEqual(texts(justBody(dir, 'sh')), ['#!/usr/bin/env bash\nset -e\nrm -rf world'])
    assert.deepEqual(texts(justBody(dir, 'py')), ["python3 -c 'import shutil\nshutil.rmtree('\\''world'\\'')'"])
    const fish = justBody(dir, 'fish')
    assert.deepEqual(texts(fish), [])
    assert.match(fish.unknown[0].why, /runs with fish/)
    assert.equal(fish.unknown[0].text, 'rm -rf world')
    assert.deepEqual(texts(justBody(dir, 'plain')), ['-echo not stripped'], 'a script keeps its - prefix, as just does')
  })

  test('a recipe for another system is left out; the one for this system is read', (t) => {
    const dir = write(tempDir(t, 'gate-just-'), { justfile: '[windows]\nclean:\n  del /s build\n[unix]\nclean:\n  rm -rf build\n' })
    assert.deepEqual(texts(justBody(dir, 'clean')), [process.platform === 'win32' ? 'del /s build' : 'rm -rf build'])
  })

  test('hostile justfiles: a dependency cycle, a value that doubles, a self-referring variable, a broken file, a link out of the root', (t) => {
    const dir = write(tempDir(t, 'gate-just-'), {
      justfile: [
        'a0 := "xxxxxxxxxxxxxxxx"',
        ...Array.from({ length: 30 }, (_, i) => `a${i + 1} := a${i} + a${i}`),
        'self := self + "x"',
        'big:',
        '  echo {{a30}}',
        'me:',
        '  echo {{self}}',
        'ping: pong',
        '  echo ping',
        'pong: ping',
        '  echo pong',
        '',
      ].join('\n'),
    })
    const ctx = contextFor(dir)
    const recipe = (name) => recipeFor('just', name, 'justfile')
    const big = readJustBody(recipe('big'), ctx, [])
    assert.equal(big.lines.length, 1)
    assert.match(big.lines[0].text, /^echo "\$\{a\d+\}"$/, 'the doubled value is one unknown word')
    assert.match(big.unknown[0].why, /MAX_VALUE/)
    assert.ok(big.unknown[0].text.length < 20_000)
    assert.match(readJustBody(recipe('me'), ctx, []).unknown[0].why, /in terms of itself/)
    const cycle = readJustBody(recipe('ping'), ctx, [])
    assert.deepEqual(texts(cycle), ['echo pong', 'echo ping'])
    assert.match(cycle.unknown[0].why, /cycle/)
    writeFileSync(join(dir, 'justfile'), 'x := "unterminated\nbroken (:\n\trm -rf\n  {{{{ }}\n')
    const broken = readJustBody(recipe('broken'), contextFor(dir), [])
    assert.equal(broken.lines.length, 0)
    assert.ok(broken.unknown.length >= 1, 'a recipe the justfile no longer defines is unknown')
    const outside = tempDir(t, 'gate-just-outside-')
    writeFileSync(join(outside, 'justfile'), 'x:\n  rm -rf /\n')
    const linked = tempDir(t, 'gate-just-link-')
    symlinkSync(join(outside, 'justfile'), join(linked, 'justfile'))
    const refused = readJustBody(recipe('x'), contextFor(linked), [])
    assert.deepEqual(texts(refused), [])
    assert.match(refused.unknown[0].why, /could not be read/)
  })

  test('module nesting deeper than 16 is cut, and nothing throws', (t) => {
    const files = { justfile: 'mod m0\n' }
    let path = 'm0'
    for (let i = 0; i < 20; i++) {
      files[`${path}/mod.just`] = `mod m${i + 1}\nr${i}:\n  echo {{ "level" }} ${i}\n`
      path = `${path}/m${i + 1}`
    }
    const dir = write(tempDir(t, 'gate-just-'), files)
    const name = Array.from({ length: 10 }, (_, i) => `m${i}`).join('::') + '::r9'
    const recipe = recipeFor('just', name, 'x')
    assert.deepEqual(texts(readJustBody(recipe, contextFor(dir), [])), ['echo level 9'])
    const deep = { ...recipe, name: Array.from({ length: 19 }, (_, i) => `m${i}`).join('::') + '::r18' }
    const body = readJustBody(deep, contextFor(dir), [])
    assert.deepEqual(texts(body), [])
    assert.equal(body.unknown.length, 1)
  })
})

// Generated justfiles against `just --dry-run`: variables, parameters with defaults and given
// arguments, dependencies with arguments (prior and subsequent), modules and imports.
function genWord(r) {
  return pick(r, ['alpha', 'b-2', 'c_d', 'x.y', 'dir/sub', 'Z9', 'q'])
}

function genLiteral(r) {
  const w = genWord(r)
  return pick(r, [`"${w}"`, `'${w}'`, `"${w}\\t${w}"`, `'''\n  ${w}\n  '''`.replace(/\n/g, ' ').replace("''' ", "'''")])
}

function genExpr(r, vars, depth = 0) {
  const leaf = () => (vars.length && r() < 0.5 ? pick(r, vars) : genLiteral(r))
  if (depth > 1) return leaf()
  switch (Math.floor(r() * 8)) {
    case 0: return `${leaf()} + ${genExpr(r, vars, depth + 1)}`
    case 1: return `${leaf()} / ${leaf()}`
    case 2: return `uppercase(${leaf()})`
    case 3: return `replace(${leaf()}, "a", "A")`
    case 4: return `if ${leaf()} == ${leaf()} { ${leaf()} } else { ${leaf()} }`
    case 5: return `quote(${leaf()})`
    case 6: return `join(${leaf()}, ${leaf()})`
    default: return leaf()
  }
}

function genParams(r, vars) {
  const params = []
  const n = Math.floor(r() * 3)
  for (let i = 0; i < n; i++) {
    const name = `p${i}`
    const withDefault = params.some((p) => p.default !== undefined) || r() < 0.4
    params.push({ name, default: withDefault ? (r() < 0.5 ? genLiteral(r) : `(${genExpr(r, vars)})`) : undefined })
  }
  // just wants a default-less `+` first, so after a default only `*` may follow.
  if (r() < 0.25) params.push({ name: 'rest', variadic: params.some((p) => p.default !== undefined) ? '*' : pick(r, ['*', '+']) })
  return params
}

function paramText(p) {
  return `${p.variadic ?? ''}${p.name}${p.default !== undefined ? `=${p.default}` : ''}`
}

/** Arguments for a call of `params`: every required one, some optional ones. */
function genArgs(r, params, valueOf) {
  const out = []
  for (const p of params) {
    if (p.variadic) {
      const n = (p.variadic === '+' ? 1 : 0) + Math.floor(r() * 2)
      for (let i = 0; i < n; i++) out.push(valueOf())
    } else if (p.default === undefined || r() < 0.5) out.push(valueOf())
    else break
  }
  return out
}

function genModule(r, prefix, vars, count, others) {
  const lines = []
  const names = []
  for (let i = 0; i < vars.length; i++) lines.push(`${vars[i]} := ${genExpr(r, vars.slice(0, i))}`)
  const recipes = []
  for (let i = 0; i < count; i++) recipes.push({ name: `${prefix}${i}`, params: genParams(r, vars) })
  for (let i = 0; i < count; i++) {
    const rec = recipes[i]
    const scope = [...vars, ...rec.params.map((p) => p.name)]
    const dep = (target) => {
      const args = genArgs(r, target.params, () => (r() < 0.5 && scope.length ? pick(r, scope) : genLiteral(r)))
      return args.length ? `(${target.ref ?? target.name} ${args.join(' ')})` : target.ref ?? target.name
    }
    const later = [...recipes.slice(i + 1), ...others]
    const prior = later.filter(() => r() < 0.3).map(dep)
    const after = later.filter(() => r() < 0.15).map(dep)
    lines.push(`${rec.name} ${rec.params.map(paramText).join(' ')}: ${prior.join(' ')}${after.length ? ` && ${after.join(' ')}` : ''}`.replace(/ +:/, ':'))
    const n = 1 + Math.floor(r() * 3)
    for (let k = 0; k < n; k++) {
      const word = () => (r() < 0.5 && scope.length ? `{{${pick(r, scope)}}}` : r() < 0.2 ? `{{ ${genExpr(r, vars)} }}` : genWord(r))
      const words = Array.from({ length: 1 + Math.floor(r() * 3) }, word)
      const prefixChar = pick(r, ['', '', '@', '-', '@-'])
      if (r() < 0.15) lines.push(`  ${prefixChar}echo ${words.join(' ')} \\`, `      continued`)
      else lines.push(`  ${prefixChar}echo ${rec.name} ${words.join(' ')}${r() < 0.1 ? ' {{{{literal}}' : ''}`)
    }
    names.push(rec)
  }
  return { text: `${lines.join('\n')}\n`, recipes: names }
}

function genJustProject(seed) {
  const r = rng(seed)
  const files = {}
  const sub = r() < 0.5 ? genModule(r, 's', ['mv0'], 3, []) : undefined
  const subFile = pick(r, ['m.just', 'm/mod.just'])
  if (sub) files[subFile] = sub.text
  const others = sub ? sub.recipes.map((x) => ({ ...x, ref: `m::${x.name}` })) : []
  const imported = r() < 0.4 ? genModule(r, 'i', [], 2, others) : undefined
  if (imported) files['inc/extra.just'] = imported.text
  const vars = Array.from({ length: 1 + Math.floor(r() * 3) }, (_, i) => `v${i}`)
  const main = genModule(r, 'r', vars, 4, [...(imported?.recipes ?? []), ...others])
  files.justfile = `${sub ? 'mod m\n' : ''}${imported ? "import 'inc/extra.just'\n" : ''}${main.text}`
  const calls = [...main.recipes, ...(imported?.recipes ?? []), ...others.map((x) => ({ ...x, name: x.ref }))]
  return { files, calls: calls.map((c) => ({ name: c.name, args: genArgs(r, c.params, () => genWord(r)) })) }
}

const JUST_GENERATED = 'generated justfiles: the lines match just --dry-run (variables, parameters, dependencies with arguments, modules, imports)'
test(JUST_GENERATED, { skip: skipJust }, async (t) => {
  let compared = 0
  for (let seed = 1; seed <= 60; seed++) {
    const project = genJustProject(seed)
    const dir = write(tempDir(t, `gate-just-gen-${seed}-`), project.files)
    const result = collectJust(dir)
    if (result.diagnostics.some((d) => d.severity === 'error')) {
      const dry = await tool(JUST, ['--dry-run', project.calls[0].name], dir)
      assert.equal(dry.ok, false, `seed ${seed}: the collector refuses a justfile just accepts: ${JSON.stringify(result.diagnostics)}`)
      continue
    }
    for (const call of project.calls) {
      const dry = await tool(JUST, ['--dry-run', call.name, ...call.args], dir)
      assert.ok(dry.ok, `seed ${seed} ${call.name} ${call.args.join(' ')}: ${dry.stderr}\n${project.files.justfile}`)
      const body = readJustBody(only(result.recipes, call.name), contextFor(dir), call.args)
      assert.deepEqual(body.unknown, [], `seed ${seed} ${call.name}`)
      const label = `seed ${seed}: just ${call.name} ${call.args.join(' ')}\n${listing(project.files)}`
      assert.equal(texts(body).join('\n'), dry.stderr.replace(/\n$/, ''), label)
      compared++
    }
  }
  assert.ok(compared > 150, `compared ${compared} calls`)
})

test('generated modules: each line\'s cwd is where just runs it (a real run of pwd lines)', { skip: skipJust }, async (t) => {
  for (let seed = 1; seed <= 12; seed++) {
    const r = rng(seed * 7919)
    const wd = (label) => (r() < 0.5 ? `set working-directory := "${label}"\n` : '')
    const attr = () => pick(r, ['', '', "[working-directory('w')]\n", '[no-cd]\n'])
    const files = {
      justfile: `${wd('top')}mod a\nmod b 'lib/b.just'\nimport 'inc/i.just'\n${attr()}root:\n  pwd\n`,
      'a/mod.just': `${wd('wa')}mod c\n${attr()}ra:\n  pwd\n`,
      'a/c.just': `${attr()}rc:\n  pwd\n`,
      'lib/b.just': `${wd('wb')}${attr()}rb:\n  pwd\n`,
      'inc/i.just': `${attr()}ri:\n  pwd\n`,
    }
    const dir = write(tempDir(t, `gate-just-cwd-${seed}-`), files)
    for (const sub of ['top', 'w', 'top/w', 'a/wa', 'a/w', 'a/wa/w', 'lib/wb', 'lib/wb/w', 'lib/w', 'a/w']) mkdirSync(join(dir, sub), { recursive: true })
    for (const name of ['root', 'a::ra', 'a::c::rc', 'b::rb', 'ri']) {
      const run = await tool(JUST, [name], dir)
      assert.ok(run.ok, run.stderr)
      const body = justBody(dir, name)
      assert.equal(join(dir, body.lines[0].cwd), run.stdout.trim(), `seed ${seed} ${name}\n${JSON.stringify(files, null, 1)}`)
    }
  }
})

// ------------------------------------------------------------------ Taskfile

function taskBody(dir, name, words = []) {
  const result = taskCollector.collect({ root: dir, options: { enabled: true } })
  assert.deepEqual(result.diagnostics.filter((d) => d.severity === 'error'), [], 'a Taskfile go-task accepts')
  return readTaskBody(only(result.recipes, name), contextFor(dir), words)
}

/** A Taskfile written as JSON, which is YAML too. */
const yaml = (doc) => `${JSON.stringify({ version: '3', ...doc }, null, 2)}\n`

/** `task --dry`'s commands: `task: [name] text`, a multi-line text continuing on the lines after. */
function dryCommands(output) {
  const out = []
  for (const line of output.split('\n')) {
    const m = /^task: \[([^\]]+)\] (.*)$/.exec(line)
    if (m) out.push({ task: m[1], text: m[2] })
    else if (out.length && !line.startsWith('task: ')) out[out.length - 1].text += `\n${line}`
  }
  return out.map((c) => ({ ...c, text: c.text.trimEnd() }))
}

const TASK = toolBinary('task')
const skipTask = skipWithout('task', 'go-task')
const goTask = (dir, args) => tool(TASK, args, dir, { HOME: dir, TASK_X_REMOTE_TASKFILES: '0' })

describe('Taskfile bodies', () => {
  test('deps first, calls with vars followed, for loops, platforms, defers last in reverse, CLI_ARGS and CLI vars', (t) => {
    const dir = write(tempDir(t, 'gate-task-'), {
      'Taskfile.yml': yaml({
        vars: { OUT: 'dist', TARGET: '{{.OUT}}/app' },
        tasks: {
          release: {
            deps: [{ task: 'clean', vars: { WHAT: '{{.TARGET}}' } }],
            cmds: [
              'echo building {{.TARGET}} {{.CLI_ARGS}}',
              { defer: 'echo first defer' },
              { task: 'publish', vars: { TAG: 'v{{.OUT | upper}}' } },
              { for: ['a', 'b'], cmd: 'cp {{.ITEM}} {{.OUT}}/' },
              { cmd: 'echo never here', platforms: [process.platform === 'win32' ? 'linux' : 'windows'] },
              { defer: { task: 'notify' } },
            ],
          },
          clean: { vars: { WHAT: '{{.WHAT | default "nothing"}}' }, cmds: ['rm -rf {{.WHAT}}'] },
          publish: 'npm publish --tag {{.TAG}}',
          notify: { platforms: [process.platform === 'win32' ? 'linux' : 'windows'], cmds: ['echo not for this system'] },
        },
      }),
    })
    const body = taskBody(dir, 'release', ['OUT=build', '--', 'x', 'y z'])
    assert.deepEqual(texts(body), [
      'rm -rf build/app',
      "echo building build/app x 'y z'",
      'npm publish --tag vBUILD',
      'cp a build/',
      'cp b build/',
      'echo first defer',
    ])
    const self = ['task release']
    assert.deepEqual(body.lines.map((l) => l.via), [['task release', 'task clean'], self, ['task release', 'task publish'], self, self, self])
    assert.ok(body.lines.every((l) => l.file === 'Taskfile.yml' && l.cwd === '.' && typeof l.line === 'number'))
    assert.deepEqual(body.unknown, [])
  })

  test('an sh: variable is a hole and its command a line; preconditions and status checks are lines too', (t) => {
    const dir = write(tempDir(t, 'gate-task-'), {
      'Taskfile.yml': yaml({
        vars: { REV: { sh: 'git rev-parse HEAD' } },
        tasks: { wipe: { preconditions: [{ sh: 'test -d .git', msg: 'no' }], status: ['test -f done'], cmds: ['rm -rf out/{{.REV}}'] } },
      }),
    })
    const body = taskBody(dir, 'wipe')
    assert.deepEqual(texts(body), ['git rev-parse HEAD', 'test -d .git', 'test -f done', 'rm -rf out/"${REV}"'])
    assert.equal(body.unknown.length, 1)
    assert.match(body.unknown[0].text, /rm -rf out\/\{\{\.REV\}\}/)
    assert.match(body.unknown[0].text, /REV: \{sh: git rev-parse HEAD\}/)
    assert.match(body.unknown[0].why, /go-task runs `git rev-parse HEAD`/)
  })

  test('a variable the Taskfiles never set is a hole (go-task reads the environment); one under default takes the default', (t) => {
    const cmds = ['rm -rf {{.DIR}}/x', 'rm -rf {{.DIR | default "tmp"}}/y', 'echo {{if .X}}x{{end}}']
    const dir = write(tempDir(t, 'gate-task-'), { 'Taskfile.yml': yaml({ tasks: { a: { cmds } } }) })
    const body = taskBody(dir, 'a')
    // A template this reader does not evaluate makes the whole text one unknown word.
    assert.deepEqual(texts(body), ['rm -rf "${DIR}"/x', 'rm -rf tmp/y', '"${UNKNOWN}"'])
    assert.equal(body.unknown.length, 2)
    assert.match(body.unknown[1].why, /\{\{if\}\} is not read/)
    assert.equal(body.unknown[1].text, 'echo {{if .X}}x{{end}}')
  })

  test('included Taskfiles: namespaces, their dir and vars, flatten, a call back to the root, aliases', (t) => {
    const dir = write(tempDir(t, 'gate-task-'), {
      'Taskfile.yml': yaml({
        includes: {
          docs: { taskfile: './docs', dir: './docs', vars: { SITE: 'public' }, aliases: ['d'] },
          tools: { taskfile: 'tools/Tasks.yml', flatten: true },
          plain: './plain',
        },
        tasks: { root: 'echo root', all: { cmds: [{ task: 'docs:build' }, { task: 'lint' }, { task: 'plain:p' }] } },
      }),
      'docs/Taskfile.yml': yaml({
        tasks: {
          build: { dir: 'src', cmds: ['rm -rf {{.SITE}}', { task: 'index' }, { task: ':root' }] },
          index: { aliases: ['idx'], cmds: ['echo {{.TASK}} {{.TASKFILE_DIR}}'] },
        },
      }),
      'tools/Tasks.yml': yaml({ tasks: { lint: { dir: 'x', cmds: ['eslint .'] } } }),
      'plain/Taskfile.yml': yaml({ tasks: { p: { cmds: ['echo p'] } } }),
    })
    const body = taskBody(dir, 'all')
    assert.deepEqual(texts(body), ['rm -rf public', `echo docs:index ${join(dir, 'docs')}`, 'echo root', 'eslint .', 'echo p'])
    // A mapping include without dir runs its tasks in the including file's directory (go-task's ResolveDir).
    assert.deepEqual(body.lines.map((l) => [l.cwd, l.file]), [
      ['docs/src', 'docs/Taskfile.yml'],
      ['docs', 'docs/Taskfile.yml'],
      ['.', 'Taskfile.yml'],
      ['x', 'tools/Tasks.yml'],
      ['.', 'plain/Taskfile.yml'],
    ])
    assert.deepEqual(body.lines[2].via, ['task all', 'task docs:build', 'task root'])
    assert.deepEqual(texts(taskBody(dir, 'docs:index')), [`echo docs:index ${join(dir, 'docs')}`])
  })

  test('words: VAR=value sets a variable, other words are further tasks, a flag that changes the Taskfile is unknown', (t) => {
    const dir = write(tempDir(t, 'gate-task-'), { 'Taskfile.yml': yaml({ vars: { V: 'one' }, tasks: { a: 'echo a {{.V}}', b: 'rm -rf b' } }) })
    const body = taskBody(dir, 'a', ['V=two', 'b', 'missing', '-t', 'other.yml'])
    assert.deepEqual(texts(body), ['echo a two', 'rm -rf b'])
    assert.deepEqual(body.lines[1].via, ['task b'])
    assert.ok(body.unknown.some((u) => /-t flag/.test(u.why)))
    assert.ok(body.unknown.some((u) => /task missing is not defined/.test(u.why)))
  })

  test('hostile Taskfiles: a call cycle, a for over sources, a fan-out of calls, an alias bomb, broken YAML, an include cycle', (t) => {
    const fan = {}
    for (let i = 0; i < 20; i++) fan[`f${i}`] = { cmds: [{ task: `f${i + 1}` }, { task: `f${i + 1}` }, 'echo f'] }
    fan.f20 = 'echo leaf'
    const dir = write(tempDir(t, 'gate-task-'), {
      'Taskfile.yml': yaml({
        includes: { self: './again' },
        tasks: {
          ping: { cmds: [{ task: 'pong' }] },
          pong: { cmds: ['echo pong', { task: 'ping' }] },
          globbed: { cmds: [{ for: 'sources', cmd: 'rm {{.ITEM}}' }] },
          huge: { cmds: [{ for: Array.from({ length: 1000 }, (_, i) => i), cmd: `echo {{.ITEM}} ${'x'.repeat(60_000)}` }] },
          ...fan,
        },
      }),
      'again/Taskfile.yml': yaml({ includes: { back: '..' }, tasks: { x: 'echo x' } }),
    })
    const recipe = (name) => recipeFor('task', name, 'Taskfile.yml')
    const taskBody = (_, name) => readTaskBody(recipe(name), contextFor(dir), [])
    const cycle = taskBody(dir, 'ping')
    assert.deepEqual(texts(cycle), ['echo pong'])
    assert.match(cycle.unknown[0].why, /calls itself/)
    const globbed = taskBody(dir, 'globbed')
    assert.deepEqual(texts(globbed), ['rm "${ITEM}"'])
    assert.match(globbed.unknown[0].why, /for loop/)
    const wide = taskBody(dir, 'f0')
    assert.ok(wide.lines.length <= 2_000, `${wide.lines.length} lines`)
    assert.ok(wide.unknown.some((u) => /MAX_CALLS|MAX_LINES/.test(u.why)), 'the fan-out is cut and said so')
    const huge = taskBody(dir, 'huge')
    assert.ok(texts(huge).join('').length <= 8 * 1024 * 1024, 'a loop over a long line stays within the body bound')
    assert.ok(huge.lines.length > 10 && huge.unknown.some((u) => /MAX_BODY_CHARS/.test(u.why)))
    assert.deepEqual(texts(taskBody(dir, 'self:x')), ['echo x'])
    const letter = (i) => String.fromCharCode(97 + i)
    const levels = Array.from({ length: 8 }, (_, i) => `x${i}: &${letter(i + 1)} [${Array(9).fill(`*${letter(i)}`).join(',')}]`)
    const bomb = ['version: "3"', 'x: &a [1,1,1,1,1,1,1,1,1]', ...levels, 'tasks:', '  a: echo a', ''].join('\n')
    writeFileSync(join(dir, 'Taskfile.yml'), bomb)
    const refused = readTaskBody(recipe('a'), contextFor(dir), [])
    assert.deepEqual(texts(refused), [])
    assert.match(refused.unknown[0].why, /can't read|alias/)
    writeFileSync(join(dir, 'Taskfile.yml'), 'version: "3"\ntasks:\n  a: [unclosed\n')
    const broken = readTaskBody(recipe('a'), contextFor(dir), [])
    assert.deepEqual(texts(broken), [])
    assert.match(broken.unknown[0].why, /can't read/)
  })
})

/** A generated Taskfile project: root vars and tasks, maybe an included lib, and the calls to compare. */
function genTaskProject(seed) {
  const r = rng(seed)
  const gvars = {}
  const nG = 1 + Math.floor(r() * 3)
  for (let i = 0; i < nG; i++) {
    gvars[`G${i}`] = i === 0 || r() < 0.4 ? pick(r, ['alpha', 'b-2', 'dir/sub']) : pick(r, [`{{.G${i - 1}}}-x`, `{{.G${i - 1} | upper}}`, `pre-{{.G0}}`])
  }
  const libMode = pick(r, ['none', 'advanced', 'string', 'flatten'])
  const libName = (k) => (libMode === 'flatten' ? `l${k}` : `lib:l${k}`)
  const tasks = {}
  const n = 5
  const gref = () => `{{.G${Math.floor(r() * nG)}}}`
  for (let i = 0; i < n; i++) {
    const task = { cmds: [] }
    const hasX = r() < 0.5
    if (hasX) task.vars = { X: pick(r, ['{{.X | default "dx"}}', 'fixed-{{.G0}}']) }
    const x = hasX ? '{{.X}}' : '{{.X | default "none"}}'
    const later = Array.from({ length: n - i - 1 }, (_, k) => `t${i + 1 + k}`)
    if (later.length && r() < 0.35) task.deps = [r() < 0.5 ? pick(r, later) : { task: pick(r, later), vars: { X: `dep-${gref()}` } }]
    const m = 1 + Math.floor(r() * 4)
    for (let k = 0; k < m; k++) {
      switch (Math.floor(r() * 7)) {
        case 0: task.cmds.push({ cmd: `echo t${i} platform ${k}`, platforms: [pick(r, ['linux', 'windows', 'darwin', 'linux/amd64', 'amd64'])] }); break
        case 1: if (later.length) task.cmds.push({ task: pick(r, later), vars: { X: `call-${gref()}` } }); break
        case 2: task.cmds.push({ defer: `echo deferred t${i} ${k}` }); break
        case 3: task.cmds.push({ for: ['a', 'b c'], cmd: `echo item {{.ITEM}} ${x}` }); break
        case 4: if (libMode !== 'none' && i < n - 1) task.cmds.push({ task: libName(Math.floor(r() * 2)) }); break
        default: task.cmds.push(`echo t${i} ${gref()} ${x} {{.TASK}} {{.CLI_ARGS}}${r() < 0.2 ? ' {{.G0 | quote}}' : ''}`)
      }
    }
    tasks[`t${i}`] = task
  }
  const files = {}
  const doc = { vars: gvars, tasks }
  if (libMode !== 'none') {
    const lib = {
      vars: { L0: pick(r, ['lv', 'lib-{{.G0}}']) },
      tasks: {
        l0: { cmds: ['echo l0 {{.L0}} {{.IV | default "noiv"}} {{.TASK}}', { task: 'l1' }] },
        // A flattened include adds no namespace, so there `:t4` names no task (go-task agrees).
        l1: { cmds: ['echo l1 {{.G0}}', ...(r() < 0.5 && libMode !== 'flatten' ? [{ task: ':t4' }] : [])] },
      },
    }
    files['lib/Taskfile.yml'] = yaml(lib)
    const how = libMode === 'advanced' ? { dir: './lib', vars: { IV: `iv-${gref()}` } } : { flatten: true }
    doc.includes = { lib: libMode === 'string' ? './lib' : { taskfile: './lib', ...how } }
  }
  files['Taskfile.yml'] = yaml(doc)
  const names = [...Object.keys(tasks), ...(libMode === 'none' ? [] : [libName(0), libName(1)])]
  const calls = names.map((name) => [name, ...(r() < 0.3 ? ['G0=cli'] : []), ...(r() < 0.4 ? ['--', 'a', 'b c'] : [])])
  return { files, calls }
}

const TASK_GENERATED = 'generated Taskfiles: the lines match task --dry (global, include, call and task vars, deps, calls, for, platforms, defers, CLI words)'
test(TASK_GENERATED, { skip: skipTask }, async (t) => {
  let compared = 0
  for (let seed = 1; seed <= 30; seed++) {
    const project = genTaskProject(seed)
    const dir = write(tempDir(t, `gate-task-gen-${seed}-`), project.files)
    const result = taskCollector.collect({ root: dir, options: { enabled: true } })
    const dries = await Promise.all(project.calls.map(([name, ...words]) => goTask(dir, ['--dry', name, ...words])))
    for (const [i, [name, ...words]] of project.calls.entries()) {
      const dry = dries[i]
      assert.ok(dry.ok, `seed ${seed}: task --dry ${name}: ${dry.stderr}`)
      const body = readTaskBody(only(result.recipes, name), contextFor(dir), words)
      const label = `seed ${seed}: task ${name} ${words.join(' ')}\n${Object.entries(project.files).map(([f, x]) => `--- ${f}\n${x}`).join('\n')}`
      assert.deepEqual(body.unknown, [], label)
      const theirs = dryCommands(dry.stderr)
      assert.deepEqual(texts(body).map((x) => x.trimEnd()), theirs.map((c) => c.text), label)
      assert.deepEqual(body.lines.map((l) => l.via[l.via.length - 1]), theirs.map((c) => `task ${c.task}`), `${label}\n(the task each line belongs to)`)
      compared++
    }
  }
  assert.ok(compared > 150, `compared ${compared} calls`)
})

test('generated includes and dirs: each line\'s cwd is where go-task runs it (a real run of pwd lines)', { skip: skipTask }, async (t) => {
  for (let seed = 1; seed <= 10; seed++) {
    const r = rng(seed * 104729)
    const dirOf = () => (r() < 0.5 ? { dir: pick(r, ['out', 'a/b', '{{.TASKFILE_DIR}}/gen']) } : {})
    const inc = (path) => pick(r, [path, { taskfile: path }, { taskfile: path, dir: pick(r, ['./w', 'lib']) }])
    const files = {
      'Taskfile.yml': yaml({ includes: { one: inc('./one'), two: inc('two/Taskfile.yml') }, tasks: { r: { ...dirOf(), cmds: ['pwd'] } } }),
      'one/Taskfile.yml': yaml({ includes: { deep: inc('./deep') }, tasks: { o: { ...dirOf(), cmds: ['pwd'] } } }),
      'one/deep/Taskfile.yml': yaml({ tasks: { d: { ...dirOf(), cmds: ['pwd'] } } }),
      'two/Taskfile.yml': yaml({ tasks: { w: { ...dirOf(), cmds: ['pwd'] } } }),
    }
    const dir = write(tempDir(t, `gate-task-cwd-${seed}-`), files)
    const result = taskCollector.collect({ root: dir, options: { enabled: true } })
    for (const name of ['r', 'one:o', 'one:deep:d', 'two:w']) {
      const run = await goTask(dir, ['--silent', name])
      assert.ok(run.ok, run.stderr)
      const body = readTaskBody(only(result.recipes, name), contextFor(dir), [])
      assert.equal(join(dir, body.lines[0].cwd), run.stdout.trim(), `seed ${seed} ${name}\n${JSON.stringify(files, null, 1)}`)
    }
  }
})

// ------------------------------------------------------------------ mise

function miseBody(dir, name, words = []) {
  const result = collectMise(dir)
  assert.deepEqual(result.diagnostics.filter((d) => d.severity === 'error'), [], 'a config mise accepts')
  return readMiseBody(only(result.recipes, name), contextFor(dir), words)
}

const MISE = toolBinary('mise')
const skipMise = skipWithout('mise')

/** mise isolated from the machine: its own home and state, the folder trusted, no network. */
function mise(dir, home, args) {
  return tool(MISE, args, dir, {
    HOME: home,
    MISE_DATA_DIR: join(home, 'data'),
    MISE_CACHE_DIR: join(home, 'cache'),
    MISE_STATE_DIR: join(home, 'state'),
    MISE_CONFIG_DIR: join(home, 'config'),
    MISE_TRUSTED_CONFIG_PATHS: dir, MISE_YES: '1', MISE_OFFLINE: '1', COLUMNS: '100000', HTTP_PROXY: 'http://127.0.0.1:9/', HTTPS_PROXY: 'http://127.0.0.1:9/',
  })
}

/** `mise run --dry-run`'s commands: `[task] $ command`. */
function miseDry(output) {
  return output.split('\n').map((l) => /^\[([^\]]+)\] \$ (.*)$/.exec(l)).filter(Boolean).map((m) => ({ task: m[1], text: m[2] }))
}

describe('mise bodies', () => {
  test('depends with arguments first, run lines with the words after the last, depends_post after, dir and vars', (t) => {
    const dir = write(tempDir(t, 'gate-mise-'), {
      'mise.toml': [
        '[vars]', 'out = "dist"', 'target = "{{vars.out}}/app"',
        '[tasks.release]',
        'run = ["echo build {{vars.target}}", "rm -rf {{vars.out}}/old"]',
        'depends = ["clean --all"]',
        'depends_post = ["notify"]',
        'dir = "web"',
        '[tasks.clean]', 'run = "rm -rf {{vars.out}}"',
        '[tasks.notify]', 'run = [{ task = "say" }, "echo {{env.USER}}"]',
        '[tasks.say]', 'run = "echo said"', '',
      ].join('\n'),
    })
    const body = miseBody(dir, 'release', ['--force'])
    assert.deepEqual(texts(body), ['rm -rf dist --all', 'echo build dist/app', 'rm -rf dist/old --force', 'echo said', 'echo "${USER}"'])
    assert.deepEqual(body.lines.map((l) => l.cwd), ['.', 'web', 'web', '.', '.'])
    const self = ['mise run release']
    const notify = [...self, 'mise run notify']
    assert.deepEqual(body.lines.map((l) => l.via), [[...self, 'mise run clean --all'], self, self, [...notify, 'mise run say'], notify])
    assert.deepEqual(body.lines.map((l) => l.line), [9, 4, 4, 13, 11])
    assert.equal(body.unknown.length, 1)
    assert.match(body.unknown[0].why, /environment variable USER/)
  })

  test('file tasks: a shell script is one line, python is python3 -c, #MISE depends followed; a shebang run string is a script', (t) => {
    const dir = write(tempDir(t, 'gate-mise-'), {
      'mise.toml': [
        '[tasks.prep]', 'run = "echo prep"',
        '[tasks.inline]', 'run = """#!/usr/bin/env python3\nimport os\nos.remove("x")\n"""',
        '[tasks.shelled]', 'run = "import shutil; shutil.rmtree(\'out\')"', 'shell = "python3 -c"', '',
      ].join('\n'),
      'mise-tasks/deploy/prod': '#!/usr/bin/env bash\n#MISE depends=["prep"]\n#MISE dir="infra"\nterraform apply\n',
      '.mise/tasks/py.py': '#!/usr/bin/env python3\nimport shutil\nshutil.rmtree("build")\n',
    })
    chmodSync(join(dir, 'mise-tasks/deploy/prod'), 0o755)
    chmodSync(join(dir, '.mise/tasks/py.py'), 0o755)
    const prod = miseBody(dir, 'deploy:prod')
    assert.deepEqual(texts(prod), ['echo prep', '#!/usr/bin/env bash\n#MISE depends=["prep"]\n#MISE dir="infra"\nterraform apply\n'])
    assert.deepEqual(prod.lines.map((l) => [l.cwd, l.file]), [['.', 'mise.toml'], ['infra', 'mise-tasks/deploy/prod']])
    assert.deepEqual(texts(miseBody(dir, 'py')), [`python3 -c 'import shutil\nshutil.rmtree("build")\n'`])
    assert.deepEqual(texts(miseBody(dir, 'inline')), [`python3 -c 'import os\nos.remove("x")\n'`])
    assert.deepEqual(texts(miseBody(dir, 'shelled')), [`python3 -c 'import shutil; shutil.rmtree('\\''out'\\'')'`], 'a task\'s shell is its lines\' interpreter')
  })

  test('hostile configs: a depends cycle, a pattern that matches nothing, a file task name that climbs out, broken TOML', (t) => {
    const dir = write(tempDir(t, 'gate-mise-'), {
      'mise.toml': '[tasks.a]\nrun = "echo a"\ndepends = ["b"]\n[tasks.b]\nrun = "echo b"\ndepends = ["a", "lint:*", "../../etc/passwd"]\n',
    })
    const body = miseBody(dir, 'a')
    assert.deepEqual(texts(body), ['echo b', 'echo a'])
    assert.ok(body.unknown.some((u) => /cycle/.test(u.why)))
    assert.ok(body.unknown.some((u) => /no config task matches lint:\*/.test(u.why)))
    assert.ok(body.unknown.some((u) => /no task \.\.\/\.\.\/etc\/passwd/.test(u.why)))
    writeFileSync(join(dir, 'mise.toml'), '[tasks.a\nrun = 1\n')
    const recipe = recipeFor('mise', 'a', 'mise.toml', { argsSeparator: '--' })
    const broken = readMiseBody(recipe, contextFor(dir), [])
    assert.deepEqual(texts(broken), [])
    assert.match(broken.unknown[0].why, /could not be read/)
  })
})

function genMiseProject(seed) {
  const r = rng(seed)
  const n = 5
  const lines = ['[vars]', 'V0 = "alpha"', 'V1 = "{{vars.V0}}-x"']
  const files = {}
  const fileTasks = ['f0', 'f1']
  const all = []
  for (let i = 0; i < n; i++) {
    const later = [...Array.from({ length: n - i - 1 }, (_, k) => `t${i + 1 + k}`), ...fileTasks]
    const word = () => pick(r, ['w1', 'b-2', '{{vars.V0}}', '{{vars.V1}}', '{{config_root}}', '--flag'])
    const cmd = (k) => `echo t${i}.${k} ${word()} ${word()}`
    lines.push(`[tasks.t${i}]`)
    lines.push(r() < 0.5 ? `run = "${cmd(0)}"` : `run = [${Array.from({ length: 1 + Math.floor(r() * 3) }, (_, k) => `"${cmd(k)}"`).join(', ')}]`)
    if (r() < 0.6) lines.push(`depends = ["${pick(r, later)}${r() < 0.4 ? ' a1 a2' : ''}"]`)
    all.push(`t${i}`)
  }
  fileTasks.forEach((f, k) => {
    files[`mise-tasks/${f}`] = `#!/usr/bin/env bash\n${k === 0 && r() < 0.5 ? '#MISE depends=["f1"]\n' : ''}echo ${f}\n`
    all.push(f)
  })
  files['mise.toml'] = `${lines.join('\n')}\n`
  return { files, calls: all.map((name) => [name, ...(r() < 0.4 ? ['x', 'y z'] : [])]) }
}

const MISE_GENERATED = 'generated mise configs: the lines match mise run --dry-run (run lists, depends with arguments, vars, file tasks, the words)'
test(MISE_GENERATED, { skip: skipMise }, async (t) => {
  let compared = 0
  for (let seed = 1; seed <= 14; seed++) {
    const project = genMiseProject(seed)
    const base = tempDir(t, `gate-mise-gen-${seed}-`)
    const dir = write(join(base, 'repo'), project.files)
    for (const f of Object.keys(project.files)) if (f.startsWith('mise-tasks/')) chmodSync(join(dir, f), 0o755)
    const result = collectMise(dir)
    const dries = await Promise.all(project.calls.map(([name, ...words]) => mise(dir, join(base, 'home'), ['run', '--dry-run', name, ...words])))
    for (const [i, [name, ...words]] of project.calls.entries()) {
      const dry = dries[i]
      assert.ok(dry.ok, `seed ${seed}: mise run -n ${name}: ${dry.stderr}`)
      const body = readMiseBody(only(result.recipes, name), contextFor(dir), words)
      const label = `seed ${seed}: mise run ${name} ${words.join(' ')}\n${project.files['mise.toml']}`
      // mise shows a file task as its path with the words; the reader gives its script.
      const taskOf = (l) => l.via[l.via.length - 1].replace(/^mise run (\S+).*$/, '$1')
      const ours = body.lines.map((l) => ({ task: taskOf(l), text: l.file.endsWith('.toml') ? l.text : join(dir, l.file) }))
      const fileTask = (text) => text.startsWith(join(dir, 'mise-tasks'))
      const theirs = miseDry(`${dry.stdout}\n${dry.stderr}`).map((c) => ({ ...c, text: fileTask(c.text) ? c.text.split(' ')[0] : c.text }))
      assert.deepEqual(body.unknown, [], label)
      assert.deepEqual(ours, theirs, label)
      compared++
    }
  }
  assert.ok(compared > 80, `compared ${compared} calls`)
})

test('mise task dirs: each line\'s cwd is where mise runs it (a real run of pwd)', { skip: skipMise }, async (t) => {
  const base = tempDir(t, 'gate-mise-cwd-')
  const dir = write(join(base, 'repo'), {
    'mise.toml': '[tasks.a]\nrun = "pwd"\ndir = "sub"\n[tasks.b]\nrun = "pwd"\n[tasks.c]\nrun = "pwd"\ndir = "{{config_root}}/deep/er"\n',
    'sub/.keep': '', 'deep/er/.keep': '',
  })
  for (const name of ['a', 'b', 'c']) {
    const run = await mise(dir, join(base, 'home'), ['run', '--quiet', name])
    assert.ok(run.ok, run.stderr)
    assert.equal(join(dir, miseBody(dir, name).lines[0].cwd), run.stdout.trim(), name)
  }
})

// ------------------------------------------------------------------ Python task runners

function pythonBody(dir, runner, name, words = []) {
  const result = collectPython(dir)
  return readPythonBody(only(result.recipes, name, runner), contextFor(dir), words)
}

/** The Python runners kept in the test's folder: their homes, no update check, no virtualenv for pdm, no network. */
const pyEnv = (dir) => ({
  HOME: dir,
  PDM_CHECK_UPDATE: 'false',
  PDM_HOME: join(dir, '.pdm'),
  PDM_USE_VENV: 'false',
  HATCH_DATA_DIR: join(dir, '.hatch'),
  HATCH_CACHE_DIR: join(dir, '.hatch-cache'),
  HTTP_PROXY: 'http://127.0.0.1:9/',
  HTTPS_PROXY: 'http://127.0.0.1:9/',
})

describe('poe, pdm, hatch and rye bodies', () => {
  test('poe: deps, cmd with the words, shell, ref with arguments, sequences of refs and inline tasks, switch, expr, script, cwd', (t) => {
    const dir = write(tempDir(t, 'gate-py-'), {
      'pyproject.toml': [
        '[tool.poe.tasks]',
        'clean = "rm -rf build"',
        'test.cmd = "pytest"', 'test.deps = ["clean"]',
        'docs.shell = "cd docs && make html"', 'docs.cwd = "site"',
        'again.ref = "test -x"',
        'all = ["test", { shell = "git push --force" }, ["docs", "clean"]]',
        'which.control.expr = "sys.platform"', 'which.switch = [{ case = "linux", cmd = "rm -rf /tmp/x" }, { cmd = "echo other" }]',
        'calc.expr = "1 + 2"',
        'fn.script = "tools.clean:main"',
        'py.shell = "import shutil; shutil.rmtree(\'x\')"', 'py.interpreter = "python"',
        'loop = ["loop"]', '',
      ].join('\n'),
    })
    assert.deepEqual(texts(pythonBody(dir, 'poe', 'test', ['-k', 'a b'])), ['rm -rf build', "pytest -k 'a b'"])
    const again = pythonBody(dir, 'poe', 'again', ['more'])
    assert.deepEqual(texts(again), ['rm -rf build', 'pytest -x more'])
    assert.deepEqual(again.lines[1].via, ['poe again', 'poe test'])
    assert.deepEqual(again.lines.map((l) => l.line), [2, 3])
    assert.deepEqual(texts(pythonBody(dir, 'poe', 'all')), ['rm -rf build', 'pytest', 'git push --force', 'cd docs && make html', 'rm -rf build'])
    assert.equal(pythonBody(dir, 'poe', 'docs').lines[0].cwd, 'site')
    assert.deepEqual(texts(pythonBody(dir, 'poe', 'which')), ['python -c sys.platform', 'rm -rf /tmp/x', 'echo other'])
    assert.deepEqual(texts(pythonBody(dir, 'poe', 'calc')), ["python -c '1 + 2'"])
    assert.deepEqual(texts(pythonBody(dir, 'poe', 'py')), [`python -c 'import shutil; shutil.rmtree('\\''x'\\'')'`])
    const fn = pythonBody(dir, 'poe', 'fn')
    assert.deepEqual(texts(fn), [])
    assert.equal(fn.unknown[0].text, 'tools.clean:main')
    assert.match(pythonBody(dir, 'poe', 'loop').unknown[0].why, /cycle/)
    writeFileSync(join(dir, 'pyproject.toml'), '[tool.poe]\nshell_interpreter = "node"\n[tool.poe.tasks]\njs.shell = "require(\'fs\').rmSync(\'x\')"\n')
    assert.deepEqual(texts(pythonBody(dir, 'poe', 'js')), [`node -e 'require('\\''fs'\\'').rmSync('\\''x'\\'')'`], 'the default shell_interpreter applies')
  })

  test('pdm: pre_run, pre_script, pre_/post_ hooks around each script, {args}, composite items, call unknown, working_dir', (t) => {
    const dir = write(tempDir(t, 'gate-py-'), {
      'pyproject.toml': [
        '[tool.pdm.scripts]',
        '_.working_dir = "src"',
        'pre_run = "echo pre_run"',
        'pre_test = "echo pre test"',
        'test = "pytest {args:tests}"',
        'post_test.shell = "rm -rf .pytest_cache"',
        'all.composite = ["test -x", "lint", "git clean -fdx"]',
        'lint.cmd = ["ruff", "check", "a b"]',
        'lint.working_dir = "."',
        'fn.call = "tools:main"', '',
      ].join('\n'),
    })
    const all = pythonBody(dir, 'pdm', 'all')
    assert.deepEqual(texts(all), ['echo pre_run', 'echo pre test', 'pytest -x', 'rm -rf .pytest_cache', "ruff check 'a b'", 'git clean -fdx'])
    const top = ['pdm run all']
    const test_ = [...top, 'pdm run test']
    assert.deepEqual(all.lines.map((l) => l.via), [
      [...top, 'pdm run pre_run'],
      [...test_, 'pdm run pre_test'],
      test_,
      [...test_, 'pdm run post_test'],
      [...top, 'pdm run lint'],
      top,
    ])
    assert.deepEqual(all.lines.map((l) => l.cwd), ['src', 'src', 'src', 'src', '.', '.'])
    assert.deepEqual(texts(pythonBody(dir, 'pdm', 'test', ['-k', 'x'])), ['echo pre_run', 'echo pre test', 'pytest -k x', 'rm -rf .pytest_cache'])
    assert.equal(pythonBody(dir, 'pdm', 'fn').unknown[0].text, 'tools:main')
  })

  test('hatch: scripts naming other scripts expand with their words, {args} and context fields, templates inherited; hatch.toml wins', (t) => {
    const dir = write(tempDir(t, 'gate-py-'), {
      'pyproject.toml': [
        '[tool.hatch.envs.default.scripts]',
        'clean = "rm -rf {root}/build"',
        'all = ["clean", "- clean --force", "pytest {args:tests}", "rm -rf {env:HOME}/.cache"]',
        '[tool.hatch.envs.docs.scripts]',
        'build = ["all -q", "mkdocs build"]',
        '[tool.hatch.envs.loop.scripts]',
        'a = "b"', 'b = "a"', '',
      ].join('\n'),
    })
    const all = pythonBody(dir, 'hatch', 'all', ['-k', 'x'])
    assert.deepEqual(texts(all), [`rm -rf ${dir}/build`, `rm -rf ${dir}/build --force`, 'pytest -k x', 'rm -rf "${HOME}"/.cache'])
    assert.match(all.unknown[0].why, /\{HOME\}/)
    assert.deepEqual(texts(pythonBody(dir, 'hatch', 'docs:build')), [
      `rm -rf ${dir}/build -q`,
      `rm -rf ${dir}/build --force -q`,
      'pytest tests -q',
      'rm -rf "${HOME}"/.cache -q',
      'mkdocs build',
    ])
    assert.ok(pythonBody(dir, 'hatch', 'loop:a').unknown.some((u) => /cycle/.test(u.why)))
    writeFileSync(join(dir, 'hatch.toml'), '[envs.default.scripts]\nclean = "git clean -fdx"\n')
    assert.deepEqual(texts(pythonBody(dir, 'hatch', 'clean')), ['git clean -fdx'])
  })

  test('rye scripts, an entry point, and hostile pyproject files', (t) => {
    const dir = write(tempDir(t, 'gate-py-'), {
      'pyproject.toml': [
        '[project]', 'name = "x"', 'version = "0"', '[project.scripts]', 'x-cli = "x.cli:main"',
        '[tool.rye.scripts]', 'fmt = "black ."', 'all = { chain = ["fmt", "lint"] }', 'lint = { cmd = ["ruff", "check"] }', 'fn = { call = "x:main" }',
        '[tool.poe.tasks]', ...Array.from({ length: 30 }, (_, i) => `p${i} = ["p${i + 1}", "p${i + 1}"]`), 'p30 = "echo leaf"', '',
      ].join('\n'),
    })
    assert.deepEqual(texts(pythonBody(dir, 'rye', 'all', ['-v'])), ['black .', 'ruff check'])
    assert.deepEqual(texts(pythonBody(dir, 'rye', 'lint', ['src'])), ['ruff check src'])
    assert.equal(pythonBody(dir, 'rye', 'fn').unknown[0].text, 'x:main')
    const entry = pythonBody(dir, 'x-cli', 'x-cli')
    assert.deepEqual(texts(entry), [])
    assert.match(entry.unknown[0].why, /x\.cli:main/)
    const wide = pythonBody(dir, 'poe', 'p0')
    assert.ok(wide.lines.length <= 2_000 && wide.unknown.some((u) => /MAX_CALLS|MAX_LINES|16 deep/.test(u.why)))
    writeFileSync(join(dir, 'pyproject.toml'), '[tool.poe.tasks\n')
    const recipe = recipeFor('python', 'a', 'pyproject.toml', { runner: 'poe', command: 'poe a' })
    const broken = readPythonBody(recipe, contextFor(dir), [])
    assert.deepEqual(texts(broken), [])
    assert.match(broken.unknown[0].why, /not valid TOML/)
  })
})

/** poe's dry run: `Poe => command` for each command it would run. */
const poeDry = (output) => output.split('\n').filter((l) => l.startsWith('Poe => ')).map((l) => l.slice(7))

const POE_GENERATED = 'generated poe tasks: the lines match poe -d (cmd with the words, shell, ref, sequence of refs and inline tasks, deps)'
test(POE_GENERATED, { skip: skipWithout('poe', 'poe (poethepoet)') }, async (t) => {
  const { parse } = await import('shell-quote')
  const words = (line) => parse(line).map((e) => (typeof e === 'string' ? e : e.op ?? e.pattern))
  let compared = 0
  for (let seed = 1; seed <= 10; seed++) {
    const r = rng(seed * 31)
    const lines = ['[tool.poe.tasks]']
    const n = 6
    for (let i = 0; i < n; i++) {
      const later = Array.from({ length: n - i - 1 }, (_, k) => `t${i + 1 + k}`)
      const kind = later.length ? pick(r, ['cmd', 'cmd', 'shell', 'ref', 'sequence']) : 'cmd'
      if (kind === 'cmd') lines.push(`t${i}.cmd = "echo t${i} ${pick(r, ['a', "'b c'", 'd-e'])}"`)
      if (kind === 'shell') lines.push(`t${i}.shell = "echo s${i} && echo more"`)
      if (kind === 'ref') lines.push(`t${i}.ref = "${pick(r, later)} r1"`)
      if (kind === 'sequence') lines.push(`t${i}.sequence = ["${pick(r, later)}", { cmd = "echo inline${i}" }]`)
      if (later.length && r() < 0.3) lines.push(`t${i}.deps = ["${pick(r, later)}"]`)
    }
    const dir = write(tempDir(t, `gate-poe-gen-${seed}-`), { 'pyproject.toml': `${lines.join('\n')}\n` })
    const calls = Array.from({ length: n }, (_, i) => [`t${i}`, ...(r() < 0.5 ? ['x', 'y z'] : [])])
    const dries = await Promise.all(calls.map((call) => tool(toolBinary('poe'), ['-d', ...call], dir, pyEnv(dir))))
    for (let i = 0; i < n; i++) {
      const args = calls[i].slice(1)
      const dry = dries[i]
      assert.ok(dry.ok, dry.stderr)
      const body = pythonBody(dir, 'poe', `t${i}`, args)
      const label = `seed ${seed} t${i} ${args.join(' ')}\n${lines.join('\n')}`
      assert.deepEqual(texts(body).map(words), poeDry(`${dry.stdout}\n${dry.stderr}`).map(words), label)
      compared++
    }
  }
  assert.ok(compared >= 60)
})

test('pdm runs scripts and hooks in the reader\'s order (a real run of echo scripts)', { skip: skipWithout('pdm') }, async (t) => {
  const dir = write(tempDir(t, 'gate-pdm-'), {
    'pyproject.toml': [
      '[project]', 'name = "x"', 'version = "0"', 'requires-python = ">=3.8"',
      '[tool.pdm.scripts]',
      'pre_run = "echo prerun"', 'pre_script = "echo prescript"', 'post_script = "echo postscript"',
      'pre_t = "echo pre t"', 't = "echo t {args:dflt}"', 'post_t.shell = "echo post t"',
      'comp.composite = ["t -x", "echo plain", "lint", "t"]', 'lint.cmd = ["echo", "lint"]', '',
    ].join('\n'),
  })
  for (const [name, ...args] of [['comp'], ['t', 'given'], ['lint', 'extra']]) {
    const run = await tool(toolBinary('pdm'), ['run', name, ...args], dir, pyEnv(dir))
    assert.ok(run.ok, run.stderr)
    const echoed = texts(pythonBody(dir, 'pdm', name, args)).map((l) => l.replace(/^echo /, ''))
    assert.deepEqual(echoed, run.stdout.trim().split('\n'), `pdm run ${name} ${args.join(' ')}`)
  }
})

test('hatch expands scripts as the reader does (hatch -v run prints each command)', { skip: skipWithout('hatch') }, async (t) => {
  const dir = write(tempDir(t, 'gate-hatch-'), {
    'pyproject.toml': [
      '[project]', 'name = "x"', 'version = "0"',
      '[tool.hatch.envs.default]', 'skip-install = true', 'dependencies = []',
      '[tool.hatch.envs.default.scripts]',
      'a = "echo a"', 'b = ["a --flag", "echo b {args:dflt}", "- echo c {root}", "- a"]', 'c = ["b x", "echo {{braces}}"]', '',
    ].join('\n'),
  })
  for (const [name, ...args] of [['b'], ['b', 'q', 'r s'], ['c', 'w']]) {
    const run = await tool(toolBinary('hatch'), ['-v', 'run', name, ...args], dir, pyEnv(dir))
    assert.ok(run.ok, run.stderr)
    const theirs = `${run.stdout}\n${run.stderr}`.split('\n').map((l) => /^cmd \[\d+\] \| (?:- )?(.*)$/.exec(l)?.[1]).filter((x) => x !== undefined)
    assert.deepEqual(texts(pythonBody(dir, 'hatch', name, args)), theirs, `hatch run ${name} ${args.join(' ')}`)
  }
})
