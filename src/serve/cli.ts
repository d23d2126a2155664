import type { CliIo } from '../cli.js'
export async function serveCommand(_argv: string[], io: CliIo): Promise<number> {
  io.stderr('not yet\n')
  return 1
}
