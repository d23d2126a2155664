import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRecipe } from '../../dist/src/book/recipe.js'
import { RecipeBook } from '../../dist/src/book/recipe-book.js'
import { DispatchError, PROMPT_TASK_CHARS, PROMPT_TASK_LIMIT, dispatchTasks, dispatcherDescription, resolveOp } from '../../dist/src/book/dispatcher.js'

const r = (source, runner, name, extra = {}) => createRecipe({ source, runner, name, command: `${runner}${runner === 'npm' ? ' run' : ''} ${name}`, file: source === 'make' ? 'Makefile' : 'package.json', ...extra })
const book = new RecipeBook([
  r('make', 'make', 'build', { description: 'Compile' }),
  r('make', 'make', 'test'),
  r('scripts', 'npm', 'test', { argsSeparator: '--' }),
  r('scripts', 'npm', 'lint', { argsSeparator: '--' }),
  r('scripts', 'npm', 'test', { scope: 'web', cwd: 'packages/web', argsSeparator: '--' }),
  r('just', 'just', 'db::migrate'),
])
const tasks = dispatchTasks(book)

test('a bare task resolves when exactly one runner has it; the tail is kept verbatim', () => {
  const { task, tail } = resolveOp('  lint   --fix  "a b"', tasks)
  assert.equal(task.recipe.id, 'scripts:lint')
  assert.equal(tail, '--fix  "a b"')
  assert.equal(resolveOp('build', tasks).task.recipe.command, 'make build')
  assert.equal(resolveOp('web/test --watch', tasks).task.recipe.cwd, 'packages/web')
  assert.equal(resolveOp('db::migrate', tasks).task.runner, 'just')
})

test('runner:task selects the runner; a colon inside a task name is not a runner', () => {
  assert.equal(resolveOp('npm:test', tasks).task.recipe.id, 'scripts:test')
  assert.equal(resolveOp('make:test', tasks).task.recipe.id, 'make:test')
  assert.equal(resolveOp('just:db::migrate', tasks).task.recipe.name, 'db::migrate')
})

test('ambiguous, unknown, empty and runner-only ops are errors that list the tasks', () => {
  assert.throws(() => resolveOp('test', tasks), (e) => e instanceof DispatchError && /exists in more than one runner \(make, npm\)\. Use `<runner>:<task>`, for example `make:test`/.test(e.message) && /make: build, make:test\nnpm: npm:test, lint, web\/test\njust: db::migrate/.test(e.message))
  assert.throws(() => resolveOp('deploy', tasks), /Unknown task `deploy`\. Available tasks:/)
  assert.throws(() => resolveOp('   ', tasks), /op is empty/)
  assert.throws(() => resolveOp('npm:', tasks), /names the runner npm but no task/)
  assert.throws(() => resolveOp('npm:nope', tasks), /npm has no task `nope`/)
})

test('the description describes at most 20 tasks per runner, names more while they fit, and counts the rest', () => {
  const many = new RecipeBook(Array.from({ length: 27 }, (_, i) => r('make', 'make', `t${i}`)))
  const text = dispatcherDescription(dispatchTasks(many))
  assert.equal((text.match(/^- t\d+$/gm) ?? []).length, PROMPT_TASK_LIMIT)
  assert.match(text, /^- also: t20, t21, t22, t23, t24, t25, t26$/m)
  const huge = new RecipeBook(Array.from({ length: 900 }, (_, i) => r('make', 'make', `target-number-${i}`)))
  const long = dispatcherDescription(dispatchTasks(huge))
  assert.ok(long.length < PROMPT_TASK_CHARS * 1.25 + 600, `bounded: ${long.length} characters`)
  assert.match(long, /- \.\.\. \d+ more make tasks$/m)
  assert.match(dispatcherDescription(tasks), /- build: Compile/)
  assert.match(dispatcherDescription(tasks), /- web\/test = npm run test/)
  assert.match(dispatcherDescription(tasks, undefined, new Set(['npm'])), /Warning: npm is not installed here, so its tasks fail until someone installs it \(install Node\.js with npm\)/)
  // A runner that is the project's own says how to get it, from its recipes.
  const entry = dispatchTasks(new RecipeBook([r('python', 'democli', 'democli', { file: 'pyproject.toml', command: 'democli', install: 'install the project (pip install -e .)' })]))
  assert.match(dispatcherDescription(entry, undefined, new Set(['democli'])), /Warning: democli is not installed here, so its tasks fail until someone installs it \(install the project \(pip install -e \.\)\)/)
})
