/**
 * Everything the task page shows besides its row: the brief, each run (its model, times, report or
 * error; for the newest ones the prompt it was launched with and the last entries of its run file),
 * the kitchen's log in words, and the messages sent to it (waiting in the inbox, or delivered).
 *
 * Read through the store's layout (its paths and its inbox reader). Delivered messages and prompts
 * are read here with the store's own rules, since the store has no reader for them that stays
 * bounded for a page: a regular file only, never through a symlink, never blocking on a FIFO, at
 * most a prefix of it (the rest is said to be there).
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync } from 'node:fs'
import { join } from 'node:path'
import { INBOX_NAME, modelName, type LogEvent, type RunRecord, type TaskRecord } from '../../kitchen/domain.js'
import type { Store } from '../../kitchen/store/index.js'
import { runTail, type RunEntry } from './run-lines.js'

/** The most of a prompt or a message a page shows. */
export const SHOWN_BYTES = 64 * 1024
/** The newest messages shown, and how much of each: a page stays a few MiB at most. */
const MAX_MESSAGES = 50
const MESSAGE_SHOWN_BYTES = 16 * 1024
/** The newest log events shown. */
const MAX_LOG = 500
/** Runs whose run file is read for the page (the newest); older ones show their facts only. */
const RUNS_WITH_ENTRIES = 5
const RUN_ENTRIES = 300

export interface RunDetail {
  n: number
  model: string | null
  startedAt: number | null
  settledAt: number | null
  lines: number
  bad: number
  size: number
  report: { status: string; summary: string } | null
  providerError: string | null
  runnerError: string | null
  readError: string | null
  errTail: string
  prompt: { text: string; cut: boolean } | null
  /** The last entries of the run file; null for an older run that is not read for the page. */
  entries: RunEntry[] | null
}

export interface MessageDetail {
  at: number
  state: 'waiting' | 'delivered'
  text: string
  cut: boolean
}

export interface LogDetail {
  at: number
  type: LogEvent['type']
  text: string
}

export interface TaskDetail {
  brief: string
  taskDir: string
  worktree: string
  runs: RunDetail[]
  log: LogDetail[]
  messages: MessageDetail[]
  /** Why a part could not be read (a link where a directory belongs), one line each. */
  problems: string[]
}

/** The first `max` bytes of a regular file (no link followed, no FIFO opened for blocking), or undefined when missing. */
export function readPrefix(path: string, max = SHOWN_BYTES): { text: string; cut: boolean } | undefined {
  let fd: number
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    const why = (error as NodeJS.ErrnoException).code === 'ELOOP' ? 'it is a symlink' : (error as Error).message
    throw new Error(`${path.split('/').slice(-2).join('/')} can't be read: ${why}`)
  }
  try {
    const st = fstatSync(fd)
    if (!st.isFile()) throw new Error(`${path.split('/').slice(-2).join('/')} is not a regular file; it is not read`)
    const buf = Buffer.alloc(Math.min(max, st.size))
    let got = 0
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, got)
      if (n === 0) break
      got += n
    }
    // A character cut at the end decodes as U+FFFD, which reads as the cut it is.
    return { text: buf.subarray(0, got).toString('utf8'), cut: st.size > got }
  } finally {
    closeSync(fd)
  }
}

/** A directory of the task that is a real directory (a link in its place is a problem, not followed). */
function ownDirectory(path: string): boolean {
  const st = lstatSync(path, { throwIfNoEntry: false })
  if (st?.isSymbolicLink()) throw new Error(`${path.split('/').slice(-2).join('/')} is a symlink; it is not followed`)
  return st?.isDirectory() ?? false
}

/** Messages the cook took (inbox/handled/), newest MAX_MESSAGES, a prefix of each. */
function delivered(store: Store, id: TaskRecord['id']): MessageDetail[] {
  const dir = store.handledDir(id)
  if (!ownDirectory(store.inboxDir(id)) || !ownDirectory(dir)) return []
  const names = readdirSync(dir).filter((n) => INBOX_NAME.test(n)).sort().slice(-MAX_MESSAGES)
  const out: MessageDetail[] = []
  for (const name of names) {
    const got = readPrefix(join(dir, name), MESSAGE_SHOWN_BYTES)
    if (got) out.push({ at: Number(INBOX_NAME.exec(name)![1]), state: 'delivered', text: got.text, cut: got.cut })
  }
  return out
}

function waiting(store: Store, id: TaskRecord['id']): MessageDetail[] {
  return store.readInbox(id).slice(-MAX_MESSAGES).map((m) => {
    const cut = m.text.length > MESSAGE_SHOWN_BYTES
    return { at: m.at, state: 'waiting' as const, text: cut ? m.text.slice(0, MESSAGE_SHOWN_BYTES) : m.text, cut }
  })
}

/** The kitchen's log in words. */
export function logText(e: LogEvent): string {
  switch (e.type) {
    case 'prompt': return `run ${e.run}: prompt written`
    case 'launch': return `run ${e.run}: cook launched${e.cgroup ? ` in ${e.cgroup}` : ''}`
    case 'fetched': return `branch brought back from the clone at ${e.tip.slice(0, 10)}`
    case 'stop': return `run ${e.run}: stopped`
    case 'hold': return `held before run ${e.run}`
    case 'notified': return `run ${e.run}: the chef was told`
    case 'launch_failed': return `run ${e.run}: the launch failed: ${e.reason}`
    case 'closed': return e.discarded ? 'closed, its work discarded' : 'closed'
    case 'verified': {
      const how = e.passed ? 'passed' : `failed${e.exitCode !== undefined ? ` (exit ${e.exitCode})` : ''}`
      return `${e.by === 'merge' ? 'tested in the merge queue' : 'verified'}: \`${e.command}\` ${how}${e.tip ? ` at ${e.tip.slice(0, 10)}` : ''}`
    }
  }
}

/** One run; an older one (`newest` false) without its prompt and entries, which are not read for the page. */
function runDetail(store: Store, rec: TaskRecord, r: RunRecord, newest: boolean, problems: string[]): RunDetail {
  const f = r.fold
  let prompt: RunDetail['prompt'] = null
  try {
    prompt = r.hasPrompt && newest ? readPrefix(store.promptFile(rec.id, r.n)) ?? null : null
  } catch (error) {
    problems.push(`run ${r.n}: ${(error as Error).message}`)
  }
  let entries: RunEntry[] | null = null
  if (newest && r.claimed) {
    const tail = runTail(store.runFile(rec.id, r.n), r.n, RUN_ENTRIES)
    entries = tail.entries
    if (tail.problem) problems.push(tail.problem)
  }
  return {
    n: r.n, model: f.model ? modelName(f.model) : null, startedAt: f.startedAt ?? null, settledAt: f.settledAt ?? null,
    lines: f.lines, bad: f.bad, size: r.size, report: f.report ? { status: f.report.status, summary: f.report.summary } : null,
    providerError: f.providerError ?? null, runnerError: f.runnerError ?? null, readError: f.readError ?? null, errTail: r.errTail,
    prompt, entries,
  }
}

export function taskDetail(store: Store, rec: TaskRecord): TaskDetail {
  const problems: string[] = []
  const newest = rec.runs.slice(-RUNS_WITH_ENTRIES).map((r) => r.n)
  const runs = rec.runs.map((r) => runDetail(store, rec, r, newest.includes(r.n), problems))
  let messages: MessageDetail[] = []
  for (const read of [waiting, delivered]) {
    try {
      messages.push(...read(store, rec.id))
    } catch (error) {
      problems.push(`messages: ${(error as Error).message}`)
    }
  }
  messages = messages.sort((a, b) => a.at - b.at).slice(-MAX_MESSAGES)
  return {
    brief: rec.spec.brief, taskDir: store.taskDir(rec.id), worktree: rec.spec.worktree, runs,
    log: rec.log.slice(-MAX_LOG).map((e) => ({ at: e.at, type: e.type, text: logText(e) })), messages, problems,
  }
}
