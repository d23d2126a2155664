/**
 * `dsh-command-scout/skills`, the entry the harness loads. Like the other entries, it makes this
 * package share the harness's `@deepseek-ai/*` first, then loads the plugin module.
 */
import { harnessBundle } from '../rows-loader.js'

const plugin: typeof import('../skills.js') = await ((await harnessBundle())?.skills() ?? import('../skills.js'))
export const { name, inject, Config, apply } = plugin
export default plugin.default
