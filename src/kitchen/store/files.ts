/**
 * Small file helpers of the kitchen store: atomic and exclusive writes, bounded reads of regular
 * files only, and the incremental line reader of append-only files. Synchronous on purpose (see
 * index.ts).
 *
 * Every read opens with O_NONBLOCK and O_NOFOLLOW and checks the descriptor is a regular file: a
 * FIFO planted where a file belongs would otherwise block the reader (and the chef's tick) forever,
 * and a symlink could lead it anywhere. Every read is bounded: a file larger than its cap is a
 * problem the caller names, never a buffer the size of the file.
 */
import { randomBytes } from 'node:crypto'
import {
  closeSync, constants, fstatSync, linkSync, lstatSync, openSync, readdirSync, readSync, renameSync, statSync,
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
  try {
    writeFileSync(tmp, text, { mode: 0o644, flag: 'wx' })
    renameSync(tmp, path)
  } catch (error) {
    try { unlinkSync(tmp) } catch { /* never made, or already gone */ }
    throw error
  }
}

/** Creates `path` with `text` only if it does not exist; complete or absent, never half-written. */
export function createExclusive(path: string, text: string): boolean {
  const tmp = tmpName(dirname(path), basename(path))
  try {
    writeFileSync(tmp, text, { mode: 0o644, flag: 'wx' })
    linkSync(tmp, path)
    return true
  } catch (error) {
    if (errno(error) === 'EEXIST') return false
    throw error
  } finally {
    try { unlinkSync(tmp) } catch { /* never made (a full or read-only disk), or already gone */ }
  }
}

/** What kind of thing a non-regular file is, for a message. */
function kindOf(st: Stats): string {
  if (st.isFIFO()) return 'a FIFO'
  if (st.isSocket()) return 'a socket'
  if (st.isDirectory()) return 'a directory'
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device'
  if (st.isSymbolicLink()) return 'a symlink'
  return 'not a regular file'
}

/** A file that can't be read as the kitchen reads files; the message names the file and why. */
export class FileProblem extends Error {
  override name = 'FileProblem'
  constructor(message: string, readonly code: 'ENOTREG' | 'ETOOBIG' | string) {
    super(message)
  }
}

/**
 * Opens a regular file for reading without following a symlink in its place and without blocking
 * on a FIFO. Throws FileProblem for anything else; ENOENT passes through as it is.
 */
export function openRegular(path: string): { fd: number; st: Stats } {
  let fd: number
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW)
  } catch (error) {
    if (errno(error) === 'ELOOP') throw new FileProblem(`${basename(path)} is a symlink; it is not followed`, 'ENOTREG')
    throw error
  }
  const st = fstatSync(fd)
  if (!st.isFile()) {
    closeSync(fd)
    throw new FileProblem(`${basename(path)} is ${kindOf(st)}, not a regular file; it is not read`, 'ENOTREG')
  }
  return { fd, st }
}

/** Reads `len` bytes from `pos` into a fresh buffer (fewer when the file ends first). */
function readAt(fd: number, len: number, pos: number): Buffer {
  const buf = Buffer.allocUnsafe(len)
  let got = 0
  while (got < len) {
    const n = readSync(fd, buf, got, len - got, pos + got)
    if (n === 0) break
    got += n
  }
  return buf.subarray(0, got)
}

/** A whole regular file as text, at most `max` bytes; a larger one is a FileProblem. */
export function readBounded(path: string, max: number): string {
  const { fd, st } = openRegular(path)
  try {
    if (st.size > max) throw new FileProblem(`${basename(path)} is ${st.size} bytes, more than the ${max} it may hold; it is not read`, 'ETOOBIG')
    // One byte more than allowed: a file that grew since the fstat is still caught.
    const buf = readAt(fd, Math.min(max + 1, st.size + 1), 0)
    if (buf.length > max) throw new FileProblem(`${basename(path)} grew past the ${max} bytes it may hold; it is not read`, 'ETOOBIG')
    return buf.toString('utf8')
  } finally {
    closeSync(fd)
  }
}

/** The kitchen's JSON files are small: a task.json holds a capped brief, the rest a few fields. */
export const MAX_JSON_BYTES = 1024 * 1024

export function readJson(path: string, max = MAX_JSON_BYTES): { ok: true; value: unknown } | { ok: false; reason: string; missing?: boolean } {
  let text: string
  try {
    text = readBounded(path, max)
  } catch (error) {
    if (errno(error) === 'ENOENT') return { ok: false, reason: `${basename(path)} is missing`, missing: true }
    if (error instanceof FileProblem) return { ok: false, reason: error.message }
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

/** The last `bytes` of a regular file as text, without a character cut in half; '' when it does not exist. */
export function readTail(path: string, bytes: number): string {
  let opened
  try {
    opened = openRegular(path)
  } catch (error) {
    if (errno(error) === 'ENOENT') return ''
    if (error instanceof FileProblem) return `(${error.message})`
    throw error
  }
  const { fd, st } = opened
  try {
    const len = Math.min(st.size, bytes)
    const buf = readAt(fd, len, st.size - len)
    // Drop a partial first character left by the cut.
    let start = 0
    while (start < buf.length && start < 4 && (buf[start]! & 0xc0) === 0x80) start++
    return buf.toString('utf8', start).trim()
  } finally {
    closeSync(fd)
  }
}

// ---------------------------------------------------------------- the line reader

/**
 * Incremental reader of an append-only JSONL file: keeps a byte offset and returns the complete,
 * LF-terminated lines that arrived since the last read, each read at most once.
 *
 * Written by hand because `readline` splits on CR and CRLF as well as LF, and a stream decoder would
 * have to live across ticks. A line is decoded only once its LF is on disk, so a UTF-8 character
 * split across two appends is never decoded in halves. The bytes of a line still being written are
 * kept between reads (at most `maxLine` of them), so an unterminated line is never read again from
 * its start. A line longer than `maxLine` is cut: its bytes are counted and dropped as they arrive,
 * and it comes out as a `CutLine` marker once its LF does, never as a string the size of the line.
 * Each read consumes at most `budget` bytes and says `more` when the file has others, so one huge
 * file costs a bounded time and memory per read. A file that shrank or was replaced (another inode)
 * starts over from 0 and says so.
 */

/** The longest line a reader keeps; longer ones are cut. Run-file lines are a few KiB at most. */
export const MAX_LINE_BYTES = 1024 * 1024
/** What one read consumes at most. */
export const READ_BUDGET_BYTES = 8 * 1024 * 1024
const CHUNK_BYTES = 256 * 1024
/** How much of a cut line's start is kept for the marker. */
const CUT_HEAD_BYTES = 120

/** A line longer than the reader keeps: its length in bytes and how it starts. */
export interface CutLine {
  cut: number
  head: string
}
export type ReadLine = string | CutLine

export interface ReadResult {
  lines: ReadLine[]
  /** The file was replaced or truncated since the last read: the caller drops what it folded. */
  reset: boolean
  /** The file holds bytes this read did not get to (the budget): read again. */
  more: boolean
}

const NONE: ReadResult = Object.freeze({ lines: [], reset: false, more: false }) as ReadResult

export function isCut(line: ReadLine): line is CutLine {
  return typeof line !== 'string'
}

export class LineReader {
  /** Bytes consumed: every byte before this is in a returned line, or held as the line in progress. */
  offset = 0
  ino = -1
  /** The size at the last read: an unchanged, fully read file costs one lstat. */
  private seen = -1
  private carry: Buffer[] = []
  private carryLen = 0
  /** Bytes of an over-long line dropped so far, or -1 when no line is being cut. */
  private skipping = -1
  private head = ''
  private readonly maxLine: number
  private readonly budget: number

  constructor(options: { maxLine?: number; budget?: number } = {}) {
    this.maxLine = options.maxLine ?? MAX_LINE_BYTES
    this.budget = Math.max(options.budget ?? READ_BUDGET_BYTES, 1)
  }

  /** Bytes held for the line in progress (bounded by maxLine). */
  get pending(): number {
    return this.carryLen
  }

  /**
   * Reads the new complete lines of `path`. A missing file reads as nothing; anything that is not a
   * regular file throws FileProblem (it would block, or lead elsewhere).
   */
  read(path: string): ReadResult {
    const quick = lstatSync(path, { throwIfNoEntry: false })
    if (!quick) return NONE
    if (quick.isFile() && quick.ino === this.ino && quick.size === this.seen && this.offset >= quick.size) return NONE
    let opened
    try {
      opened = openRegular(path)
    } catch (error) {
      if (errno(error) === 'ENOENT') return NONE
      throw error
    }
    const { fd, st } = opened
    try {
      this.seen = st.size
      let reset = false
      if (st.ino !== this.ino || st.size < this.offset) {
        reset = this.ino !== -1
        this.ino = st.ino
        this.offset = 0
        this.carry = []
        this.carryLen = 0
        this.skipping = -1
        this.head = ''
      }
      const end = Math.min(st.size, this.offset + this.budget)
      if (end <= this.offset) return reset ? { lines: [], reset, more: false } : NONE
      const lines: ReadLine[] = []
      const buf = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, end - this.offset))
      let pos = this.offset
      while (pos < end) {
        const n = readSync(fd, buf, 0, Math.min(buf.length, end - pos), pos)
        if (n === 0) break
        this.consume(buf.subarray(0, n), lines)
        pos += n
      }
      this.offset = pos
      return { lines, reset, more: pos < st.size }
    } finally {
      closeSync(fd)
    }
  }

  private consume(chunk: Buffer, out: ReadLine[]): void {
    let start = 0
    for (;;) {
      const lf = chunk.indexOf(0x0a, start)
      if (lf < 0) {
        this.hold(chunk.subarray(start))
        return
      }
      this.finish(chunk.subarray(start, lf), out)
      start = lf + 1
    }
  }

  /** Part of a line whose LF has not come yet. */
  private hold(part: Buffer): void {
    if (part.length === 0) return
    if (this.skipping >= 0) {
      this.skipping += part.length
      return
    }
    if (this.carryLen + part.length > this.maxLine) {
      this.head = headOf([...this.carry, part])
      this.skipping = this.carryLen + part.length
      this.carry = []
      this.carryLen = 0
      return
    }
    // The chunk buffer is reused by the next read: keep a copy.
    this.carry.push(Buffer.from(part))
    this.carryLen += part.length
  }

  /** The rest of a line, up to its LF. */
  private finish(part: Buffer, out: ReadLine[]): void {
    if (this.skipping >= 0) {
      out.push({ cut: this.skipping + part.length, head: this.head })
      this.skipping = -1
      this.head = ''
      return
    }
    const total = this.carryLen + part.length
    if (total > this.maxLine) {
      out.push({ cut: total, head: headOf([...this.carry, part]) })
    } else {
      const text = this.carryLen === 0 ? part.toString('utf8') : Buffer.concat([...this.carry, part]).toString('utf8')
      if (text.trim() !== '') out.push(text)
    }
    this.carry = []
    this.carryLen = 0
  }
}

function headOf(parts: readonly Buffer[]): string {
  const bytes: Buffer[] = []
  let n = 0
  for (const p of parts) {
    if (n >= CUT_HEAD_BYTES) break
    const take = p.subarray(0, CUT_HEAD_BYTES - n)
    bytes.push(take)
    n += take.length
  }
  // A character cut at the end decodes as U+FFFD, which is fine for a marker.
  return Buffer.concat(bytes).toString('utf8')
}
