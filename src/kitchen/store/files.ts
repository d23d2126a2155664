/**
 * Small file helpers of the kitchen store: atomic and exclusive writes, tolerant reads, and the
 * incremental line reader of append-only files. Synchronous on purpose (see index.ts).
 */
import { randomBytes } from 'node:crypto'
import {
  closeSync, fstatSync, linkSync, openSync, readdirSync, readFileSync, readSync, renameSync, statSync,
  unlinkSync, writeFileSync, type Stats,
} from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { INBOX_NAME, type PendingMessage } from '../domain.js'

export function stat(path: string): Stats | undefined {
  return statSync(path, { throwIfNoEntry: false })
}

export function errno(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code
}

let tmpSeq = 0
/** A name part no other writer uses: this process, a counter, and random bytes. */
export function uniqueTag(): string {
  return `${process.pid.toString(36)}${(++tmpSeq).toString(36)}${randomBytes(3).toString('hex')}`
}

export function tmpName(dir: string, base: string): string {
  return join(dir, `.${base}.${uniqueTag()}.tmp`)
}

/** Writes `text` to `path` through a temp file in the same directory and a rename. */
export function writeAtomic(path: string, text: string): void {
  const tmp = tmpName(dirname(path), basename(path))
  writeFileSync(tmp, text, { mode: 0o644, flag: 'wx' })
  try {
    renameSync(tmp, path)
  } catch (error) {
    try { unlinkSync(tmp) } catch { /* already gone */ }
    throw error
  }
}

/** Creates `path` with `text` only if it does not exist; complete or absent, never half-written. */
export function createExclusive(path: string, text: string): boolean {
  const tmp = tmpName(dirname(path), basename(path))
  writeFileSync(tmp, text, { mode: 0o644, flag: 'wx' })
  try {
    linkSync(tmp, path)
    return true
  } catch (error) {
    if (errno(error) === 'EEXIST') return false
    throw error
  } finally {
    unlinkSync(tmp)
  }
}

export function readJson(path: string): { ok: true; value: unknown } | { ok: false; reason: string; missing?: boolean } {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if (errno(error) === 'ENOENT') return { ok: false, reason: `${basename(path)} is missing`, missing: true }
    return { ok: false, reason: `${basename(path)} cannot be read: ${(error as Error).message}` }
  }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch (error) {
    return { ok: false, reason: `${basename(path)} is not valid JSON: ${(error as Error).message}` }
  }
}

/** The messages waiting in an inbox directory, oldest first (the name carries the time). */
export function listInbox(dir: string): PendingMessage[] {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch (error) {
    if (errno(error) === 'ENOENT') return []
    throw error
  }
  const out: PendingMessage[] = []
  for (const name of names) {
    const m = INBOX_NAME.exec(name)
    if (m) out.push({ name, at: Number(m[1]) })
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

/** The last `bytes` of a file as text, without a character cut in half; '' when it does not exist. */
export function readTail(path: string, bytes: number): string {
  let fd: number
  try {
    fd = openSync(path, 'r')
  } catch (error) {
    if (errno(error) === 'ENOENT') return ''
    throw error
  }
  try {
    const size = fstatSync(fd).size
    const len = Math.min(size, bytes)
    const buf = Buffer.alloc(len)
    readSync(fd, buf, 0, len, size - len)
    // Drop a partial first character left by the cut.
    let start = 0
    while (start < len && start < 4 && (buf[start]! & 0xc0) === 0x80) start++
    return buf.toString('utf8', start).trim()
  } finally {
    closeSync(fd)
  }
}

// ---------------------------------------------------------------- the line reader

/**
 * Incremental reader of an append-only JSONL file: keeps a byte offset and returns only the complete,
 * LF-terminated lines that arrived since the last read.
 *
 * Written by hand because `readline` splits on CR and CRLF as well as LF, and a stream decoder would
 * have to live across ticks. Here a line is decoded only once its LF is on disk, so a UTF-8 character
 * split across two appends is never decoded in halves: the bytes after the last LF are read again next
 * time. A file that shrank or was replaced (another inode) starts over from 0 and says so.
 */

export interface ReadResult {
  lines: string[]
  /** The file was replaced or truncated since the last read: the caller drops what it folded. */
  reset: boolean
}

const NONE: ReadResult = Object.freeze({ lines: [], reset: false }) as ReadResult

export class LineReader {
  offset = 0
  ino = -1
  /** The size at the last read: an unchanged file costs one stat. */
  private seen = -1

  /** Reads the new complete lines of `path`. A missing file reads as nothing. */
  read(path: string): ReadResult {
    const st = statSync(path, { throwIfNoEntry: false })
    if (!st || (st.ino === this.ino && st.size === this.seen)) return NONE
    let fd: number
    try {
      fd = openSync(path, 'r')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return NONE
      throw error
    }
    try {
      const st = fstatSync(fd)
      this.seen = st.size
      let reset = false
      if (st.ino !== this.ino || st.size < this.offset) {
        reset = this.ino !== -1
        this.ino = st.ino
        this.offset = 0
      }
      const len = st.size - this.offset
      if (len <= 0) return reset ? { lines: [], reset } : NONE
      const buf = Buffer.allocUnsafe(len)
      let got = 0
      while (got < len) {
        const n = readSync(fd, buf, got, len - got, this.offset + got)
        if (n === 0) break
        got += n
      }
      const last = buf.lastIndexOf(0x0a, got - 1)
      if (last < 0) return { lines: [], reset }
      this.offset += last + 1
      const lines = buf.toString('utf8', 0, last).split('\n').filter((l) => l.trim() !== '')
      return { lines, reset }
    } finally {
      closeSync(fd)
    }
  }
}
