/** The people-facing text of `command-scout recipes`: the list table, a recipe, a rendered recipe. */
import { stepsFor, supportedPlatforms, type RenderedRecipe } from './render.js'
import type { CuratedRecipe, Platform } from './schema.js'

/** The risk line people read first: `risk: DESTRUCTIVE — asks for confirmation`. */
export function riskLine(risk: string, confirm: boolean): string {
  const label = { read_only: 'read-only (inspects, changes nothing)', low: 'low (reversible with a routine command)', medium: 'medium (changes state; undo documented)', destructive: 'DESTRUCTIVE' }[risk] ?? risk
  return `risk: ${label}${confirm ? ' — asks for confirmation' : ''}`
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
  out.push(`${r.title}  (${r.id} v${r.version})`, riskLine(r.risk, r.requires_confirmation || r.risk === 'destructive'), '', r.description.trim(), '')
  if (r.parameters.length) {
    out.push('Parameters:')
    for (const p of r.parameters) {
      const type = p.type === 'enum' ? `one of ${p.values?.join(', ')}` : p.pattern_description ? `${p.type}, ${p.pattern_description}` : p.type
      out.push(`    ${p.name}  (${type}${p.default !== undefined ? `; default ${JSON.stringify(p.default)}` : '; required'})  ${p.description}`)
    }
    out.push('')
  }
  const steps = stepsFor(r, platform)
  if (!steps) out.push(`Steps: none for ${platform}; this recipe supports ${supportedPlatforms(r).join(', ')}.`)
  else {
    const alias = r.platforms[platform]?.same_as
    out.push(`Steps (${platform}${alias ? `, same as ${alias}` : ''}):`)
    steps.forEach((s, i) => out.push(`  ${i + 1}. ${s.purpose}${s.risk && s.risk !== r.risk ? `  [${s.risk}]` : ''}`, `       $ ${s.run}`))
  }
  out.push('', 'Verify:')
  for (const v of r.verification) out.push(`    $ ${v.run}`, `      expect: ${v.expect}`)
  out.push('', r.undo.possible ? 'Undo:' : 'Undo: not possible')
  for (const s of r.undo.steps ?? []) out.push(`    ${s.purpose}`, `      $ ${s.run}`)
  if (r.undo.note) out.push(`    note: ${r.undo.note}`)
  if (r.pitfalls.length) out.push('', 'Pitfalls:', ...r.pitfalls.map((p) => `  - ${p}`))
  if (r.related.length) out.push('', `Related: ${r.related.join(', ')}`)
  return out.join('\n') + '\n'
}

/** A rendered recipe as a commented script a person can read and copy. */
export function renderText(rendered: RenderedRecipe, title: string, platform: Platform): string {
  const out = [`${title}  (${rendered.id} v${rendered.version}, ${platform})`, riskLine(rendered.risk, rendered.requires_confirmation), '']
  rendered.commands.forEach((c, i) => out.push(`# ${i + 1}. ${c.purpose}${c.risk !== rendered.risk ? `  [${c.risk}]` : ''}`, c.command))
  out.push('', '# Verify:')
  for (const v of rendered.verification) out.push(`${v.command}    # expect: ${v.expect}`)
  out.push('', rendered.undo.possible ? '# Undo:' : '# Undo: not possible')
  out.push(...rendered.undo.commands)
  if (rendered.undo.note) out.push(`# ${rendered.undo.note}`)
  return out.join('\n') + '\n'
}
