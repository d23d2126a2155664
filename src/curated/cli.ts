/** `command-scout recipes ...`: the curated recipe library from the CLI. */
import type { CliIo } from '../cli.js'

export async function recipesCommand(_argv: string[], io: CliIo): Promise<number> {
  io.stderr('command-scout: recipes: not available yet\n')
  return 1
}
