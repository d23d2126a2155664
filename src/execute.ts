/**
 * runCommand: runs one command line through the platform shell outside the harness (execa).
 * The shell leads its own process group, so a timeout or an abort stops the whole tree;
 * each stream is capped without stopping the command.
 */
import { execa } from 'execa'
import pidtree from 'pidtree'

export const DEFAULT_STREAM_LIMIT = 1024 * 1024
/** How long a tree gets between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 2_000

export interface RunOptions {
  cwd?: string
  /** Hard budget; the tree is killed when it runs out (default 120 s). */
  timeoutMs?: number
  signal?: AbortSignal
  env?: NodeJS.ProcessEnv
  /** Bytes kept per stream (default 1 MiB); the rest is drained and counted. */
  maxBytes?: number
  /** Live output, for a CLI that streams. */
  onStdout?: (chunk: Buffer) => void
  onStderr?: (chunk: Buffer) => void
  /** Standard input: ignored by default; `inherit` for an interactive CLI run. */
  stdin?: 'ignore' | 'inherit'
}

export interface RunResult {
  command: string
  /** True when the command exited 0 and was not killed. */
  ok: boolean
  /** Null when the process ended by a signal. */
  exitCode: number | null
  stdout: string
  stderr: string
  /** True when the timeout or the abort signal killed the tree. */
  killed: boolean
  timedOut: boolean
  durationMs: number
}

/** Keeps the first `limit` bytes of a stream and counts the rest. */
export class CappedBuffer {
  readonly #chunks: Buffer[] = []
  #kept = 0
  dropped = 0
  constructor(readonly limit: number) {}
  push(chunk: Buffer): void {
    const room = this.limit - this.#kept
    if (room > 0) {
      const part = chunk.length <= room ? chunk : chunk.subarray(0, room)
      this.#chunks.push(part)
      this.#kept += part.length
    }
    this.dropped += Math.max(0, chunk.length - Math.max(room, 0))
  }
  text(): string {
    // A cut may split a UTF-8 sequence; the decoder replaces the broken tail.
    const text = Buffer.concat(this.#chunks).toString('utf8')
    return this.dropped > 0 ? `${text}\n[... output truncated: ${this.dropped} more bytes not shown (limit ${this.limit} bytes)]` : text
  }
}

function shellArgv(command: string): [string, string[]] {
  if (process.platform === 'win32') return [process.env.ComSpec ?? 'cmd.exe', ['/d', '/s', '/c', command]]
  return ['/bin/sh', ['-c', command]]
}

/** Signals a process group and every descendant found by walking the process table. */
export async function killTree(pid: number, signal: NodeJS.Signals): Promise<void> {
  let descendants: number[] = []
  try {
    descendants = await pidtree(pid)
  } catch {
    // the root is already gone; its group may still be alive
  }
  const tryKill = (target: number) => {
    try {
      process.kill(target, signal)
    } catch {
      // already gone
    }
  }
  if (process.platform !== 'win32') tryKill(-pid)
  tryKill(pid)
  for (const child of descendants) tryKill(child)
}

export async function runCommand(command: string, options: RunOptions = {}): Promise<RunResult> {
  const started = performance.now()
  const limit = options.maxBytes ?? DEFAULT_STREAM_LIMIT
  const out = new CappedBuffer(limit)
  const err = new CappedBuffer(limit)
  const [file, args] = shellArgv(command)
  const child = execa(file, args, {
    cwd: options.cwd,
    env: options.env,
    extendEnv: options.env === undefined,
    stdin: options.stdin ?? 'ignore',
    buffer: false,
    reject: false,
    detached: process.platform !== 'win32',
    windowsVerbatimArguments: process.platform === 'win32',
  })
  child.stdout?.on('data', (chunk: Buffer) => {
    out.push(chunk)
    options.onStdout?.(chunk)
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    err.push(chunk)
    options.onStderr?.(chunk)
  })

  let killed = false
  let timedOut = false
  let escalation: NodeJS.Timeout | undefined
  const stop = (why: 'timeout' | 'abort') => {
    if (killed || child.pid === undefined) return
    killed = true
    timedOut = why === 'timeout'
    const pid = child.pid
    void killTree(pid, 'SIGTERM')
    escalation = setTimeout(() => void killTree(pid, 'SIGKILL'), KILL_GRACE_MS)
    escalation.unref()
  }
  const timeoutMs = options.timeoutMs ?? 120_000
  const timer = setTimeout(() => stop('timeout'), timeoutMs)
  const onAbort = () => stop('abort')
  if (options.signal?.aborted) onAbort()
  else options.signal?.addEventListener('abort', onAbort, { once: true })

  const result = await child
  clearTimeout(timer)
  options.signal?.removeEventListener('abort', onAbort)
  if (killed && child.pid !== undefined) {
    // The shell is gone, but a grandchild of the group may still be in its grace period.
    await killTree(child.pid, 'SIGKILL')
  }
  if (escalation) clearTimeout(escalation)
  const exitCode = typeof result.exitCode === 'number' ? result.exitCode : null
  let stderr = err.text()
  if (result.failed && exitCode === null && !killed && result.signal === undefined) {
    // The shell itself could not start (missing cwd, for example).
    stderr = `${stderr}${stderr ? '\n' : ''}${result.shortMessage ?? result.message}`
  }
  if (timedOut) stderr = `${stderr}${stderr ? '\n' : ''}[killed: timed out after ${timeoutMs} ms]`
  else if (killed) stderr = `${stderr}${stderr ? '\n' : ''}[killed: cancelled]`
  return {
    command,
    ok: exitCode === 0 && !killed,
    exitCode,
    stdout: out.text(),
    stderr,
    killed,
    timedOut,
    durationMs: Math.round(performance.now() - started),
  }
}
