/**
 * A cook's whole process tree, so that stop and close end everything a run started: the cook, its
 * tools, and daemons that left its process group (`setsid`, double forks adopted by init).
 *
 * Where the system lets the kitchen make a control group (Linux: the cgroup v2 hierarchy, else the
 * v1 `pids` one, under the cgroup this process is in), each run gets its own: the cook is started by
 * a one-line shell that moves itself into the group before it execs the cook, so every process the
 * run ever starts is born inside it, and only a write to cgroupfs, which no sandboxed tool can make,
 * takes one out. Ending the run then ends the group (`cgroup.kill`, else SIGKILL to each member
 * until none is left).
 *
 * Always, and alone where there is no cgroup: the cook's process group, its descendants in the
 * process table, and every process whose environment carries the run's marker
 * (`KITCHEN_COOK=<kitchen>/<task>/<run>`, set on the cook and inherited by whatever it starts; the
 * harness's shell passes it on). At close, processes without a terminal whose working directory is
 * inside the task's clone count too (a daemon that cleared its environment still runs somewhere).
 * What none of these reach: a process that cleared its environment, changed its directory out of
 * the clone and left the group, on a system without cgroups; and on systems without /proc (macOS),
 * everything but the process group and its descendants.
 *
 * A recorded cgroup path comes back from the task's log: it is used only when it names one of this
 * kitchen's run groups under a mounted cgroup hierarchy, so a rewritten log can't aim the kill
 * anywhere else.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmdirSync, writeFileSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, sep } from 'node:path'
import { cgroupHierarchies, readPids, underCgroupMount } from '../../base/cgroups.js'

const LINUX = process.platform === 'linux'

/** The environment variable that marks every process of a run. */
export const COOK_MARKER_ENV = 'KITCHEN_COOK'

/** A short stable name for one kitchen (its real root): cgroup names and run markers carry it. */
export function kitchenKey(realRoot: string): string {
  return createHash('sha256').update(realRoot).digest('hex').slice(0, 12)
}

/** What to end: a run (or, at close, every run of a task). */
export interface TreeTarget {
  task: string
  /** The run; undefined: every run of the task. */
  run?: number
  /** The cook process (its group leader), when known. */
  leader?: number
  /** The run's cgroup from its launch event (checked before use). */
  cgroups?: readonly string[]
  /** The task's clone: at close, terminal-less processes working inside it count too. */
  clone?: string
}

interface Proc {
  pid: number
  ppid: number
  pgid: number
  tty: number
  zombie: boolean
}

interface Hierarchy {
  version: 1 | 2
  /** This kitchen's directory in it: `<this process's cgroup>/command-scout-<key>`. */
  dir: string
}

export class CookTrees {
  private hierarchy: Hierarchy | null | undefined
  private readonly marker: string

  constructor(readonly key: string, private readonly options: { cgroups?: boolean } = {}) {
    this.marker = `${COOK_MARKER_ENV}=${key}/`
  }

  /** The marker value of a run. */
  markerOf(task: string, run: number): string {
    return `${this.key}/${task}/${run}`
  }

  /** Where this kitchen's run groups go, found once; null when the system gives none. */
  private find(): Hierarchy | null {
    if (this.hierarchy !== undefined) return this.hierarchy
    this.hierarchy = null
    if (!LINUX || this.options.cgroups === false) return null
    // v2, else v1 pids: the kill below needs cgroup.kill or a group it can empty round by round.
    for (const h of cgroupHierarchies()) {
      if (h.version === 1 && h.controller !== 'pids') continue
      const dir = join(h.dir, `command-scout-${this.key}`)
      try {
        mkdirSync(dir, { recursive: true })
      } catch {
        continue
      }
      this.hierarchy = { version: h.version, dir }
      break
    }
    return this.hierarchy
  }

  /** Makes the run's cgroup; undefined when there is none to make (then the fallbacks do the work). */
  prepare(task: string, run: number): string | undefined {
    const h = this.find()
    if (!h) return undefined
    const dir = join(h.dir, `${task}.${run}`)
    try {
      // the kitchen's own directory too: another session's tidy may have removed it while empty
      mkdirSync(dir, { recursive: true })
    } catch {
      return undefined
    }
    return dir
  }

  /** The argv that starts `argv` inside `cgroup`: a shell joins the group, then execs the cook (same pid). */
  wrap(argv: readonly string[], cgroup: string): string[] {
    // The write happens in a subshell: a redirection in the shell itself would point its fd 1 (the
    // run file, the cook's identity) elsewhere for a moment. $$ is still the outer shell's pid. If
    // the write fails (no permission after all) the cook still starts; the fallbacks then apply.
    return ['/bin/sh', '-c', '(echo $$ > "$0/cgroup.procs") 2>/dev/null; exec "$@"', cgroup, ...argv]
  }

  /** Whether `path` (from a log) is one of this kitchen's run groups for `task`; nothing else is ever touched. */
  valid(path: string, task: string): boolean {
    if (!LINUX || !isAbsolute(path) || path.split(sep).includes('..')) return false
    const name = basename(path)
    if (!name.startsWith(`${task}.`) || !/^[0-9]+$/.test(name.slice(task.length + 1))) return false
    if (basename(dirname(path)) !== `command-scout-${this.key}`) return false
    const under = underCgroupMount(path)
    return under && existsSync(join(path, 'cgroup.procs'))
  }

  /** Every live process of the target's tree (never this process or its ancestors). */
  members(t: TreeTarget): Set<number> {
    const out = new Set<number>()
    const procs = LINUX ? procTable() : new Map<number, Proc>()
    for (const cg of t.cgroups ?? []) {
      if (!this.valid(cg, t.task)) continue
      for (const pid of readPids(join(cg, 'cgroup.procs'))) out.add(pid)
    }
    if (t.leader !== undefined) {
      for (const p of procs.values()) if (p.pgid === t.leader) out.add(p.pid)
      if (procs.has(t.leader)) out.add(t.leader)
    }
    // descendants of what was found so far (a child that left the group)
    if (out.size > 0) {
      let grew = true
      while (grew) {
        grew = false
        for (const p of procs.values()) if (!out.has(p.pid) && out.has(p.ppid)) (out.add(p.pid), (grew = true))
      }
    }
    const want = t.run !== undefined ? `${this.marker}${t.task}/${t.run}` : `${this.marker}${t.task}/`
    const realClone = t.clone
    for (const p of procs.values()) {
      if (out.has(p.pid)) continue
      if (hasMarker(p.pid, want, t.run !== undefined)) out.add(p.pid)
      else if (realClone && p.tty === 0 && cwdInside(p.pid, realClone)) out.add(p.pid)
    }
    // never ourselves nor who started us, and not what is already dead
    for (let pid: number | undefined = process.pid; pid && pid > 1; pid = procs.get(pid)?.ppid) out.delete(pid)
    out.delete(1)
    for (const pid of [...out]) if (procs.get(pid)?.zombie) out.delete(pid)
    return out
  }

  /** Sends `signal` to every member and to the leader's group. Returns how many processes got it. */
  signal(t: TreeTarget, signal: 'SIGTERM' | 'SIGKILL'): number {
    const pids = this.members(t)
    if (t.leader !== undefined) {
      try {
        process.kill(-t.leader, signal)
      } catch {
        // the group is gone, or was never one
      }
    }
    for (const pid of pids) {
      try {
        process.kill(pid, signal)
      } catch {
        // gone meanwhile
      }
    }
    return pids.size
  }

  /**
   * Ends the tree for good: `cgroup.kill` where the kernel has it, then SIGKILL to each member until
   * none is left (a process forked just before the kill is caught by the next round). Bounded.
   */
  async kill(t: TreeTarget): Promise<number> {
    const total = this.members(t).size
    for (const cg of t.cgroups ?? []) {
      if (!this.valid(cg, t.task) || !existsSync(join(cg, 'cgroup.kill'))) continue
      try {
        writeFileSync(join(cg, 'cgroup.kill'), '1')
      } catch {
        // not ours to kill after all: the rounds below do it
      }
    }
    for (let round = 0; round < 100; round++) {
      const n = this.signal(t, 'SIGKILL')
      if (n === 0) return total
      await new Promise((r) => setTimeout(r, 20))
    }
    return total
  }

  /** Removes the empty run groups named (a group with a live process stays). */
  remove(cgroups: readonly string[], task: string): void {
    for (const cg of cgroups) {
      if (!this.valid(cg, task)) continue
      try {
        rmdirSync(cg)
      } catch {
        // not empty yet, or gone
      }
    }
  }

  /**
   * Removes every empty run group of this kitchen, and its directory once empty: when a session
   * opens the kitchen (what a crashed one left), and when it leaves. A group with a live process stays.
   */
  tidy(): void {
    const h = this.find()
    if (!h) return
    try {
      for (const name of readdirSync(h.dir)) {
        if (!/^.+\.[0-9]+$/.test(name)) continue
        try {
          rmdirSync(join(h.dir, name))
        } catch {
          // a group with a live process (a cook still cooking) stays
        }
      }
      rmdirSync(h.dir)
    } catch {
      // groups remain, or it is gone
    }
    this.hierarchy = undefined
  }
}

/** The process table of Linux, from /proc (pid, parent, group, terminal, zombie). */
function procTable(): Map<number, Proc> {
  const out = new Map<number, Proc>()
  let names: string[]
  try {
    names = readdirSync('/proc')
  } catch {
    return out
  }
  for (const n of names) {
    if (n.charCodeAt(0) < 48 || n.charCodeAt(0) > 57) continue
    let text: string
    try {
      text = readFileSync(`/proc/${n}/stat`, 'utf8')
    } catch {
      continue
    }
    const close = text.lastIndexOf(')')
    const f = text.slice(close + 2).split(' ')
    if (f.length < 5) continue
    out.set(Number(n), { pid: Number(n), ppid: Number(f[1]), pgid: Number(f[2]), tty: Number(f[4]), zombie: f[0] === 'Z' || f[0] === 'X' })
  }
  return out
}

/** Whether the process's environment (as it was started) holds the marker: exactly, or as a prefix. */
function hasMarker(pid: number, want: string, exact: boolean): boolean {
  let env: string
  try {
    env = readFileSync(`/proc/${pid}/environ`, 'latin1')
  } catch {
    return false // gone, or another user's
  }
  for (const entry of env.split('\0')) {
    if (exact ? entry === want : entry.startsWith(want)) return true
  }
  return false
}

function cwdInside(pid: number, dir: string): boolean {
  try {
    const cwd = readlinkSync(`/proc/${pid}/cwd`)
    return cwd === dir || cwd.startsWith(dir + sep)
  } catch {
    return false
  }
}
