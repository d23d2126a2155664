/**
 * `instanceof` for the errors the CLI tells apart (UsageError, CliFailure, ConfigError, ...), true
 * also for an error made by another copy of the same module: the CLI bundle holds one copy of
 * each, and the subcommands it loads from dist/ import another. Each such class names its kind;
 * an instance carries the kinds of its class and every parent.
 */
const KINDS = Symbol.for('command-scout.error-kinds')

type KindedClass = { readonly kind?: string }

/** The kinds of `cls` and its parents, for an instance's KINDS field. */
export function kindsOf(cls: Function): readonly string[] {
  const kinds: string[] = []
  for (let c: Function | null = cls; c && c !== Error; c = Object.getPrototypeOf(c)) {
    const k = Object.prototype.hasOwnProperty.call(c, 'kind') ? (c as KindedClass).kind : undefined
    if (k) kinds.push(k)
  }
  return kinds
}

/** Whether `value` is an error of `kind`, from whichever copy of its module. */
export function isKind(value: unknown, kind: string): boolean {
  const kinds = (value as { [KINDS]?: unknown } | null)?.[KINDS]
  return Array.isArray(kinds) && kinds.includes(kind)
}

/** Marks `error` with the kinds of the class that made it (call in the base class's constructor). */
export function markKinds(error: Error, cls: Function): void {
  Object.defineProperty(error, KINDS, { value: kindsOf(cls), enumerable: false })
}
