/**
 * The destructive gate's vocabulary. A recipe's body is the command lines its runner would run
 * (read statically from the manifest, with the chains and hooks it runs); each line is parsed into
 * simple commands and judged by the rule table. What can't be read statically is "unknown".
 */
import type { Recipe } from '../recipe.js'

/** One command line a runner would hand to a shell, where it runs and where it was written. */
export interface BodyLine {
  /** The shell text, after the runner's own static expansion (make variables, just `{{x}}`, ...). */
  readonly text: string
  /** POSIX path, relative to the scan root, of the directory the line runs in. */
  readonly cwd: string
  /** POSIX path, relative to the scan root, of the file the line is written in. */
  readonly file: string
  readonly line?: number
  /** How the call reached this line, outermost first (`make all`, `make clean`): for the refusal text. */
  readonly via: readonly string[]
}

/** A part of a body that can't be read statically (`$(shell ...)`, a command held in a variable). */
export interface UnknownPart {
  /** The text as written; searched for destructive words. */
  readonly text: string
  readonly file: string
  readonly line?: number
  /** Why it can't be read (`make expands $(shell ...) at run time`). */
  readonly why: string
  readonly via: readonly string[]
  /**
   * It asks whatever its text holds: what it hides can't be searched for destructive words (an
   * include that links out of the repository, a body past the reader's bounds).
   */
  readonly always?: true
}

/** What a recipe runs. `lines` in the order they run; `unknown` what can't be read. */
export interface RecipeBody {
  readonly lines: readonly BodyLine[]
  readonly unknown: readonly UnknownPart[]
}

/** What a body reader may use: the root, a bounded file reader, and a memo shared by one judgement. */
export interface BodyContext {
  /** Absolute, real path of the scan root. */
  readonly root: string
  /**
   * Reads a regular file inside the root (absolute path), at most 1 MiB; undefined when it is
   * missing, not a regular file, too large, or outside the root (a link that leaves it).
   */
  read(abs: string): string | undefined
  /** Per-judgement memo, so that one manifest is parsed once: keyed by reader and file. */
  readonly memo: Map<string, unknown>
}

/**
 * Reads what a recipe of one source runs. `args` are the call's extra words (a make call's
 * `VAR=value` words change what the body expands to; most readers ignore them). Never throws on
 * bad input: what can't be read goes to `unknown`. Never runs anything.
 */
export type BodyReader = (recipe: Recipe, ctx: BodyContext, args: readonly string[]) => RecipeBody

/** Why a call needs a person's yes, in words a refusal can show. */
export interface Finding {
  /** The simple command or line that does it, as written (`rm -rf src`). */
  readonly command: string
  /** What it does, as a clause: `deletes src/, which git tracks`. */
  readonly reason: string
  /** The rule's kind, for hints and annotations. */
  readonly kind: 'deletes' | 'overwrites' | 'discards' | 'rewrites-history' | 'publishes' | 'deploys' | 'drops-data' | 'runs-code' | 'unknown'
  readonly file?: string
  readonly line?: number
  readonly via?: readonly string[]
}

/** A judgement: destructive with the first finding (and how many more), or not. */
export interface Verdict {
  readonly destructive: boolean
  readonly findings: readonly Finding[]
  /** One sentence for prompts and refusals (`` `rm -rf src` deletes src/, which git tracks ``); undefined when safe. */
  readonly reason?: string
  /** Not judged yet (a plan out of time): the call is judged when it is made. */
  readonly unjudged?: true
}
