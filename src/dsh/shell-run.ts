/**
 * Runs one command line through the harness's shell seam (`ctx.shell`, the executor behind
 * the `bash` tool), so the harness's sandbox, credential scrub, output handling and kill
 * escalation apply exactly as they do for `bash`. The result is the package's `RunResult`.
 *
 * Adaptations to the seam (it owns the process, we only shape the result):
 * - stdout asks for a 1 MiB capture budget (`stdoutMaxBytes`); stderr keeps the executor's own
 *   cap (`maxOutputBytes`, 64 000 bytes by default), which a caller cannot raise. The seam keeps
 *   the TAIL of a long stream, so a truncated stream starts with a marker that says so and
 *   names the spill file holding the whole stream when there is one.
 * - the timeout is the executor's: it clamps `timeoutMs` to its `maxTimeoutMs` (600 s by
 *   default) and kills the process group on expiry or abort, escalating to SIGKILL after its grace.
 * - `killed` is the executor's first cause (`timedOut` or `aborted`); `durationMs` is measured here.
 * - an infrastructure failure (unusable working directory, missing shell) becomes a failed result
 *   whose stderr names the cause, like `runCommand` does for a shell that cannot start.
 */
import type { Context } from '@deepseek-ai/cordis'
import type {} from '@deepseek-ai/dsh-shell'
import type { ShellExecRequest, ShellRunResult } from '@deepseek-ai/dsh-shell'
import type { ToolExecution } from '@deepseek-ai/dsh-tools'
import type { RunResult } from '../book/execute.js'
import { DEFAULT_STREAM_LIMIT } from '../book/stream-limit.js'

export interface HarnessRunOptions {
  command: string
  /** Absolute working directory. */
  cwd: string
  /** Hard budget; the executor clamps it to its own maximum. */
  timeoutMs: number
  signal?: AbortSignal
  /**
   * The tool call being served, when there is one: resolves the calling session's sandbox
   * policy and the managed `DSH_*` environment the way the `bash` tool does.
   */
  exec?: ToolExecution
}

/** Minimal views of the optional services this module reads with `ctx.get` (no inject). */
interface SandboxPolicyService {
  resolve(request?: { session?: unknown }): { workspaceRoot?: string; mode?: string }
}
interface ShellEnvService {
  collect(exec: ToolExecution): Record<string, string>
}

export class ShellUnavailableError extends Error {
  override name = 'ShellUnavailableError'
}

export async function runInHarnessShell(ctx: Context, options: HarnessRunOptions): Promise<RunResult> {
  const shell = ctx.get('shell') as Context['shell'] | undefined
  if (!shell) {
    throw new ShellUnavailableError('no shell executor is mounted (ctx.shell); compose @deepseek-ai/dsh-bash-sandbox or @deepseek-ai/dsh-bash-local, as dsh-base does')
  }
  const started = performance.now()
  const request: ShellExecRequest = {
    command: options.command,
    workdir: options.cwd,
    timeoutMs: options.timeoutMs,
    stdoutMaxBytes: DEFAULT_STREAM_LIMIT,
    ...(options.signal ? { signal: options.signal } : {}),
  }
  const { exec } = options
  if (exec) {
    // The same per-call identity the bash tool uses: sandbox policy of the calling session,
    // and the harness's managed environment snapshot.
    if (shell.sandboxMode !== undefined) {
      const policy = (ctx.get('sandboxPolicy') as SandboxPolicyService | undefined)?.resolve(
        exec.agent === undefined ? {} : { session: exec.agent.session },
      )
      if (policy) request.sandboxPolicy = policy as ShellExecRequest['sandboxPolicy']
    }
    const shellEnv = ctx.get('shellEnv') as ShellEnvService | undefined
    if (shellEnv) request.dshEnv = shellEnv.collect(exec) as ShellExecRequest['dshEnv']
  }

  let result: ShellRunResult
  try {
    result = await shell.run(shell.resolve(request))
  } catch (error) {
    if (options.signal?.aborted) throw error
    return {
      command: options.command,
      ok: false,
      exitCode: null,
      stdout: '',
      stderr: `the command could not start: ${(error as Error)?.message ?? String(error)}`,
      killed: false,
      timedOut: false,
      durationMs: Math.round(performance.now() - started),
    }
  }
  const killed = result.timedOut || result.aborted
  let stderr = streamText(result.stderr, 'stderr')
  if (result.sandbox?.denied) stderr = appendLine(stderr, `[sandbox: file access denied under ${result.sandbox.mode} mode]`)
  if (result.timedOut) stderr = appendLine(stderr, `[killed: timed out after ${result.timeoutMs} ms]`)
  else if (result.aborted) stderr = appendLine(stderr, '[killed: cancelled]')
  else if (result.signal) stderr = appendLine(stderr, `[killed by signal: ${result.signal}]`)
  return {
    command: options.command,
    ok: result.exitCode === 0 && !killed,
    exitCode: result.exitCode,
    stdout: streamText(result.stdout, 'stdout'),
    stderr,
    killed,
    timedOut: result.timedOut,
    durationMs: Math.round(performance.now() - started),
  }
}

function streamText(stream: { text: string; truncated: boolean; spillPath?: string }, label: string): string {
  if (!stream.truncated) return stream.text
  const where = stream.spillPath ? `; the whole ${label} is in ${stream.spillPath}` : ''
  return `[... output truncated: earlier ${label} dropped, last part shown${where}]\n${stream.text}`
}

function appendLine(text: string, line: string): string {
  return text === '' || text.endsWith('\n') ? `${text}${line}` : `${text}\n${line}`
}
