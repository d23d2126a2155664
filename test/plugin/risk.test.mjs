// dsh's `bash` under the destructive gate, in a real Cordis context: the adapter judges each line
// (book/risk judgeCommand) where bash would run it, from `workdir` or the session's directory, and
// follows a recipe the line invokes by its runner command. A stand-in tool named `bash` (the real
// one is not part of this minimal tree) runs the line, so a refusal is seen on disk too.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { runInHarnessShell } from '../../dist/src/dsh/shell-run.js'
import { startApp, tempRepo, text } from './app.mjs'

/** A workspace `web` whose `redo` script deletes web/src, and lines of its own in the root. */
async function workspace(t) {
  const repo = await tempRepo({ empty: true })
  await writeFile(join(repo.dir, 'package.json'), JSON.stringify({ name: 'mono', private: true, workspaces: ['web'] }))
  await mkdir(join(repo.dir, 'web', 'src'), { recursive: true })
  await writeFile(join(repo.dir, 'web', 'package.json'), JSON.stringify({ name: 'web', scripts: { redo: 'rm -rf src', build: 'echo built > out.txt' } }))
  await writeFile(join(repo.dir, 'web', 'src', 'app.js'), 'app\n')
  await mkdir(join(repo.dir, 'docs'))
  await writeFile(join(repo.dir, 'docs', 'index.md'), '# docs\n')
  const { default: scriptsPlugin } = await import('../../dist/src/dsh/collectors/scripts.js')
  const app = await startApp({ root: repo.dir, collectors: [scriptsPlugin] })
  t.after(async () => { await app.stop(); await repo.cleanup() })
  app.ctx.tools.register({
    name: 'bash', description: 'runs a command line',
    parameters: { type: 'object', properties: { command: { type: 'string' }, workdir: { type: 'string' } }, required: ['command'] },
    output: { schema: { type: 'null' }, render: () => [] },
    execute: async (args, exec) => {
      const cwd = resolve(exec.agent?.session?.header?.cwd ?? repo.dir, args.workdir ?? '.')
      await runInHarnessShell(app.ctx, { command: args.command, cwd, timeoutMs: 10_000 })
      return null
    },
  })
  const agent = (cwd) => ({ id: 'agent-1', ctx: app.ctx, session: { id: 'session-1', header: { cwd } } })
  const bash = (args, cwd = repo.dir) => app.call('bash', args, { agent: agent(cwd) })
  return { dir: repo.dir, bash }
}

const webSources = (dir) => existsSync(join(dir, 'web', 'src', 'app.js'))

test('a recipe invoked by its runner command is judged by its body, where bash runs it', async (t) => {
  const { dir, bash } = await workspace(t)
  const inWeb = await bash({ command: 'npm run redo', workdir: 'web' })
  assert.equal(inWeb.isError, true)
  assert.match(text(inWeb), /`npm run redo` was not run[\s\S]*What it does: `rm -rf src` deletes `src`[\s\S]*web\/package\.json/)
  const cd = await bash({ command: 'cd web && npm run redo' })
  assert.equal(cd.isError, true)
  // The session's own directory counts when there is no workdir.
  const session = await bash({ command: 'npm run redo' }, join(dir, 'web'))
  assert.equal(session.isError, true)
  assert.ok(webSources(dir), 'web/src survived')
  // The same words in the root name no recipe there, and do nothing destructive.
  assert.equal((await bash({ command: 'npm run redo' })).isError, false)
  assert.ok(webSources(dir))
})

test('lines of their own: deleting sources or docs asks, building and reading do not', async (t) => {
  const { dir, bash } = await workspace(t)
  for (const command of ['rm -rf docs', 'sh -c "rm -rf docs"', 'find . -name "*.md" -delete', 'git push --force origin main', 'npm publish']) {
    const r = await bash({ command })
    assert.equal(r.isError, true, command)
    assert.match(text(r), /How to allow it: a person approves the prompt/, command)
  }
  assert.ok(existsSync(join(dir, 'docs', 'index.md')), 'docs survived')
  for (const command of ['ls -la', 'cat docs/index.md', 'echo hello', 'rm -rf dist node_modules']) {
    assert.equal((await bash({ command })).isError, false, command)
  }
  const build = await bash({ command: 'npm run build', workdir: 'web' })
  assert.equal(build.isError, false, text(build))
})
