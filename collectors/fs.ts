/** Small synchronous file helpers shared by the collectors. */
import { readFileSync, statSync } from 'node:fs'
import { relative, sep } from 'node:path'

/** Reads a text file, dropping a UTF-8 byte-order mark; undefined when it is missing or not a file. */
export function readText(path: string): string | undefined {
  try {
    const text = readFileSync(path, 'utf8')
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  } catch {
    return undefined
  }
}

export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

export function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

/** POSIX path of `abs` relative to `root`, `.` for the root itself. */
export function relPosix(root: string, abs: string): string {
  const rel = relative(root, abs).split(sep).join('/')
  return rel === '' ? '.' : rel
}

/** 1-based line number of a character offset. */
export function lineOf(text: string, offset: number): number {
  let line = 1
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++
  return line
}
