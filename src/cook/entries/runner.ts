/** The cook overlay's runner row entry: the plugin from the harness bundle, or its compiled module (see src/dsh/entries/adapter.ts). */
import { harnessBundle } from '../../dsh/rows-loader.js'

const runner: typeof import('../runner.js') = await ((await harnessBundle())?.cookRunner() ?? import('../runner.js'))
export const name = runner.name
export const inject = runner.inject
export const apply = runner.apply
