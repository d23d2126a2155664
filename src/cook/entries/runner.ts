/** The cook overlay's runner row entry: shares the harness's `@deepseek-ai/*`, then loads the plugin. */
import { harnessBundle } from '../../dsh/rows-loader.js'

const runner: typeof import('../runner.js') = await ((await harnessBundle())?.cookRunner() ?? import('../runner.js'))
export const name = runner.name
export const inject = runner.inject
export const apply = runner.apply
