/**
 * runCommand: runs one command line through the platform shell outside the harness (execa).
 * The run is contained (contain.ts): a cgroup of its own where the system allows one, the
 * shell leading its own process group, and a marker in every process's environment, so a
 * timeout or an abort stops the whole tree: children that left the group with `setsid`,
 * double-fork daemons that init adopted, children that dropped the environment (`env -i`, found
 * by the cgroup), and children that ignore SIGTERM (SIGKILL follows after a grace). A watchdog
 * stops the run should the process that started it die first. Once the tree is killed, pipes a
 * survivor might still hold are not waited on. Each stream is capped without stopping the command.
 */
import { execa } from 'execa'
import pidtree from 'pidtree'
import { contain, markedProcesses, RUN_MARKER_VARIABLE } from '../base/contain.js'
import { DEFAULT_STREAM_LIMIT } from './stream-limit.js'

export { markedProcesses, RUN_MARKER_VARIABLE }
export { DEFAULT_STREAM_LIMIT }
/** How long a tree gets between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 2_000
/** After the final SIGKILL, how long the pipes get to close before they are abandoned. */
const PIPE_LINGER_MS = 500

export interface RunOptions {
  cwd?: string
  /** Hard budget; the tree is killed when it runs out (default 120 s). */
  timeoutMs?: number
  signal?: AbortSignal
  /** Aborting this kills the tree at once with SIGKILL, grace or not (a second Ctrl-C). */
  killSignal?: AbortSignal
  env?: NodeJS.ProcessEnv
  /** Bytes kept per stream (default 1 MiB); the rest is drained and counted. */
  maxBytes?: number
  /** Live output, for a CLI that streams. */
  onStdout?: (chunk: Buffer) => void
  onStderr?: (chunk: Buffer) => void
  /**
   * Live output with backpressure: while a sink's buffer is full, the command's stream is paused
   * (so a slow reader slows the command instead of filling memory).
   */
  stdoutSink?: NodeJS.WritableStream
  stderrSink?: NodeJS.WritableStream
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
export async function killTree(pid: number, signal: NodeJS.Signals, marker?: string): Promise<void> {
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
  if (marker) for (const p of markedProcesses(marker)) tryKill(p)
}

export async function runCommand(command: string, options: RunOptions = {}): Promise<RunResult> {
  const started = performance.now()
  const limit = options.maxBytes ?? DEFAULT_STREAM_LIMIT
  const out = new CappedBuffer(limit)
  const err = new CappedBuffer(limit)
  const run = contain()
  const [file, args] = run.wrap(...shellArgv(command))
  const child = execa(file, args, {
    cwd: options.cwd,
    env: { ...(options.env ?? process.env), ...run.env },
    extendEnv: false,
    stdin: options.stdin ?? 'ignore',
    buffer: false,
    reject: false,
    detached: process.platform !== 'win32',
    windowsVerbatimArguments: process.platform === 'win32',
  })
  const forward = (stream: NodeJS.ReadableStream | null | undefined, capped: CappedBuffer, onChunk?: (chunk: Buffer) => void, sink?: NodeJS.WritableStream) => {
    if (!stream) return
    stream.on('data', (chunk: Buffer) => {
      capped.push(chunk)
      onChunk?.(chunk)
      if (sink && sink.write(chunk) === false && !(sink as { destroyed?: boolean }).destroyed) {
        stream.pause()
        sink.once('drain', () => stream.resume())
      }
    })
  }
  run.started(child.pid)
  forward(child.stdout, out, options.onStdout, options.stdoutSink)
  forward(child.stderr, err, options.onStderr, options.stderrSink)

  let killed = false
  let timedOut = false
  let forced = false
  let escalation: NodeJS.Timeout | undefined
  let releasePipes: () => void = () => {}
  const abandoned = new Promise<'abandoned'>((resolve) => {
    releasePipes = () => resolve('abandoned')
  })
  const pid = child.pid
  /** SIGKILL sweeps until no process of the run is left (a fork can race a sweep), then the pipes go. */
  let finishing: Promise<void> | undefined
  const finish = (): Promise<void> => (finishing ??= (async () => {
    if (pid === undefined) return
    for (let round = 0; round < 5; round++) {
      await run.kill('SIGKILL')
      if (await run.empty()) break
      await new Promise((r) => setTimeout(r, 50))
    }
    setTimeout(releasePipes, PIPE_LINGER_MS).unref()
  })())
  const stop = (why: 'timeout' | 'abort') => {
    if (killed || pid === undefined) return
    killed = true
    timedOut = why === 'timeout'
    void run.kill('SIGTERM')
    escalation = setTimeout(() => void finish(), KILL_GRACE_MS)
    escalation.unref()
  }
  const force = () => {
    if (pid === undefined || forced) return
    if (!killed) killed = true
    forced = true
    if (escalation) clearTimeout(escalation)
    void finish()
  }
  const timeoutMs = options.timeoutMs ?? 120_000
  const timer = setTimeout(() => stop('timeout'), timeoutMs)
  const onAbort = () => stop('abort')
  if (options.signal?.aborted) onAbort()
  else options.signal?.addEventListener('abort', onAbort, { once: true })
  if (options.killSignal?.aborted) force()
  else options.killSignal?.addEventListener('abort', force, { once: true })

  // The shell's own exit, whether or not its pipes close: a daemon may hold them for ever.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }))
  })
  const outcome = await Promise.race([child, abandoned]).finally(() => {
    // Runs that ended keep what they started on purpose; the watchdog and the cgroup go.
    if (!killed) run.dispose()
  })
  clearTimeout(timer)
  options.signal?.removeEventListener('abort', onAbort)
  options.killSignal?.removeEventListener('abort', force)
  if (killed && pid !== undefined) {
    // The shell is gone, but a process of the run may still be in its grace period (or the
    // forced sweep still going): every one is gone before the containment is let go.
    if (escalation) clearTimeout(escalation)
    await finish()
  }
  if (escalation) clearTimeout(escalation)
  run.dispose()
  let exitCode: number | null
  let failed = false
  let failure = ''
  if (outcome === 'abandoned') {
    // Every process of the run got SIGKILL; what still holds a pipe is not ours to wait for.
    child.stdout?.destroy()
    child.stderr?.destroy()
    const exit = await Promise.race([
      exited,
      new Promise<{ code: null; signal: null }>((r) => setTimeout(() => r({ code: null, signal: null }), PIPE_LINGER_MS).unref()),
    ])
    exitCode = exit.code
    void child.catch(() => {})
  } else {
    exitCode = typeof outcome.exitCode === 'number' ? outcome.exitCode : null
    failed = outcome.failed && exitCode === null && !killed && outcome.signal === undefined
    failure = outcome.shortMessage ?? outcome.message ?? ''
  }
  let stderr = err.text()
  if (failed) {
    // The shell itself could not start (missing cwd, for example).
    stderr = `${stderr}${stderr ? '\n' : ''}${failure}`
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
