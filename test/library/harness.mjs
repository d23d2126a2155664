// Shared by the library tests: render a curated recipe for linux through the real renderer,
// then run its commands, verification and undo with bash in a throwaway directory.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import assert from 'node:assert/strict'
import { loadLibrary, renderRecipe } from '../../dist/src/curated/index.js'

export const root = new URL('../../', import.meta.url).pathname
export const recipesDir = join(root, 'recipes')
export const library = loadLibrary([recipesDir])

/** The recipe rendered for linux with `params`; fails the test if the renderer refuses it. */
export function render(id, params = {}, platform = 'linux') {
  if (!library.byId.get(id)) {
    const issues = library.issues.filter((i) => i.severity === 'error').map((i) => `${i.file}:${i.line ?? ''} ${i.code} ${i.message}`)
    assert.fail(`recipe ${id} is not in the library (it has errors, or no such file)\n${issues.join('\n')}`)
  }
  return renderRecipe(library, id, { platform, params })
}

/** Runs one command with bash; resolves with {code, stdout, stderr} (never rejects on exit status). */
export function sh(command, { cwd, env = {}, input, timeoutMs = 60_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', command], {
      cwd,
      env: { ...process.env, LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', ...env },
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr })
    })
    if (input !== undefined) child.stdin.end(input)
  })
}

/** Runs `commands` in order, asserting each exits with 0 (or a code listed in `exits[i]`). */
export async function runAll(commands, opts = {}, what = 'command') {
  const results = []
  for (const [i, command] of commands.entries()) {
    const r = await sh(command, opts)
    const ok = opts.exits?.[i] ?? [0]
    assert.ok(ok.includes(r.code), `${what} ${i + 1} exited ${r.code}: ${command}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`)
    results.push(r)
  }
  return results
}

/** Runs the rendered recipe's steps, then its verification; returns both lists of results. */
export async function runRecipe(rendered, opts = {}) {
  const steps = await runAll(rendered.commands.map((c) => c.command), { ...opts, exits: opts.stepExits }, `${rendered.id} step`)
  const verification = await runAll(rendered.verification.map((v) => v.command), { ...opts, exits: opts.verifyExits }, `${rendered.id} verification`)
  return { steps, verification, out: steps.map((r) => r.stdout).join(''), verified: verification.map((r) => r.stdout).join('') }
}

/** Runs the rendered recipe's undo commands (the recipe must declare undo as possible). */
export async function runUndo(rendered, opts = {}) {
  assert.equal(rendered.undo.possible, true, `${rendered.id} declares no undo`)
  assert.ok(rendered.undo.commands.length > 0)
  return runAll(rendered.undo.commands, opts, `${rendered.id} undo`)
}

/** Every command of the rendered recipe parses as bash (bash -n). */
export function assertBashSyntax(rendered) {
  const all = [...rendered.commands.map((c) => c.command), ...rendered.verification.map((v) => v.command), ...rendered.undo.commands]
  for (const command of all) {
    const r = spawnSync('bash', ['-n', '-c', command], { encoding: 'utf8' })
    assert.equal(r.status, 0, `${rendered.id}: bash -n rejects: ${command}\n${r.stderr}`)
  }
  return all
}

export async function tempDir(t, prefix = 'scout-lib-') {
  const dir = await mkdtemp(join(tmpdir(), prefix))
  t.after(() => rm(dir, { recursive: true, force: true }))
  return dir
}

export function onPath(tool) {
  return spawnSync('bash', ['-c', `command -v ${tool}`]).status === 0
}

/** Reason to skip when a tool is missing, or false. */
export function needs(...tools) {
  const missing = tools.filter((t) => !onPath(t))
  return missing.length ? `${missing.join(', ')} not installed (test/setup/30-postgres.sh installs it as root)` : false
}

/** Polls `check` (async, truthy when done) for up to `ms`. */
export async function waitFor(check, ms = 5000, what = 'condition') {
  const end = Date.now() + ms
  for (;;) {
    const v = await check()
    if (v) return v
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}
