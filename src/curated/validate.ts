/**
 * validateLibrary: every rule. Loading applies the per-file and cross-file rules; this adds the shell
 * syntax check of the macos/linux commands with `bash -n`. The whole library goes to one `bash -n` run;
 * only when that fails is each command checked on its own, to point at the one that is wrong.
 */
import { spawnSync } from 'node:child_process'
import { assemble, loadFiles, type LoadedFile } from './load.js'
import { quotePosix } from '../base/quote.js'
import { allCommands } from './rules.js'
import type { ValidationIssue } from './schema.js'
import { substitute } from './template.js'

export interface ValidateOptions {
  /** Run `bash -n` on the POSIX commands (default true). */
  shellSyntax?: boolean
}

export function validateLibrary(dirs: string[], options: ValidateOptions = {}): ValidationIssue[] {
  const { loaded, issues } = loadFiles(dirs)
  if (options.shellSyntax !== false) checkShellSyntax(loaded)
  return assemble(loaded, issues).issues
}

interface Check { file: LoadedFile; path: readonly (string | number)[]; script: string; run: string }

/** A sample value stands in for every parameter: once quoted it is one word, whatever the real value. */
const SAMPLE = quotePosix('sample value')

function posixChecks(f: LoadedFile): Check[] {
  const r = f.recipe
  if (!r || (!r.platforms.linux && !r.platforms.macos)) return []
  const samples = Object.fromEntries(r.parameters.map((p) => [p.name, SAMPLE]))
  return allCommands(r)
    .filter((c) => c.platform !== 'windows')
    .map((c) => ({ file: f, path: c.path, run: c.run, script: substitute(c.run, samples) }))
}

function bashCheck(script: string): { ok: boolean; message: string } | undefined {
  const result = spawnSync('bash', ['-n'], { input: script, encoding: 'utf8', timeout: 20_000 })
  if (result.error) return undefined
  return { ok: result.status === 0, message: result.stderr.trim() }
}

export function checkShellSyntax(loaded: LoadedFile[]): void {
  const checks = loaded.flatMap(posixChecks)
  if (checks.length === 0) return
  // Each command in its own subshell group, so an unclosed construct cannot pair with a neighbour's.
  const batch = bashCheck(checks.map((c) => `(\n${c.script}\n)`).join('\n'))
  if (batch === undefined) {
    const f = checks[0]!.file
    f.issues.push({ code: 'E_SHELL_SYNTAX', severity: 'warning', file: f.file, message: 'bash was not found, so shell syntax was not checked; install bash to run this check' })
    return
  }
  if (batch.ok) return
  for (const c of checks) {
    const one = bashCheck(c.script)
    if (!one || one.ok) continue
    const pos = c.file.locate(c.path)
    const why = one.message.replace(/^bash: (line \d+: )?/gm, '').split('\n')[0]
    c.file.issues.push({ code: 'E_SHELL_SYNTAX', severity: 'error', file: c.file.file, ...pos, message: `command \`${c.run}\` is not valid shell syntax (bash -n: ${why}); fix the quoting or the command` })
  }
}
