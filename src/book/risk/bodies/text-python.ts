/**
 * What the Python task-runner readers share: the root's pyproject.toml and hatch.toml parsed once
 * per judgement through the gate's bounded reader, TOML tables, and splitting a command into words
 * as Python's shlex does (the runners split `cmd` strings themselves, without a shell).
 */
import { join } from 'node:path'
import { shellQuote, smolToml } from '../../../base/lazy.js'
import { TomlLines } from '../../../collectors/shared/toml-lines.js'
import type { BodyContext } from '../types.js'
import { memoized } from './text-body.js'

export type Table = Record<string, unknown>
export const table = (v: unknown): Table | undefined => (v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date) ? (v as Table) : undefined)
export const strings = (v: unknown): string[] | undefined => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined)

export interface PythonFiles {
  readonly pyproject?: Table
  readonly hatch?: Table
  /** Where each key is written, per file. */
  readonly lines: { readonly pyproject?: TomlLines; readonly hatch?: TomlLines }
  /** Why a file present could not be parsed. */
  readonly problem?: string
}

function parse(ctx: BodyContext, file: string): { doc?: Table; lines?: TomlLines; problem?: string } {
  const text = ctx.read(join(ctx.root, file))
  if (text === undefined) return {}
  try {
    return { doc: smolToml().parse(text) as Table, lines: new TomlLines(text) }
  } catch (error) {
    return { problem: `${file} is not valid TOML (${String((error as Error)?.message ?? error).split('\n')[0]})` }
  }
}

/** The root's pyproject.toml and hatch.toml. */
export function pythonFiles(ctx: BodyContext): PythonFiles {
  return memoized(ctx.memo, `python:${ctx.root}`, () => {
    const py = parse(ctx, 'pyproject.toml')
    const hatch = parse(ctx, 'hatch.toml')
    const problem = py.problem ?? hatch.problem
    return {
      ...(py.doc ? { pyproject: py.doc } : {}),
      ...(hatch.doc ? { hatch: hatch.doc } : {}),
      lines: { ...(py.lines ? { pyproject: py.lines } : {}), ...(hatch.lines ? { hatch: hatch.lines } : {}) },
      ...(problem ? { problem } : {}),
    }
  })
}

/** A command's words as shlex splits them (quotes removed, no expansion); undefined when the quotes don't close. */
export function splitWords(text: string): string[] | undefined {
  try {
    const out: string[] = []
    for (const e of shellQuote().parse(text, (name) => `$${name}`)) {
      if (typeof e === 'string') out.push(e)
      else if ('op' in e && e.op === 'glob') out.push((e as { pattern: string }).pattern)
      else if ('op' in e) out.push(e.op)
      else if ('comment' in e) break
    }
    return out
  } catch {
    return undefined
  }
}
