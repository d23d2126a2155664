/**
 * The kitchen's words, shared by every owner: branded ids, every shape the kitchen persists (with its
 * parser), the run-file line schema that a cook writes, what a tick reads, the live cooks, the derived
 * views and unions, and the error type. No harness types, no I/O, no paths (the store owns the layout).
 *
 * Persisted shapes and who writes them (one writer per file; `store/` names the files):
 *   config.json            the person, when no host gives the config       -> KitchenConfig (store/config.ts)
 *   lease/<g>.json         the lease holder of generation g                -> Lease
 *   projects/<name>.json   the owner, once                                 -> ProjectSpec
 *   tasks/<id>/task.json   the owner, once (tmp + rename, mkdir exclusive) -> TaskSpec
 *   tasks/<id>/log.jsonl   the owner, append                               -> LogEvent per line
 *   tasks/<id>/runs/<n>.jsonl  the cook's stdout (the owner claims it)     -> RunLine per line
 *   tasks/<id>/inbox/<at>-<tag>.msg  the owner (tmp + rename)              -> message text, time in the name
 */
import {
  arr, bool, check, int, isRecord, nonEmpty, obj, oneOf, pattern, str, tagged,
  type Checked, type Out, type Parser,
} from './check.js'

// ---------------------------------------------------------------- ids

export type TaskId = string & { readonly __brand: 'TaskId' }
/** A run number of a task, from 1. Run `n` is `runs/<n>.jsonl`. */
export type RunNo = number & { readonly __brand: 'RunNo' }
/** Milliseconds since the epoch. */
export type Millis = number
export type ProjectName = string

/**
 * A project name: a file name (`projects/<name>.json`) and the head of every task id and branch.
 * Letters, digits, `.`, `_`, `-`; starts with a letter or digit; no `..`; not ending in `.` or `.lock`.
 */
export function isProjectName(name: unknown): name is ProjectName {
  return typeof name === 'string' && /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name) &&
    !name.includes('..') && !name.endsWith('.') && !name.endsWith('.lock')
}

const TASK_ID = /^([A-Za-z0-9][A-Za-z0-9._-]*)-([1-9][0-9]{0,8})$/

/** `api-7`: the project name, a dash, the task's number in that project. */
export function taskId(project: ProjectName, n: number): TaskId {
  return `${project}-${n}` as TaskId
}

export function parseTaskId(id: string): { project: ProjectName; n: number } | undefined {
  const m = TASK_ID.exec(id)
  if (!m || !isProjectName(m[1])) return undefined
  return { project: m[1]!, n: Number(m[2]) }
}

export function isTaskId(id: unknown): id is TaskId {
  return typeof id === 'string' && parseTaskId(id) !== undefined
}

export function runNo(n: number): RunNo {
  if (!Number.isSafeInteger(n) || n < 1) throw new KitchenError('KITCHEN_BAD_INPUT', `run number must be a whole number >= 1, not ${n}`)
  return n as RunNo
}

/**
 * How much text the kitchen takes from a dispatch or a send. A title sits in one line of every
 * board and wake; a brief and a message are prompts. Longer input is refused with the limit named,
 * never stored (a 1 MB title would ride along in every board, snapshot and wake).
 */
export const MAX_TITLE_CHARS = 200
export const MAX_BRIEF_CHARS = 100_000
export const MAX_MESSAGE_CHARS = 100_000
export const MAX_NOTE_CHARS = 1_000

/** Whitespace folded to single spaces, cut to `max` characters with an ellipsis. */
export function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}

// ---------------------------------------------------------------- models

export const THINKING_LEVELS = ['off', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const
export type ThinkingLevel = (typeof THINKING_LEVELS)[number]

/** A cook model: `model` is `provider/id` (or an id that one provider has), `thinking` a level. */
export interface Profile {
  model: string
  thinking?: ThinkingLevel
}

/** The model a run actually used, as the harness selects it. */
export interface ModelRef {
  provider: string
  model: string
}

export function modelName(ref: ModelRef): string {
  return `${ref.provider}/${ref.model}`
}

/** A model rule of the config, normalized: `use` is always a list. */
export interface ModelRule {
  name: string
  when: string
  use: Profile[]
  why?: string
}

export const RULE_NAME = /^[a-z0-9][a-z0-9-]*$/
/** A rulebook name (or `none`); the seed's recipe names. */
export const RULEBOOK_NAME = /^[a-z0-9-]+$/

export const modelString: Parser<string> = pattern(/^\S+$/, 'a model name "provider/id" with no spaces')
export const profile: Parser<Profile> = obj({ model: modelString }, { thinking: oneOf(THINKING_LEVELS) })
const modelRef: Parser<ModelRef> = obj({ provider: nonEmpty, model: nonEmpty })

// ---------------------------------------------------------------- config (normalized; parsing in config.ts)

export interface RulebookSelection {
  /** The chef's rulebook and every cook's without a project entry; a name or `none`. Unset: no selection. */
  default?: string
  /** Per project; a Map so that a project named like an object property inherits nothing. */
  projects: Map<ProjectName, string>
}

export interface KitchenConfig {
  /** Cooks that may run at once (default 3). */
  maxCooks: number
  models: { rules: ModelRule[]; default: Profile[] }
  /** Extra arguments for every cook process. */
  cookArgs: string[]
  rulebook: RulebookSelection
  /** A stop sends SIGTERM, then SIGKILL after this long (default 5 s). */
  killGraceMs: number
  /** A settled run whose process lives this long after its last line gets SIGTERM (default 10 s). */
  exitGraceMs: number
  /** How long `send` waits for a reported cook to exit before it answers `after-exit` (default 5 s). */
  exitWaitMs: number
  /** An empty run-file claim with no process is reclaimed only when older than this (default 30 s). */
  reclaimAfterMs: number
}

// ---------------------------------------------------------------- projects/<name>.json

export const DEFAULT_BRANCH_PREFIX = 'issue/'

export interface ProjectSpec {
  name: ProjectName
  /** Absolute path of the git repository. */
  path: string
  baseBranch: string
  /** A file without it uses `issue/`. */
  branchPrefix: string
  note?: string
  /** The test command the person named; without it, the one discovery finds is used. */
  testCommand?: string
  createdAt?: Millis
}

const projectName: Parser<ProjectName> = (v, p) => (isProjectName(v) ? v : pattern(/$^/, 'a project name (letters, digits, . _ -)')(v, p))
const projectFile = obj(
  { name: projectName, path: nonEmpty, baseBranch: nonEmpty },
  { branchPrefix: nonEmpty, note: str, testCommand: nonEmpty, createdAt: int() },
)

export function parseProject(value: unknown): Checked<ProjectSpec> {
  const r = check(projectFile, value)
  if (!r.ok) return r
  return { ok: true, value: { ...r.value, branchPrefix: r.value.branchPrefix ?? DEFAULT_BRANCH_PREFIX } }
}

// ---------------------------------------------------------------- tasks/<id>/task.json

/** The immutable task spec, written once at dispatch. */
export interface TaskSpec {
  id: TaskId
  project: ProjectName
  title: string
  brief: string
  /** The task branch: the project's prefix plus the id, as of dispatch. Review and close use this one. */
  branch: string
  /** Absolute path of `worktrees/<id>`. */
  worktree: string
  baseBranch: string
  /** The agent session all runs of the task share. */
  sessionId: string
  /** Frozen candidates in order. Empty: each launch uses the kitchen default of that moment. */
  models: Profile[]
  /** The model rule chosen at dispatch, if any. */
  rule?: string
  createdAt?: Millis
  /**
   * 2: the task's runs are the ones its log records (`prompt`, `launch`), never files found in
   * runs/. Tasks written before carry no format and count their run files as they are.
   */
  format?: 2
  /** The dispatch this task came from (a hash of the batch and the item's place): a retry finds it. */
  dispatch?: string
}

/** The format new tasks are written in. */
export const TASK_FORMAT = 2

const taskIdP: Parser<TaskId> = (v, p) => (isTaskId(v) ? v : (pattern(/$^/, 'a task id like "api-7"')(v, p) as TaskId))
const taskFile = obj(
  { id: taskIdP, project: projectName, title: str, brief: str, branch: nonEmpty, worktree: nonEmpty, baseBranch: nonEmpty, sessionId: nonEmpty },
  {
    models: arr(profile), model: modelString, thinking: oneOf(THINKING_LEVELS), rule: pattern(RULE_NAME, 'a rule name'), createdAt: int(),
    format: oneOf([2]), dispatch: pattern(/^[0-9a-f]{16,64}$/, 'a dispatch key'),
  },
)

/**
 * Parses a task.json. A file from before candidates keeps its `model` as `models: [{model}]`, and one
 * without a model loads `[]`, so a task that relied on the config model of its time keeps it.
 */
export function parseTask(value: unknown): Checked<TaskSpec> {
  const r = check(taskFile, value)
  if (!r.ok) return r
  const { model, thinking, models, ...rest } = r.value
  if (models && model !== undefined) return { ok: false, reason: '$ has both "models" and the older "model"; keep "models"' }
  const list = models ?? (model !== undefined ? [thinking ? { model, thinking } : { model }] : [])
  const spec: TaskSpec = { ...rest, models: list } as TaskSpec
  if (spec.rule === undefined) delete spec.rule
  if (spec.format === undefined) delete spec.format
  if (spec.dispatch === undefined) delete spec.dispatch
  if (parseTaskId(spec.id)!.project !== spec.project) return { ok: false, reason: `$.id "${spec.id}" does not start with the project "${spec.project}"` }
  return { ok: true, value: spec }
}

/**
 * Why `spec.branch` cannot be the branch of task `spec.id`, or undefined when it can. A task branch
 * is never the base branch, and it is the id after a prefix that ends in `/` (any such prefix, since
 * a project may change its prefix after a dispatch), or the project's own prefix plus the id. So a
 * task.json edited to name `main` or another task's branch names no branch the kitchen may touch.
 */
export function taskBranchProblem(
  spec: Pick<TaskSpec, 'id' | 'branch' | 'baseBranch'>,
  project?: Pick<ProjectSpec, 'branchPrefix' | 'baseBranch'>,
): string | undefined {
  const { id, branch } = spec
  if (branch === spec.baseBranch || branch === project?.baseBranch) return `branch "${branch}" is the base branch`
  if (branch.startsWith('-') || branch.includes('..') || /[\s~^:?*[\\]/.test(branch)) return `branch "${branch}" is not a branch name`
  if (branch.endsWith(`/${id}`) || (project !== undefined && branch === `${project.branchPrefix}${id}`)) return undefined
  return `branch "${branch}" is not the branch of ${id} (a prefix, then ${id})`
}

// ---------------------------------------------------------------- tasks/<id>/log.jsonl

/**
 * Decisions only, one JSON object per line. `run` is the run the event is about:
 * - `prompt`: the owner is about to write run n's prompt: the launch intent. From here the run
 *   exists (an interrupted launch of it relaunches it).
 * - `launch`: the owner claimed run n's run file (O_EXCL) and is about to spawn its cook;
 *   `cgroup` the control group the cook starts in, when the system gave one. A run file without
 *   this event was not claimed by the kitchen and is not a run.
 * - `fetched`: the owner brought the task branch back from the cook's clone into the project and
 *   reported `tip`; a later tip must contain it (a branch rewritten under the kitchen is refused).
 * - `stop`: chef_stop of a cooking run (signal its cook; the run ends as stopped).
 * - `hold`: chef_stop of a queued task; `run` is the run that would launch next.
 * - `notified`: the chef's session received the wake for this run.
 * - `launch_failed`: the launch of `run` produced no output; `reason` says why.
 * - `closed`: the task is closed; `discarded` when closed with `discard: true`.
 * - `verified`: the project's test command ran on the task's work (`by` chef_result's verify, or the
 *   merge queue's test on the branch brought onto its base): `command` (cut to
 *   MAX_VERIFIED_COMMAND_CHARS), `passed`, the `tip` it ran on, `exitCode` when the process exited.
 */
export type LogEvent =
  | { type: 'prompt'; at: Millis; run: RunNo }
  | { type: 'launch'; at: Millis; run: RunNo; cgroup?: string }
  | { type: 'fetched'; at: Millis; tip: string }
  | { type: 'stop'; at: Millis; run: RunNo }
  | { type: 'hold'; at: Millis; run: RunNo }
  | { type: 'notified'; at: Millis; run: RunNo }
  | { type: 'launch_failed'; at: Millis; run: RunNo; reason: string }
  | { type: 'closed'; at: Millis; discarded: boolean }
  | { type: 'verified'; at: Millis; by: 'result' | 'merge'; passed: boolean; command: string; tip?: string; exitCode?: number }

/** A `verified` event's command is cut to this many characters (a project names its own commands). */
export const MAX_VERIFIED_COMMAND_CHARS = 500

const at = int()
const run = int(1) as Parser<RunNo>
export const logEvent: Parser<LogEvent> = tagged<LogEvent>('type', {
  prompt: obj({ type: oneOf(['prompt']), at, run }),
  launch: obj({ type: oneOf(['launch']), at, run }, { cgroup: nonEmpty }),
  fetched: obj({ type: oneOf(['fetched']), at, tip: pattern(/^[0-9a-f]{40,64}$/, 'a commit id') }),
  stop: obj({ type: oneOf(['stop']), at, run }),
  hold: obj({ type: oneOf(['hold']), at, run }),
  notified: obj({ type: oneOf(['notified']), at, run }),
  launch_failed: obj({ type: oneOf(['launch_failed']), at, run, reason: str }),
  closed: obj({ type: oneOf(['closed']), at, discarded: bool }),
  verified: obj(
    { type: oneOf(['verified']), at, by: oneOf(['result', 'merge']), passed: bool, command: pattern(/^[^]{0,500}$/, 'a command of at most 500 characters') },
    { tip: pattern(/^[0-9a-f]{40,64}$/, 'a commit id'), exitCode: int(0) },
  ),
})

// ---------------------------------------------------------------- lease/<g>.json

/** The lease: who owns the kitchen (gets the wakes, may launch). Stale when the pid is dead or restarted. */
export interface Lease {
  pid: number
  /** The process start time as the platform reports it (Linux: /proc/<pid>/stat field 22). */
  pidStart: string
  sessionId: string
  since: Millis
}
export const lease: Parser<Lease> = obj({ pid: int(1), pidStart: nonEmpty, sessionId: nonEmpty, since: at })

/** The same lease holder: pid, its start time and the session. */
export function sameHolder(a: Lease | undefined, b: Lease): boolean {
  return a !== undefined && a.pid === b.pid && a.pidStart === b.pidStart && a.sessionId === b.sessionId
}

// ---------------------------------------------------------------- tasks/<id>/inbox

/** Inbox file names: `<at, 13 digits>-<tag>.msg`, so that name order is time order. */
export const INBOX_NAME = /^(\d{13})-([A-Za-z0-9_-]{1,64})\.msg$/

export function inboxName(atMs: Millis, tag: string): string {
  return `${String(atMs).padStart(13, '0')}-${tag}.msg`
}

/** A message waiting in the inbox; the text is read only when a launch writes it into a prompt. */
export interface PendingMessage {
  name: string
  at: Millis
}

// ---------------------------------------------------------------- tasks/<id>/runs/<n>.jsonl

export const REPORT_STATUSES = ['done', 'needs_decision', 'blocked', 'failed'] as const
export type ReportStatus = (typeof REPORT_STATUSES)[number]
export interface Report {
  status: ReportStatus
  summary: string
}
export const report: Parser<Report> = obj({ status: oneOf(REPORT_STATUSES), summary: str })

export const STOP_REASONS = ['stop', 'length', 'tool_use', 'error', 'aborted'] as const

/**
 * The run file: what a cook did, one JSON object per LF-terminated line, written by the cook runner on
 * its stdout (fd 1 is the claimed run file). The fake cook of the tests writes exactly this. Every line
 * has `type` and `at` (ms since the epoch, the cook's clock). Lines a reader does not know are skipped
 * and counted, never fatal. Modeled on the agent events the kitchen needs:
 *
 * - `run_start` (first line): `v` 1; `sessionId` the agent session the run created or resumed;
 *   `resumed` true when the session already had events; `model` the `{provider, model}` selected.
 * - `prompted` (a user `message_end`): a user message reached the session. `source` `prompt` for the
 *   run's prompt file, `steer` for an inbox message taken mid-run; `text` the message. The first one
 *   means the brief has been delivered.
 * - `assistant` (an assistant `message_end`): `model` that answered; `stopReason` one of `stop`,
 *   `length`, `tool_use`, `error`, `aborted`; `text` the message's text (may be empty); `error` the
 *   provider error text when `stopReason` is `error`, for example `402: Payment Required`, after the
 *   harness's own retries.
 * - `tool_start` (`tool_execution_start`): `callId`, `tool` name, `activity` a one-line summary of the
 *   key argument (`npm test`, `src/limit.go`).
 * - `tool_end` (`tool_execution_end`): `callId`, `tool`, `isError`; `tail` an optional short tail of the
 *   output for viewers; `report` the parsed `{status, summary}` of a `chef_report` call (its
 *   structured content). A `chef_report` ends the run with no further model call.
 * - `settled` (`agent_settled`, last line): the agent loop is idle and the run is over; `reason`
 *   free text from the harness (`completed`, `error`, `aborted`).
 * - `runner_error`: the runner itself failed (bad arguments, session resume); `message` says how.
 *   A run without `settled` is a crash whatever it wrote; this line gives the reason.
 */
export type RunLine =
  | { type: 'run_start'; at: Millis; v: 1; sessionId: string; resumed: boolean; model: ModelRef }
  | { type: 'prompted'; at: Millis; source: 'prompt' | 'steer'; text: string }
  | { type: 'assistant'; at: Millis; model: ModelRef; stopReason: (typeof STOP_REASONS)[number]; text: string; error?: string }
  | { type: 'tool_start'; at: Millis; callId: string; tool: string; activity: string }
  | { type: 'tool_end'; at: Millis; callId: string; tool: string; isError: boolean; tail?: string; report?: Report }
  | { type: 'settled'; at: Millis; reason?: string }
  | { type: 'runner_error'; at: Millis; message: string }

export const runLine: Parser<RunLine> = tagged<RunLine>('type', {
  run_start: obj({ type: oneOf(['run_start']), at, v: oneOf([1]), sessionId: nonEmpty, resumed: bool, model: modelRef }),
  prompted: obj({ type: oneOf(['prompted']), at, source: oneOf(['prompt', 'steer']), text: str }),
  assistant: obj({ type: oneOf(['assistant']), at, model: modelRef, stopReason: oneOf(STOP_REASONS), text: str }, { error: str }),
  tool_start: obj({ type: oneOf(['tool_start']), at, callId: str, tool: nonEmpty, activity: str }),
  tool_end: obj({ type: oneOf(['tool_end']), at, callId: str, tool: nonEmpty, isError: bool }, { tail: str, report }),
  settled: obj({ type: oneOf(['settled']), at }, { reason: str }),
  runner_error: obj({ type: oneOf(['runner_error']), at, message: str }),
}) as Parser<RunLine>

/** The tool a cook calls to conclude its run. */
export const REPORT_TOOL = 'chef_report'

/** Parses one run-file line (text without the LF); undefined for a line that is not valid. */
export function parseRunLine(text: string): RunLine | undefined {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  const r = check(runLine, value)
  return r.ok ? r.value : undefined
}

export function parseLogLine(text: string): LogEvent | undefined {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  if (!isRecord(value)) return undefined
  const r = check(logEvent, value)
  return r.ok ? r.value : undefined
}

// ---------------------------------------------------------------- derived state (never stored)

/** What a cooking cook is doing: one line, and since when. */
export interface Activity {
  text: string
  since: Millis
}

export type TaskState =
  | { kind: 'queued'; why: 'new' | 'message' | 'interrupted-launch' | 'fallback' }
  | { kind: 'cooking'; run: RunNo; since: Millis; activity: Activity }
  | { kind: 'idle'; run: RunNo | undefined; since: Millis; outcome: Outcome }
  | { kind: 'closed'; at: Millis; discarded: boolean }

export type FailureCause = 'provider' | 'crash' | 'launch' | 'report'

export type Outcome =
  | { kind: 'done'; summary: string; reported: boolean }
  | { kind: 'needs_decision'; question: string }
  | { kind: 'blocked'; reason: string }
  | { kind: 'failed'; reason: string; cause: FailureCause }
  | { kind: 'stopped' }

// ---------------------------------------------------------------- what a tick reads (the store's snapshot)

/** What one run did, folded from its run-file lines (the fold in `store/snapshot.ts`). */
export interface RunFold {
  /** Valid lines folded. */
  readonly lines: number
  /** Lines skipped: not JSON, or not a run-file line. Counted, never fatal. */
  readonly bad: number
  readonly startedAt?: Millis
  readonly sessionId?: string
  /** The model of the run: the last assistant message's, else the one `run_start` selected. */
  readonly model?: ModelRef
  /** A user message reached the session: the brief has been delivered. */
  readonly prompted: boolean
  readonly activity?: Activity
  /** The last non-empty assistant text: the summary of a run that settled without a report. */
  readonly lastText: string
  /** The provider error of the last assistant message, when it ended in `error`. */
  readonly providerError?: string
  readonly report?: Report
  readonly settledAt?: Millis
  readonly runnerError?: string
  /** `at` of the last valid line: the run's last message. */
  readonly lastAt?: Millis
  /** Lines longer than the reader keeps, cut (counted in `bad` too). */
  readonly cut?: number
  /** Why the run file can't be read (not a regular file, an I/O error); the run then ends as a crash. */
  readonly readError?: string
  /** Tool calls that ended, the report excluded. */
  readonly toolCalls?: number
  /** Of those, the ones that ended in an error: a command that failed, timed out or was killed. */
  readonly failedCalls?: number
  /** The last tool calls that ended (the report excluded), oldest first, at most `MAX_KEPT_CALLS`. */
  readonly calls?: readonly ToolCallSeen[]
  /** Tool calls started and not ended yet (a few): their text, for the call's entry when it ends. */
  readonly open?: readonly { readonly id: string; readonly text: string }[]
}

/** One tool call of a run as the kitchen read it: `bash: npm test`, and how it failed when it did. */
export interface ToolCallSeen {
  readonly text: string
  /** The last line of its output when it ended in an error (`[timed out after 60000ms]`), else absent. */
  readonly failed?: string
}

/** The tool calls a run's fold keeps: enough to see what a cook ran last, never its whole history. */
export const MAX_KEPT_CALLS = 20

/** One run of a task as the snapshot sees it. */
export interface RunRecord {
  readonly n: RunNo
  /** `runs/<n>.prompt.md` exists. */
  readonly hasPrompt: boolean
  /** `runs/<n>.jsonl` exists: the run was claimed. */
  readonly claimed: boolean
  /** Bytes in the run file. */
  readonly size: number
  /** The run file's mtime: for an empty claim, when it was claimed. */
  readonly mtimeMs: Millis
  /** Bytes in `runs/<n>.err`. */
  readonly errSize: number
  /** The end of the err file (up to 2 KiB), read only when it grew. */
  readonly errTail: string
  readonly fold: RunFold
  /**
   * A run file at this number that the kitchen's log does not claim (format 2): not a run. It holds
   * the slot while it is fresh and empty (another owner's claim in flight), else the next launch of
   * this run moves it aside.
   */
  readonly stray?: { size: number; mtimeMs: Millis }
  /** The kitchen has not read the whole run file yet (a large one is read over several ticks). */
  readonly partial?: boolean
}

/** A task as read from disk, before anything is derived. */
export interface TaskRecord {
  readonly id: TaskId
  readonly spec: TaskSpec
  readonly log: readonly LogEvent[]
  /** Runs with a prompt or a run file, ascending. */
  readonly runs: readonly RunRecord[]
  /** Messages waiting in the inbox, oldest first. */
  readonly inbox: readonly PendingMessage[]
  /** Only known for closed tasks: the worktree is still on disk. */
  readonly worktreeExists: boolean
  /** Log and run lines skipped because they did not parse. */
  readonly badLines: number
}

export interface BrokenTask {
  readonly id: string
  readonly reason: string
}

export interface KitchenSnapshot {
  readonly at: Millis
  readonly config: KitchenConfig
  /** Lines for the person: config problems and skipped project files. Stable text while they last. */
  readonly errors: readonly string[]
  readonly projects: readonly ProjectSpec[]
  /** Every task whose task.json parses, closed ones included, in id order. */
  readonly tasks: readonly TaskRecord[]
  readonly broken: readonly BrokenTask[]
  readonly badLines: number
}

// ---------------------------------------------------------------- processes: cooks and the lease holder

/** A cook process the owner knows: the process whose fd 1 is the run file of `run` of `task`. */
export interface LiveCook {
  task: TaskId
  run: RunNo
  pid: number
  /** The process start time when recorded: the pid-reuse guard. */
  start?: string
}
/** The live cooks by task id. */
export type LiveMap = ReadonlyMap<string, LiveCook>

/** Who a process is: the pid and its start time, as the lease records them. */
export interface Identity {
  pid: number
  pidStart: string
}

/** Is the process that holds a lease still that process. Injected in tests to simulate a dead owner. */
export type HolderAlive = (holder: Identity) => Promise<boolean>

// ---------------------------------------------------------------- derived views (never stored)

/** A run that failed with a provider error: the model and the error. */
export interface TriedModel {
  run: RunNo
  model: string
  error: string
}

/** A wake line owed to the chef: a task's run reached a final outcome and was not notified yet. */
/** Where a session stands in the lease right now: the owner, or read-only (who holds it, or why it can't). */
export type Standing =
  | { kind: 'owner' }
  | { kind: 'read-only'; holder?: Lease; reason?: string }

/** What a send did: steered the cooking cook, relaunched the task, queued it, or waits for an exit. */
export type SendResult =
  | { kind: 'steered'; run: RunNo }
  | { kind: 'after-stop'; run: RunNo }
  | { kind: 'launched'; run: RunNo }
  | { kind: 'queued' }
  | { kind: 'after-exit' }
  | { kind: 'failed'; reason: string }

/** What a stop did: a cooking run stopping, a queued task held, a lingering cook signalled, or nothing cooking. */
export type StopResult =
  | { kind: 'stopping'; run: RunNo }
  | { kind: 'held'; run: RunNo }
  | { kind: 'signalled'; run: RunNo }
  /** Nothing cooks; `ended` leftover processes of its runs (daemons) were ended. */
  | { kind: 'not-cooking'; ended?: number }

export interface Notice {
  task: TaskId
  title: string
  run: RunNo
  outcome: Exclude<Outcome, { kind: 'stopped' }>
  /** The model of the run. */
  model?: string
  /** Provider failures since the last notice, oldest first (the fallbacks, or every model tried). */
  tried: TriedModel[]
  /** The run's tool calls as the kitchen read them (absent: it ran none): what the wake says beside the cook's claim. */
  ran?: { toolCalls: number; failedCalls: number; calls: readonly ToolCallSeen[] }
  /** What the kitchen saw when it composed the wake (commits, the test command), beside the cook's claim. */
  seen?: WakeFacts
}

/** The kitchen's own facts about a finished run, gathered when its wake is composed (never on a tick). */
export interface WakeFacts {
  /** The task branch in the clone: `none` when it has no commit of its own, `some` when it has. */
  commits?: 'none' | 'some'
  branch: string
  /** The project's test command line, when the host knows one. */
  test?: string
}

export interface TaskView {
  id: TaskId
  spec: TaskSpec
  state: TaskState
  /** `provider/id` of the current or last run, or of the next run while queued. */
  model?: string
  /** The run a launch would use: the next one, or the same one after an interrupted launch. */
  nextRun: RunNo
  /** The candidate of `nextRun`; undefined: the harness default model. */
  candidate?: Profile
  /** Messages waiting in the inbox. */
  pending: number
  /** Provider failures since the last notice, oldest first: what a fallback or a notice names. */
  tried: TriedModel[]
  live?: LiveCook
  notice?: Notice
}

/** Where a dispatched task stands right after its dispatch. */
export type Dispatched =
  | { task: TaskId; branch: string; state: 'cooking'; run: RunNo }
  | { task: TaskId; branch: string; state: 'queued' }
  | { task: TaskId; branch: string; state: 'failed'; reason: string }
  | { task: TaskId; branch: string; state: 'idle' }

// ---------------------------------------------------------------- errors

export type KitchenErrorCode =
  | 'KITCHEN_BAD_INPUT' // a tool argument or dispatch input is invalid; the message names the fix
  | 'KITCHEN_UNKNOWN_PROJECT'
  | 'KITCHEN_UNKNOWN_TASK'
  | 'KITCHEN_UNKNOWN_RULE' // the message lists the rule names
  | 'KITCHEN_RULE_WITH_MODEL' // a dispatch names both a model rule and an explicit model
  | 'KITCHEN_NO_MODEL' // every candidate model was dropped; the message gives each reason
  | 'KITCHEN_PROJECT_EXISTS'
  | 'KITCHEN_BAD_BRANCH'
  | 'KITCHEN_TASK_CLOSED'
  | 'KITCHEN_CLOSE_REFUSED'
  | 'KITCHEN_BROKEN_TASK' // task.json does not parse
  | 'KITCHEN_NOT_RUN_FILE'
  | 'KITCHEN_CLAIM_TAKEN' // another launch claimed the run file first
  | 'KITCHEN_LAUNCH_FAILED'
  | 'KITCHEN_LEASE_LOST'
  | 'KITCHEN_READ_ONLY'
  | 'KITCHEN_DISPATCH_FAILED' // a dispatch created nothing, or only the tasks the message names
  | 'KITCHEN_IO'

/** An error with a stable code: route on `code`, never parse `message`. The message names the fix. */
export class KitchenError extends Error {
  override name = 'KitchenError'
  constructor(readonly code: KitchenErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
  }
}

/** The seed's name for the same error; one class, so `instanceof` works with either. */
export const ChefError = KitchenError
export type ChefError = KitchenError

export type { Checked, Out }
