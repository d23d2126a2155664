/**
 * Process facts the kitchen reads from the process table: liveness, `/proc/<pid>/stat` (parent,
 * group, start time, zombie), the path of fd 1, every process's fd 1, and who this process is.
 * Linux reads /proc; elsewhere `ps` and `lsof -F`.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { readFile, readlink } from 'node:fs/promises'
import { execa } from 'execa'
import type { HolderAlive, Identity } from '../domain.js'

const LINUX = process.platform === 'linux'

/** `kill(pid, 0)`: the cheap liveness check for the hot path. EPERM means alive but not ours. */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export interface ProcStat {
  ppid: number
  /** The process group (Linux): a cook is spawned detached, so it leads its own group. */
  pgid?: number
  /** Start time in clock ticks since boot (Linux), or the `ps` start text elsewhere. */
  start: string
  zombie: boolean
}

/** Fields of `/proc/<pid>/stat` after the command name, which may itself hold spaces and parens. */
export function parseProcStat(text: string): ProcStat | undefined {
  const close = text.lastIndexOf(')')
  if (close < 0) return undefined
  const f = text.slice(close + 2).split(' ')
  // f[0] is field 3 (state), f[1] field 4 (ppid), f[2] field 5 (pgrp), f[19] field 22 (starttime)
  if (f.length < 20) return undefined
  return { ppid: Number(f[1]), pgid: Number(f[2]), start: f[19]!, zombie: f[0] === 'Z' || f[0] === 'X' }
}

export async function procStat(pid: number): Promise<ProcStat | undefined> {
  if (LINUX) {
    try {
      return parseProcStat(await readFile(`/proc/${pid}/stat`, 'utf8'))
    } catch {
      return undefined
    }
  }
  const r = await execa('ps', ['-o', 'ppid=,lstart=', '-p', String(pid)], { reject: false })
  const m = /^\s*(\d+)\s+(.+?)\s*$/.exec(String(r.stdout))
  return m ? { ppid: Number(m[1]), start: m[2]!, zombie: false } : undefined
}

/** One record of `lsof -F pRn` output: the process, its parent, and the name of fd 1. */
export interface LsofRecord {
  pid: number
  ppid?: number
  /** Linux only (from /proc/<pid>/stat). */
  pgid?: number
  name?: string
}

/** Parse `lsof -F pRn` (fields one per line, each led by its tag letter; `f` lines are file sets). */
export function parseLsof(text: string): LsofRecord[] {
  const out: LsofRecord[] = []
  let cur: LsofRecord | undefined
  for (const line of text.split('\n')) {
    if (line.length === 0) continue
    const tag = line[0]
    const value = line.slice(1)
    if (tag === 'p') {
      cur = { pid: Number(value) }
      out.push(cur)
    } else if (!cur) continue
    else if (tag === 'R') cur.ppid = Number(value)
    else if (tag === 'n' && cur.name === undefined) cur.name = value
  }
  return out
}

/** The path that fd 1 of `pid` points at, or undefined (gone, not ours, not a file). */
export async function stdoutPath(pid: number): Promise<string | undefined> {
  if (LINUX) {
    try {
      return await readlink(`/proc/${pid}/fd/1`)
    } catch {
      return undefined
    }
  }
  const r = await execa('lsof', ['-w', '-a', '-p', String(pid), '-d', '1', '-F', 'pRn'], { reject: false })
  return parseLsof(String(r.stdout)).find((x) => x.pid === pid)?.name
}

/**
 * Every process with its parent and the path of its fd 1. On Linux the /proc walk is synchronous:
 * a hundred readlinks cost well under a millisecond, far less than as many promises.
 */
export async function listStdouts(): Promise<LsofRecord[]> {
  if (!LINUX) {
    const r = await execa('lsof', ['-w', '-d', '1', '-F', 'pRn'], { reject: false })
    return parseLsof(String(r.stdout))
  }
  const out: LsofRecord[] = []
  let names: string[]
  try {
    names = readdirSync('/proc')
  } catch {
    return out
  }
  for (const n of names) {
    if (n.charCodeAt(0) < 48 || n.charCodeAt(0) > 57) continue
    let name: string
    try {
      name = readlinkSync(`/proc/${n}/fd/1`)
    } catch {
      continue // gone, or not ours to read
    }
    if (!name.startsWith('/') || !name.endsWith('.jsonl')) continue
    let st: ProcStat | undefined
    try {
      st = parseProcStat(readFileSync(`/proc/${n}/stat`, 'utf8'))
    } catch {
      continue
    }
    if (st && !st.zombie) out.push({ pid: Number(n), ppid: st.ppid, ...(st.pgid !== undefined ? { pgid: st.pgid } : {}), name })
  }
  return out
}


// ---------------------------------------------------------------- who holds the lease

/** Is the process that holds a lease still that process: alive, not a zombie, same start time. */
export const holderAlive: HolderAlive = async (h) => {
  if (!pidAlive(h.pid)) return false
  const st = await procStat(h.pid)
  return st !== undefined && !st.zombie && st.start === h.pidStart
}

/** Who this process is: the pid and its start time, as the lease records them. */
export async function selfIdentity(): Promise<Identity> {
  const st = await procStat(process.pid)
  return { pid: process.pid, pidStart: st?.start ?? 'unknown' }
}
