// A minimal harness for the plugin layer on Node 20: Cordis with the real system prompt, tools
// service and shell executor (dsh-subprocess-local + dsh-bash-local), then our plugins.
import '../support/process-tmp.mjs'
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from '@deepseek-ai/cordis'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRuntime from '@deepseek-ai/dsh-tools'
import Subprocess from '@deepseek-ai/dsh-subprocess-local'
import Bash from '@deepseek-ai/dsh-bash-local'
import CommandScout from '../../dist/src/dsh/adapter.js'
import makePlugin from '../../dist/src/dsh/collectors/make.js'

export { CommandScout, makePlugin }
export const FIXTURE = new URL('../fixtures/plugin/repo/', import.meta.url).pathname

/**
 * A temp copy of the fixture repository (or an empty dir). Like a real project, it ignores the files
 * its targets write: the destructive gate lets a recipe overwrite build output, not a file of the project.
 */
export async function tempRepo({ empty = false } = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'cs-plugin-'))
  if (!empty) {
    await cp(FIXTURE, dir, { recursive: true })
    await writeFile(join(dir, '.gitignore'), 'build-stamp.txt\ndeployed.txt\nslow-child.pid\n')
  }
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) }
}

/** Context with tools + shell; `root` is passed to the adapter as an absolute path. */
export async function startApp({ root, config = {}, collectors = [makePlugin], shell = true } = {}) {
  const ctx = new Context()
  await ctx.plugin(SystemPrompt, {})
  await ctx.plugin(ToolRuntime, {})
  if (shell) {
    await ctx.plugin(Subprocess, {})
    await ctx.plugin(Bash, {})
  }
  let changes = 0
  ctx.on('tools/change', () => { changes++ })
  const adapter = await ctx.plugin(CommandScout, { root, ...config })
  const collectorFibers = []
  for (const c of collectors) collectorFibers.push(await ctx.plugin(c, {}))
  await settle(ctx)
  return {
    ctx,
    adapter,
    collectorFibers,
    get toolChanges() { return changes },
    ours: () => ctx.recipes?.toolNames() ?? [],
    names: () => ctx.tools.schemas().map((s) => s.name),
    call: (name, args = {}, extra = {}) => ctx.tools.execute({ callId: `c-${Math.random().toString(36).slice(2, 8)}`, name, arguments: args, signal: extra.signal ?? new AbortController().signal, ...extra }),
    stop: () => ctx.fiber.dispose?.(),
  }
}

/** Lets pending fibers and the book's watcher settle. */
export async function settle(ctx) {
  await new Promise((resolve) => setTimeout(resolve, 20))
  await ctx.get('recipes')?.settled()
}

/** Polls `check` until it returns truthy (file watching is asynchronous); fails with `what`. */
export async function eventually(check, what, ms = 10_000) {
  const end = Date.now() + ms
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

export function text(result) {
  return result.content?.map((c) => c.text).join('\n') ?? ''
}
