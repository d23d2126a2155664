/**
 * Rulebook selection (the seed's "recipes"): which named set of working rules the chef and each cook
 * get. Pure; resolved live from the normalized config at each question, never frozen at dispatch.
 */
import type { KitchenConfig, ProjectName } from '../domain.js'

export type Role = { kind: 'chef' } | { kind: 'cook'; project: ProjectName }

/**
 * The chef gets `default`; a cook gets its project's entry, else `default`. Undefined means no
 * selection: every installed rulebook adds its block. `none` means no block. The projects are a Map,
 * so a project named `constructor` finds no inherited value and gets the default.
 */
export function rulebookFor(config: Pick<KitchenConfig, 'rulebook'>, role: Role): string | undefined {
  const sel = config.rulebook
  if (role.kind === 'cook') {
    const own = sel.projects.get(role.project)
    if (own !== undefined) return own
  }
  return sel.default
}

/** Every selected rulebook name, other than `none`, in config order: default first. */
function selected(config: Pick<KitchenConfig, 'rulebook'>): string[] {
  const names = new Set<string>()
  if (config.rulebook.default !== undefined) names.add(config.rulebook.default)
  for (const name of config.rulebook.projects.values()) names.add(name)
  names.delete('none')
  return [...names]
}

/** One error line per selected rulebook that no installed package provides. */
export function missingRulebooks(config: Pick<KitchenConfig, 'rulebook'>, installed: readonly string[]): string[] {
  const have = new Set(installed)
  const list = installed.length > 0 ? [...installed].sort().join(', ') : 'none'
  return selected(config)
    .filter((name) => !have.has(name))
    .map((name) => `config selects the rulebook "${name}", but no installed package provides it. Installed rulebooks: ${list}.`)
}

/** The board line, e.g. `Rulebook: pstack. Per project: api none.`; undefined when nothing is selected. */
export function rulebookText(config: Pick<KitchenConfig, 'rulebook'>): string | undefined {
  const { default: def, projects } = config.rulebook
  if (def === undefined && projects.size === 0) return undefined
  const head = `Rulebook: ${def ?? 'no selection'}.`
  if (projects.size === 0) return head
  const per = [...projects].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([p, n]) => `${p} ${n}`).join(', ')
  return `${head} Per project: ${per}.`
}
