// Injection checks for any library: every string parameter of every recipe gets hostile values; each
// rendered POSIX command must pass `bash -n` and, run for real in a shell where every external command
// is only logged (PATH is empty and command_not_found_handle records the call), must never run the
// injected part: the sentinel file, made only by an absolute /usr/bin/touch, must not appear.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { renderRecipe, RecipeRenderError, stepsFor } from '../../dist/src/curated/index.js'

export function payloads(sentinel) {
  const touch = `/usr/bin/touch ${sentinel}`
  return [
    `; ${touch}`,
    `$(${touch})`,
    `\`${touch}\``,
    `x\n${touch}`,
    `'; ${touch}; '`,
    `"; ${touch}; "`,
    `\\'; ${touch} #`,
    `$(${touch})'"\`${touch}\`"'`,
    `| ${touch}`,
    `&& ${touch}`,
    `> ${sentinel}`,
    `é—ü 漢字 $(${touch})`,
    `\u2019; ${touch}`,
    `*`,
    `~`,
    `--output=${sentinel}`,
    `-rf`,
  ]
}

/** Values for every parameter that render: defaults, else a harmless sample of the right type. */
function baseParams(recipe) {
  const params = {}
  for (const p of recipe.parameters) {
    if (p.default !== undefined) continue
    params[p.name] = p.type === 'number' ? 1 : p.type === 'boolean' ? false : p.type === 'enum' ? p.values[0] : 'sample'
  }
  return params
}

const HARNESS = `
PATH=/nonexistent-for-injection-test
command_not_found_handle() { printf '%s\\0' "$@" >> "$CALL_LOG"; printf '\\n' >> "$CALL_LOG"; return 0; }
enable -n kill cd exec eval source . trap ulimit umask exit logout disown suspend wait
`

/** Runs `command` with every external command only logged; true when the sentinel appeared. */
export function injected(command, work, sentinel) {
  const cwd = join(work, 'cwd')
  mkdirSync(cwd, { recursive: true })
  const log = join(work, 'calls.log')
  spawnSync('bash', ['-c', `${HARNESS}\n${command}\n`], {
    cwd, encoding: 'utf8', timeout: 10_000,
    env: { CALL_LOG: log, HOME: cwd, LANG: 'C.UTF-8' },
  })
  const hit = existsSync(sentinel)
  rmSync(sentinel, { force: true })
  rmSync(log, { force: true })
  return hit
}

const group = (commands) => commands.map((c) => `(\n${c}\n)`).join('\n')

/**
 * Runs the injection checks on one recipe; returns how many (parameter, payload, platform) renders were
 * checked and how many were refused before quoting (pattern, option-looking or control-character values).
 * All renders of one parameter go to one `bash -n` and one harness run; only a failure is narrowed
 * down command by command, to name the one at fault.
 */
export function checkRecipe(library, recipe) {
  const stats = { rendered: 0, refused: 0 }
  const strings = recipe.parameters.filter((p) => p.type === 'string')
  const platforms = ['linux', 'macos'].filter((pl) => stepsFor(recipe, pl))
  if (!strings.length || !platforms.length) return stats
  const work = mkdtempSync(join(tmpdir(), 'inject-'))
  try {
    const sentinel = join(work, 'SENTINEL')
    for (const p of strings) {
      const commands = new Map() // command -> the value that produced it
      for (const value of payloads(sentinel)) {
        for (const platform of platforms) {
          let rendered
          try {
            rendered = renderRecipe(library, recipe.id, { platform, params: { ...baseParams(recipe), [p.name]: value } })
          } catch (error) {
            assert.ok(error instanceof RecipeRenderError && error.code === 'RECIPE_INVALID_PARAM', `${recipe.id}.${p.name}=${JSON.stringify(value)}: ${error}`)
            stats.refused++
            continue
          }
          stats.rendered++
          for (const c of [...rendered.commands.map((x) => x.command), ...rendered.verification.map((v) => v.command), ...rendered.undo.commands]) commands.set(c, value)
        }
      }
      const all = [...commands.keys()]
      if (!all.length) continue
      if (spawnSync('bash', ['-n'], { input: group(all), encoding: 'utf8' }).status !== 0) {
        for (const command of all) {
          const syntax = spawnSync('bash', ['-n'], { input: command, encoding: 'utf8' })
          assert.equal(syntax.status, 0, `${recipe.id}: bash -n failed for ${JSON.stringify(command)}: ${syntax.stderr}`)
        }
      }
      if (injected(group(all), work, sentinel)) {
        for (const command of all) {
          assert.ok(!injected(command, work, sentinel), `${recipe.id}: ${p.name}=${JSON.stringify(commands.get(command))} ran the injected command via ${JSON.stringify(command)}`)
        }
        assert.fail(`${recipe.id}: ${p.name}: the injected command ran in the batch`)
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
  return stats
}
