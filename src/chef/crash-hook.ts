/**
 * A test hook, off by default: end-to-end chaos tests crash a real chef at an exact step of the
 * kitchen core (its named `FaultPoint`s inside dispatch, send, close, launch and the wake's
 * `notified` write). Only when `COMMAND_SCOUT_KITCHEN_CRASH_FILE` names a file does the kitchen read
 * it, at each fault point; when the file says `<point>` or `<point> <skip>`, the (skip + 1)-th time
 * the core reaches that point the process is SIGKILLed — its whole process group when it leads one,
 * as a crash of the chef's terminal would take it. Nothing of a real run reads the variable's file
 * otherwise: unset, the hook is not installed.
 */
import { readFileSync } from 'node:fs'
import type { FaultPoint } from '../kitchen/index.js'

export const CRASH_FILE_ENV = 'COMMAND_SCOUT_KITCHEN_CRASH_FILE'

/** The core's `fault` dependency for this process, or undefined when the hook is off. */
export function crashHook(env: NodeJS.ProcessEnv = process.env): ((point: FaultPoint) => void) | undefined {
  const file = env[CRASH_FILE_ENV]
  if (!file) return undefined
  const hits = new Map<string, number>()
  return (point) => {
    let spec: string
    try {
      spec = readFileSync(file, 'utf8').trim()
    } catch {
      return // not armed yet
    }
    const [armed, skip = '0'] = spec.split(/\s+/)
    if (armed !== point) return
    const n = (hits.get(spec) ?? 0) + 1
    hits.set(spec, n)
    if (n <= Number(skip)) return
    process.kill(leadsGroup() ? -process.pid : process.pid, 'SIGKILL')
  }
}

function leadsGroup(): boolean {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8')
    const pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2])
    return pgrp === process.pid
  } catch {
    return false
  }
}
