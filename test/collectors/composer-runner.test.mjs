// The composer collector against the real Composer (Debian's composer and php-cli, installed by
// test/setup/40-tools.sh): on a temp copy of every fixture and of generated composer.json files,
// `composer run-script --list` must list the collector's scripts in the same order, with the same
// descriptions where scripts-descriptions gives one. A script composer lists that the collector
// leaves out must come with a diagnostic naming it; a file composer refuses must meet an error.
// Composer gets no network and a throwaway COMPOSER_HOME.
import { describe, it as test } from 'node:test'
import assert from 'node:assert/strict'
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { composerCollector } from '../../dist/src/collectors/composer/collect.js'
import { rng } from '../support/random.mjs'
import { skipWithout, toolBinary } from '../support/tool-binary.mjs'

const FIXTURES = new URL('../fixtures/composer/', import.meta.url).pathname
const skip = skipWithout('composer', 'composer (Debian composer and php-cli)')
const execFileAsync = promisify(execFile)

async function composerList(dir) {
  const env = { ...process.env, COMPOSER_HOME: join(dir, '.composer-home'), COMPOSER_NO_INTERACTION: '1', COMPOSER_DISABLE_NETWORK: '1', COMPOSER_ALLOW_SUPERUSER: '1', NO_COLOR: '1' }
  try {
    const { stdout } = await execFileAsync(toolBinary('composer'), ['run-script', '--list', '--no-ansi'], { cwd: dir, env, encoding: 'utf8', timeout: 60_000 })
    // The "scripts:" heading goes to stderr; stdout holds only the list.
    const scripts = []
    for (const line of stdout.split('\n')) {
      const m = /^ {2}(\S+)(?:\s+(.*?))?\s*$/.exec(line)
      if (m) scripts.push({ name: m[1], description: m[2] ?? '' })
    }
    return { ok: true, scripts }
  } catch (error) {
    return { ok: false, stderr: `${error.stderr ?? ''}${error.message}` }
  }
}

async function compare(source, label, write) {
  const dir = mkdtempSync(join(tmpdir(), 'scout-composer-'))
  try {
    if (source) cpSync(source, dir, { recursive: true })
    write?.(dir)
    const result = composerCollector.collect({ root: dir, options: { enabled: true } })
    const real = await composerList(dir)
    if (!real.ok) return assert.ok(result.diagnostics.some((d) => d.severity === 'error'), `${label}: composer refuses it, the collector must report an error`)
    const ours = result.recipes.map((r) => r.name)
    for (const s of real.scripts) {
      if (!ours.includes(s.name)) assert.ok(result.diagnostics.some((d) => d.message.includes(`"${s.name}"`)), `${label}: composer lists ${s.name}; the collector neither lists it nor says why`)
    }
    assert.deepEqual(ours, real.scripts.map((s) => s.name).filter((n) => ours.includes(n)), `${label}: the same scripts in the same order`)
    const doc = JSON.parse(await import('node:fs').then((fs) => fs.readFileSync(join(dir, 'composer.json'), 'utf8')))
    for (const s of real.scripts) {
      // composer shows no description for an event script (it is no command of its own); the
      // collector keeps the one the file gives, so events are left out of this comparison.
      if (s.description === '' && /^(pre|post)-/.test(s.name)) continue
      if (typeof doc['scripts-descriptions']?.[s.name] === 'string') assert.equal(result.recipes.find((r) => r.name === s.name).description, s.description, `${label}: description of ${s.name}`)
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('the composer collector against composer run-script --list', { concurrency: 4 }, () => {
  for (const name of readdirSync(FIXTURES).sort()) {
    test(`composer agrees with the collector: ${name}`, { skip }, () => compare(join(FIXTURES, name), name))
  }

  test('generated composer.json files (strings, lists, references, descriptions, events): composer and the collector agree', { skip }, async () => {
    const r = rng(Number(process.env.FUZZ_SEED ?? 20261201))
    const pick = (n) => Math.floor(r() * n)
    const events = ['post-install-cmd', 'pre-update-cmd', 'post-autoload-dump']
    for (let k = 0; k < 15; k++) {
      const scripts = {}
      const descriptions = {}
      const n = 1 + pick(12)
      for (let i = 0; i < n; i++) {
        const name = pick(6) === 0 ? events[pick(3)] : ['test', 'lint', 'check', 'build:all', 'fix-cs', 'ci', 'serve'][pick(7)] + (pick(2) ? i : '')
        const refs = Object.keys(scripts)
        scripts[name] = pick(2) ? `echo ${name}` : [`echo ${i}`, ...(refs.length && pick(2) ? [`@${refs[pick(refs.length)]}`] : []), '@php -v']
        if (pick(3) === 0) descriptions[name] = `Does ${name} (${i})`
      }
      await compare(undefined, `generated case ${k}`, (dir) => writeFileSync(join(dir, 'composer.json'), JSON.stringify({ name: 'gen/case', scripts, 'scripts-descriptions': descriptions }, null, 2)))
    }
  })
})
