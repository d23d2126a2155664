/**
 * The sealed file format of a V8 code cache (the CLI's, src/cli/launcher.ts, and the harness
 * bundle's, src/dsh/rows-loader.ts): `CSCC1 <sha256 of the rest>\n`, then V8's bytes. V8 trusts a
 * code cache's bytes: a damaged one is a fatal error inside its deserializer, on every run until
 * the file goes; so the hash is checked (`openCodeCache`) before V8 sees any of them.
 */
import { createRequire } from 'node:module'

const MAGIC = 'CSCC1 '
const HEADER_BYTES = MAGIC.length + 64 + 1

/** sha256 in hex; node:crypto is loaded on first use only (a replayed scan never needs it). */
function sha256(bytes: Uint8Array): string {
  // A builtin resolves from anywhere: the base path only has to be absolute.
  const crypto = (process.getBuiltinModule?.('node:crypto') ?? createRequire(process.execPath)('node:crypto')) as typeof import('node:crypto')
  return crypto.createHash('sha256').update(bytes).digest('hex')
}

/** A code cache file's parts for writing: the header with the hash, then V8's bytes. */
export function sealCodeCache(data: Uint8Array): [string, Uint8Array] {
  return [`${MAGIC}${sha256(data)}\n`, data]
}

/** V8's bytes of a sealed code cache file whose hash holds, or undefined (not sealed, or damaged). */
export function openCodeCache(file: Buffer): Buffer | undefined {
  if (file.length <= HEADER_BYTES || file.toString('latin1', 0, MAGIC.length) !== MAGIC || file[HEADER_BYTES - 1] !== 10) return undefined
  const data = file.subarray(HEADER_BYTES)
  return sha256(data) === file.toString('latin1', MAGIC.length, HEADER_BYTES - 1) ? data : undefined
}
