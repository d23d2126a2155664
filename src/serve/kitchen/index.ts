/**
 * The kitchen board's front (`command-scout serve --kitchen`): a read-only view of a kitchen
 * directory as pages, JSON and an event stream, handed to the server as its kitchen routes. It
 * imports the kitchen core (its store, derive and cook liveness) and nothing imports it but the CLI.
 */
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'

export { kitchenRoutes, KitchenRoutes } from './routes.js'
export { KitchenBoard, type BoardOptions } from './board.js'

/**
 * The kitchen the chef uses when its row names no `dir`: `$DSH_HOME/kitchen`, else `~/.dsh/kitchen`
 * (src/chef/schema.ts `kitchenDir` of an empty dir; that module needs the harness's schema library).
 */
export function defaultKitchenDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.DSH_HOME ? join(resolve(env.DSH_HOME), 'kitchen') : join(homedir(), '.dsh', 'kitchen')
}
