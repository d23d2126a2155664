// The just collector against just 1.57 itself: `just --dump --dump-format json`, `just --summary`
// and `just --list --list-submodules` on copies of the fixtures, and `just --dry-run` of every
// command the collector builds. Skipped with a reason when just is not installed.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { cpSync, mkdtempSync, rmSync, readdirSync, existsSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { collectJust } from '../../dist/src/collectors/just/collect.js'
import { findJust } from '../support/just-binary.mjs'

// Scratch copies and generated cases: on a memory file system when there is one (fewer slow disk writes).
const SCRATCH = existsSync('/dev/shm') ? '/dev/shm' : tmpdir()
const fixtures = fileURLToPath(new URL('../fixtures/just/', import.meta.url))

const JUST = findJust()
const skip = JUST ? false : 'just is not installed (source test/setup/10-runners.sh)'

function just(cwd, args) {
  const r = spawnSync(JUST, args, { cwd, encoding: 'utf8', input: '', env: { ...process.env, NO_COLOR: '1' } })
  return { ok: r.status === 0, stdout: r.stdout, stderr: r.stderr }
}

/** The doc part of a description: without the collector's notes on groups and confirmation. */
const docOf = (description) => description.replace(/( ?\[(group: [^\]]*|confirm: asks before it runs)\])+$/, '')

/** Every recipe of a dump, modules flattened, with the fields the collector reports. */
function flatten(dump, prefix = '', privateModule = false, out = [], cross = new Set()) {
  const aliases = new Map()
  for (const a of Object.values(dump.aliases)) {
    if (a.attributes.includes('private') || a.name.startsWith('_')) continue
    // An alias of a submodule's recipe is dumped with the bare recipe name as its target.
    if (!(a.target in dump.recipes)) {
      cross.add(prefix + a.name)
      continue
    }
    const list = aliases.get(a.target) ?? []
    list.push(prefix + a.name)
    aliases.set(a.target, list)
  }
  for (const r of Object.values(dump.recipes)) {
    out.push({
      name: r.namepath,
      private: r.private || privateModule,
      doc: r.doc ?? '',
      parameters: r.parameters.map((p) => ({
        name: p.name,
        ...(typeof p.default === 'string' ? { default: p.default } : {}),
        ...(p.kind === 'plus' ? { variadic: '+' } : p.kind === 'star' ? { variadic: '*' } : {}),
      })),
      aliases: aliases.get(r.name) ?? [],
      dependencies: r.dependencies.map((d) => d.recipe),
    })
  }
  for (const [name, mod] of Object.entries(dump.modules)) {
    flatten(mod, `${prefix}${name}::`, privateModule, out, cross)
  }
  return Object.assign(out, { cross })
}

function withCopy(name, fn) {
  const dir = mkdtempSync(join(SCRATCH, 'cs-just-real-'))
  try {
    cpSync(join(fixtures, name), dir, { recursive: true })
    return fn(dir)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const cases = readdirSync(fixtures).filter((n) => !n.startsWith('broken-'))
const broken = readdirSync(fixtures).filter((n) => n.startsWith('broken-'))

for (const name of cases) {
  test(`${name}: recipes, parameters, docs, aliases and privacy agree with just --dump`, { skip }, () => {
    withCopy(name, (dir) => {
      const dumped = just(dir, ['--dump', '--dump-format', 'json'])
      assert.ok(dumped.ok, dumped.stderr)
      const theirs = flatten(JSON.parse(dumped.stdout))
      const ours = collectJust(dir)
      assert.deepEqual(ours.diagnostics, [])
      // The dump does not say which modules are private; just --summary leaves their recipes out.
      const summary = new Set(just(dir, ['--summary']).stdout.trim().split(/\s+/))
      const hiddenModules = theirs.filter((r) => !r.private && !summary.has(r.name))
      assert.ok(hiddenModules.every((r) => r.name.includes('::')), 'only recipes of private modules are missing from --summary')
      for (const r of hiddenModules) r.private = true
      const publicTheirs = theirs.filter((r) => !r.private)
      assert.deepEqual(ours.recipes.map((r) => r.name).sort(), publicTheirs.map((r) => r.name).sort(), 'public recipe names')
      for (const r of ours.recipes) {
        const t = publicTheirs.find((x) => x.name === r.name)
        // just dumps expression defaults as trees; those are compared by name only.
        const comparable = r.parameters.map((p, k) => {
          const { default: def, ...rest } = p
          return typeof t.parameters[k]?.default === 'string' ? { ...rest, default: def } : rest
        })
        assert.deepEqual(comparable, t.parameters, `parameters of ${r.name}`)
        assert.equal(docOf(r.description), t.doc, `doc of ${r.name}`)
        assert.deepEqual(r.aliases.filter((a) => !theirs.cross.has(a)).sort(), [...t.aliases].sort(), `aliases of ${r.name}`)
        const scope = r.name.includes('::') ? r.name.slice(0, r.name.lastIndexOf('::') + 2) : ''
        assert.deepEqual(r.prerequisites, t.dependencies.map((d) => scope + d), `dependencies of ${r.name}`)
      }
      for (const p of theirs.filter((x) => x.private)) assert.ok(!ours.recipes.some((r) => r.name === p.name), `${p.name} is private`)
    })
  })

  test(`${name}: names agree with just --summary and --list --list-submodules, and every command runs (dry run)`, { skip }, () => {
    withCopy(name, (dir) => {
      const ours = collectJust(dir).recipes
      const summary = just(dir, ['--summary'])
      assert.ok(summary.ok, summary.stderr)
      assert.deepEqual(ours.map((r) => r.name).sort(), summary.stdout.trim().split(/\s+/).filter(Boolean).sort())
      const list = just(dir, ['--list', '--list-submodules'])
      assert.ok(list.ok, list.stderr)
      for (const r of ours) {
        for (const a of r.aliases.filter((x) => !x.includes('::') && r.name.includes('::'))) {
          assert.match(list.stdout, new RegExp(`^\\s+${a}\\b.*# alias for \`${r.name}\``, 'm'), `alias ${a} of ${r.name}`)
        }
        const leaf = r.name.split('::').pop()
        assert.match(list.stdout, new RegExp(`^\\s+${leaf.replace(/[-]/g, '\\-')}\\b`, 'm'), `${leaf} in just --list`)
      }
      for (const r of ours) {
        // Required parameters get a placeholder value; variadic + needs one too.
        const args = r.parameters.filter((p) => p.default === undefined && p.variadic !== '*').map(() => 'x')
        const argv = r.command.split(' ').slice(1)
        const run = just(dir, ['--dry-run', '--yes', ...argv, ...args])
        assert.ok(run.ok, `${r.command} ${args.join(' ')}: ${run.stderr}`)
      }
    })
  })
}

for (const name of broken) {
  test(`${name}: just refuses what the collector reports as an error`, { skip }, () => {
    withCopy(name, (dir) => {
      const ours = collectJust(dir)
      assert.ok(ours.diagnostics.some((d) => d.severity === 'error'), 'the collector reports an error')
      assert.deepEqual(ours.recipes, [], 'and offers none of its recipes')
      const dumped = just(dir, ['--dump', '--dump-format', 'json'])
      assert.equal(dumped.ok, false, 'just fails too')
      assert.match(dumped.stderr, /error/i)
    })
  })
}

/** A random justfile that just accepts: recipes with every parameter form, docs, attributes, aliases, deps. */
function generate(r) {
  const pick = (xs) => xs[Math.floor(r() * xs.length)]
  const names = []
  let text = pick(['', 'set shell := ["bash", "-c"]\n', 'set positional-arguments\n', 'set allow-duplicate-recipes := false\n'])
  text += 'v1 := "one"\nexport V2 := \'two\'\nv3 := (v1 + "-" +\n  V2)\n\n'
  const count = 3 + Math.floor(r() * 10)
  for (let k = 0; k < count; k++) {
    const name = `${pick(['', '', '_'])}${pick(['build', 'test', 'lint', 'run', 'fmt', 'x'])}${k}${pick(['', '-a', '_b'])}`
    if (r() < 0.5) text += `# ${pick(['Doc', 'Does things', 'Sets up  the   thing', '#!weird'])} ${k}\n`
    else if (r() < 0.2) text += '# far away\n\n'
    const attrs = []
    if (r() < 0.2) attrs.push('private')
    if (r() < 0.3) attrs.push(`group('${pick(['ci', 'dev'])}')`)
    if (r() < 0.2) attrs.push(`doc('${pick(['From attr', 'Attr doc'])} ${k}')`)
    if (r() < 0.1) attrs.push('no-cd')
    if (r() < 0.1) attrs.push(pick(['confirm', 'confirm("Sure?")']))
    if (r() < 0.2) attrs.push(...pick([['linux'], ['windows'], ['macos'], ['unix'], ['windows', 'linux'], ['openbsd']]))
    if (attrs.length) text += r() < 0.5 ? `[${attrs.join(', ')}]\n` : attrs.map((a) => `[${a}]\n`).join('')
    const params = []
    const n = Math.floor(r() * 4)
    let defaulted = false
    for (let p = 0; p < n; p++) {
      const env = r() < 0.2 ? '$' : ''
      if (defaulted || r() < 0.4) {
        defaulted = true
        params.push(`${env}p${p}=${pick(["'a'", '"b c"', 'v1', '(v1 + "x")', '`echo q`'])}`)
      } else params.push(`${env}p${p}`)
    }
    if (r() < 0.3) params.push(`${pick(['+', '*'])}${r() < 0.3 ? '$' : ''}rest${defaulted || r() < 0.3 ? "='r'" : ''}`)
    // Only recipes that need no arguments can be plain dependencies.
    const deps = names.length && r() < 0.5 ? ` ${pick(names)}` + (r() < 0.3 ? ` && ${pick(names)}` : '') : ''
    text += `${r() < 0.2 ? '@' : ''}${name}${params.length ? ' ' + params.join(' ') : ''}:${deps}${r() < 0.2 ? ' # trailing' : ''}\n`
    text += `    echo {{v1}} ${r() < 0.3 ? '{{v3}}' : ''} \\\n      more\n`
    if (r() < 0.3) text += '\n    echo after blank\n'
    text += '\n'
    if (r() < 0.3) text += `alias ${pick(['', '_'])}al${k} := ${name}\n\n`
    if (params.every((p) => p.includes('=') || p.startsWith('*'))) names.push(name)
  }
  return text
}

test('random justfiles that just accepts agree with just --dump (names, parameters, docs, aliases, privacy, dependencies)', { skip }, () => {
  let s = Number(process.env.FUZZ_SEED ?? 7)
  const r = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296)
  const dir = mkdtempSync(join(SCRATCH, 'cs-just-diff-'))
  try {
    let compared = 0
    for (let k = 0; k < 40; k++) {
      const text = generate(r)
      writeFileSync(join(dir, 'justfile'), text)
      const dumped = just(dir, ['--dump', '--dump-format', 'json'])
      // A generated file just refuses is skipped; DEBUG_GEN=1 prints why.
      if (!dumped.ok) {
        if (process.env.DEBUG_GEN) console.error(dumped.stderr.split('\n').slice(0, 4).join('\n'))
        continue
      }
      compared++
      const theirs = flatten(JSON.parse(dumped.stdout)).filter((x) => !x.private)
      const ours = collectJust(dir)
      const context = `case ${k} (FUZZ_SEED=${process.env.FUZZ_SEED ?? 7}):\n${text}`
      assert.deepEqual(ours.diagnostics, [], context)
      assert.deepEqual(ours.recipes.map((x) => x.name).sort(), theirs.map((x) => x.name).sort(), context)
      for (const rec of ours.recipes) {
        const t = theirs.find((x) => x.name === rec.name)
        assert.equal(docOf(rec.description), t.doc, `doc of ${rec.name} in ${context}`)
        assert.deepEqual(rec.parameters.map((p) => p.name), t.parameters.map((p) => p.name), `parameters of ${rec.name} in ${context}`)
        assert.deepEqual(rec.parameters.map((p) => p.variadic), t.parameters.map((p) => p.variadic), `variadics of ${rec.name} in ${context}`)
        for (const [i, p] of t.parameters.entries()) if (p.default !== undefined) assert.equal(rec.parameters[i].default, p.default, `default of ${rec.name} in ${context}`)
        assert.deepEqual([...rec.aliases].sort(), [...t.aliases].sort(), `aliases of ${rec.name} in ${context}`)
        assert.deepEqual(rec.prerequisites, t.dependencies, `dependencies of ${rec.name} in ${context}`)
      }
    }
    assert.ok(compared >= 20, `only ${compared} of 40 generated justfiles were accepted by just`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
