import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { rulesDoc } from '../../scripts/rules-doc.mjs'

test('docs/recipe-rules.md lists exactly the validator rules', () => {
  const doc = readFileSync(new URL('../../docs/recipe-rules.md', import.meta.url), 'utf8')
  assert.equal(doc, rulesDoc(), 'regenerate with: node scripts/rules-doc.mjs > docs/recipe-rules.md')
})

test('README links only to files that exist', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
  for (const [, target] of readme.matchAll(/\]\(((?!https?:|#)[^)\s]+)\)/g)) {
    assert.doesNotThrow(() => readFileSync(new URL(`../../${target}`, import.meta.url)), `README links to missing ${target}`)
  }
})
