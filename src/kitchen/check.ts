/**
 * Small explicit validators for the kitchen's persisted shapes and run-file lines.
 *
 * Every value read from disk passes through one of these before a field is used. Written by hand
 * because the shapes are few and flat, the tick parses many lines, and the core takes no harness
 * dependency (the harness's schema library is a fork we keep out of the core). A parser returns the
 * value or throws `Invalid` with the path and what was expected; `check` turns that into a result.
 */

export class Invalid extends Error {
  override name = 'Invalid'
}

/** Parses `value` found at `path`, or throws `Invalid`. */
export type Parser<T> = (value: unknown, path: string) => T
export type Out<P> = P extends Parser<infer T> ? T : never

export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string }

export function check<T>(parser: Parser<T>, value: unknown, path = '$'): Checked<T> {
  try {
    return { ok: true, value: parser(value, path) }
  } catch (error) {
    if (error instanceof Invalid) return { ok: false, reason: error.message }
    throw error
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'string') return value.length > 40 ? 'a long string' : JSON.stringify(value)
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`
}

export function fail(path: string, expected: string, value: unknown): never {
  throw new Invalid(`${path} must be ${expected}, not ${describe(value)}`)
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export const str: Parser<string> = (v, p) => (typeof v === 'string' ? v : fail(p, 'a string', v))
export const nonEmpty: Parser<string> = (v, p) => (typeof v === 'string' && v.trim() !== '' ? v : fail(p, 'a non-empty string', v))
export const bool: Parser<boolean> = (v, p) => (typeof v === 'boolean' ? v : fail(p, 'true or false', v))
/** A whole number >= `min`. */
export function int(min = 0): Parser<number> {
  return (v, p) => (Number.isSafeInteger(v) && (v as number) >= min ? (v as number) : fail(p, `a whole number >= ${min}`, v))
}

export function pattern(re: RegExp, what: string): Parser<string> {
  return (v, p) => (typeof v === 'string' && re.test(v) ? v : fail(p, what, v))
}

export function oneOf<const T extends readonly (string | number | boolean)[]>(values: T): Parser<T[number]> {
  return (v, p) => ((values as readonly unknown[]).includes(v) ? (v as T[number]) : fail(p, `one of ${values.map((x) => JSON.stringify(x)).join(', ')}`, v))
}

export function arr<T>(item: Parser<T>): Parser<T[]> {
  return (v, p) => {
    if (!Array.isArray(v)) fail(p, 'an array', v)
    return v.map((x, i) => item(x, `${p}[${i}]`))
  }
}

type Shape = Record<string, Parser<unknown>>
export type ObjOut<R extends Shape, O extends Shape> = { [K in keyof R]: Out<R[K]> } & { [K in keyof O]?: Out<O[K]> }

/**
 * An object with required keys `req` and optional keys `opt` (absent or undefined). Unknown keys are
 * kept out of the result; `strict` refuses them instead (for files a person writes).
 */
export function obj<R extends Shape, O extends Shape = {}>(req: R, opt?: O, strict = false): Parser<ObjOut<R, O>> {
  const reqKeys = Object.keys(req)
  const optKeys = opt ? Object.keys(opt) : []
  return (v, p) => {
    if (!isRecord(v)) fail(p, 'an object', v)
    const out: Record<string, unknown> = {}
    for (const k of reqKeys) out[k] = req[k]!(v[k], `${p}.${k}`)
    for (const k of optKeys) if (v[k] !== undefined) out[k] = opt![k]!(v[k], `${p}.${k}`)
    if (strict) {
      for (const k of Object.keys(v)) {
        if (!(k in req) && !(opt && k in opt)) throw new Invalid(`${p} has the unknown key "${k}"; the keys are ${[...reqKeys, ...optKeys].join(', ')}`)
      }
    }
    return out as ObjOut<R, O>
  }
}

/** A tagged union keyed by `tag`: the tag value picks the parser. */
export function tagged<T>(tag: string, cases: Record<string, Parser<T>>): Parser<T> {
  const names = Object.keys(cases)
  return (v, p) => {
    if (!isRecord(v)) fail(p, 'an object', v)
    const t = v[tag]
    if (typeof t !== 'string' || !Object.hasOwn(cases, t)) fail(`${p}.${tag}`, `one of ${names.join(', ')}`, t)
    return cases[t as string]!(v, p)
  }
}
