/** The cook overlay's startup row entry: shares the harness's `@deepseek-ai/*`, then loads the plugin. */
import { harnessBundle } from '../../dsh/rows-loader.js'

const startup: typeof import('../startup.js') = await ((await harnessBundle())?.cookStartup() ?? import('../startup.js'))
export const name = startup.name
export const inject = startup.inject
export const apply = startup.apply
