/** `dsh-command-scout/collectors/vscode`: the vscode collector as a plugin row. */
import { vscodeCollector } from '../../collectors/vscode/collect.js'
import { collectorPlugin } from '../collector-plugin.js'

export default collectorPlugin(vscodeCollector)
