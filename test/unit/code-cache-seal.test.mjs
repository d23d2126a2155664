// The sealed file format of a V8 code cache (src/base/code-cache.ts): what is sealed opens to the
// same bytes, and anything damaged, cut short, of an older format or of an unknown checksum opens to
// nothing, so that V8 never deserializes it.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import zlib from 'node:zlib'
import { openCodeCache, sealCodeCache } from '../../dist/src/base/code-cache.js'

const DATA = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 31 + 7) & 0xff))
const file = ([header, data]) => Buffer.concat([Buffer.from(header, 'latin1'), data])

test('a sealed cache opens to its own bytes, with CRC-32 where node:zlib has it', () => {
  const sealed = file(sealCodeCache(DATA))
  const header = sealed.subarray(0, sealed.indexOf(10)).toString('latin1')
  const algorithm = typeof zlib.crc32 === 'function' ? 'crc32' : 'sha256'
  assert.match(header, new RegExp(`^CSCC2 ${algorithm} [0-9a-f]+$`))
  assert.deepEqual(openCodeCache(sealed), DATA)
})

test('a cache sealed with sha256 still opens (written where zlib has no crc32)', () => {
  const digest = createHash('sha256').update(DATA).digest('hex')
  assert.deepEqual(openCodeCache(file([`CSCC2 sha256 ${digest}\n`, DATA])), DATA)
  assert.equal(openCodeCache(file([`CSCC2 sha256 ${'0'.repeat(64)}\n`, DATA])), undefined)
})

test('damage anywhere in V8\'s bytes, one bit or a burst, opens to nothing', () => {
  const sealed = file(sealCodeCache(DATA))
  const start = sealed.indexOf(10) + 1
  for (const at of [start, start + 1000, sealed.length - 1]) {
    const bit = Buffer.from(sealed)
    bit[at] ^= 0x01
    assert.equal(openCodeCache(bit), undefined, `one bit at ${at}`)
  }
  const burst = Buffer.from(sealed)
  for (let i = 0; i < 8; i++) burst[start + 2000 + i] ^= 0xff
  assert.equal(openCodeCache(burst), undefined, 'eight bytes')
  assert.equal(openCodeCache(sealed.subarray(0, sealed.length - 1)), undefined, 'cut short by a byte')
  assert.equal(openCodeCache(Buffer.concat([sealed, Buffer.from([0])])), undefined, 'a byte longer')
})

test('an older format, an unknown checksum or a broken header opens to nothing', () => {
  const crc = typeof zlib.crc32 === 'function' ? zlib.crc32(DATA).toString(16).padStart(8, '0') : undefined
  const sha = createHash('sha256').update(DATA).digest('hex')
  for (const header of [
    `CSCC1 ${sha}\n`, // the format before
    `CSCC2 md5 ${createHash('md5').update(DATA).digest('hex')}\n`,
    `CSCC2 crc32\n`,
    `CSCC2 crc32 ${(crc ?? '00000000').toUpperCase()}X\n`,
    `CSCC2 sha256 ${sha}`, // no newline
    `CSCC2 sha256 ${sha}${' '.repeat(40)}\n`, // a header longer than any sealed one
    `cscc2 sha256 ${sha}\n`,
  ]) {
    assert.equal(openCodeCache(file([header, DATA])), undefined, JSON.stringify(header))
  }
  assert.equal(openCodeCache(Buffer.alloc(0)), undefined, 'an empty file')
  assert.equal(openCodeCache(Buffer.from('CSCC2 crc32 00000000\n')), undefined, 'a header and no bytes')
})
