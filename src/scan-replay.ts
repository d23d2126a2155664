/** What bin/command-scout loads before the CLI (bundled alone as dist/src/scan-replay.cjs): the replay of a remembered scan. */
export { replay } from './scan-record.js'
export { isTerminal } from './terminal.js'
