import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadLibrary, renderRecipe, SHIPPED_RECIPES_DIR } from '../../dist/src/curated/index.js'
import { checkRecipe, injected, payloads } from './injection.mjs'

const fixtures = new URL('../fixtures/curated/', import.meta.url).pathname
const lib = loadLibrary([join(fixtures, 'valid')])

test('the harness catches an unquoted value (the check can fail)', () => {
  const work = mkdtempSync(join(tmpdir(), 'inject-self-'))
  try {
    const sentinel = join(work, 'SENTINEL')
    const naive = payloads(sentinel).slice(0, 3).map((v) => `printf '%s\\n' ${v} >> notes.txt`)
    assert.deepEqual(naive.map((c) => injected(c, work, sentinel)), [true, true, true])
    assert.equal(injected(`printf '%s\\n' ${"'$(/usr/bin/touch " + sentinel + ")'"}`, work, sentinel), false)
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
})

test('no string parameter of the fixture library can inject a command', () => {
  let rendered = 0
  for (const recipe of lib.recipes) rendered += checkRecipe(lib, recipe).rendered
  assert.ok(rendered > 20, `checked ${rendered} renders`)
})

test('executed for real, a hostile line is appended verbatim and nothing else runs', () => {
  const work = mkdtempSync(join(tmpdir(), 'append-'))
  try {
    const sentinel = join(work, 'SENTINEL')
    for (const value of payloads(sentinel).filter((v) => !v.startsWith('-'))) {
      const file = join(work, 'out file.txt')
      rmSync(file, { force: true })
      const r = renderRecipe(lib, 'files.append_line', { platform: 'linux', params: { line: value, file } })
      const run = spawnSync('bash', ['-c', r.commands[0].command], { cwd: work, encoding: 'utf8' })
      assert.equal(run.status, 0, run.stderr)
      assert.equal(readFileSync(file, 'utf8'), `${value}\n`)
      assert.ok(!existsSync(sentinel), `${JSON.stringify(value)} ran the injected part`)
      // dash (POSIX sh) reads the same quoting the same way.
      const sh = spawnSync('sh', ['-c', r.verification[0].command], { cwd: work, encoding: 'utf8' })
      assert.equal(sh.stdout, `${value.split('\n').pop()}\n`)
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
})

const shipped = existsSync(SHIPPED_RECIPES_DIR) ? loadLibrary() : undefined
test('no string parameter of the shipped library can inject a command', { skip: !shipped?.recipes.length && 'no shipped recipes in recipes/ yet' }, (t) => {
  const totals = { rendered: 0, refused: 0 }
  for (const recipe of shipped.recipes) {
    const s = checkRecipe(shipped, recipe)
    totals.rendered += s.rendered
    totals.refused += s.refused
  }
  t.diagnostic(`${shipped.recipes.length} recipes: ${totals.rendered} hostile renders checked, ${totals.refused} refused before quoting`)
  assert.ok(totals.rendered > 0, 'some string parameter was exercised')
})
