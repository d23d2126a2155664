/**
 * The cook runner's command line and role variables, parsed without the harness: the flags the
 * kitchen's cook command passes after the launcher's own (`--profile`, `--patch`), and the
 * variables the kitchen sets on every cook process.
 */
import { parseArgs } from 'node:util'

/** The variables that mark a cook process (set by the kitchen at spawn). They leave `process.env` at load. */
export const ROLE_ENV = ['KITCHEN_ROLE', 'KITCHEN_TASK_DIR', 'KITCHEN_RUN'] as const

/** What one cook run was asked to do. */
export interface CookStartup {
  /** Root of the task's agent sessions (`tasks/<id>/session`). */
  sessionDir: string
  /** The task's session: created by run 1, resumed by every later run. */
  sessionId: string
  /** The run's prompt (`runs/<n>.prompt.md`). */
  promptFile: string
  /** `provider/model` of the run's candidate; unset: the harness's default model. */
  model?: string
  /** The candidate's thinking level, passed to the harness as the reasoning effort. */
  thinking?: string
  /** The task directory (inbox, task.json); from `--task-dir` or the kitchen's variable. */
  taskDir?: string
  /** The run number, when the kitchen gave it. */
  run?: number
  /** The rulebook the kitchen chose for this cook's project (a name or `none`); unset: no selection. */
  rulebook?: string
}

export const COOK_HELP = `dsh cook runner (command-scout): works one kitchen task in its own agent session.

Usage:
  dsh --profile headless --patch <cook overlay> [--patch ...] \\
      --session-dir=DIR --session-id=ID --prompt-file=FILE [--model=PROVIDER/MODEL] [--thinking=LEVEL]
      [--rulebook=NAME] [--task-dir=DIR]

Creates the session ID under DIR, or resumes it when an earlier run created it, sends the prompt
file, and writes every session event as one JSON line on stdout (the kitchen's run file). The run
ends when the agent settles, normally after one chef_report call.

Options:
  --session-dir=DIR     where the task's sessions live
  --session-id=ID       the task's session
  --prompt-file=FILE    this run's prompt
  --model=P/M           the model to use (provider/model); default: the harness default
  --thinking=LEVEL      the reasoning effort for that model
  --rulebook=NAME       the rulebook this cook works by (a name, or none); default: no selection
  --task-dir=DIR        the task directory whose inbox/ steers the running agent
                        (default: $KITCHEN_TASK_DIR)
  -h, --help            show this help
`

export type FlagResult =
  | { kind: 'ok'; startup: CookStartup }
  | { kind: 'help' }
  | { kind: 'error'; message: string }

/**
 * Parses the cook flags (`--name=value` or `--name value`) and the role variables. Every problem is
 * one message naming the fix; nothing throws.
 */
export function parseCookFlags(args: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): FlagResult {
  let values: Record<string, string | boolean | undefined>
  try {
    values = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        'session-dir': { type: 'string' },
        'session-id': { type: 'string' },
        'prompt-file': { type: 'string' },
        model: { type: 'string' },
        thinking: { type: 'string' },
        rulebook: { type: 'string' },
        'task-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values
  } catch (error) {
    return { kind: 'error', message: `${(error as Error).message}; see --help` }
  }
  if (values.help) return { kind: 'help' }
  const missing = (['session-dir', 'session-id', 'prompt-file'] as const).filter((k) => typeof values[k] !== 'string' || values[k] === '')
  if (missing.length > 0) return { kind: 'error', message: `missing ${missing.map((k) => `--${k}`).join(', ')}; the cook runner needs --session-dir, --session-id and --prompt-file` }
  const startup: CookStartup = {
    sessionDir: values['session-dir'] as string,
    sessionId: values['session-id'] as string,
    promptFile: values['prompt-file'] as string,
  }
  const model = values.model as string | undefined
  if (model !== undefined && model !== '') {
    if (/\s/.test(model)) return { kind: 'error', message: `--model=${JSON.stringify(model)} has a space; give provider/model` }
    startup.model = model
  }
  const thinking = values.thinking as string | undefined
  if (thinking !== undefined && thinking !== '') startup.thinking = thinking
  const rulebook = values.rulebook as string | undefined
  if (rulebook !== undefined && rulebook !== '') {
    if (!/^[a-z0-9-]+$/.test(rulebook)) return { kind: 'error', message: `--rulebook=${JSON.stringify(rulebook)} is not a rulebook name ([a-z0-9-]+, or none)` }
    startup.rulebook = rulebook
  }
  const taskDir = (values['task-dir'] as string | undefined) || env.KITCHEN_TASK_DIR
  if (taskDir) startup.taskDir = taskDir
  const run = Number(env.KITCHEN_RUN)
  if (Number.isSafeInteger(run) && run >= 1) startup.run = run
  return { kind: 'ok', startup }
}

/** `provider/model` split at the first slash (a model id may hold more); no slash: the default provider's. */
export function splitModel(text: string, defaultProvider: string): { provider: string; model: string } {
  const slash = text.indexOf('/')
  if (slash <= 0 || slash === text.length - 1) return { provider: defaultProvider, model: text.replace(/^\/|\/$/g, '') }
  return { provider: text.slice(0, slash), model: text.slice(slash + 1) }
}

/**
 * The reasoning effort for the run's thinking level: the level itself when the model offers it, else
 * none (the model's default) with a note. The kitchen's levels (off … max) are not every adapter's;
 * an effort the adapter refuses would fail every request and read as a provider failure.
 */
export function chooseEffort(level: string | undefined, offered: readonly string[] | undefined): { effort?: string; note?: string } {
  if (level === undefined) return {}
  if (offered === undefined || offered.includes(level)) return { effort: level }
  return { note: `thinking level "${level}" is not offered by this model (it offers ${offered.length > 0 ? offered.join(', ') : 'none'}); using the model's default` }
}
