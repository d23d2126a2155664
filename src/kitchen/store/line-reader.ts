/**
 * Incremental reader of an append-only JSONL file: keeps a byte offset and returns only the complete,
 * LF-terminated lines that arrived since the last read.
 *
 * Written by hand because `readline` splits on CR and CRLF as well as LF, and a stream decoder would
 * have to live across ticks. Here a line is decoded only once its LF is on disk, so a UTF-8 character
 * split across two appends is never decoded in halves: the bytes after the last LF are read again next
 * time. A file that shrank or was replaced (another inode) starts over from 0 and says so.
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs'

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
