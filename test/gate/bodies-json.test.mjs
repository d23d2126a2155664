// What the recipes of the JSON-manifest sources run (src/book/risk/bodies/scripts.ts, deno.ts,
// composer.ts, vscode.ts, nx.ts): each test writes manifests to a temp folder, takes the recipe the
// real collector lists, and reads its body. Where the real runner can show what it runs, the body
// is compared with it: npm, pnpm and yarn run every line through a logging `script-shell`, bun
// through a logging `sh` on PATH, deno and composer print each command before they run it, and Nx
// prints its resolved targets (`nx show project --json`) and each command it runs. The fixtures
// those runners run hold only `echo` and `pwd`. VS Code has no command line that prints a task.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { chmodSync, closeSync, fstatSync, mkdirSync, openSync, readSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, isAbsolute, join, relative } from 'node:path'
import { scriptsCollector } from '../../dist/src/collectors/scripts/collect.js'
import { denoCollector } from '../../dist/src/collectors/deno/collect.js'
import { composerCollector } from '../../dist/src/collectors/composer/collect.js'
import { vscodeCollector } from '../../dist/src/collectors/vscode/collect.js'
import { nxCollector } from '../../dist/src/collectors/nx/collect.js'
import { DEFAULT_CONFIG } from '../../dist/src/book/config.js'
import { createRecipe } from '../../dist/src/book/recipe.js'
import { readScriptsBody } from '../../dist/src/book/risk/bodies/scripts.js'
import { readDenoBody } from '../../dist/src/book/risk/bodies/deno.js'
import { readComposerBody } from '../../dist/src/book/risk/bodies/composer.js'
import { readVscodeBody } from '../../dist/src/book/risk/bodies/vscode.js'
import { readNxBody } from '../../dist/src/book/risk/bodies/nx.js'
import { MAX_DEPTH, MAX_LINES } from '../../dist/src/book/risk/bodies/json-body.js'
import { tempDir } from '../support/temp.mjs'
import { toolBinary } from '../support/tool-binary.mjs'
import { rng } from '../support/random.mjs'

const SOURCES = {
  scripts: { collector: scriptsCollector, reader: readScriptsBody, options: DEFAULT_CONFIG.collectors.scripts },
  deno: { collector: denoCollector, reader: readDenoBody, options: DEFAULT_CONFIG.collectors.deno },
  composer: { collector: composerCollector, reader: readComposerBody, options: DEFAULT_CONFIG.collectors.composer },
  vscode: { collector: vscodeCollector, reader: readVscodeBody, options: DEFAULT_CONFIG.collectors.vscode },
  nx: { collector: nxCollector, reader: readNxBody, options: DEFAULT_CONFIG.collectors.nx },
}

/** A body context as the gate gives one: reads regular files inside the root only, at most 1 MiB. */
function context(root) {
  const real = realpathSync(root)
  return {
    root: real,
    memo: new Map(),
    read(abs) {
      let path
      try {
        path = realpathSync(abs)
      } catch {
        return undefined
      }
      const rel = relative(real, path)
      if (rel.startsWith('..') || isAbsolute(rel)) return undefined
      const fd = openSync(path, 'r')
      try {
        const st = fstatSync(fd)
        if (!st.isFile() || st.size > 1 << 20) return undefined
        const buffer = Buffer.alloc(st.size)
        readSync(fd, buffer, 0, st.size, 0)
        return buffer.toString('utf8')
      } finally {
        closeSync(fd)
      }
    },
  }
}

/** Writes `files` (path → text, or a value written as indented JSON) under `root`; returns the texts. */
function write(root, files) {
  const texts = {}
  for (const [path, content] of Object.entries(files)) {
    const text = typeof content === 'string' ? content : JSON.stringify(content, null, 2)
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
    texts[path] = text
  }
  return texts
}

/** The recipes the real collector lists under `root`. */
function recipesOf(source, root) {
  const { collector, options } = SOURCES[source]
  return collector.collect({ root: realpathSync(root), options }).recipes
}

/** The recipe named `name` (in `cwd` when given), as the collector lists it. */
function recipeOf(source, root, name, cwd) {
  const recipe = recipesOf(source, root).find((r) => r.name === name && (cwd === undefined || r.cwd === cwd))
  assert.ok(recipe, `the ${source} collector lists ${name}`)
  return recipe
}

function bodyOf(source, root, name, { cwd, args = [], recipe } = {}) {
  const ctx = context(root)
  return SOURCES[source].reader(recipe ?? recipeOf(source, root, name, cwd), ctx, args)
}

/** The 1-based line of the first `needle` in `text`. */
function lineOf(text, needle) {
  const at = text.indexOf(needle)
  assert.ok(at !== -1, `${needle} is in the text`)
  return text.slice(0, at).split('\n').length
}

const texts = (body) => body.lines.map((l) => l.text)
const lineWith = (body, text) => body.lines.find((l) => l.text === text)

// ---------------------------------------------------------------------------------------------
// scripts

test('scripts: a script calling another gives the callee\'s lines, with the chain that reached them', (t) => {
  const dir = tempDir(t, 'bodies-json-')
  const { 'package.json': text } = write(dir, { 'package.json': { name: 'p', scripts: { a: 'echo a && npm run b', b: 'rm -rf x' } } })
  const body = bodyOf('scripts', dir, 'a')
  assert.deepEqual(texts(body), ['echo a && npm run b', 'rm -rf x'])
  const b = lineWith(body, 'rm -rf x')
  assert.deepEqual(b.via, ['npm run a', 'npm run b'])
  assert.equal(b.cwd, '.')
  assert.equal(b.file, 'package.json')
  assert.equal(b.line, lineOf(text, '"b":'))
  assert.deepEqual(body.lines[0].via, ['npm run a'])
  assert.equal(body.lines[0].line, lineOf(text, '"a":'))
  assert.deepEqual(body.unknown, [])
})

test('scripts: pre and post hooks run around the script, each with its own line', (t) => {
  const dir = tempDir(t, 'bodies-json-')
  const { 'package.json': text } = write(dir, { 'package.json': { scripts: { postbuild: 'echo done', build: 'tsc', prebuild: 'rm -rf src' } } })
  const body = bodyOf('scripts', dir, 'build')
  assert.deepEqual(texts(body), ['rm -rf src', 'tsc', 'echo done'])
  assert.deepEqual(body.lines[0].via, ['npm run build', 'npm run prebuild'])
  assert.equal(body.lines[0].line, lineOf(text, '"prebuild":'))
  assert.deepEqual(body.lines[2].via, ['npm run build', 'npm run postbuild'])
})

test('scripts: every spelling of a call into the same package is followed, hooks included', (t) => {
  const forms = ['npm run zap', 'npm run-script zap', 'npm run -s zap -- --x', 'pnpm zap', 'pnpm run zap', 'pnpm --silent run zap', 'yarn zap',
    'yarn run zap', 'bun run zap', 'bun zap', 'env FOO=1 npm run zap', 'cross-env NODE_ENV=test yarn zap', 'npx run-s zap', 'run-p zap', 'npm-run-all zap',
    'FOO=1 time npm run zap', 'echo $(npm run zap)', 'if true; then (pnpm run zap); fi']
  for (const form of forms) {
    const dir = tempDir(t, 'bodies-json-')
    write(dir, { 'package.json': { scripts: { a: form, zap: 'rm -rf t', prezap: 'rm -rf pre' } } })
    const body = bodyOf('scripts', dir, 'a')
    assert.deepEqual(texts(body), [form, 'rm -rf pre', 'rm -rf t'], form)
    assert.equal(lineWith(body, 'rm -rf t').via.length, 2, form)
  }
})

test('scripts: npm test, start, stop and restart run their scripts with hooks; npm install runs the lifecycle scripts', (t) => {
  const dir = tempDir(t, 'bodies-json-')
  write(dir, { 'package.json': { scripts: {
    a: 'npm test && npm start && npm restart && npm install',
    pretest: 'echo pretest', test: 'echo test', start: 'echo start', stop: 'echo stop', restart: 'echo restart',
    preinstall: 'echo preinstall', postinstall: 'echo postinstall', prepare: 'echo prepare',
  } } })
  const ran = ['echo pretest', 'echo test', 'echo start', 'echo restart', 'echo stop', 'echo preinstall', 'echo postinstall', 'echo prepare']
  assert.deepEqual(texts(bodyOf('scripts', dir, 'a')).slice(1), ran)
})

test('scripts: calls into other workspaces or directories stay lines for the judge', (t) => {
  const forms = ['npm run zap --workspace pkg', 'npm run zap -w pkg', 'npm --prefix sub run zap', 'pnpm --filter web zap', 'pnpm -r run zap',
    'pnpm -C sub zap', 'yarn workspace web zap', 'yarn --cwd sub zap', 'bun run --filter web zap', 'cd sub && npm run zap', 'npm install left-pad']
  for (const form of forms) {
    const dir = tempDir(t, 'bodies-json-')
    write(dir, { 'package.json': { scripts: { a: form, zap: 'rm -rf t', preinstall: 'rm -rf i' } } })
    const body = bodyOf('scripts', dir, 'a')
    assert.deepEqual(texts(body), [form], form)
    assert.deepEqual(body.unknown, [], form)
  }
})

test('scripts: run-s, run-p and npm-run-all globs match script names with `:` as the separator, in file order', (t) => {
  const dir = tempDir(t, 'bodies-json-')
  write(dir, { 'package.json': { scripts: {
    'build:b': 'echo b', 'build:a': 'echo a', 'build:a:deep': 'echo deep', clean: 'rm -rf dist', 'lint:js': 'echo lint', 'prebuild:a': 'echo pre-a',
    s: 'run-s clean "build:*"', p: 'npm-run-all -s clean -p "lint:*" "build:**"', q: 'run-p --max-parallel 2 "build:* -- --watch"',
  } } })
  assert.deepEqual(texts(bodyOf('scripts', dir, 's')).slice(1), ['rm -rf dist', 'echo b', 'echo pre-a', 'echo a'])
  assert.deepEqual(texts(bodyOf('scripts', dir, 'p')).slice(1), ['rm -rf dist', 'echo lint', 'echo b', 'echo pre-a', 'echo a', 'echo deep'])
  assert.deepEqual(texts(bodyOf('scripts', dir, 'q')).slice(1), ['echo b', 'echo pre-a', 'echo a'])
  assert.deepEqual(lineWith(bodyOf('scripts', dir, 's'), 'echo b').via, ['npm run s', 'npm run build:b'])
})

test('scripts: concurrently runs its npm: shortcuts and its command arguments', (t) => {
  const dir = tempDir(t, 'bodies-json-')
  const dev = 'concurrently -n a,b "npm:watch-*" "rm -rf .cache && npm run x"'
  write(dir, { 'package.json': { scripts: { dev, 'watch-js': 'echo js', 'watch-css': 'echo css', x: 'echo x' } } })
  const body = bodyOf('scripts', dir, 'dev')
  assert.deepEqual(texts(body).slice(1), ['echo js', 'echo css', 'rm -rf .cache && npm run x', 'echo x'])
  assert.deepEqual(lineWith(body, 'echo x').via.length, 3)
})

test('scripts: cycles end, a script is read once, and chains deeper than the bound are said to be', (t) => {
  const dir = tempDir(t, 'bodies-json-')
  const chain = {}
  for (let i = 0; i < 30; i++) chain[`c${i}`] = `echo ${i} && npm run c${i + 1}`
  write(dir, { 'package.json': { scripts: { a: 'npm run b && npm run a', b: 'npm run a && npm run b && rm -rf b', self: 'npm run self', ...chain } } })
  assert.deepEqual(texts(bodyOf('scripts', dir, 'a')), ['npm run b && npm run a', 'npm run a && npm run b && rm -rf b'])
  assert.deepEqual(texts(bodyOf('scripts', dir, 'self')), ['npm run self'])
  const deep = bodyOf('scripts', dir, 'c0')
  assert.equal(deep.lines.length, MAX_DEPTH)
  assert.ok(Math.max(...deep.lines.map((l) => l.via.length)) <= MAX_DEPTH)
  assert.match(deep.unknown[0].why, /nest more than 16 deep/)
})

test('scripts: a fan-out of calls is read once per script and stays bounded', (t) => {
  const dir = tempDir(t, 'bodies-json-')
  const scripts = {}
  // Each script calls the next one ten times: 10^20 paths, 21 scripts.
  for (let i = 0; i < 20; i++) scripts[`f${i}`] = Array.from({ length: 10 }, () => `npm run f${i + 1}`).join(' && ')
  scripts.f20 = 'rm -rf end'
  write(dir, { 'package.json': { scripts } })
  const body = bodyOf('scripts', dir, 'f0')
  assert.equal(body.lines.length, MAX_DEPTH)
  assert.ok(body.lines.length <= MAX_LINES)
})

test('scripts: a workspace package\'s script runs in its directory and reads its own package.json', (t) => {
  const dir = tempDir(t, 'bodies-json-')
  const files = write(dir, {
    'package.json': { private: true, workspaces: ['packages/*'], scripts: { clean: 'echo root' } },
    'packages/web/package.json': { name: 'web', scripts: { clean: 'rm -rf dist && npm run reset', reset: 'git clean -fdx' } },
  })
  const body = bodyOf('scripts', dir, 'clean', { cwd: 'packages/web' })
  assert.deepEqual(texts(body), ['rm -rf dist && npm run reset', 'git clean -fdx'])
  for (const l of body.lines) {
    assert.equal(l.cwd, 'packages/web')
    assert.equal(l.file, 'packages/web/package.json')
  }
  assert.equal(body.lines[1].line, lineOf(files['packages/web/package.json'], '"reset":'))
})

test('scripts: what can\'t be read is unknown with why, and hostile package.json files never throw', (t) => {
  const dir = tempDir(t, 'bodies-json-')
  const a = 'npm run b; npm run $TARGET; pnpm run "/^build/"; npm --foo run c'
  write(dir, { 'package.json': { scripts: { a, b: 5, c: 'echo c', ['__proto__']: 'rm -rf proto', p: 'npm run __proto__' } } })
  const body = bodyOf('scripts', dir, 'a')
  const whys = body.unknown.map((u) => u.why).join('\n')
  assert.match(whys, /"b" is a number/)
  assert.match(whys, /computed when the line runs/)
  assert.match(whys, /regular expression/)
  assert.match(whys, /option --foo/)
  assert.deepEqual(texts(bodyOf('scripts', dir, 'p')), ['npm run __proto__', 'rm -rf proto'])

  const recipe = recipeOf('scripts', dir, 'a')
  const deep = `{"deep": ${'['.repeat(200_000)}${']'.repeat(200_000)}, "scripts": {"a": "rm -rf z"}}`
  for (const text of ['{"scripts": {"a": "npm run', '[1, 2]', '{"scripts": 5}', '{"scripts": {"a": null}}', deep, '']) {
    writeFileSync(join(dir, 'package.json'), text)
    const got = bodyOf('scripts', dir, 'a', { recipe })
    assert.ok(Array.isArray(got.lines) && Array.isArray(got.unknown), text.slice(0, 30))
    assert.ok(got.lines.length > 0 || got.unknown.length > 0, `something is said for ${text.slice(0, 30)}`)
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { a: `rm -rf ${'x'.repeat(1 << 20)}` } }))
  assert.match(bodyOf('scripts', dir, 'a', { recipe }).unknown[0].why, /gone|can't/)
  const huge = `rm -rf ${'y '.repeat(400_000)}`
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { a: huge } }))
  assert.equal(bodyOf('scripts', dir, 'a', { recipe }).lines[0].text, huge)
})

test('scripts: each manifest is read once per judgement, however often the chain comes back to it', (t) => {
  const dir = tempDir(t, 'bodies-json-')
  write(dir, {
    'package.json': { scripts: { a: 'npm run b && npm run c && npm run b', b: 'npm run c', c: 'echo c' } },
    [TASKS]: { version: '2.0.0', tasks: [{ label: 'v', dependsOn: ['npm: a', { type: 'npm', script: 'b' }, 'w'] }, { label: 'w', type: 'npm', script: 'c' }] },
  })
  const ctx = context(dir)
  const reads = new Map()
  const counting = { ...ctx, read: (abs) => (reads.set(abs, (reads.get(abs) ?? 0) + 1), ctx.read(abs)) }
  assert.deepEqual(texts(readScriptsBody(recipeOf('scripts', dir, 'a'), counting, [])), ['npm run b && npm run c && npm run b', 'npm run c', 'echo c'])
  // One judgement may read several recipes' bodies; they share the memo.
  assert.deepEqual(texts(readVscodeBody(vscodeRecipe('v'), counting, [])), ['npm run b && npm run c && npm run b', 'npm run c', 'echo c'])
  assert.deepEqual([...reads.values()], [1, 1])
  assert.ok(ctx.memo.size >= 2)
})

test('scripts: a package.json that links out of the root is not read', (t) => {
  const outside = tempDir(t, 'bodies-json-out-')
  const dir = tempDir(t, 'bodies-json-')
  write(outside, { 'package.json': { scripts: { a: 'rm -rf /' } } })
  write(dir, { 'package.json': { scripts: { a: 'echo a' } } })
  const recipe = recipeOf('scripts', dir, 'a')
  spawnSync('rm', [join(dir, 'package.json')])
  symlinkSync(join(outside, 'package.json'), join(dir, 'package.json'))
  const body = bodyOf('scripts', dir, 'a', { recipe })
  assert.deepEqual(body.lines, [])
  assert.equal(body.unknown.length, 1)
})

// The package managers as oracles: each line they hand to a shell is logged by that shell, which
// then runs it (the fixtures run only echo and the managers themselves). A script called twice
// runs twice there and is read once here, so the log is compared by first appearance.
const LOGGING_SHELL = `#!/bin/sh
printf '%s\\n' "$2" >> "$ORACLE_LOG"
exec /bin/sh "$@"
`

function firstAppearances(lines) {
  return [...new Set(lines)]
}

/** Runs `runner run a` in `dir` with every script line logged; returns the logged lines in order. */
function managerLog(t, runner, binary, dir) {
  const tools = tempDir(t, 'bodies-json-shell-')
  const shell = join(tools, 'sh')
  writeFileSync(shell, LOGGING_SHELL)
  chmodSync(shell, 0o755)
  writeFileSync(join(tools, 'bash'), LOGGING_SHELL)
  chmodSync(join(tools, 'bash'), 0o755)
  const log = join(tools, 'log')
  writeFileSync(log, '')
  if (runner === 'pnpm') writeFileSync(join(dir, 'pnpm-workspace.yaml'), `scriptShell: ${JSON.stringify(shell)}\n`)
  // TMPDIR: yarn leaves folders of its own in the temp folder; these go with the test's.
  const env = {
    ...process.env, ORACLE_LOG: log, npm_config_script_shell: shell, npm_config_update_notifier: 'false', npm_config_fund: 'false', TMPDIR: tools,
    // bun runs scripts with the `sh` it finds on PATH; the managers themselves must stay findable.
    PATH: `${tools}:${dirname(binary)}:${process.env.PATH}`,
  }
  const r = spawnSync(binary, ['run', 'a'], { cwd: dir, env, encoding: 'utf8', timeout: 120_000 })
  assert.equal(r.status, 0, `${runner} run a failed: ${r.stderr}`)
  return spawnSync('cat', [log], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean)
}

for (const [runner, call] of [['npm', (n) => `npm run ${n}`], ['pnpm', (n) => `pnpm ${n}`], ['yarn', (n) => `yarn ${n}`], ['bun', (n) => `bun run ${n}`]]) {
  const binary = toolBinary(runner)
  const skip = !binary && `${runner} is not on PATH; run \`source test/setup/10-runners.sh\``
  test(`scripts: the lines ${runner} runs for a script, its hooks and its calls are the body's, in order`, { skip }, (t) => {
    const dir = tempDir(t, 'bodies-json-')
    write(dir, { 'package.json': { name: 'oracle', version: '1.0.0', scripts: {
      prea: 'echo pre-a', a: `echo a && ${call('b')} && ${call('sub')} && echo a2`, posta: 'echo post-a',
      b: 'echo b', postb: 'echo post-b', sub: `echo sub && ${call('b')}`, presub: 'echo pre-sub',
    } } })
    const recipe = { ...recipeOf('scripts', dir, 'a'), runner }
    const body = bodyOf('scripts', dir, 'a', { recipe })
    assert.deepEqual(texts(body), firstAppearances(managerLog(t, runner, binary, dir)))
  })
}

// ---------------------------------------------------------------------------------------------
// deno

test('deno: a task\'s dependencies come first, then its command, then the tasks it calls', (t) => {
  const dir = tempDir(t, 'bodies-json-')
  const { 'deno.jsonc': text } = write(dir, { 'deno.jsonc': `{
  // tasks, as deno reads them: comments, trailing commas
  "tasks": {
    "a": { "command": "echo a && deno task b", "dependencies": ["c", "d"] },
    "b": "rm -rf b",
    "c": { "command": "echo c", "dependencies": ["d"] },
    "d": "echo d",
    "only": { "dependencies": ["d", "b"] },
  },
}
` })
  const body = bodyOf('deno', dir, 'a')
  assert.deepEqual(texts(body), ['echo d', 'echo c', 'echo a && deno task b', 'rm -rf b'])
  assert.deepEqual(lineWith(body, 'echo d').via, ['deno task a', 'deno task c', 'deno task d'])
  assert.deepEqual(lineWith(body, 'rm -rf b').via, ['deno task a', 'deno task b'])
  assert.equal(lineWith(body, 'rm -rf b').line, lineOf(text, '"b":'))
  assert.equal(lineWith(body, 'rm -rf b').file, 'deno.jsonc')
  assert.deepEqual(texts(bodyOf('deno', dir, 'only')), ['echo d', 'rm -rf b'])
})

test('deno: wildcard calls, member tasks falling back to package.json and the root, cycles and bad values', (t) => {
  const dir = tempDir(t, 'bodies-json-')
  write(dir, {
    'deno.json': { workspace: ['./app'], tasks: { shared: 'rm -rf shared', root: 'echo root; deno task shared' } },
    'app/deno.json': { tasks: {
      t: { command: "deno task 'build-*' && deno task root && deno task pkg", dependencies: ['loop'] },
      'build-x': 'echo bx', 'build-y': 'echo by', shared: 'echo member shared',
      loop: { command: 'echo loop', dependencies: ['loop2'] }, loop2: { command: 'echo loop2', dependencies: ['loop'] },
      bad: { command: 7 }, dyn: 'deno task $NAME; deno task --cwd ../other x; deno task --eval "rm -rf ev"',
    } },
    'app/package.json': { scripts: { pkg: 'echo pkg', prepkg: 'echo prepkg' } },
  })
  const body = bodyOf('deno', dir, 't')
  assert.deepEqual(texts(body), ['echo loop2', 'echo loop', "deno task 'build-*' && deno task root && deno task pkg", 'echo bx', 'echo by',
    'echo root; deno task shared', 'rm -rf shared', 'echo prepkg', 'echo pkg'])
  assert.equal(lineWith(body, 'echo root; deno task shared').cwd, '.')
  assert.equal(lineWith(body, 'rm -rf shared').file, 'deno.json')
  assert.equal(lineWith(body, 'echo bx').cwd, 'app')
  assert.equal(lineWith(body, 'echo pkg').file, 'app/package.json')
  assert.deepEqual(lineWith(body, 'echo bx').via, ['deno task t', 'deno task build-x'])
  assert.match(bodyOf('deno', dir, 'bad').unknown[0].why, /a number for its command/)
  const dyn = bodyOf('deno', dir, 'dyn')
  assert.deepEqual(texts(dyn), ['deno task $NAME; deno task --cwd ../other x; deno task --eval "rm -rf ev"', 'rm -rf ev'])
  assert.match(dyn.unknown[0].why, /computed when the line runs/)
})

test('deno: a config that breaks after the scan, or is hostile, never throws', (t) => {
  const dir = tempDir(t, 'bodies-json-')
  write(dir, { 'deno.json': { tasks: { a: 'echo a' } } })
  const recipe = recipeOf('deno', dir, 'a')
  const deep = `{"x": ${'{"y":'.repeat(100_000)}1${'}'.repeat(100_000)}, "tasks": {"a": "x"}}`
  for (const text of ['{"tasks": {"a": ', '"just a string"', '{"tasks": []}', deep, '\ufeff{"tasks": {"a": "echo bom"}}']) {
    writeFileSync(join(dir, 'deno.json'), text)
    const body = bodyOf('deno', dir, 'a', { recipe })
    assert.ok(body.lines.length + body.unknown.length > 0, text.slice(0, 30))
  }
  // Deno accepts a missing comma; so does the reader.
  writeFileSync(join(dir, 'deno.json'), '{"tasks": {"a": "deno task b" "b": "rm -rf b"}}')
  assert.deepEqual(texts(bodyOf('deno', dir, 'a', { recipe })), ['deno task b', 'rm -rf b'])
})

const deno = toolBinary('deno')
const noDeno = !deno && 'deno is not on PATH; run `source test/setup/10-runners.sh`'
test('deno: the tasks deno runs, in dependency order, are the body\'s', { skip: noDeno }, (t) => {
  const dir = tempDir(t, 'bodies-json-')
  write(dir, {
    'deno.json': { workspace: ['./m'], tasks: { root: 'echo root' } },
    'm/deno.json': { tasks: {
      a: { command: 'echo a && deno task b && deno task "w-*"', dependencies: ['c'] },
      b: 'echo b && deno task root', c: { command: 'echo c', dependencies: ['d'] }, d: 'echo d', 'w-1': 'echo w1', 'w-2': 'echo w2', pkg: 'echo never',
    } },
  })
  const body = bodyOf('deno', dir, 'a', { cwd: 'm' })
  const env = { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1', DENO_DIR: join(dir, '.deno'), TMPDIR: tempDir(t, 'bodies-json-tmp-') }
  const r = spawnSync(deno, ['task', 'a'], { cwd: join(dir, 'm'), encoding: 'utf8', env, timeout: 120_000 })
  assert.equal(r.status, 0, r.stderr)
  const ran = r.stderr.split('\n').map((l) => /^Task \S+ (.*)$/.exec(l)?.[1]).filter(Boolean)
  assert.deepEqual(texts(body), firstAppearances(ran))
})

// ---------------------------------------------------------------------------------------------
// composer

test('composer: a script list runs in order, @other followed, @php and @composer as commands, @putenv nothing', (t) => {
  const dir = tempDir(t, 'bodies-json-')
  const { 'composer.json': text } = write(dir, { 'composer.json': { scripts: {
    test: ['@lint', '@php vendor/bin/phpunit', '@putenv APP_ENV=test', '@composer dump-autoload', 'composer reset', 'rm -rf build/cache'],
    lint: 'phpcs src', reset: ['git clean -fdx', '@lint'], 'post-install-cmd': 'rm -rf var/cache', install: 'composer install',
  } } })
  const body = bodyOf('composer', dir, 'test')
  assert.deepEqual(texts(body), ['phpcs src', 'php vendor/bin/phpunit', 'composer dump-autoload', 'composer reset', 'git clean -fdx', 'rm -rf build/cache'])
  assert.deepEqual(lineWith(body, 'phpcs src').via, ['composer run-script test', '@lint'])
  assert.deepEqual(lineWith(body, 'git clean -fdx').via, ['composer run-script test', 'composer reset'])
  assert.equal(lineWith(body, 'git clean -fdx').line, lineOf(text, '"git clean -fdx"'))
  assert.equal(lineWith(body, 'phpcs src').cwd, '.')
  // composer install runs the install events, which are read only for their own recipes.
  assert.deepEqual(texts(bodyOf('composer', dir, 'install')), ['composer install'])
  assert.deepEqual(texts(bodyOf('composer', dir, 'post-install-cmd')), ['rm -rf var/cache'])
})

test('composer: pre-command-run comes first, PHP callbacks are unknown, @additional_args takes the words, cycles end', (t) => {
  const dir = tempDir(t, 'bodies-json-')
  write(dir, { 'composer.json': { scripts: {
    'pre-command-run': 'echo before', a: ['App\\Scripts::clean', 'App\\Console\\ResetCommand', 'rm -rf @additional_args dist', '@b'], b: ['@a', 'echo b', 5],
  } } })
  const body = bodyOf('composer', dir, 'a', { args: ['src', 'a b'] })
  assert.deepEqual(texts(body), ['echo before', "rm -rf src 'a b' dist", 'echo b'])
  assert.deepEqual(body.unknown.map((u) => u.text), ['App\\Scripts::clean', 'App\\Console\\ResetCommand', ''])
  assert.match(body.unknown[0].why, /PHP code/)
  assert.match(body.unknown[2].why, /a number/)
  const recipe = recipeOf('composer', dir, 'a')
  for (const text of ['{"scripts": ', '[]', '{"scripts": {"a": {"x": 1}}}', `{"scripts": {"a": [${'"@a",'.repeat(50_000)} "echo end"]}}`]) {
    writeFileSync(join(dir, 'composer.json'), text)
    const got = bodyOf('composer', dir, 'a', { recipe })
    assert.ok(got.lines.length + got.unknown.length > 0, text.slice(0, 30))
  }
})

const composer = toolBinary('composer')
const noComposer = !composer && 'composer is not on PATH; run `source test/setup/40-tools.sh`'
test('composer: the commands composer runs for a script are the body\'s', { skip: noComposer }, (t) => {
  const dir = tempDir(t, 'bodies-json-')
  write(dir, { 'composer.json': { name: 'oracle/scripts', scripts: {
    'pre-command-run': 'echo pre-command', a: ['@b', 'echo a1', "@php -r 'echo 1;'", '@putenv FOO=bar', 'echo "$FOO"', '@c'], b: 'echo b', c: ['echo c', '@b'],
  } } })
  const body = bodyOf('composer', dir, 'a')
  const env = {
    ...process.env, COMPOSER_ALLOW_SUPERUSER: '1', COMPOSER_HOME: join(dir, '.composer'), COMPOSER_NO_INTERACTION: '1', COMPOSER_DISABLE_NETWORK: '1',
    TMPDIR: tempDir(t, 'bodies-json-tmp-'),
  }
  const r = spawnSync(composer, ['run-script', 'a', '--no-interaction'], { cwd: dir, env, encoding: 'utf8', timeout: 120_000 })
  assert.equal(r.status, 0, r.stderr)
  const ran = r.stderr.split('\n').filter((l) => l.startsWith('> ') && !l.startsWith('> @putenv')).map((l) => l.slice(2).replace(/^@php /, 'php '))
  assert.deepEqual(texts(body), firstAppearances(ran))
})

// ---------------------------------------------------------------------------------------------
// vscode

const TASKS = '.vscode/tasks.json'
const HOST = process.platform === 'win32' ? 'windows' : process.platform === 'darwin' ? 'osx' : 'linux'

/** A vscode recipe for `label` as the collector would make it (it leaves out tasks that need the editor). */
function vscodeRecipe(label) {
  return createRecipe({ source: 'vscode', runner: 'sh', name: label, command: `echo ${label}`, file: TASKS })
}

test('vscode: a shell task\'s command and args reach the shell as VS Code joins and quotes them', (t) => {
  const dir = tempDir(t, 'bodies-json-')
  const { [TASKS]: text } = write(dir, { [TASKS]: { version: '2.0.0', tasks: [
    { label: 'args', type: 'shell', command: 'make', args: ['all', '&&', 'rm -rf src', { value: 'a b', quoting: 'escape' }, { value: 'c d', quoting: 'weak' },
      { value: 'e', quoting: 'strong' }, "'kept as is'"] },
    { label: 'spaced', type: 'shell', command: 'npm run build', args: ['--x'] },
    { label: 'line', type: 'shell', command: 'rm -rf dist && tsc' },
    { label: 'folder', type: 'shell', command: 'rm -rf ${workspaceFolder}/dist ${workspaceFolderBasename}', options: { cwd: '${workspaceFolder}/a/b' } },
    { label: 'proc', type: 'process', command: 'rm', args: ['-rf', '${workspaceFolder}/my dir', '${env:HOME}/x', '$(touch y)'] },
  ] } })
  const line = (label) => {
    const body = bodyOf('vscode', dir, label)
    assert.equal(body.lines.length, 1, label)
    return body.lines[0]
  }
  assert.equal(line('args').text, "make all && 'rm -rf src' a\\ b \"c d\" 'e' 'kept as is'")
  assert.equal(line('spaced').text, "'npm run build' --x")
  assert.equal(line('line').text, 'rm -rf dist && tsc')
  const folder = line('folder')
  assert.equal(folder.text, `rm -rf ../../dist ${realpathSync(dir).split('/').pop()}`)
  assert.equal(folder.cwd, 'a/b')
  assert.equal(folder.line, lineOf(text, '"label": "folder"') - 1)
  assert.deepEqual(folder.via, ['VS Code task folder'])
  assert.equal(line('proc').text, `rm -rf './my dir' "\${HOME}/x" '$(touch y)'`)
})

test('vscode: variables only VS Code knows stay in the line as expansions and are said to be unknown', (t) => {
  const dir = tempDir(t, 'bodies-json-')
  write(dir, { [TASKS]: { version: '2.0.0', tasks: [
    { label: 'input', type: 'shell', command: 'rm -rf ${input:target} ${config:out.dir}' },
    { label: 'where', type: 'shell', command: 'rm -rf build', options: { cwd: '${fileDirname}' } },
    { label: 'outside', type: 'shell', command: 'rm -rf build', options: { cwd: '${workspaceFolder}/../elsewhere' } },
  ] } })
  const input = bodyOf('vscode', dir, 'input', { recipe: vscodeRecipe('input') })
  assert.deepEqual(texts(input), ['rm -rf ${input:target} ${config:out.dir}'])
  assert.match(input.unknown[0].why, /\$\{input:target\}, \$\{config:out\.dir\} are filled in by VS Code/)
  assert.equal(input.unknown[0].text, 'rm -rf ${input:target} ${config:out.dir}')
  assert.match(bodyOf('vscode', dir, 'where', { recipe: vscodeRecipe('where') }).unknown[0].why, /\$\{fileDirname\}/)
  const outside = bodyOf('vscode', dir, 'outside', { recipe: vscodeRecipe('outside') })
  assert.deepEqual(outside.lines, [])
  assert.match(outside.unknown[0].why, /outside the workspace folder/)
})

test('vscode: dependsOn runs the named tasks first, npm tasks run their scripts, cycles end', (t) => {
  const dir = tempDir(t, 'bodies-json-')
  write(dir, {
    [TASKS]: { version: '2.0.0', tasks: [
      { label: 'all', dependsOn: ['build', 'npm: lint - web', { type: 'npm', script: 'clean', path: 'web/' }, 'build'], dependsOrder: 'sequence' },
      { label: 'build', type: 'shell', command: 'echo build', dependsOn: 'prep' },
      { label: 'prep', type: 'shell', command: 'rm -rf out', dependsOn: ['build'] },
      { label: 'npmtask', type: 'npm', script: 'clean', path: 'web' },
      { label: 'ext', type: 'shell', command: 'echo ext', dependsOn: ['tsc: build - tsconfig.json', { type: 'gulp', task: 'x' }] },
      { label: 'self', type: 'shell', command: 'echo self', dependsOn: 'self' },
    ] },
    'web/package.json': { scripts: { lint: 'eslint .', clean: 'rm -rf dist', preclean: 'echo pre-clean' } },
  })
  // The collector lists no compound task with an npm dependency; the gate may still be asked about one.
  const body = bodyOf('vscode', dir, 'all', { recipe: vscodeRecipe('all') })
  assert.deepEqual(texts(body), ['rm -rf out', 'echo build', 'eslint .', 'echo pre-clean', 'rm -rf dist'])
  assert.deepEqual(texts(bodyOf('vscode', dir, 'build')), ['rm -rf out', 'echo build'])
  assert.deepEqual(lineWith(body, 'rm -rf out').via, ['VS Code task all', 'VS Code task build', 'VS Code task prep'])
  assert.deepEqual(lineWith(body, 'rm -rf dist').via, ['VS Code task all', 'npm run clean'])
  assert.equal(lineWith(body, 'rm -rf dist').cwd, 'web')
  assert.equal(lineWith(body, 'rm -rf dist').file, 'web/package.json')
  assert.deepEqual(texts(bodyOf('vscode', dir, 'npmtask', { recipe: vscodeRecipe('npmtask') })), ['echo pre-clean', 'rm -rf dist'])
  const ext = bodyOf('vscode', dir, 'ext', { recipe: vscodeRecipe('ext') })
  assert.deepEqual(texts(ext), ['echo ext'])
  assert.equal(ext.unknown.length, 2)
  assert.match(ext.unknown.map((u) => u.why).join('\n'), /extension provides it[\s\S]*extension provides/)
  assert.deepEqual(texts(bodyOf('vscode', dir, 'self')), ['echo self'])
})

test('vscode: the override for this platform replaces the command', (t) => {
  const dir = tempDir(t, 'bodies-json-')
  write(dir, { [TASKS]: { version: '2.0.0', options: { cwd: 'sub' }, [HOST]: { options: { cwd: 'host' } }, tasks: [
    { label: 'clean', type: 'shell', command: 'echo plain', linux: { command: 'rm -rf linux' }, osx: { command: 'rm -rf osx' },
      windows: { command: 'rd /s windows' } },
  ] } })
  mkdirSync(join(dir, 'host'))
  const body = bodyOf('vscode', dir, 'clean')
  assert.deepEqual(texts(body), [{ linux: 'rm -rf linux', osx: 'rm -rf osx', windows: 'rd /s windows' }[HOST]])
  assert.equal(body.lines[0].cwd, 'host')
})

test('vscode: broken or hostile tasks.json files never throw', (t) => {
  const dir = tempDir(t, 'bodies-json-')
  write(dir, { [TASKS]: { version: '2.0.0', tasks: [{ label: 'a', type: 'shell', command: 'echo a' }] } })
  const recipe = recipeOf('vscode', dir, 'a')
  const chain = Array.from({ length: 40 }, (_, i) => ({ label: i === 0 ? 'a' : `t${i}`, type: 'shell', command: `echo ${i}`, dependsOn: `t${i + 1}` }))
  for (const text of ['{"version": "2.0.0", "tasks": [', '{"tasks": 5}', '{"tasks": [{"label": "a", "command": {"value": 5}}]}',
    '{"tasks": [{"label": "a", "type": "shell", "command": "x", "args": [null]}]}',
    `{"tasks": [{"label": "a", "type": "shell", "command": "${'x '.repeat(300_000)}"}]}`, JSON.stringify({ version: '2.0.0', tasks: chain }),
    '{"tasks": [{"label": "a", "dependsOn": [["nested"], 5, null, {"type": "npm"}]}]}',
    '{"tasks": [{"label": "a", "type": "npm", "script": "x", "path": "../../etc"}]}']) {
    writeFileSync(join(dir, TASKS), text)
    const body = bodyOf('vscode', dir, 'a', { recipe })
    assert.ok(body.lines.length + body.unknown.length > 0, text.slice(0, 40))
    assert.ok(body.lines.every((l) => l.via.length <= MAX_DEPTH + 1), text.slice(0, 40))
  }
})

const noVscodeOracle = 'VS Code has no command line that prints the command a task would run without running it in the editor; '
  + 'the quoting rules checked above are those of its terminalTaskSystem.ts'
test('vscode: compared with VS Code itself', { skip: noVscodeOracle }, () => {})

// ---------------------------------------------------------------------------------------------
// nx

test('nx: run-commands runs command or commands in options.cwd, after the same project\'s dependsOn targets', (t) => {
  const dir = tempDir(t, 'bodies-json-')
  const files = write(dir, {
    'nx.json': {},
    'apps/web/project.json': { name: 'web', targets: {
      build: {
        command: 'rm -rf {projectRoot}/dist',
        dependsOn: ['prep', '^build', { target: 'lint', projects: ['shared'] }, { target: 'prep', projects: 'self' }, { target: 'x', dependencies: true }],
      },
      prep: {
        executor: 'nx:run-commands',
        options: { commands: ['echo {projectName}', { command: 'git clean -fdx' }], cwd: '{projectRoot}/src' },
        dependsOn: ['build'],
      },
      deploy: { executor: 'nx:run-commands', options: { command: 'echo {args.env}' } },
    } },
  })
  const body = bodyOf('nx', dir, 'web:build')
  assert.deepEqual(texts(body), ['echo web', 'git clean -fdx', 'nx run shared:lint', 'rm -rf apps/web/dist'])
  assert.deepEqual(body.lines.map((l) => l.cwd), ['apps/web/src', 'apps/web/src', '.', '.'])
  assert.deepEqual(lineWith(body, 'git clean -fdx').via, ['nx run web:build', 'nx run web:prep'])
  assert.equal(lineWith(body, 'rm -rf apps/web/dist').line, lineOf(files['apps/web/project.json'], '"build":'))
  assert.equal(lineWith(body, 'rm -rf apps/web/dist').file, 'apps/web/project.json')
  assert.deepEqual(body.unknown.map((u) => u.text), ['^build', '^x'])
  assert.match(body.unknown[0].why, /every project this one depends on/)
  assert.match(bodyOf('nx', dir, 'web:deploy').unknown[0].why, /\{args\.env\}/)
})

test('nx: targetDefaults sit beneath the target, by executor first, then by name, then by glob', (t) => {
  const dir = tempDir(t, 'bodies-json-')
  write(dir, {
    'nx.json': { targetDefaults: {
      'nx:run-commands': { options: { cwd: '{projectRoot}' } }, build: { dependsOn: ['never'] }, test: { command: 'rm -rf coverage' },
      'e2e-*': { executor: 'nx:run-commands', options: { command: 'echo e2e' } }, lint: { executor: '@nx/eslint:lint', options: { command: 'rm -rf eslint' } },
    } },
    'libs/a/project.json': { name: 'a', targets: { build: { command: 'echo build' }, test: {}, 'e2e-ci': {}, lint: { command: 'echo lint' } } },
  })
  const build = bodyOf('nx', dir, 'a:build')
  assert.deepEqual(texts(build), ['echo build'])
  assert.equal(build.lines[0].cwd, 'libs/a')
  assert.deepEqual(texts(bodyOf('nx', dir, 'a:test')), ['rm -rf coverage'])
  assert.deepEqual(texts(bodyOf('nx', dir, 'a:e2e-ci')), ['echo e2e'])
  assert.deepEqual(texts(bodyOf('nx', dir, 'a:lint')), ['echo lint'])
})

test('nx: run-script runs the package.json script, plugin executors have no shell body, configurations pick options', (t) => {
  const dir = tempDir(t, 'bodies-json-')
  write(dir, {
    'nx.json': {},
    'packages/lib/package.json': { name: 'lib', scripts: { clean: 'rm -rf dist', preclean: 'echo pre', other: 'rm -rf other' }, nx: {
      includedScripts: ['clean'],
      targets: {
      wipe: { executor: 'nx:run-script', options: { script: 'clean' } },
      tsc: { executor: '@nx/js:tsc', options: { main: 'src/index.ts' } },
      shell: { executor: '@acme/tools:shell', options: { command: 'rm -rf shell' } },
      all: { executor: 'nx:noop', dependsOn: ['clean', 'tsc', 'other', 'missing'] },
      mode: {
        executor: 'nx:run-commands', options: { command: 'echo dev' }, defaultConfiguration: 'dev',
        configurations: { dev: { command: 'echo dev-config' }, prod: { command: 'rm -rf prod' } },
      },
    } } },
    'package.json': { workspaces: ['packages/*'] },
  })
  const wipe = bodyOf('nx', dir, 'lib:wipe')
  assert.deepEqual(texts(wipe), ['echo pre', 'rm -rf dist'])
  assert.deepEqual(wipe.lines.map((l) => l.cwd), ['packages/lib', 'packages/lib'])
  assert.deepEqual(wipe.lines[1].via, ['nx run lib:wipe', 'npm run clean'])
  assert.deepEqual(bodyOf('nx', dir, 'lib:tsc'), { lines: [], unknown: [] })
  assert.match(bodyOf('nx', dir, 'lib:shell').unknown[0].why, /plugin code/)
  const all = bodyOf('nx', dir, 'lib:all')
  assert.deepEqual(texts(all), ['echo pre', 'rm -rf dist'])
  assert.deepEqual(all.unknown.map((u) => u.text), ['other', 'missing'])
  assert.deepEqual(texts(bodyOf('nx', dir, 'lib:mode')), ['echo dev-config'])
  assert.deepEqual(texts(bodyOf('nx', dir, 'lib:mode', { args: ['--configuration=prod'] })), ['rm -rf prod'])
  assert.deepEqual(texts(bodyOf('nx', dir, 'lib:mode', { args: ['-c', 'prod'] })), ['rm -rf prod'])
})

test('nx: cycles, globs in dependsOn and broken project files never throw', (t) => {
  const dir = tempDir(t, 'bodies-json-')
  const targets = {}
  for (let i = 0; i < 40; i++) targets[`t${i}`] = { command: `echo ${i}`, dependsOn: [`t${i + 1}`, 't0', 'e2e-*'] }
  targets['e2e-a'] = { command: 'echo e2e-a' }
  write(dir, { 'nx.json': {}, 'p/project.json': { name: 'p', targets } })
  const body = bodyOf('nx', dir, 'p:t0')
  assert.ok(body.lines.length <= MAX_DEPTH + 1)
  assert.ok(texts(body).includes('echo e2e-a'))
  assert.match(body.unknown.map((u) => u.why).join('\n'), /nest more than 16/)
  const recipe = recipeOf('nx', dir, 'p:t0')
  const deep = `{"targets": {"t0": {"command": "x", "options": ${'['.repeat(100_000)}${']'.repeat(100_000)}}}}`
  const hostile = ['{"targets": {', '{"targets": []}', '{"targets": {"t0": {"executor": 5, "options": []}}}', deep,
    '{"targets": {"t0": {"dependsOn": "t0", "command": "echo"}}}']
  for (const text of hostile) {
    writeFileSync(join(dir, 'p/project.json'), text)
    const got = bodyOf('nx', dir, 'p:t0', { recipe })
    assert.ok(Array.isArray(got.lines) && Array.isArray(got.unknown), text.slice(0, 30))
  }
  writeFileSync(join(dir, 'p/project.json'), '{"targets": {')
  assert.match(bodyOf('nx', dir, 'p:t0', { recipe }).unknown[0].why, /no longer has the target/)
})

// Nx as the oracle: `nx show project --json` prints each target as Nx resolved it (target
// defaults, the command shorthand, inferred scripts), and `nx run` prints each command it runs.
const nx = toolBinary('nx')
const nxSkip = !nx && 'nx is not on PATH or in COMMAND_SCOUT_TOOLS_BIN; run `source test/setup/40-tools.sh`'

/** A workspace whose node_modules/nx is the installed one (Nx refuses to run without a local copy). */
function nxWorkspace(t, files) {
  const dir = tempDir(t, 'bodies-json-nx-')
  write(dir, files)
  mkdirSync(join(dir, 'node_modules'))
  symlinkSync(dirname(dirname(realpathSync(nx))), join(dir, 'node_modules', 'nx'))
  return dir
}

function runNx(t, dir, args) {
  const env = {
    ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_SKIP_NX_CACHE: 'true', NX_TUI: 'false', NX_INTERACTIVE: 'false', CI: 'true',
    FORCE_COLOR: '0', NO_COLOR: '1', TMPDIR: tempDir(t, 'bodies-json-tmp-'),
  }
  const r = spawnSync(nx, args, { cwd: dir, env, encoding: 'utf8', timeout: 180_000 })
  assert.equal(r.status, 0, `nx ${args.join(' ')}: ${r.stdout}${r.stderr}`)
  return r.stdout
}

const NX_FILES = {
  'package.json': { name: 'root', private: true },
  'nx.json': {
    targetDefaults: { 'nx:run-commands': { options: { cwd: '{projectRoot}' } }, test: { command: 'echo default-test' }, 'e2e-*': { command: 'echo glob-e2e' } },
  },
  'apps/a/project.json': { name: 'a', targets: {
    build: { command: 'echo build', dependsOn: ['lint', 'gen'] },
    lint: { executor: 'nx:run-commands', options: { commands: ['echo lint1', { command: 'pwd' }], cwd: 'apps', parallel: false } },
    test: {}, 'e2e-ci': {}, tsc: { executor: '@nx/js:tsc', options: {} },
  } },
  'apps/a/package.json': { name: 'a', scripts: { gen: 'echo gen && pwd', pregen: 'echo pregen', unused: 'echo unused' }, nx: { includedScripts: ['gen'] } },
}

test('nx: each target\'s commands and cwd are the ones `nx show project` resolves', { skip: nxSkip }, (t) => {
  const dir = nxWorkspace(t, NX_FILES)
  const shown = JSON.parse(runNx(t, dir, ['show', 'project', 'a', '--json']))
  for (const recipe of recipesOf('nx', dir)) {
    const target = shown.targets[recipe.name.split(':')[1]]
    assert.ok(target, `nx knows ${recipe.name}`)
    const own = bodyOf('nx', dir, recipe.name, { recipe }).lines.filter((l) => l.via.length === 1)
    const o = target.options ?? {}
    const commands = target.executor === 'nx:run-commands' ? (o.commands ?? [o.command]).map((c) => (typeof c === 'string' ? c : c.command)) : []
    assert.deepEqual(own.map((l) => l.text), commands, recipe.name)
    for (const l of own) assert.equal(l.cwd, o.cwd ?? '.', recipe.name)
  }
  assert.deepEqual(shown.targets.gen.options, { script: 'gen' })
  assert.equal(shown.targets.unused, undefined)
})

test('nx: the commands `nx run` runs, in order and in their directories, are the body\'s', { skip: nxSkip }, (t) => {
  const dir = nxWorkspace(t, NX_FILES)
  const body = bodyOf('nx', dir, 'a:build')
  // One task at a time, so that the dependencies run in the order they are written.
  const printed = runNx(t, dir, ['run', 'a:build', '--skip-nx-cache', '--parallel=1', '--output-style=stream-without-prefixes'])
  const out = printed.replace(/\u001b\[[0-9;]*m/g, '').split(/\r?\n/)
  // `> command` lines (Nx's for its commands, npm's for a script, after npm's `> name` banner), and
  // after each `pwd` the directory it printed.
  const banners = new Set(Object.keys(NX_FILES['apps/a/package.json'].scripts))
  const ran = []
  out.forEach((l, i) => {
    if (!l.startsWith('> ') || l.startsWith('> nx run ') || banners.has(l.slice(2))) return
    const pwd = l.endsWith('pwd') ? out.slice(i + 1).find((x) => x.startsWith('/')) : undefined
    ran.push({ text: l.slice(2), pwd })
  })
  assert.deepEqual(texts(body), ran.map((r) => r.text))
  const real = realpathSync(dir)
  for (const r of ran.filter((x) => x.pwd)) assert.equal(join(real, lineWith(body, r.text).cwd), r.pwd, r.text)
  assert.equal(ran.filter((x) => x.pwd).length, 2)
})

// ---------------------------------------------------------------------------------------------
// every reader, fuzzed

const FUZZ_TOKENS = ['{', '}', '[', ']', ',', ':', '"', '""', '"a"', 'null', '5', 'true', '"npm run a"', '"deno task a"', '"@a"', '"rm -rf x"',
  '"dependsOn"', '"^a"', '"${input:x}"', '"__proto__"', '//', '/*', '\\', '\u0000', '"\\u0000"']

/** A mutated copy of `text`: a few cuts, duplications and token insertions, seeded. */
function mutateJson(text, r) {
  let out = text
  const pick = (n) => Math.floor(r() * n)
  for (let step = 1 + pick(4); step > 0; step--) {
    const at = pick(out.length + 1)
    switch (pick(4)) {
      case 0: out = out.slice(0, at); break
      case 1: out = out.slice(0, at) + out.slice(at + pick(20)); break
      case 2: { const from = pick(out.length); out = out.slice(0, at) + out.slice(from, from + pick(200)) + out.slice(at); break }
      default: out = out.slice(0, at) + FUZZ_TOKENS[pick(FUZZ_TOKENS.length)] + out.slice(at)
    }
  }
  return out
}

const FUZZ_CASES = {
  scripts: { 'package.json': { scripts: { a: 'npm run b && run-s "c:*"', b: 'pnpm a; yarn c:x', 'c:x': 'bun run a', prea: 'npm test', test: 'concurrently npm:b "npm run a"' } } },
  deno: { 'deno.json': { tasks: { a: { command: 'deno task b', dependencies: ['c'] }, b: "deno task 'c*'", c: { dependencies: ['a', 'b'] } } } },
  composer: { 'composer.json': { scripts: { a: ['@b', '@php x', 'composer b'], b: ['@a', 'App\\X::y', 'composer run-script a'], 'pre-command-run': '@a' } } },
  vscode: { [TASKS]: { version: '2.0.0', tasks: [
    { label: 'a', type: 'shell', command: 'echo ${workspaceFolder}', args: ['x y'], dependsOn: ['b', 'npm: a'] },
    { label: 'b', type: 'process', command: 'rm', args: [{ value: 'q', quoting: 'weak' }], dependsOn: { type: 'npm', script: 'a' }, options: { cwd: 'sub' } },
  ] }, 'package.json': { scripts: { a: 'npm run a' } } },
  nx: { 'nx.json': { targetDefaults: { a: { dependsOn: ['b'] } } }, 'p/project.json': { name: 'p', targets: {
    a: { command: 'echo a', dependsOn: ['^a', 'b', { target: 'a', projects: ['q'] }] }, b: { executor: 'nx:run-script', options: { script: 's' }, dependsOn: ['a'] },
  } }, 'p/package.json': { scripts: { s: 'npm run s', pres: 'nx run p:a' } } },
}

for (const [source, files] of Object.entries(FUZZ_CASES)) {
  test(`${source}: mutated manifests never make the reader throw, and what it returns is well formed`, (t) => {
    const dir = tempDir(t, 'bodies-json-fuzz-')
    const written = write(dir, files)
    const recipes = recipesOf(source, dir)
    assert.ok(recipes.length > 0, `the ${source} collector lists the fuzz case's recipes`)
    const r = rng(0x5eed + source.length)
    for (let i = 0; i < 150; i++) {
      for (const [path, text] of Object.entries(written)) writeFileSync(join(dir, path), r() < 0.7 ? mutateJson(text, r) : text)
      for (const recipe of recipes) {
        const body = SOURCES[source].reader(recipe, context(dir), [])
        for (const l of body.lines) {
          assert.equal(typeof l.text, 'string')
          assert.ok(!isAbsolute(l.cwd) && !l.cwd.startsWith('..'), `${l.cwd} is inside the root`)
          assert.ok(Array.isArray(l.via) && l.via.length <= MAX_DEPTH + 1)
        }
        for (const u of body.unknown) assert.equal(typeof u.why, 'string')
      }
    }
  })
}
