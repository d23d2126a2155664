// The gate's call index splits a plain command line at its spaces instead of parsing it
// (src/book/risk/index.ts commandWords): for every command, plain or not, the words must be the
// ones shell-quote's parser gives, or a body's call to another recipe would be missed.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { parse } from 'shell-quote'
import { commandWords } from '../../dist/src/book/risk/index.js'
import { rng } from '../support/random.mjs'

const parserWords = (command) => parse(command).filter((w) => typeof w === 'string')

const PLAIN = 'abzAZ09_./:@=+,%-'
// Everything shell-quote reads as more than a word character, and the whitespace it splits at.
const SPECIAL = [' ', '  ', '\t', '\n', "'", '"', '\\', '$', '$HOME', '`', '|', '&', ';', '(', ')', '<', '>', '*', '?', '[', ']', '{', '}', '~', '#', '!', 'é', '\u00a0']

test('a command of plain words splits as the parser splits it; anything else goes to the parser', () => {
  const random = rng(0x5eed)
  const pick = (s) => s[Math.floor(random() * s.length)]
  let plain = 0
  for (let i = 0; i < 30_000; i++) {
    const words = Array.from({ length: 1 + Math.floor(random() * 5) }, () => Array.from({ length: 1 + Math.floor(random() * 6) }, () => pick(PLAIN)).join(''))
    let command = words.join(' ')
    // Half of them get one special character or run of whitespace somewhere.
    if (random() < 0.5) {
      const at = Math.floor(random() * (command.length + 1))
      command = command.slice(0, at) + pick(SPECIAL) + command.slice(at)
    } else plain++
    assert.deepEqual(commandWords(command), parserWords(command), JSON.stringify(command))
  }
  assert.ok(plain > 10_000, 'the plain path was taken')
  for (const command of ['', ' ', 'a  b', ' a', 'a ', 'make build', 'pnpm --filter web run test', 'FOO=1 npm run x', 'cargo +nightly build']) {
    assert.deepEqual(commandWords(command), parserWords(command), JSON.stringify(command))
  }
})
