/** The people-facing text of `command-scout recipes`: the list table, a recipe, a rendered recipe. */
import { needsConfirmation } from './confirm.js'
import { stepsFor, supportedPlatforms, type RenderedRecipe } from './render.js'
import type { CuratedRecipe, Platform } from './schema.js'

/**
 * The risk line people read first: `risk: DESTRUCTIVE, can't be undone — asks for confirmation`.
 * Whether the change can be undone comes from the recipe's own undo, so the two never disagree.
 */
export function riskLine(risk: string, confirm: boolean, undoPossible: boolean): string {
  const label = { read_only: 'read-only (inspects, changes nothing)', low: 'low (a small, routine change)', medium: 'medium (changes state)', destructive: 'DESTRUCTIVE' }[risk] ?? risk
  const undo = risk === 'read_only' ? '' : undoPossible ? '; undo below' : "; can't be undone"
  return `risk: ${label}${undo}${confirm ? ' — asks for confirmation' : ''}`
}

/** The heading of the undo part, in the same terms as the risk line. */
export function undoHeading(risk: string, possible: boolean): string {
  return possible ? 'Undo:' : risk === 'read_only' ? 'Undo: nothing to undo (the recipe changes nothing)' : 'Undo: not possible'
}

/** `just --list` style: a heading, then id, risk and title in aligned columns. */
export function listTable(recipes: readonly CuratedRecipe[]): string {
  const idWidth = Math.max(...recipes.map((r) => r.id.length))
  const riskWidth = Math.max(...recipes.map((r) => r.risk.length))
  return 'Available recipes:\n' + recipes.map((r) => `    ${r.id.padEnd(idWidth)}  ${r.risk.padEnd(riskWidth)}  ${r.title}\n`).join('')
}

/** A recipe as written, for one platform: risk, description, parameters, steps, verification, undo, pitfalls. */
export function showText(r: CuratedRecipe, platform: Platform): string {
  const out: string[] = []
  out.push(`${r.title}  (${r.id} v${r.version})`, riskLine(r.risk, needsConfirmation(r), r.undo.possible), '', r.description.trim(), '')
  if (r.parameters.length) {
    out.push('Parameters:')
    for (const p of r.parameters) {
      const type = p.type === 'enum' ? `one of ${p.values?.join(', ')}` : p.pattern_description ? `${p.type}, ${p.pattern_description}` : p.type
      out.push(`    ${p.name}  (${type}${p.default !== undefined ? `; default ${JSON.stringify(p.default)}` : '; required'})  ${p.description}`)
    }
    out.push('')
  }
  const steps = stepsFor(r, platform)
  if (!steps) {
    // Verification and undo are commands for the supported platforms: none of them is shown here.
    out.push(`Steps: none for ${platform}; this recipe supports ${supportedPlatforms(r).join(', ')} (show it with --platform ${supportedPlatforms(r)[0]}).`)
  } else {
    const alias = r.platforms[platform]?.same_as
    out.push(`Steps (${platform}${alias ? `, same as ${alias}` : ''}):`)
    steps.forEach((s, i) => out.push(`  ${i + 1}. ${s.purpose}${s.risk && s.risk !== r.risk ? `  [${s.risk}]` : ''}`, `       $ ${s.run}`))
    out.push('', 'Verify:')
    for (const v of r.verification) out.push(`    $ ${v.run}`, `      expect: ${v.expect}`)
    out.push('', undoHeading(r.risk, r.undo.possible))
    for (const s of r.undo.steps ?? []) out.push(`    ${s.purpose}`, `      $ ${s.run}`)
    if (r.undo.note) out.push(`    note: ${r.undo.note}`)
  }
  // Pitfalls are about the steps' commands, so a platform without steps has none.
  if (steps && r.pitfalls.length) out.push('', 'Pitfalls:', ...r.pitfalls.map((p) => `  - ${p}`))
  if (r.related.length) out.push('', `Related: ${r.related.join(', ')}`)
  return out.join('\n') + '\n'
}

/** A rendered recipe as a commented script a person can read and copy. */
export function renderText(rendered: RenderedRecipe, title: string, platform: Platform): string {
  const out = [`${title}  (${rendered.id} v${rendered.version}, ${platform})`, riskLine(rendered.risk, needsConfirmation(rendered), rendered.undo.possible), '']
  rendered.commands.forEach((c, i) => out.push(`# ${i + 1}. ${c.purpose}${c.risk !== rendered.risk ? `  [${c.risk}]` : ''}`, c.command))
  out.push('', '# Verify:')
  for (const v of rendered.verification) out.push(`${v.command}    # expect: ${v.expect}`)
  out.push('', `# ${undoHeading(rendered.risk, rendered.undo.possible)}`)
  out.push(...rendered.undo.commands)
  if (rendered.undo.note) out.push(`# ${rendered.undo.note}`)
  return out.join('\n') + '\n'
}
