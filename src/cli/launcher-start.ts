/**
 * What bin/command-scout asks before it knows whether it needs more (bundled alone as
 * dist/src/launcher-start.cjs, about 2 KB): whether stdout is a terminal, and where the cache
 * folders are. A first scan needs nothing else of the launcher's helpers (src/cli/launcher.ts,
 * 14 KB, whose compile was a tenth of such a scan's fixed cost); a replay, a code cache of the
 * user's own and the writes load those.
 */
export { cacheFolderPath } from '../base/cache-dir.js'
export { isTerminal } from './terminal.js'
