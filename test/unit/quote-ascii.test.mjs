// quotePosix decides an ASCII word with an ASCII-only pattern and builds the Unicode one only for a
// word with another character: both must give exactly what the one Unicode rule gives, checked on
// generated words of the characters that matter (the bare set, the ones that force quotes, letters
// and digits of other scripts, marks, spaces, quotes, controls).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { quotePosix } from '../../dist/src/base/quote.js'
import { rng } from '../support/random.mjs'

const UNICODE_BARE = /^[\p{L}\p{N}_./:@%+,-][\p{L}\p{N}_./:@%+,=-]*$/u
const byTheRule = (value) => (UNICODE_BARE.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`)
const PIECES = ['a', 'Z', '0', '9', '_', '.', '/', ':', '@', '%', '+', ',', '-', '=', '~', ' ', "'", '"', '$', '\\', '`', '*', '\n', '\t',
  '\x7f', '\x80', 'é', '构', '建', '٣', 'Ⅻ', '\u0301', '\u202e', '\u2018', '\ud83d\ude00', '\ud800', 'ß', 'Ω']

test('quotePosix gives what the one Unicode rule gives, ASCII words and others', () => {
  const random = rng(29)
  for (let i = 0; i < 20_000; i++) {
    let word = ''
    const length = Math.floor(random() * 6)
    for (let k = 0; k < length; k++) word += PIECES[Math.floor(random() * PIECES.length)]
    assert.equal(quotePosix(word), byTheRule(word), JSON.stringify(word))
  }
  for (const word of ['', 'build', 'test:unit', '构建', 'a b', "it's", '=x', '-rf', 'x=1', 'é', '\u0301a']) assert.equal(quotePosix(word), byTheRule(word))
})
