/** node:util parseArgs errors in the CLI's words (its own module: the curated CLI uses it without the collectors). */

/**
 * parseArgs' own texts end in advice with unbalanced quotes (`... as in '-- "--bogus"`); these say
 * the same in one clean clause. Unknown codes keep node's text.
 */
export function parseArgsMessage(error: Error & { code?: string }): string {
  // Node names an option as '--bogus', '-x' or '-r, --root <value>': the long name is the one to show.
  const option = /'(-[^'\s,]*(?:, --[^'\s]*)?)/.exec(error.message)?.[1]?.split(', ').pop()
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return option ? `unknown option ${option}` : 'unknown option'
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/does not take an argument/.test(error.message)) return `${option ?? 'this option'} takes no value`
      return `${option ?? 'an option'} needs a value`
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return 'unexpected argument'
    default:
      return error.message
  }
}
