/**
 * `dsh-command-scout/chef`, the kitchen row's entry: shares the harness's
 * `@deepseek-ai/*` first, then loads the provider (see src/dsh/entries/adapter.ts for why).
 */
import { harnessBundle } from '../../dsh/rows-loader.js'

const provider: typeof import('../provider.js') = await ((await harnessBundle())?.kitchen() ?? import('../provider.js'))
export const name = provider.name
export const KitchenProvider = provider.KitchenProvider
export default provider.default
