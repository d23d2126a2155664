/**
 * `dsh-command-scout/chef`, the kitchen row's entry: the provider from the harness bundle, or its
 * compiled module (see src/dsh/entries/adapter.ts for why it is imported, not a static import).
 */
import { harnessBundle } from '../../dsh/rows-loader.js'

const provider: typeof import('../provider.js') = await ((await harnessBundle())?.kitchen() ?? import('../provider.js'))
export const name = provider.name
export const KitchenProvider = provider.KitchenProvider
export default provider.default
