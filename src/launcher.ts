/**
 * What bin/command-scout loads before anything else (bundled alone as dist/src/launcher.cjs, a
 * few KB): the cache directory rule, whether stdout is a terminal, and the replay of a remembered
 * scan, so that a replayed scan never loads the CLI bundle.
 */
export { cacheFolder } from './cache-dir.js'
export { replay } from './scan-record.js'
export { isTerminal } from './terminal.js'
