/**
 * `dsh-command-scout/skills`, the entry the harness loads. Like the other entries, it takes the
 * plugin from the harness bundle, or its compiled module (see adapter.ts).
 */
import { harnessBundle } from '../rows-loader.js'

const plugin: typeof import('../skills.js') = await ((await harnessBundle())?.skills() ?? import('../skills.js'))
export const { name, inject, Config, apply } = plugin
export default plugin.default
