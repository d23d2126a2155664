/** `dsh-command-scout/rulebooks/craft`, the craft rulebook's row entry (see kitchen.ts for why). */
import { harnessBundle } from '../../dsh/rows-loader.js'

const rulebook: typeof import('../rulebooks/craft.js') = await ((await harnessBundle())?.rulebookCraft() ?? import('../rulebooks/craft.js'))
export const name = rulebook.name
export const inject = rulebook.inject
export const apply = rulebook.apply
