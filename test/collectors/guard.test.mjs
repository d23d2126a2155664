// The guard every collector runs under, new collectors included: they call the fs.ts helpers and
// get the regular-file, size, budget and inside-the-root guarantees without any code of their own.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
// The same copies of the modules as the helpers imported beside it (the package main gives its bundle's).
import { discover } from '../../dist/src/book/discover.js'
import { readText, resolveInsideRoot } from '../../dist/src/collectors/shared/fs.js'
import { globTooComplex, boundedGlob } from '../../dist/src/collectors/shared/globs.js'
import { createRecipe } from '../../dist/src/book/recipe.js'

function temp(t) {
  const dir = mkdtempSync(join(tmpdir(), 'cs-guard-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** A collector written against the helper API only, as a new one would be. */
const newCollector = (collect) => ({ source: 'gradle', manifestNames: ['build.gradle'], collect: ({ root }) => collect(root) })

test('a new collector that reads a FIFO through readText gets a diagnostic, not a hang', (t) => {
  const root = temp(t)
  execFileSync('mkfifo', [join(root, 'build.gradle')])
  const r = discover(root, {}, { collectors: [newCollector((dir) => ({ recipes: [], diagnostics: [], files: [], text: readText(join(dir, 'build.gradle')) }))] })
  assert.deepEqual(r.diagnostics.map((d) => [d.source, d.file, d.message]), [['gradle', 'build.gradle', 'build.gradle is a FIFO (named pipe), not a regular file (reading it could block or never end); it is not read']])
})

test('a collector that runs past its budget keeps what it found, and the diagnostic names it', (t) => {
  const root = temp(t)
  writeFileSync(join(root, 'build.gradle'), 'task x\n')
  const collector = newCollector((dir) => {
    const recipes = []
    // Reads until the helpers answer "nothing more" (they do once the budget is spent).
    for (let i = 0; readText(join(dir, 'build.gradle')) !== undefined; i++) {
      if (i < 5) recipes.push(createRecipe({ source: 'gradle', runner: 'gradle', name: `t${i}`, command: `gradle t${i}`, file: 'build.gradle' }))
    }
    return { recipes, diagnostics: [], files: ['build.gradle'] }
  })
  const r = discover(root, {}, { collectors: [collector], budgetMs: 50 })
  assert.equal(r.book.entries().length, 5)
  assert.match(r.diagnostics.map((d) => d.message).join('\n'), /the gradle collector ran past the scan's time budget of 50 ms; the 5 commands it found until then are listed/)
})

test('a big workspace over a tiny budget: partial recipes, one diagnostic naming the collector', (t) => {
  const root = temp(t)
  writeFileSync(join(root, 'package.json'), JSON.stringify({ workspaces: ['packages/*'], scripts: { root: 'true' } }))
  for (let i = 0; i < 2000; i++) {
    mkdirSync(join(root, 'packages', `p${i}`), { recursive: true })
    writeFileSync(join(root, 'packages', `p${i}`, 'package.json'), JSON.stringify({ name: `p${i}`, scripts: { b: 'true' } }))
  }
  const r = discover(root, {}, { budgetMs: 1 })
  assert.ok(r.book.entries().length < 2001)
  assert.equal(r.diagnostics.filter((d) => /the scripts collector ran past the scan's time budget of 1 ms/.test(d.message)).length, 1)
})

test('resolveInsideRoot: by real path, inside the root, one answer for two paths to one directory', (t) => {
  const parent = temp(t)
  const root = join(parent, 'root')
  mkdirSync(join(root, 'packages', 'a'), { recursive: true })
  mkdirSync(join(parent, 'outside'))
  symlinkSync('packages', join(root, 'pkgs'))
  symlinkSync('.', join(root, 'self'))
  symlinkSync(join(parent, 'outside'), join(root, 'out'))
  symlinkSync('loop2', join(root, 'loop1'))
  symlinkSync('loop1', join(root, 'loop2'))
  assert.deepEqual(resolveInsideRoot(root, 'pkgs/a'), { ok: true, real: join(root, 'packages', 'a'), rel: 'packages/a' })
  assert.equal(resolveInsideRoot(root, 'self/self/packages/a').rel, 'packages/a')
  assert.equal(resolveInsideRoot(root, 'out').why, 'outside')
  assert.equal(resolveInsideRoot(root, 'loop1').why, 'unreadable')
  assert.match(resolveInsideRoot(root, 'loop1').message, /symbolic link loop/)
  assert.equal(resolveInsideRoot(root, 'missing').why, 'missing')
  assert.equal(resolveInsideRoot(root, '..').why, 'outside')
})

test('globTooComplex names the limit; ordinary patterns pass', () => {
  for (const ok of ['packages/*', 'apps/**', '{a,b}/*', 'libs/*-*', '!**/test/**', 'x/{1..9}', '@scope/*', '+(a|b)']) assert.equal(globTooComplex(ok), undefined, ok)
  assert.match(globTooComplex('{1..1000000000}'), /stands for more than 1000 names/)
  assert.match(globTooComplex('{a,b}'.repeat(12)), /braces stand for more than 1000 patterns/)
  assert.match(globTooComplex('*a*a*a'), /more than 2 "\*"/)
  assert.match(globTooComplex('{'.repeat(10)), /nest more than 4 deep/)
  assert.match(globTooComplex('x'.repeat(600)), /longer than 512/)
})

test('boundedGlob lists each real directory once and never leaves the root', (t) => {
  const parent = temp(t)
  const root = join(parent, 'root')
  mkdirSync(join(root, 'p', 'a'), { recursive: true })
  writeFileSync(join(root, 'p', 'a', 'package.json'), '{}')
  mkdirSync(join(parent, 'outside', 'x'), { recursive: true })
  writeFileSync(join(parent, 'outside', 'x', 'package.json'), '{}')
  for (const d of ['', 'p', 'p/a']) {
    symlinkSync('.', join(root, d, 'l1'))
    symlinkSync('.', join(root, d, 'l2'))
  }
  symlinkSync(join(parent, 'outside'), join(root, 'out'))
  const { files } = boundedGlob(['**/package.json'], { cwd: root, root, insideRoot: true })
  assert.ok(files.length >= 1 && files.length <= 4, JSON.stringify(files))
  assert.ok(!files.some((f) => f.startsWith('out/')), JSON.stringify(files))
})
