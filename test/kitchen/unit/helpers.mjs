// Builders for pure derive tests: task records as the store would read them, with no disk.
import { readFileSync } from 'node:fs'
import { parseRunLine } from '../../../dist/src/kitchen/domain.js'
import { foldRunLine, EMPTY_RUN_FOLD } from '../../../dist/src/kitchen/store/index.js'
import { normalizeKitchenConfig } from '../../../dist/src/kitchen/store/index.js'

const fixtures = new URL('../../fixtures/kitchen/runs/', import.meta.url).pathname

/** The lines of a recorded run file. */
export function recorded(name) {
  return readFileSync(fixtures + name, 'utf8').split('\n').filter((l) => l !== '')
}

export function fold(lines) {
  return lines.reduce((f, text) => foldRunLine(f, parseRunLine(typeof text === 'string' ? text : JSON.stringify(text))), EMPTY_RUN_FOLD)
}

/** A run record. `lines`: a fixture name, an array of lines, or undefined for an empty claim. */
export function run(n, lines, opts = {}) {
  const list = typeof lines === 'string' ? recorded(lines) : lines ?? []
  const f = fold(list)
  return {
    n, hasPrompt: opts.hasPrompt ?? true, claimed: opts.claimed ?? true,
    size: opts.size ?? list.reduce((s, l) => s + Buffer.byteLength(String(l)) + 1, 0),
    mtimeMs: opts.mtimeMs ?? 1000, errSize: (opts.errTail ?? '').length, errTail: opts.errTail ?? '', fold: f,
  }
}

export function record({ id = 'api-7', models = [], log = [], runs = [], inbox = [], worktreeExists = true, createdAt = 1, title = 'Add rate limiting to /login' } = {}) {
  const project = id.replace(/-\d+$/, '')
  return {
    id,
    spec: { id, project, title, brief: 'Add a token bucket.', branch: `issue/${id}`, worktree: `/k/worktrees/${id}`, baseBranch: 'main', sessionId: `s-${id}`, models, createdAt },
    log, runs, inbox: inbox.map((at, i) => ({ name: `${String(at).padStart(13, '0')}-m${i}.msg`, at })), worktreeExists, badLines: 0,
  }
}

export function config(raw = {}) {
  const { config, errors } = normalizeKitchenConfig(raw)
  if (errors.length) throw new Error(errors.join('\n'))
  return config
}

/** A synthetic run: start, prompt, then the given tail lines, all on `model`. */
export function lines({ at = 1000, model = 'openai/gpt-6-astra', report, providerError, settled = true, text = '' } = {}) {
  const [provider, ...rest] = model.split('/')
  const m = { provider, model: rest.join('/') }
  const out = [
    { type: 'run_start', at, v: 1, sessionId: 's', resumed: false, model: m },
    { type: 'prompted', at: at + 1, source: 'prompt', text: 'brief' },
  ]
  if (providerError) out.push({ type: 'assistant', at: at + 2, model: m, stopReason: 'error', text: '', error: providerError })
  else out.push({ type: 'assistant', at: at + 2, model: m, stopReason: report ? 'tool_use' : 'stop', text })
  if (report) out.push({ type: 'tool_end', at: at + 3, callId: 'r', tool: 'chef_report', isError: false, report })
  if (settled) out.push({ type: 'settled', at: at + 4 })
  return out.map((l) => JSON.stringify(l))
}
