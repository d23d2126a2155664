/**
 * `command-scout dsh install|path|overlay`: the DeepSeek Harness this checkout is tested with, and
 * the `--patch` overlay that loads the bundle from here. `install` runs the very script the test
 * setup sources (test/setup/20-dsh.sh), so people and tests get the same pinned install.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { writeFileSafely } from '../base/safe-write.js'
import { join, resolve } from 'node:path'
import { CliFailure, UsageError, type CliIo } from './io.js'
import { parseOptions } from './options.js'

export const help = `command-scout dsh: get the DeepSeek Harness (dsh) and load this bundle into it

Usage:
  command-scout dsh install            install the pinned dsh with its Node 24
                                       and pnpm (from a checkout)
  command-scout dsh path               print the line that puts them on PATH
                                       (for eval)
  command-scout dsh overlay [-o FILE]  print the --patch overlay that loads this
                                       checkout's bundle

dsh needs Node >= 22.19 (the install brings its own Node 24); the CLI itself
runs on Node >= 20. \`install\` uses the pinned lock in test/setup/dsh (the same
install \`npm test\` makes) and puts it under .cache/dsh in this checkout; it is
quick when already done. The overlay lists every row of this package's
cordis.patch.yml with absolute paths to the built entry files.

Examples:
  npm ci && node bin/command-scout dsh install
  eval "$(node bin/command-scout dsh path)"
  node bin/command-scout dsh overlay -o command-scout-patch.yml
  dsh --profile headless --patch ./command-scout-patch.yml "run the tests"

Options:
  -o, --output FILE  overlay: write to FILE instead of stdout
  -h, --help         show this help
`

const OPTIONS = { output: { type: 'string', short: 'o' }, help: { type: 'boolean', short: 'h' } } as const

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOptions(argv, OPTIONS, 'dsh')
  const [action, ...extra] = positionals
  if (values.help || action === 'help') return io.stdout(help), 0
  if (action === undefined) return io.stdout(help), 2
  if (extra.length) throw new UsageError(`dsh ${action} takes no arguments (got ${extra.join(' ')})`, 'dsh')
  if (values.output !== undefined && action !== 'overlay') throw new UsageError(`--output is for dsh overlay`, 'dsh')
  const { PACKAGE_ROOT } = await import('./bundle-overlay.js')
  switch (action) {
    case 'install':
      return install(PACKAGE_ROOT, io)
    case 'path':
      return io.stdout(`${pathLine(installed(PACKAGE_ROOT))}\n`), 0
    case 'overlay':
      return overlay(values.output as string | undefined, io)
    default:
      throw new UsageError(`unknown dsh action "${action}"; expected install, path or overlay`, 'dsh')
  }
}

/** Where test/setup/20-dsh.sh puts the install, relative to the package root. */
function binDir(root: string): string {
  return join(root, '.cache/dsh/node_modules/.bin')
}

/** The install's bin directory (dsh, pnpm and `node`, Node 24), or a failure that says how to get it. */
function installed(root: string): string {
  const bin = binDir(root)
  if (!existsSync(join(bin, 'dsh'))) throw new CliFailure(`dsh is not installed in ${root}; run \`command-scout dsh install\` there first`)
  return bin
}

/** Single quotes keep a path with spaces or `$` one word in the user's shell. */
function pathLine(bin: string): string {
  return `export PATH='${bin.replace(/'/g, "'\\''")}':"$PATH"`
}

function install(root: string, io: CliIo): number {
  const script = join(root, 'test/setup/20-dsh.sh')
  if (!existsSync(script)) {
    throw new CliFailure(`the pinned dsh install needs a source checkout (${script} is not in this package); clone the repository, run \`npm ci\`, then \`node bin/command-scout dsh install\` there`)
  }
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new CliFailure(`the pinned install brings Node 24 for linux-x64 only (this is ${process.platform}-${process.arch}); install dsh 0.1.0-rc.8 on Node >= 22.19 yourself`)
  }
  io.stderr(`Installing the pinned dsh (test/setup/dsh/package-lock.json) under ${join(root, '.cache/dsh')} ...\n`)
  // The script is sourced by the test setup; here a bash sources it the same way, in the package root.
  const result = spawnSync('bash', ['-c', 'set -euo pipefail; mkdir -p .cache; source test/setup/20-dsh.sh'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] })
  if (result.error) throw new CliFailure(`can't start bash: ${result.error.message}`)
  if (result.status !== 0) throw new CliFailure(`the dsh install failed (exit ${result.status}); its output is above`)
  const bin = installed(root)
  const version = spawnSync(join(bin, 'dsh'), ['--version'], { encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` } })
  io.stdout(`dsh ${version.stdout.trim() || '(version unknown)'} is installed in ${bin}, with Node 24 (\`node\`) and pnpm (for \`dsh plugin\`).
Put it on PATH in this shell (it puts Node 24 first, which the CLI runs on too):

  ${pathLine(bin)}

or: eval "$(node ${resolve(root, 'bin/command-scout')} dsh path)". Then load the bundle from this checkout:

  node ${resolve(root, 'bin/command-scout')} dsh overlay -o command-scout-patch.yml
  dsh --profile headless --patch ./command-scout-patch.yml --dump-config   # shows the overlay's layer
`)
  return 0
}

async function overlay(output: string | undefined, io: CliIo): Promise<number> {
  const { bundleOverlay, OverlayError } = await import('./bundle-overlay.js')
  let text: string
  try {
    text = bundleOverlay()
  } catch (error) {
    if (error instanceof OverlayError) throw new CliFailure(error.message)
    throw error
  }
  if (output === undefined || output === '-') return io.stdout(text), 0
  const target = resolve(io.cwd, output)
  try {
    writeFileSafely(target, text)
  } catch (error) {
    throw new CliFailure(`can't write ${target}: ${(error as Error).message}`)
  }
  io.stdout(`Wrote ${target}; use it with: dsh --profile headless --patch ${target} "your task"\n`)
  return 0
}
