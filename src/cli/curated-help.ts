/** The help texts of `command-scout recipes` and its subcommands. */
import { CATEGORIES, PLATFORMS, RISKS } from '../curated/schema.js'

/** `items` joined by commas after "one of " at column `indent`, wrapped within 80 columns under the first item. */
function wrapList(items: readonly string[], indent: number): string {
  const lines: string[] = []
  let line = ''
  for (const item of items.map((x, i) => (i < items.length - 1 ? `${x},` : x))) {
    if (line && indent + 7 + line.length + 1 + item.length > 80) lines.push(line), (line = '')
    line = line ? `${line} ${item}` : item
  }
  if (line) lines.push(line)
  return lines.join(`\n${' '.repeat(indent + 7)}`)
}

export const HELP: Record<string, string> = {
  recipes: `command-scout recipes: curated how-to recipes (list, show, render, validate)

Usage:
  command-scout recipes list [WORDS...] [--category C] [--tag T]... [--risk R]
                             [--format table|json]
  command-scout recipes show ID [--platform P] [--format text|json]
  command-scout recipes render ID [--platform P] [--param NAME=VALUE]...
                                  [--format text|json]
  command-scout recipes validate [PATHS...] [--format text|json]
  command-scout recipes skills --out DIR [--root REPO]   (agent skills)

The shipped library is loaded unless --no-shipped; --dir DIR (repeatable) adds a
library of your own (<DIR>/<category>/<slug>.yaml). Ids must be unique: on a
clash the shipped recipe wins.

Common options:
      --dir DIR          an extra library directory (repeatable)
      --no-shipped       leave the shipped library out (only --dir libraries)
  -h, --help             help for a subcommand (recipes render --help)

Exit codes: 0 success, 1 failure (validation errors, a render refused),
2 usage error.
`,
  list: `command-scout recipes list: search the library

Usage: command-scout recipes list [WORDS...] [options]

Words match words of a recipe's id, title, tags, description or pitfalls, or
their start (branc finds branch), and a word of five letters or more also
matches with one typo; common words (how, to, the, ...) are ignored. Recipes
matching every word are listed best first (full-text ranking that weighs the
title, id and tags far above the description); when none matches every word,
those matching the most are listed.

Options:
      --category C       one of ${wrapList(CATEGORIES, 25)}
      --tag T            a tag the recipe must have (repeatable; all must match)
      --risk R           one of ${RISKS.join(', ')}
                         (repeatable: any of them)
  -f, --format FMT       table (default) or json
      --dir DIR          an extra library directory (repeatable)

Examples:
  command-scout recipes list undo commit
  command-scout recipes list --category docker --risk destructive --format json
`,
  show: `command-scout recipes show: a recipe for people (risk, steps, checks, undo)

Usage: command-scout recipes show ID [options]

Options:
  -p, --platform P       ${PLATFORMS.join(', ')} (default: this machine's)
  -f, --format FMT       text (default) or json (the recipe as written)
      --dir DIR          an extra library directory (repeatable)

Example:
  command-scout recipes show git.undo_last_commit --platform macos
`,
  render: `command-scout recipes render: a recipe's commands, parameters filled in, quoted

Usage: command-scout recipes render ID [options]

Options:
  -p, --platform P       ${PLATFORMS.join(', ')} (default: this machine's)
      --param NAME=VALUE a parameter value (repeatable); defaults fill the rest
  -f, --format FMT       text (default) or json (the Specification's render
                         response)
      --dir DIR          an extra library directory (repeatable)

Examples:
  command-scout recipes render git.undo_last_commit --format json
  command-scout recipes render network.find_process_on_port --param port=3000
`,
  validate: `command-scout recipes validate: check recipes against the Specification

Usage: command-scout recipes validate [PATHS...] [options]

PATHS are library directories (holding <category>/<slug>.yaml) or single recipe
files; the default is the shipped library. The shipped library is loaded too, so
related ids and id clashes are checked against it, but only problems in PATHS
are reported.

Options:
  -f, --format FMT       text (default; just-style errors on stderr) or json
      --dir DIR          an extra library directory (repeatable)

Exit codes: 0 no errors (warnings allowed), 1 errors found, 2 usage error.
`,
}
