/** The cook overlay's startup row entry: the plugin from the harness bundle, or its compiled module (see src/dsh/entries/adapter.ts). */
import { harnessBundle } from '../../dsh/rows-loader.js'

const startup: typeof import('../startup.js') = await ((await harnessBundle())?.cookStartup() ?? import('../startup.js'))
export const name = startup.name
export const inject = startup.inject
export const apply = startup.apply
