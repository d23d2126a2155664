/**
 * The sealed file format of a V8 code cache (the CLI's, src/cli/launcher.ts, and the harness
 * bundle's and the package main's, base/bundle-script.ts): `CSCC2 <algorithm> <checksum of the
 * rest>\n`, then V8's bytes. V8 trusts a code cache's bytes: a damaged one is a fatal error inside
 * its deserializer, on every run until the file goes; so the checksum is checked (`openCodeCache`)
 * before V8 sees any of them.
 *
 * The checksum finds damage (a disk's, a copy cut short), not a person's changes: the file lives in
 * the user's own folder (cache-dir.ts), and whoever can write there can write a matching checksum
 * of any kind. CRC-32 (node:zlib, Node 20.15 and later) finds such damage as surely as sha256 does,
 * and node:zlib costs less than half of what node:crypto does to load (which was a third of the
 * package main's import). Where zlib has no crc32, sha256.
 */
import { createRequire } from 'node:module'

const MAGIC = 'CSCC2 '
/** The longest header: the magic, `sha256 `, 64 hex digits and the newline. */
const MAX_HEADER_BYTES = MAGIC.length + 7 + 64 + 1

/** A built-in module, loaded on first use only (a replayed scan needs neither). */
function builtin<T>(name: string): T {
  // A builtin resolves from anywhere: the base path only has to be absolute.
  return (process.getBuiltinModule?.(name) ?? createRequire(process.execPath)(name)) as T
}

/** `bytes`' checksum by `algorithm` in hex; undefined when this Node can't make it. */
function checksum(algorithm: string, bytes: Uint8Array): string | undefined {
  if (algorithm === 'crc32') {
    const crc32 = builtin<typeof import('node:zlib')>('node:zlib').crc32
    return typeof crc32 === 'function' ? crc32(bytes).toString(16).padStart(8, '0') : undefined
  }
  if (algorithm === 'sha256') return builtin<typeof import('node:crypto')>('node:crypto').createHash('sha256').update(bytes).digest('hex')
  return undefined
}

/** A code cache file's parts for writing: the header with the checksum, then V8's bytes. */
export function sealCodeCache(data: Uint8Array): [string, Uint8Array] {
  const crc = checksum('crc32', data)
  return [crc === undefined ? `${MAGIC}sha256 ${checksum('sha256', data)!}\n` : `${MAGIC}crc32 ${crc}\n`, data]
}

/** V8's bytes of a sealed code cache file whose checksum holds, or undefined (not sealed, or damaged). */
export function openCodeCache(file: Buffer): Buffer | undefined {
  if (file.length <= MAX_HEADER_BYTES || file.toString('latin1', 0, MAGIC.length) !== MAGIC) return undefined
  const end = file.indexOf(10, MAGIC.length)
  if (end < 0 || end >= MAX_HEADER_BYTES) return undefined
  const header = /^([a-z0-9]+) ([0-9a-f]+)$/.exec(file.toString('latin1', MAGIC.length, end))
  if (!header) return undefined
  const data = file.subarray(end + 1)
  return checksum(header[1]!, data) === header[2] ? data : undefined
}
