/** `command-scout recipes ...`: the curated library; its subcommands and help live in src/curated/. */
import { HELP } from './curated-help.js'
import type { CliIo } from './io.js'

export const help = HELP.recipes!

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { recipesCommand } = await import('./curated.js')
  return recipesCommand(argv, io)
}
