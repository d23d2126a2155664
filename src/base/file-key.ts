/**
 * A short, stable file name part for a longer key (a scan root, a command line): two 32-bit
 * FNV-1a hashes with different primes, 16 hex digits. The cache files named by it hold their full
 * key and compare it, so a collision is only a miss. Not node:crypto: loading it costs a scan's
 * start about 5 ms.
 */
export function fileKey(key: string): string {
  let a = 0x811c9dc5
  let b = 0x811c9dc5
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i)
    a = Math.imul(a ^ c, 0x01000193)
    b = Math.imul(b ^ c, 0x5bd1e995)
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0')
}
