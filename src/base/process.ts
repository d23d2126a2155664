/**
 * The CLI as a process among others: signals and closed pipes. Ctrl-C, SIGTERM and SIGHUP (the
 * terminal closed) stop the command `run` started, a second one kills its tree at once; a reader
 * that goes away (`scan --format json | head`) ends the CLI quietly with 141 (128 + SIGPIPE, as a
 * process SIGPIPE killed), after stopping the command.
 */
import { writeSync } from 'node:fs'

/** Exit code after stdout's reader went away. */
export const EXIT_BROKEN_PIPE = 141
const SIGNAL_EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 }

/** Called on a broken pipe while a command runs; otherwise a broken pipe exits at once. */
let brokenPipeHandler: (() => void) | undefined
let guarded = false

function isBrokenPipe(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException)?.code
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED' || code === 'ECONNRESET'
}

function brokenPipe(): void {
  if (brokenPipeHandler) brokenPipeHandler()
  else process.exit(EXIT_BROKEN_PIPE)
}

/**
 * Writes the CLI's own text to stdout (fd 1) or stderr (fd 2). Straight to the descriptor while
 * nothing has used the streams: creating process.stdout loads Node's stream and tty modules,
 * several milliseconds of a scan that only prints. Once a command streams through them
 * (`useStreams`), through them, so that the order of what is written is kept.
 */
export function writeOut(fd: 1 | 2, text: string | Uint8Array): void {
  if (guarded) return void (fd === 1 ? process.stdout : process.stderr).write(text)
  const bytes = typeof text === 'string' ? Buffer.from(text) : text
  let off = 0
  while (off < bytes.length) {
    try {
      off += writeSync(fd, bytes, off)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'EPIPE') return brokenPipe()
      if (code !== 'EAGAIN') throw error
      // A full non-blocking pipe: Node's stream waits for it.
      useStreams()
      return void (fd === 1 ? process.stdout : process.stderr).write(bytes.subarray(off))
    }
  }
}

/** The real CLI's streams, from now on the way all its output goes (see writeOut). */
export function useStreams(): void {
  installPipeGuard()
}

/**
 * Makes EPIPE on stdout or stderr end the CLI quietly instead of an unhandled 'error' stack
 * trace. Installed once, when the real CLI first uses its streams.
 */
function installPipeGuard(): void {
  if (guarded) return
  guarded = true
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error) => {
      if (!isBrokenPipe(error)) throw error
      brokenPipe()
    })
  }
}

export interface RunControl {
  /** Aborted on the first signal or a broken pipe: SIGTERM to the tree, SIGKILL after the grace. */
  readonly signal: AbortSignal
  /** Aborted on a second signal: SIGKILL to the tree at once. */
  readonly killSignal: AbortSignal
  /** The exit code the CLI owes for how it was stopped, when it was stopped. */
  exitCode(): number | undefined
  /** Whether stdout's reader went away (then nothing more is written). */
  readonly brokenPipe: boolean
  dispose(): void
}

/** Watches signals and the output pipes while `run` runs a command. */
export function watchRun(): RunControl {
  const stop = new AbortController()
  const kill = new AbortController()
  let code: number | undefined
  let broken = false
  const onSignal = (signal: NodeJS.Signals) => {
    code ??= SIGNAL_EXIT[signal] ?? 130
    // process.on, not once: a second signal must reach here too, or Node's default handler
    // would end the CLI and leave the tree that ignored the first one running.
    if (stop.signal.aborted) kill.abort()
    else stop.abort()
  }
  const signals: NodeJS.Signals[] = process.platform === 'win32' ? ['SIGINT', 'SIGTERM'] : ['SIGINT', 'SIGTERM', 'SIGHUP']
  for (const s of signals) process.on(s, onSignal)
  const previous = brokenPipeHandler
  brokenPipeHandler = () => {
    broken = true
    code = EXIT_BROKEN_PIPE
    stop.abort()
  }
  return {
    signal: stop.signal,
    killSignal: kill.signal,
    exitCode: () => code,
    get brokenPipe() {
      return broken
    },
    dispose() {
      for (const s of signals) process.off(s, onSignal)
      brokenPipeHandler = previous
    },
  }
}

/** The output part of book/execute.ts's RunOptions (written out: this layer imports nothing of the book). */
export interface OutputOptions {
  onStdout?: (chunk: Buffer) => void
  onStderr?: (chunk: Buffer) => void
  stdoutSink?: NodeJS.WritableStream
  stderrSink?: NodeJS.WritableStream
}

/**
 * How `run` streams the command's output: through the real stdout and stderr with backpressure
 * (a slow reader slows the command, memory stays flat), or through injected writers.
 */
export function outputOptions(
  io: { stdout: (text: string) => void; stderr: (text: string) => void },
  real: boolean,
  control: RunControl,
  /** Sees every chunk before it is written (whether the output ended with a newline, say). */
  observe: (chunk: Buffer) => void = () => {},
): OutputOptions {
  if (real) {
    useStreams()
    return {
      stdoutSink: guardedSink(process.stdout, control, observe),
      stderrSink: guardedSink(process.stderr, control, observe),
    }
  }
  return { onStdout: (c) => (observe(c), io.stdout(c.toString())), onStderr: (c) => (observe(c), io.stderr(c.toString())) }
}

/** A sink that stops writing once the reader is gone (later chunks are dropped, not queued). */
function guardedSink(stream: NodeJS.WriteStream, control: RunControl, observe: (chunk: Buffer) => void): NodeJS.WritableStream {
  const sink = {
    write: (chunk: Buffer) => (control.brokenPipe || stream.destroyed ? true : (observe(chunk), stream.write(chunk))),
    once: (event: string, listener: () => void) => (stream.once(event, listener), sink),
    get destroyed() {
      return stream.destroyed || control.brokenPipe
    },
  }
  // runCommand uses write, once('drain') and destroyed only.
  return sink as unknown as NodeJS.WritableStream
}
