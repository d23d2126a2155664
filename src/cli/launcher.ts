/**
 * What bin/command-scout loads before anything else (bundled alone as dist/src/launcher.cjs, a
 * few KB): the cache directory rule and its exclusive writes, whether stdout is a terminal, the
 * replay of a remembered scan (so that a replayed scan never loads the CLI bundle), and the code
 * cache's sealed file format.
 *
 * V8 trusts a code cache's bytes: a damaged one (eight bytes changed on disk) is a fatal error
 * inside its deserializer, on every run until the file goes. So every cache carries a checksum of
 * its bytes, checked before any of them is deserialized. For `scan` and `docs`, which already run
 * V8 with flags of their own, V8 keeps it (`--verify-snapshot-checksum`: stored in the cache's
 * header when it is made, checked in V8's sanity check before anything else), at no measurable
 * cost; loading node:crypto alone would add 2 MiB and milliseconds to a scan. For the other
 * subcommands a V8 flag would cost more (any changed flag makes Node's own code cache of its
 * built-in modules unusable), so the file is sealed (src/base/code-cache.ts): `CSCC2 crc32 <checksum
 * of the rest>\n` (sha256 before Node 20.15), then V8's bytes, checked (`openCodeCache`) before V8 sees them. A cache that fails either check is no
 * cache: the run compiles and writes a good one at its end.
 */
export { cacheFolder, cacheFolderPath, CODE_BOUND, writePrivate } from '../base/cache-dir.js'
export { openCodeCache, sealCodeCache } from '../base/code-cache.js'
export { replay } from '../book/scan-record.js'
export { isTerminal } from './terminal.js'

