/**
 * Every process a command starts, found and stopped: the run's containment. `runCommand`
 * (execute.ts) runs each command in one, and any other part that starts commands (the kitchen's
 * cooks) can use the same five calls:
 *
 *   const run = contain()                       // prepare, before the spawn
 *   const [file, args] = run.wrap('/bin/sh', ['-c', line])
 *   const child = spawn(file, args, { env: { ...env, ...run.env }, detached: true })
 *   run.started(child.pid)                      // the leader: its process group is the run's
 *   await run.members()                         // every live process of the run
 *   await run.kill('SIGTERM')                   // a signal to all of them (SIGKILL: at once, all)
 *   run.dispose()                               // when the run is over
 *
 * (`spawnContained` does the middle three with node:child_process.)
 *
 * What finds a run's processes, all of it at once, since each catches what another misses:
 *
 * - A cgroup per run, on Linux, where this process may make one (`kind`): a cgroup v2 directory
 *   below this process's own cgroup (killed whole with cgroup.kill), else a v1 freezer or pids
 *   hierarchy (frozen while it is killed, so nothing forks in between). The command's shell joins
 *   it before it runs anything (`wrap`: a one-line prelude writes its pid into cgroup.procs, then
 *   execs the command), so every process it starts is in it, whatever it does to its session, its
 *   process group or its environment: `setsid env -i sh -c 'sleep 600 &'` included. The hierarchy
 *   is found from /proc/self/mountinfo and /proc/self/cgroup and checked with statfs to be a cgroup
 *   file system before anything is made in it; a system that doesn't let this user make one (no
 *   write access, a read-only mount, a container without its cgroup) falls back silently.
 *   COMMAND_SCOUT_CONTAIN=process turns cgroups off.
 * - The process group the leader heads (it is spawned detached) and its descendants in the
 *   process table.
 * - A marker in the environment, COMMAND_SCOUT_RUN_ID (inherited through fork, setsid and double
 *   forks, found in /proc/<pid>/environ): a daemon init adopted, a child in another session.
 *
 * When the process that started the run dies without stopping it (an MCP server its client killed
 * with SIGKILL), a watchdog stops it: a small shell started with the run, in its own session (so a
 * signal to the starter's process group or the run's own `kill 0` doesn't reach it), outside the
 * run's cgroup (so it is no member), reading a pipe whose other end only the starter holds. The
 * kernel closes that end when the starter dies, however it dies; the watchdog then sends SIGTERM
 * to the cgroup, the group and the marked processes, SIGKILL to what is left after a grace of 2 s,
 * removes the cgroup and exits. `dispose` kills the watchdog first, so a run that ended normally
 * keeps what it started on purpose (a daemon it launched). No polling anywhere: the pipe's end is
 * the signal.
 *
 * Out of reach: a process that leaves the run's cgroup (only root can move it, e.g. into a
 * systemd scope), and without a cgroup, one that drops the marker (`env -i`) after leaving the
 * process group and its parent; a process that kills the watchdog by its pid.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import pidtree from 'pidtree'
import { cgroupHierarchies, readPids, type CgroupHierarchy } from './cgroups.js'

/** Environment variable whose value marks every process of one run (inherited through fork, setsid and double forks). */
export const RUN_MARKER_VARIABLE = 'COMMAND_SCOUT_RUN_ID'
/** How long the watchdog gives a run between SIGTERM and SIGKILL once its starter is gone. */
export const WATCHDOG_GRACE_S = 2

export type ContainKind = 'cgroup2' | 'cgroup1' | 'process'

export interface Containment {
  /** What finds the run's processes besides the group and the marker: a cgroup (v2 or v1), or nothing more. */
  readonly kind: ContainKind
  /** The run's marker (the value of RUN_MARKER_VARIABLE). */
  readonly marker: string
  /** Variables to add to the command's environment. */
  readonly env: Readonly<Record<string, string>>
  /** The cgroup directory, when there is one. */
  readonly cgroup: string | undefined
  /** The argv to spawn instead of `file args...`: joins the cgroup first, then execs the command. */
  wrap(file: string, args: readonly string[]): [string, string[]]
  /** The spawned leader (spawn it detached: its process group is the run's). Call once, right after the spawn. */
  started(pid: number | undefined): void
  /** Every live process of the run (zombies left out), the watchdog not among them. */
  members(): Promise<number[]>
  /** Sends `signal` to every process of the run; SIGKILL reaches a cgroup's processes all at once. */
  kill(signal: NodeJS.Signals): Promise<void>
  /** Whether no process of the run is left. */
  empty(): Promise<boolean>
  /** Ends the containment (idempotent): the watchdog stops, the cgroup goes (what is still in it is moved out first). */
  dispose(): void
}

export interface ContainOptions {
  /** Leave cgroups out (the group and the marker only); COMMAND_SCOUT_CONTAIN=process does the same. */
  kind?: 'process'
  /** No watchdog (a starter that outlives its runs by design and stops them itself). */
  watchdog?: false
}

const PREFIX = 'command-scout-'

let sequence = 0

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Removes the empty run cgroups of starters that died (their watchdog may have died too). */
function sweepStale(dir: string): void {
  for (const name of readdirSync(dir)) {
    const m = new RegExp(`^${PREFIX}(\\d+)-\\d+$`).exec(name)
    if (!m || Number(m[1]) === process.pid || alive(Number(m[1]))) continue
    try {
      rmdirSync(join(dir, name))
    } catch {
      // still has processes: left alone
    }
  }
}

let swept = false

/** The hierarchies a run's cgroup may go in, best first; the first time, stale run cgroups are swept from them. */
function usableHierarchies(): readonly CgroupHierarchy[] {
  const found = cgroupHierarchies()
  if (!swept) {
    swept = true
    for (const h of found) {
      try {
        sweepStale(h.dir)
      } catch {
        // unreadable now: nothing to sweep
      }
    }
  }
  return found
}

/** A run's own cgroup directory, made now; undefined when none can be made. */
function makeCgroup(): { hierarchy: CgroupHierarchy; dir: string } | undefined {
  for (const h of usableHierarchies()) {
    const dir = join(h.dir, `${PREFIX}${process.pid}-${++sequence}`)
    try {
      mkdirSync(dir)
      return { hierarchy: h, dir }
    } catch {
      // this hierarchy refuses: the next
    }
  }
  return undefined
}

/** The pids in a cgroup and the cgroups below it. */
function cgroupPids(dir: string): number[] {
  const pids = readPids(join(dir, 'cgroup.procs'))
  try {
    for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory()) pids.push(...cgroupPids(join(dir, e.name)))
  } catch {
    // gone
  }
  return pids
}

/**
 * Processes whose environment carries `marker` (Linux: /proc/<pid>/environ). This finds what the
 * process table's parent links no longer show: a double-fork daemon belongs to init, a setsid
 * child to another session, yet both inherited the environment. Written by hand: no maintained
 * library finds processes by environment. Other systems return [] (pidtree covers descendants).
 */
export function markedProcesses(marker: string): number[] {
  if (process.platform !== 'linux') return []
  return scanProc(marker).marked
}

/**
 * One walk of /proc: the processes carrying the marker, and those in the process group
 * `leader` or descended from it (zombies left out: they are dead, only not yet reaped).
 */
function scanProc(marker: string, leader?: number): { marked: number[]; tree: number[] } {
  const needle = Buffer.from(`\0${RUN_MARKER_VARIABLE}=${marker}\0`)
  const first = Buffer.from(`${RUN_MARKER_VARIABLE}=${marker}\0`)
  const marked: number[] = []
  const parents = new Map<number, number>()
  const tree = new Set<number>()
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return { marked, tree: [] }
  }
  for (const name of entries) {
    const c = name.charCodeAt(0)
    if (c < 48 || c > 57) continue
    const pid = Number(name)
    if (pid === process.pid) continue
    if (leader !== undefined) {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'latin1')
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
        if (f[0] === 'Z') continue
        parents.set(pid, Number(f[1]))
        if (Number(f[2]) === leader || pid === leader) tree.add(pid)
      } catch {
        continue
      }
    }
    try {
      const env = readFileSync(`/proc/${name}/environ`)
      if (env.includes(needle) || env.subarray(0, first.length).equals(first)) marked.push(pid)
    } catch {
      // gone, or another user's process
    }
  }
  if (leader !== undefined) {
    // Descendants of the leader by parent links (a child that left the group but not the tree).
    for (const pid of parents.keys()) {
      const chain: number[] = []
      for (let p: number | undefined = pid; p !== undefined && p > 1 && chain.length < 4096; p = parents.get(p)) {
        if (p === leader || tree.has(p)) {
          for (const q of chain) tree.add(q)
          break
        }
        chain.push(p)
      }
    }
  }
  return { marked, tree: [...tree] }
}

// The watchdog (see the header). $1 the cgroup directory or '', $2 its kind (2, 1 or ''), $3 the
// marker. The first line on stdin is the leader's pid; the end of stdin is the starter's death
// (dispose kills the watchdog before it closes its end, so an end means nothing else).
const WATCHDOG = `
trap '' HUP INT TERM PIPE
cg=$1 kind=$2 marker=$3 pid=
read -r pid
while read -r _; do :; done
if printf 'a\\0' | grep -qzx a 2>/dev/null; then zgrep=1; else zgrep=; fi
marked() {
  if [ -n "$zgrep" ]; then
    grep -lzxF -- "${RUN_MARKER_VARIABLE}=$marker" /proc/[0-9]*/environ 2>/dev/null | sed 's|^/proc/||; s|/environ$||'
  else
    for e in /proc/[0-9]*/environ; do
      if tr '\\0' '\\n' < "$e" 2>/dev/null | grep -qxF -- "${RUN_MARKER_VARIABLE}=$marker"; then e=\${e#/proc/}; echo "\${e%/environ}"; fi
    done
  fi
}
members() {
  [ -n "$cg" ] && cat "$cg/cgroup.procs" 2>/dev/null
  marked
}
sweep() {
  [ -n "$pid" ] && kill -s "$1" -- "-$pid" 2>/dev/null
  if [ "$1" = KILL ] && [ "$kind" = 2 ] && [ -e "$cg/cgroup.kill" ]; then echo 1 > "$cg/cgroup.kill" 2>/dev/null; fi
  if [ "$1" = KILL ] && [ "$kind" = 1 ] && [ -e "$cg/freezer.state" ]; then echo FROZEN > "$cg/freezer.state" 2>/dev/null; fi
  for p in $(members); do [ "$p" != "$$" ] && kill -s "$1" "$p" 2>/dev/null; done
  if [ "$kind" = 1 ] && [ -e "$cg/freezer.state" ]; then echo THAWED > "$cg/freezer.state" 2>/dev/null; fi
}
sweep TERM
i=0
while [ $i -lt ${WATCHDOG_GRACE_S * 10} ] && [ -n "$(members)" ]; do sleep 0.1 2>/dev/null || sleep 1; i=$((i + 1)); done
i=0
while [ $i -lt 50 ]; do
  sweep KILL
  [ -z "$(members)" ] && break
  sleep 0.1 2>/dev/null || sleep 1
  i=$((i + 1))
done
[ -n "$cg" ] && rmdir "$cg" 2>/dev/null
exit 0
`

// The prelude the command's shell runs first: its pid into each cgroup.procs given, then the command.
const PRELUDE = 'c=$1; shift; for f do echo $$ > "$f"; done 2>/dev/null; exec /bin/sh -c "$c"'

/** Prepares a run's containment; see the header. Never throws: what can't be had is left out. */
export function contain(options: ContainOptions = {}): Containment {
  const marker = randomBytes(12).toString('hex')
  const linux = process.platform === 'linux'
  const wanted = options.kind !== 'process' && process.env.COMMAND_SCOUT_CONTAIN !== 'process'
  const group = wanted && linux ? makeCgroup() : undefined
  const cgroup = group?.dir
  const kind: ContainKind = group ? (group.hierarchy.version === 2 ? 'cgroup2' : 'cgroup1') : 'process'
  let leader: number | undefined
  let disposed = false
  let watchdog: ChildProcess | undefined
  if (options.watchdog !== false && process.platform !== 'win32') {
    try {
      // Its own session; an environment without the marker; stdin the pipe only this process holds.
      watchdog = spawn('/bin/sh', ['-c', WATCHDOG, 'command-scout-watchdog', cgroup ?? '', group ? String(group.hierarchy.version) : '', marker], {
        stdio: ['pipe', 'ignore', 'ignore'],
        detached: true,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' },
      })
      watchdog.on('error', () => {})
      watchdog.stdin?.on('error', () => {})
      watchdog.unref()
      ;(watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.()
    } catch {
      watchdog = undefined
    }
  }
  const members = async (): Promise<number[]> => {
    const found = new Set<number>(cgroup ? cgroupPids(cgroup) : [])
    if (linux) {
      const { marked, tree } = scanProc(marker, leader)
      for (const p of [...marked, ...tree]) found.add(p)
    } else if (leader !== undefined) {
      try {
        for (const p of await pidtree(leader, { root: true })) found.add(p)
      } catch {
        // the leader is gone
      }
      if (process.platform !== 'win32') {
        try {
          process.kill(-leader, 0)
          found.add(leader)
        } catch {
          // no group left
        }
      }
    }
    if (watchdog?.pid !== undefined) found.delete(watchdog.pid)
    found.delete(process.pid)
    return [...found].filter((p) => p > 0)
  }
  const write = (file: string, text: string): boolean => {
    try {
      writeFileSync(file, text)
      return true
    } catch {
      return false
    }
  }
  const signal = (pid: number, sig: NodeJS.Signals) => {
    try {
      process.kill(pid, sig)
    } catch {
      // gone
    }
  }
  const c: Containment = {
    kind,
    marker,
    cgroup,
    env: { [RUN_MARKER_VARIABLE]: marker },
    wrap(file, args) {
      if (!cgroup) return [file, [...args]]
      if (file !== '/bin/sh' || args[0] !== '-c' || args.length !== 2) {
        // Any other program: through a shell that joins the cgroup and execs it as it is.
        return ['/bin/sh', ['-c', 'c=$1; shift; echo $$ > "$c" 2>/dev/null; exec "$@"', 'sh', join(cgroup, 'cgroup.procs'), file, ...args]]
      }
      return ['/bin/sh', ['-c', PRELUDE, 'sh', args[1]!, join(cgroup, 'cgroup.procs')]]
    },
    started(pid) {
      if (pid === undefined || leader !== undefined) return
      leader = pid
      watchdog?.stdin?.write(`${pid}\n`)
    },
    members,
    async kill(sig) {
      if (process.platform !== 'win32' && leader !== undefined) signal(-leader, sig)
      if (cgroup && sig === 'SIGKILL') {
        if (kind === 'cgroup2') write(join(cgroup, 'cgroup.kill'), '1')
        else if (group?.hierarchy.controller === 'freezer') write(join(cgroup, 'freezer.state'), 'FROZEN')
      }
      for (const p of await members()) signal(p, sig)
      if (cgroup && kind === 'cgroup1' && group?.hierarchy.controller === 'freezer') write(join(cgroup, 'freezer.state'), 'THAWED')
    },
    async empty() {
      return (await members()).length === 0
    },
    dispose() {
      if (disposed) return
      disposed = true
      // The watchdog first: SIGKILL, which it can't ignore, so that it never mistakes this for the starter's death.
      if (watchdog?.pid !== undefined) signal(watchdog.pid, 'SIGKILL')
      watchdog?.stdin?.destroy()
      if (!cgroup || !group) return
      // What the run left on purpose (a daemon it started) stays running, outside the run's cgroup.
      const home = join(group.hierarchy.dir, 'cgroup.procs')
      for (let round = 0; round < 5; round++) {
        for (const p of cgroupPids(cgroup)) write(home, String(p))
        try {
          rmdirSync(cgroup)
          return
        } catch {
          // a process forked in between: once more
        }
      }
    },
  }
  return c
}

/** `spawn` in a containment: the argv wrapped, the marker in the environment, detached, the leader recorded. */
export function spawnContained(
  file: string,
  args: readonly string[],
  options: SpawnOptions & ContainOptions = {},
): { child: ChildProcess; containment: Containment } {
  const { kind, watchdog, ...spawnOptions } = options
  const containment = contain({ ...(kind ? { kind } : {}), ...(watchdog === false ? { watchdog } : {}) })
  const [f, a] = containment.wrap(file, args)
  let child: ChildProcess
  try {
    child = spawn(f, a, { ...spawnOptions, env: { ...(spawnOptions.env ?? process.env), ...containment.env }, detached: process.platform !== 'win32' })
  } catch (error) {
    containment.dispose()
    throw error
  }
  containment.started(child.pid)
  return { child, containment }
}
