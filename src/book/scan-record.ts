/**
 * A whole `command-scout scan` remembered: the bytes it wrote, with everything they were computed
 * from, so that the next identical scan of an unchanged repository writes them again without
 * loading the CLI at all. bin/command-scout calls `replay` (from dist/src/launcher.cjs, a small
 * bundle of this module) before it loads the CLI bundle; the scan command calls `writeRecord`.
 *
 * Why a replay is never stale: a scan's output is a function of its command line, its working
 * directory, COLUMNS (the table's width off a terminal), the build of command-scout, the answers
 * its collectors got from the file system and the environment (src/collectors/shared/observe.ts records each),
 * the scan root's own stat, and which runners are on PATH. The record's key holds the first four;
 * `replay` asks every recorded question again and checks each runner on PATH again, and writes
 * the record only when every answer is the same. A record is written only when each collector's
 * result could itself be kept (scan-cache.ts: finished in time, nothing it read was changing), so
 * the same proof holds: a file changed since shows as another fingerprint.
 *
 * The file: one line of JSON (the key, the questions and their answers, the runners, the lengths),
 * then stdout's bytes, then stderr's. It lives beside the per-root results in the user's private
 * cache directory (cache-dir.ts: a folder no one else can change, kept within a count and a size)
 * and is written whole by rename; anything in it that does not parse is a miss.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { answerNow, settledBefore, SETTLE_MS, type Observations } from '../collectors/shared/observe.js'
import { ownFile, privateDir, SCANS_BOUND, writePrivate } from '../base/cache-dir.js'
import { writeOut } from '../base/process.js'
import { fileKey } from '../base/file-key.js'
import { onPath } from './runners.js'

const FORMAT = 1
/** A record larger than this is not kept (the scan writes it as usual). */
const MAX_RECORD_BYTES = 64 * 1024 * 1024

/** What a scan's result was computed from (discover() gives it when everything could be kept). */
export interface ScanInputs extends Observations {
  /** Each runner checked on PATH, and whether it was found. */
  readonly runners: Map<string, boolean>
  /** When the scan began: everything it read must have last changed SETTLE_MS before. */
  readonly startedAt: number
}

/** Where and under which build a scan may be remembered: the launcher sets it when the CLI runs from its bundle. */
export interface RecordPlace {
  /**
   * The user's scans directory (scan-cache.ts's defaultCacheDir), as a path: a record in it is read
   * only once the folder is found to be one no one else can change, and written by writePrivate,
   * which makes and checks it.
   */
  dir: string
  /** The build id the CLI bundle starts with. */
  build: string
}

interface Header {
  format: number
  key: string
  seen: Array<[string, string]>
  runners: Array<[string, boolean]>
  stdout: number
  stderr: number
}

/** Everything that decides a scan's output besides what the record checks again. */
function recordKey(place: RecordPlace, argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv): string {
  return JSON.stringify([FORMAT, place.build, process.version, process.arch, cwd, env.COLUMNS ?? null, argv])
}

/** The record's file: named by its key (which it also holds and compares). */
function recordFile(dir: string, key: string): string {
  return join(dir, `scan-${fileKey(key)}.rec`)
}

/** Remembers a finished scan's output, when everything it was computed from can be checked again. Never throws. */
export function writeRecord(place: RecordPlace, argv: readonly string[], cwd: string, inputs: ScanInputs, stdout: string, stderr: string): void {
  if (!settledBefore(inputs, inputs.startedAt, SETTLE_MS)) return
  const key = recordKey(place, argv, cwd, process.env)
  try {
    const header: Header = {
      format: FORMAT, key, seen: [...inputs.seen], runners: [...inputs.runners], stdout: Buffer.byteLength(stdout), stderr: Buffer.byteLength(stderr),
    }
    const head = `${JSON.stringify(header)}\n`
    if (head.length + header.stdout + header.stderr > MAX_RECORD_BYTES) return
    // Three writes of the texts as they are (no copy of a large output joined in memory), into a
    // file made exclusively in the folder, checked again now, renamed into place (cache-dir.ts).
    writePrivate(place.dir, basename(recordFile(place.dir, key)), [head, stdout, stderr], SCANS_BOUND)
  } catch {
    // a full disk or a read-only cache: the next scan runs in full
  }
}

/** The record for this command line, when it is this user's, whole, and every answer in it still holds. */
function readHolding(
  place: RecordPlace, argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv,
): { data: Buffer; header: Header; at: number } | undefined {
  const key = recordKey(place, argv, cwd, env)
  const file = recordFile(place.dir, key)
  let data: Buffer
  try {
    const st = lstatSync(file, { throwIfNoEntry: false })
    if (!ownFile(st) || st!.size > MAX_RECORD_BYTES) return undefined
    // The folder, checked only now that it has a record for this command line (a first scan has none).
    if (privateDir(place.dir, env) !== resolve(place.dir)) return undefined
    const fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0))
    try {
      const size = fstatSync(fd).size
      data = Buffer.allocUnsafe(size)
      let got = 0
      while (got < size) {
        const n = readSync(fd, data, got, size - got, got)
        if (n === 0) return undefined
        got += n
      }
    } finally {
      closeSync(fd)
    }
  } catch {
    return undefined
  }
  const at = data.indexOf(10)
  if (at < 0) return undefined
  let header: Header
  try {
    header = JSON.parse(data.toString('utf8', 0, at)) as Header
  } catch {
    return undefined
  }
  if (header?.format !== FORMAT || header.key !== key || !Array.isArray(header.seen) || !Array.isArray(header.runners)) return undefined
  if (!Number.isInteger(header.stdout) || !Number.isInteger(header.stderr) || at + 1 + header.stdout + header.stderr !== data.length) return undefined
  for (const pair of header.seen) {
    if (!Array.isArray(pair) || typeof pair[0] !== 'string' || answerNow(pair[0]) !== pair[1]) return undefined
  }
  for (const pair of header.runners) {
    if (!Array.isArray(pair) || typeof pair[0] !== 'string' || onPath(pair[0], env) !== pair[1]) return undefined
  }
  return { data, header, at }
}

/**
 * Writes the remembered output of this scan when its record still holds, and says whether it did
 * (a reader that goes away ends the process with 141, as for any scan). False: run the scan.
 */
export function replay(place: RecordPlace, argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const hit = readHolding(place, argv, cwd, env)
  if (!hit) return false
  const { data, header, at } = hit
  const outEnd = at + 1 + header.stdout
  writeOut(1, data.subarray(at + 1, outEnd))
  if (header.stderr) writeOut(2, data.subarray(outEnd))
  return true
}
