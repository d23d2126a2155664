/**
 * Where this process may make control groups, for whatever keeps a tree of processes together: a
 * command's run (contain.ts) and a kitchen's cooks (kitchen/cooks/tree.ts). Linux only; elsewhere,
 * or without /proc, there are none.
 *
 * The hierarchies are found from /proc/self/mountinfo and /proc/self/cgroup (this process's own
 * cgroup in each, placed under its mount point by the mount's root, as in a cgroup namespace), and
 * each is checked with statfs to be a cgroup file system, and writable by this user, before anyone
 * makes anything in it. Written by hand: no maintained Node library reads cgroup hierarchies.
 */
import { accessSync, constants, readFileSync, statfsSync } from 'node:fs'
import { join, sep } from 'node:path'

export interface CgroupHierarchy {
  readonly version: 1 | 2
  /** This process's own cgroup directory in it: groups of its own go below it. */
  readonly dir: string
  /** v1: the controller of the hierarchy (freezer or pids). */
  readonly controller?: 'freezer' | 'pids'
}

interface CgroupMount {
  readonly root: string
  readonly point: string
  readonly fstype: 'cgroup' | 'cgroup2'
  readonly options: readonly string[]
}

const CGROUP2_MAGIC = 0x63677270
const CGROUP_MAGIC = 0x27e0eb

let found: CgroupHierarchy[] | undefined

/** Mounts of the cgroup file systems, as /proc/self/mountinfo lists them; none when it can't be read. */
export function cgroupMounts(): CgroupMount[] {
  const out: CgroupMount[] = []
  const unescape = (s: string) => s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)))
  let text: string
  try {
    text = readFileSync('/proc/self/mountinfo', 'utf8')
  } catch {
    return out
  }
  for (const line of text.split('\n')) {
    const at = line.indexOf(' - ')
    if (at < 0) continue
    const left = line.slice(0, at).split(' ')
    const right = line.slice(at + 3).split(' ')
    const fstype = right[0]
    if (fstype !== 'cgroup2' && fstype !== 'cgroup') continue
    out.push({ root: unescape(left[3] ?? '/'), point: unescape(left[4] ?? ''), fstype, options: (right[2] ?? '').split(',') })
  }
  return out
}

/** Whether `path` lies below a mounted cgroup file system. */
export function underCgroupMount(path: string): boolean {
  return cgroupMounts().some((m) => m.point !== '' && path.startsWith(m.point + sep))
}

/**
 * The hierarchies this process may make groups in, best first: cgroup v2, then v1 freezer, then v1
 * pids. Found once per process (a process does not move between cgroups on its own).
 */
export function cgroupHierarchies(): readonly CgroupHierarchy[] {
  if (found) return found
  found = []
  if (process.platform !== 'linux') return found
  try {
    const own = ownCgroups()
    const candidates: CgroupHierarchy[] = []
    const mounts = cgroupMounts()
    for (const m of mounts.filter((x) => x.fstype === 'cgroup2')) {
      const dir = placed(m, own.get('v2'))
      if (dir) candidates.push({ version: 2, dir })
    }
    for (const controller of ['freezer', 'pids'] as const) {
      for (const m of mounts.filter((x) => x.fstype === 'cgroup' && x.options.includes(controller))) {
        const key = [...own.keys()].find((k) => k.split(',').includes(controller))
        const dir = placed(m, key === undefined ? undefined : own.get(key))
        if (dir) candidates.push({ version: 1, dir, controller })
      }
    }
    found = candidates.filter(usable)
  } catch {
    // no /proc, or no cgroups
  }
  return found
}

/** This process's cgroup path in each hierarchy: `v2`, or the v1 controllers' list (`cpu,cpuacct`). */
function ownCgroups(): Map<string, string> {
  const own = new Map<string, string>()
  for (const line of readFileSync('/proc/self/cgroup', 'utf8').split('\n')) {
    const m = /^(\d+):([^:]*):(.*)$/.exec(line)
    if (m) own.set(m[1] === '0' && m[2] === '' ? 'v2' : m[2]!, m[3]!)
  }
  return own
}

/** Where a cgroup path is under a mount: the mount shows the hierarchy from its root down. */
function placed(mount: CgroupMount, path: string | undefined): string | undefined {
  if (path === undefined) return undefined
  const rel = mount.root === '/' ? path : path === mount.root ? '/' : path.startsWith(`${mount.root}/`) ? path.slice(mount.root.length) : undefined
  return rel === undefined ? undefined : join(mount.point, rel)
}

/**
 * A cgroup file system indeed, and one whose processes file this user may write (moving a process
 * needs write access where the source and destination meet: this directory).
 */
function usable(h: CgroupHierarchy): boolean {
  try {
    const type = Number(statfsSync(h.dir).type)
    if (type !== (h.version === 2 ? CGROUP2_MAGIC : CGROUP_MAGIC)) return false
    accessSync(join(h.dir, 'cgroup.procs'), constants.W_OK)
    accessSync(h.dir, constants.W_OK)
    return true
  } catch {
    return false
  }
}

/** The pids a `cgroup.procs` file lists; none when it can't be read. */
export function readPids(file: string): number[] {
  try {
    return readFileSync(file, 'utf8').split('\n').filter((l) => /^[0-9]+$/.test(l)).map(Number)
  } catch {
    return []
  }
}
