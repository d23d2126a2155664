import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { RESERVED_TOOL_NAMES } from '../../dist/src/book/recipe-book.js'
import { startApp, tempRepo, text } from './app.mjs'

test('exposure tools: one tool per recipe, named by the book, described as the seed shows', async (t) => {
  const repo = await tempRepo()
  const app = await startApp({ root: repo.dir, config: { exposure: 'tools' } })
  t.after(async () => { await app.stop(); await repo.cleanup() })
  assert.deepEqual(app.ours().sort(), ['make_build', 'make_clean', 'make_default_goal', 'make_deploy', 'make_slow', 'make_test'])
  const build = app.ctx.tools.get('make_build')
  // Short on purpose: every tool costs context in every model request (test/e2e/budget.test.mjs).
  assert.equal(build.description, [
    'Runs `make build` (Makefile:7).',
    'Write the build stamp',
    'Variables, as VAR=value in args: VERSION',
  ].join('\n'))
  assert.match(app.ctx.tools.get('make_default_goal').description, /^Runs `make` \(Makefile:7\)\.\nthe default goal: plain `make` builds `build`/)
  // The gate reads what a target runs, not its name: `deploy` here only writes a file, so it does not ask.
  assert.doesNotMatch(app.ctx.tools.get('make_deploy').description, /Asks a person/)
  // the one optional `args` parameter: a list of words
  assert.deepEqual(build.parameters.properties.args.type, 'array')
  assert.deepEqual(build.parameters.properties.args.items, { type: 'string' })
  assert.deepEqual(build.parameters.required ?? [], [])
  // a declared output schema with the run's fields
  for (const key of ['command', 'ok', 'exitCode', 'stdout', 'stderr', 'killed', 'durationMs']) {
    assert.ok(build.output.schema.properties[key], `output schema declares ${key}`)
  }
})

test('a tool call runs the command in the root with args appended, and renders command, exit code and output', async (t) => {
  const repo = await tempRepo()
  const app = await startApp({ root: repo.dir })
  t.after(async () => { await app.stop(); await repo.cleanup() })
  const result = await app.call('make_build', { args: ['VERSION=2.5.0'] })
  assert.equal(result.isError, false, text(result))
  assert.equal(readFileSync(join(repo.dir, 'build-stamp.txt'), 'utf8').trim(), 'building 2.5.0')
  assert.equal(result.value.command, 'make build VERSION=2.5.0')
  assert.equal(result.value.exitCode, 0)
  assert.equal(result.value.ok, true)
  assert.equal(result.value.stdout, 'built 2.5.0\n')
  assert.equal(result.value.task, 'make:build')
  const rendered = text(result)
  assert.match(rendered, /^\$ make build VERSION=2\.5\.0\n\[exit code: 0\]/)
  assert.match(rendered, /stdout:\nbuilt 2\.5\.0/)
})

test('a failing command is a result with its exit code, not a tool error', async (t) => {
  const repo = await tempRepo()
  const app = await startApp({ root: repo.dir })
  t.after(async () => { await app.stop(); await repo.cleanup() })
  const result = await app.call('make_test', { args: ['no-such-target'] })
  assert.equal(result.isError, false)
  assert.equal(result.value.ok, false)
  assert.equal(result.value.exitCode, 2)
  assert.match(result.value.stderr, /No rule to make target 'no-such-target'/)
  assert.match(text(result), /\[exit code: 2\]/)
})

test('args of the wrong type are refused by the tool schema', async (t) => {
  const repo = await tempRepo()
  const app = await startApp({ root: repo.dir })
  t.after(async () => { await app.stop(); await repo.cleanup() })
  const result = await app.call('make_build', { args: 42 })
  assert.equal(result.isError, true)
  assert.equal(existsSync(join(repo.dir, 'build-stamp.txt')), false)
})

test('exposure dispatcher: a single `recipe` tool with an op string, tasks listed in its description', async (t) => {
  const repo = await tempRepo()
  const app = await startApp({ root: repo.dir, config: { exposure: 'dispatcher' } })
  t.after(async () => { await app.stop(); await repo.cleanup() })
  assert.deepEqual(app.ours(), ['recipe'])
  const tool = app.ctx.tools.get('recipe')
  assert.deepEqual(tool.parameters.required, ['op'])
  assert.match(tool.description, /make \(Makefile\):\n.*\n- build: Write the build stamp\n- test: Run the tests\n- deploy: Push the release to production\n/)
  const result = await app.call('recipe', { op: 'build VERSION=3.0.0' })
  assert.equal(result.isError, false, text(result))
  assert.equal(result.value.command, 'make build VERSION=3.0.0')
  assert.equal(readFileSync(join(repo.dir, 'build-stamp.txt'), 'utf8').trim(), 'building 3.0.0')
  const qualified = await app.call('recipe', { op: '  make:test' })
  assert.equal(qualified.value.stdout, 'built 1.0.0\ntests passed\n')
  const unknown = await app.call('recipe', { op: 'nope' })
  assert.equal(unknown.isError, true)
  assert.match(text(unknown), /Unknown task `nope`\. Available tasks:\nmake: \.DEFAULT_GOAL, build, test, deploy, clean, slow/)
})

test('exposure auto: per-recipe tools up to the threshold, the dispatcher above it', async (t) => {
  const repo = await tempRepo()
  const small = await startApp({ root: repo.dir, config: { exposure: 'auto', dispatcherThreshold: 6 } })
  assert.equal(small.ours().length, 6)
  await small.stop()
  const large = await startApp({ root: repo.dir, config: { exposure: 'auto', dispatcherThreshold: 5 } })
  t.after(async () => { await large.stop(); await repo.cleanup() })
  assert.deepEqual(large.ours(), ['recipe'])
})

test('tool names never take a built-in name, another plugin\'s tool, or each other\'s', async (t) => {
  const repo = await tempRepo()
  const { writeFile } = await import('node:fs/promises')
  // flat naming would give `read`, `bash`, `write` and `build`; `build` is taken by another plugin below
  await writeFile(join(repo.dir, 'Makefile'), '.PHONY: read bash write build\nread:\n\t@echo r\nbash:\n\t@echo b\nwrite:\n\t@echo w\nbuild:\n\t@echo own\n')
  const app = await startApp({ root: repo.dir, config: { naming: { style: 'flat' } }, collectors: [] })
  t.after(async () => { await app.stop(); await repo.cleanup() })
  app.ctx.tools.register({
    name: 'build', description: 'another plugin', parameters: { type: 'object', properties: {} },
    output: { schema: { type: 'null' }, render: () => [] }, execute: async () => null,
  })
  const { default: makePlugin } = await import('../../dist/src/dsh/collectors/make.js')
  await app.ctx.plugin(makePlugin, {})
  await app.ctx.recipes.settled()
  const ours = app.ours().sort()
  assert.deepEqual(ours, ['bash_2', 'build_2', 'default_goal', 'read_2', 'write_2'])
  for (const name of ours) assert.equal(RESERVED_TOOL_NAMES.has(name), false)
  assert.equal(app.ctx.tools.get('build').description, 'another plugin')
  const r = await app.call('read_2')
  assert.equal(r.value.stdout, 'r\n')
})

test('output past the shell\'s capture budget is cut with a clear marker', async (t) => {
  const repo = await tempRepo({ empty: true })
  const { writeFile } = await import('node:fs/promises')
  // 1.5 MiB of stdout, 200 KB of stderr
  await writeFile(join(repo.dir, 'Makefile'), '.PHONY: loud\nloud:\n\t@head -c 1572864 /dev/zero | tr "\\0" x; head -c 200000 /dev/zero | tr "\\0" e >&2\n')
  const app = await startApp({ root: repo.dir })
  t.after(async () => { await app.stop(); await repo.cleanup() })
  const result = await app.call('make_loud')
  assert.equal(result.isError, false, text(result))
  assert.match(result.value.stdout, /^\[\.\.\. output truncated: earlier stdout dropped, last part shown/)
  assert.ok(result.value.stdout.length <= 1024 * 1024 + 300, `stdout kept within 1 MiB (${result.value.stdout.length})`)
  assert.match(result.value.stderr, /^\[\.\.\. output truncated: earlier stderr dropped/)
  const rendered = text(result)
  assert.match(rendered, /\[\.\.\. \d+ earlier characters of stdout not shown \.\.\.\]/)
  assert.ok(rendered.length < 40_000, 'the model sees a bounded tail')
})

test('npm script arguments go after `--`, so flags reach the script', async (t) => {
  const repo = await tempRepo({ empty: true })
  const { writeFile } = await import('node:fs/promises')
  const { createRecipe } = await import('../../dist/src/book/recipe.js')
  await writeFile(join(repo.dir, 'show.js'), 'console.log(process.argv.slice(2).join(" "))\n')
  await writeFile(join(repo.dir, 'package.json'), JSON.stringify({ name: 'x', private: true, scripts: { show: 'node show.js' } }))
  const app = await startApp({ root: repo.dir, collectors: [] })
  t.after(async () => { await app.stop(); await repo.cleanup() })
  // the recipe as the scripts collector makes it for npm
  app.ctx.recipes.contribute('scripts', [createRecipe({ source: 'scripts', runner: 'npm', name: 'show', command: 'npm run show', file: 'package.json', argsSeparator: '--', description: 'node show.js' })])
  const result = await app.call('npm_show', { args: ['--watch', '--port', '8080'] })
  assert.equal(result.value.command, 'npm run show -- --watch --port 8080')
  assert.equal(result.value.exitCode, 0, result.value.stderr)
  assert.match(result.value.stdout, /^--watch --port 8080$/m)
})

test('exposure auto: the dispatcher also takes over when per-recipe tools would cost more than the token budget', async (t) => {
  const repo = await tempRepo({ empty: true })
  const { writeFile } = await import('node:fs/promises')
  // 30 targets are under the threshold (40), but their descriptions together are not under the budget.
  const doc = 'Builds one part of the project with the flags it needs, and checks the result against the reference output'
  await writeFile(join(repo.dir, 'Makefile'), Array.from({ length: 30 }, (_, i) => `t${i}: ## ${doc}\n\t@echo t${i}\n`).join(''))
  const app = await startApp({ root: repo.dir })
  t.after(async () => { await app.stop(); await repo.cleanup() })
  assert.deepEqual(app.ours(), ['recipe'])
  const { estimatedToolTokens, TOOLS_TOKEN_BUDGET } = await import('../../dist/src/book/exposure.js')
  assert.ok(estimatedToolTokens(app.ctx.recipes.book().entries()) > TOOLS_TOKEN_BUDGET)
  assert.equal((await app.call('recipe', { op: 't29' })).value.stdout, 't29\n', 'every target stays callable')
})

test('npm lifecycle scripts and pre/post hooks stay in the book but are not offered, unless exposeHooks', async (t) => {
  const repo = await tempRepo({ empty: true })
  const { writeFile } = await import('node:fs/promises')
  await writeFile(join(repo.dir, 'package.json'), JSON.stringify({ name: 'x', scripts: { postinstall: 'node setup.js', prebuild: 'echo pre', build: 'echo build', pretend: 'echo not a hook' } }))
  const { default: scriptsPlugin } = await import('../../dist/src/dsh/collectors/scripts.js')
  const app = await startApp({ root: repo.dir, collectors: [scriptsPlugin] })
  t.after(async () => { await app.stop(); await repo.cleanup() })
  assert.deepEqual(app.ours().sort(), ['npm_build', 'npm_pretend'])
  assert.deepEqual(app.ctx.recipes.book().entries().map((r) => [r.name, r.hook ?? '']), [
    ['postinstall', 'lifecycle script: the package manager runs it after the package is installed'],
    ['prebuild', 'hook: runs before `build` whenever that script runs'],
    ['build', ''],
    ['pretend', ''],
  ])
  const withHooks = await startApp({ root: repo.dir, collectors: [scriptsPlugin], config: { exposeHooks: true } })
  t.after(() => withHooks.stop())
  assert.deepEqual(withHooks.ours().sort(), ['npm_build', 'npm_postinstall', 'npm_prebuild', 'npm_pretend'])
})

test('a Python entry point that is not installed: its tool description and its call say to install the project', async (t) => {
  const repo = await tempRepo({ empty: true })
  const { writeFile } = await import('node:fs/promises')
  await writeFile(join(repo.dir, 'pyproject.toml'), '[project]\nname = "demo"\nversion = "1.0"\n\n[project.scripts]\ndemo-cli-not-installed = "demo.cli:main"\n')
  const { default: pythonPlugin } = await import('../../dist/src/dsh/collectors/python.js')
  const app = await startApp({ root: repo.dir, collectors: [pythonPlugin] })
  t.after(async () => { await app.stop(); await repo.cleanup() })
  const [tool] = app.ours()
  assert.match(app.ctx.tools.get(tool).description, /Warning: demo-cli-not-installed is not installed here, so this fails until someone installs it \(install the project into an environment from its root \(pip install -e \./)
  const result = await app.call(tool)
  assert.equal(result.isError, true)
  assert.match(text(result), /demo-cli-not-installed is not installed here \(not on PATH\), so `demo-cli-not-installed` can't run; install the project into an environment from its root/)
})

test('a recipe whose runner is not installed says so in its tool description, and its call explains instead of "not found"', { skip: (await import('../../dist/src/book/runners.js')).onPath('task') && 'task is installed here' }, async (t) => {
  const repo = await tempRepo({ empty: true })
  const { writeFile } = await import('node:fs/promises')
  await writeFile(join(repo.dir, 'Taskfile.yml'), "version: '3'\ntasks:\n  hello:\n    desc: Say hello\n    cmds: [echo hello]\n")
  const { default: taskPlugin } = await import('../../dist/src/dsh/collectors/task.js')
  const app = await startApp({ root: repo.dir, collectors: [taskPlugin] })
  t.after(async () => { await app.stop(); await repo.cleanup() })
  assert.match(app.ctx.tools.get('task_hello').description, /Warning: task is not installed here, so this fails until someone installs it \(install go-task/)
  const result = await app.call('task_hello')
  assert.equal(result.isError, true)
  assert.match(text(result), /task is not installed here \(not on PATH\), so `task hello` can't run; install go-task/)
})
