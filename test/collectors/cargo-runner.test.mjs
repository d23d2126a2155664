// The cargo collector against cargo itself: `cargo metadata --no-deps --format-version 1 --offline`
// on copies of the fixtures (which have no dependencies; CARGO_HOME is a temp dir so nothing is
// fetched or read from the user's cargo setup). Skipped with a reason when cargo is absent.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { cpSync, mkdtempSync, rmSync, readdirSync, existsSync, mkdirSync, symlinkSync, writeFileSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { collectCargo } from '../../dist/src/collectors/cargo/collect.js'

// Scratch copies and generated cases: on a memory file system when there is one (fewer slow disk writes).
const SCRATCH = existsSync('/dev/shm') ? '/dev/shm' : tmpdir()
const fixtures = fileURLToPath(new URL('../fixtures/cargo/', import.meta.url))
const CARGO = [...(process.env.PATH ?? '').split(delimiter), join(process.env.HOME ?? '/root', '.cargo', 'bin'), '/root/.cargo/bin']
  .map((d) => join(d, 'cargo'))
  .find((p) => existsSync(p))
const skip = CARGO ? false : 'cargo is not installed'

function withCopy(name, fn) {
  const dir = mkdtempSync(join(SCRATCH, 'cs-cargo-real-'))
  const home = mkdtempSync(join(SCRATCH, 'cs-cargo-home-'))
  try {
    cpSync(join(fixtures, name), dir, { recursive: true })
    return fn(dir, home)
  } finally {
    rmSync(dir, { recursive: true, force: true })
    rmSync(home, { recursive: true, force: true })
  }
}

function metadata(dir, home) {
  const r = spawnSync(CARGO, ['metadata', '--no-deps', '--format-version', '1', '--offline'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, CARGO_HOME: home, CARGO_TARGET_DIR: join(home, 'target'), CARGO_TERM_COLOR: 'never' },
  })
  return { ok: r.status === 0, json: r.status === 0 ? JSON.parse(r.stdout) : undefined, stderr: r.stderr }
}

/** package → sorted `kind/name` of its bin, example, test and bench targets. */
function theirTargets(meta) {
  const out = {}
  for (const p of meta.packages) {
    out[p.name] = p.targets
      .filter((t) => ['bin', 'example', 'test', 'bench'].includes(t.kind[0]))
      .map((t) => `${t.kind[0]}/${t.name}${t.kind[0] === 'example' && !t.crate_types.includes('bin') ? ' (library)' : ''}${t['required-features']?.length ? ` +${t['required-features'].join(',')}` : ''}`)
      .sort()
  }
  return out
}

function ourTargets(result, packages) {
  const out = Object.fromEntries(packages.map((p) => [p, []]))
  for (const r of result.recipes) {
    if (r.implied) continue
    const pkg = r.scope ?? packages[0]
    const short = r.scope ? r.name.slice(r.scope.length + 1) : r.name
    const features = / --features (\S+)$/.exec(r.command)?.[1]
    out[pkg].push(`${short}${r.command.startsWith('cargo build ') ? ' (library)' : ''}${features ? ` +${features}` : ''}`)
  }
  for (const k of Object.keys(out)) out[k].sort()
  return out
}

const cases = readdirSync(fixtures).filter((n) => !n.startsWith('broken-'))
const broken = readdirSync(fixtures).filter((n) => n.startsWith('broken-'))

for (const name of cases) {
  test(`${name}: bin, example, test and bench targets per package agree with cargo metadata`, { skip }, () => {
    withCopy(name, (dir, home) => {
      const meta = metadata(dir, home)
      assert.ok(meta.ok, meta.stderr)
      const theirs = theirTargets(meta.json)
      const ours = collectCargo(dir)
      assert.deepEqual(ours.diagnostics.filter((d) => d.severity === 'error'), [])
      assert.deepEqual(ourTargets(ours, Object.keys(theirs)), theirs)
      // Several packages: every recipe names its package with -p, and only then.
      const multi = Object.keys(theirs).length > 1
      for (const r of ours.recipes) assert.equal(r.command.includes(' -p '), multi && !r.implied, r.command)
      // The everyday commands, implied by the manifest; cargo accepts each (dry: --help parses the subcommand).
      assert.deepEqual(ours.recipes.filter((r) => r.implied).map((r) => r.command), ['cargo build', 'cargo check', 'cargo test'])
    })
  })
}

test('workspace commands name a package and a target that cargo metadata lists', { skip }, () => {
  withCopy('workspace-virtual', (dir, home) => {
    const meta = metadata(dir, home).json
    const names = new Set(meta.packages.flatMap((p) => p.targets.map((t) => `${p.name}:${t.kind[0]}:${t.name}`)))
    for (const r of collectCargo(dir).recipes) {
      if (r.implied) continue
      const m = /^cargo (?:run|test|bench) -p (\S+) --(bin|example|test|bench) (\S+)/.exec(r.command)
      assert.ok(m, r.command)
      assert.ok(names.has(`${m[1]}:${m[2]}:${m[3]}`), r.command)
    }
  })
})

for (const name of broken) {
  test(`${name}: cargo refuses what the collector reports as an error`, { skip }, () => {
    withCopy(name, (dir, home) => {
      const ours = collectCargo(dir)
      assert.ok(ours.diagnostics.some((d) => d.severity === 'error'))
      const meta = metadata(dir, home)
      if (name === 'broken-bin-path') {
        // cargo metadata does not check a declared path; the build does. The other two tables fail at load.
        assert.equal(meta.ok, false, 'the bin with no file makes cargo fail')
        assert.match(meta.stderr, /can't find `phantom` bin|name/i)
      } else {
        assert.equal(meta.ok, false, 'cargo fails too')
      }
    })
  })
}

/** A random package layout: files in every place cargo looks, declared tables, switches, editions. */
function generatePackage(r, dir) {
  const pick = (xs) => xs[Math.floor(r() * xs.length)]
  const files = new Set()
  const add = (p, text = 'fn main() {}\n') => {
    if (files.has(p)) return
    files.add(p)
    mkdirSync(join(dir, dirname(p)), { recursive: true })
    writeFileSync(join(dir, p), text)
  }
  if (r() < 0.7) add('src/main.rs')
  if (r() < 0.4 || files.size === 0) add('src/lib.rs', '\n')
  for (const [base, names] of [['src/bin', ['cli', 'srv', 'tool-x']], ['examples', ['demo', 'basic']], ['tests', ['it', 'smoke']], ['benches', ['speed', 'load']]]) {
    for (const n of names) {
      const form = r()
      if (form < 0.35) add(`${base}/${n}.rs`)
      else if (form < 0.55) add(`${base}/${n}/main.rs`)
      else if (form < 0.6) add(`${base}/${n}/support.rs`, '\n')
    }
  }
  const edition = pick(['2015', '2018', '2021', '2021', null])
  let manifest = `[package]\nname = "pkg"\nversion = "0.1.0"\n${edition ? `edition = "${edition}"\n` : ''}`
  for (const auto of ['autobins', 'autoexamples', 'autotests', 'autobenches']) if (r() < 0.2) manifest += `${auto} = ${pick(['true', 'false'])}\n`
  manifest += '\n[features]\nf = []\n'
  for (const [kind, base, names] of [['bin', 'src/bin', ['cli', 'extra', 'pkg']], ['example', 'examples', ['demo', 'other']], ['test', 'tests', ['it', 'custom']], ['bench', 'benches', ['speed', 'micro']]]) {
    for (const n of names) {
      if (r() > 0.3) continue
      const withPath = r() < 0.4
      if (withPath) add(`alt/${kind}-${n}.rs`)
      // A declared target without a path must exist where cargo looks, or cargo refuses the manifest.
      if (!withPath && ![...files].some((f) => f === `${base}/${n}.rs` || f === `${base}/${n}/main.rs` || (kind === 'bin' && n === 'pkg' && f === 'src/main.rs'))) add(`${base}/${n}.rs`)
      manifest += `\n[[${kind}]]\nname = "${n}"\n${withPath ? `path = "alt/${kind}-${n}.rs"\n` : ''}${r() < 0.3 ? 'required-features = ["f"]\n' : ''}`
    }
  }
  writeFileSync(join(dir, 'Cargo.toml'), manifest)
  return manifest
}

test('random package layouts agree with cargo metadata (every discovery rule, declared tables, switches, editions)', { skip }, () => {
  let s = Number(process.env.FUZZ_SEED ?? 11)
  const r = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296)
  const home = mkdtempSync(join(SCRATCH, 'cs-cargo-home-'))
  let compared = 0
  try {
    for (let k = 0; k < 30; k++) {
      const dir = mkdtempSync(join(SCRATCH, 'cs-cargo-diff-'))
      try {
        const manifest = generatePackage(r, dir)
        const meta = metadata(dir, home)
        if (!meta.ok) continue
        compared++
        const theirs = theirTargets(meta.json)
        const ours = collectCargo(dir)
        const files = readdirSync(dir, { recursive: true }).filter((f) => f.endsWith('.rs')).sort().join(' ')
        assert.deepEqual(ourTargets(ours, Object.keys(theirs)), theirs, `case ${k} (FUZZ_SEED=${process.env.FUZZ_SEED ?? 11})\nfiles: ${files}\n${manifest}`)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }
  } finally {
    rmSync(home, { recursive: true, force: true })
  }
  assert.ok(compared >= 20, `only ${compared} of 30 generated packages were accepted by cargo`)
})

/** A random workspace: members by glob and by path, excludes, a root package or not, path dependencies. */
function generateWorkspace(r, dir) {
  const pick = (xs) => xs[Math.floor(r() * xs.length)]
  const crates = []
  const write = (rel, name, deps = []) => {
    mkdirSync(join(dir, rel, 'src'), { recursive: true })
    writeFileSync(join(dir, rel, 'src', 'main.rs'), 'fn main() {}\n')
    const depText = deps.map((d) => `${d.name} = { path = "${d.path}" }\n`).join('')
    writeFileSync(join(dir, rel, 'Cargo.toml'), `[package]\nname = "${name}"\nversion = "0.1.0"\nedition = "2021"\n${depText ? `\n[dependencies]\n${depText}` : ''}`)
    crates.push(rel)
  }
  const groups = ['crates', 'tools', 'libs/core']
  let k = 0
  for (const g of groups) for (let n = Math.floor(r() * 4); n > 0; n--, k++) write(`${g}/c${k}`, `c${k}`)
  // A path dependency outside every glob: a member only through the dependency.
  const hidden = r() < 0.5
  if (hidden) write('vendor/hidden', 'hidden')
  const members = []
  for (const g of groups) {
    if (r() < 0.8 && !crates.some((c) => c.startsWith(`${g}/`))) continue
    const form = r()
    if (form < 0.5) members.push(`${g}/*`)
    else if (form < 0.7) members.push(...crates.filter((c) => c.startsWith(`${g}/`)))
  }
  if (members.length === 0 && crates.length) members.push(crates[0])
  const excludes = []
  for (const c of crates) if (r() < 0.15) excludes.push(c)
  if (r() < 0.2) excludes.push('tools')
  const rootPackage = r() < 0.4
  const deps = hidden && r() < 0.8 ? [{ name: 'hidden', path: 'vendor/hidden' }] : []
  let manifest = `[workspace]\nresolver = "2"\nmembers = ${JSON.stringify(members)}\n${excludes.length ? `exclude = ${JSON.stringify(excludes)}\n` : ''}`
  if (rootPackage) {
    mkdirSync(join(dir, 'src'), { recursive: true })
    writeFileSync(join(dir, 'src', 'main.rs'), 'fn main() {}\n')
    manifest += `\n[package]\nname = "root"\nversion = "0.1.0"\nedition = "2021"\n${deps.length ? `\n[dependencies]\n${deps.map((d) => `${d.name} = { path = "${d.path}" }\n`).join('')}` : ''}`
  } else if (deps.length && crates.length > 1) {
    // Let the first crate depend on it instead.
    const first = crates[0]
    const path = join(dir, first, 'Cargo.toml')
    writeFileSync(path, `${readFileSync(path, 'utf8')}\n[dependencies]\nhidden = { path = "${'../'.repeat(first.split('/').length)}vendor/hidden" }\n`)
  }
  writeFileSync(join(dir, 'Cargo.toml'), manifest)
  return manifest
}

test('random workspaces agree with cargo metadata (globs, excludes, root package, path dependencies)', { skip }, () => {
  let s = Number(process.env.FUZZ_SEED ?? 13)
  const r = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296)
  const home = mkdtempSync(join(SCRATCH, 'cs-cargo-home-'))
  let compared = 0
  try {
    for (let k = 0; k < 25; k++) {
      const dir = mkdtempSync(join(SCRATCH, 'cs-cargo-ws-'))
      try {
        const manifest = generateWorkspace(r, dir)
        const meta = metadata(dir, home)
        if (!meta.ok) {
          // cargo refuses the workspace: the collector must say so too.
          const errors = collectCargo(dir).diagnostics.filter((d) => d.severity === 'error')
          assert.ok(errors.length > 0, `case ${k}: cargo fails (${meta.stderr.split('\n')[0]}) but the collector reports no error\n${manifest}`)
          continue
        }
        compared++
        const theirs = theirTargets(meta.json)
        const ours = collectCargo(dir)
        const tree = readdirSync(dir, { recursive: true }).filter((f) => f.endsWith('Cargo.toml')).sort().join(' ')
        assert.deepEqual(ourTargets(ours, Object.keys(theirs)), theirs, `case ${k} (FUZZ_SEED=${process.env.FUZZ_SEED ?? 13})\nmanifests: ${tree}\n${manifest}`)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }
  } finally {
    rmSync(home, { recursive: true, force: true })
  }
  assert.ok(compared >= 15, `only ${compared} of 25 generated workspaces were accepted by cargo`)
})

test('a library example is built, not run: cargo refuses `cargo run --example` for it and builds it', { skip }, () => {
  withCopy('library-example', (dir, home) => {
    const env = { ...process.env, CARGO_HOME: home, CARGO_TARGET_DIR: join(home, 'target'), CARGO_TERM_COLOR: 'never' }
    const recipes = collectCargo(dir).recipes
    const plugin = recipes.find((r) => r.name === 'example/plugin')
    assert.equal(plugin.command, 'cargo build --example plugin')
    assert.equal(recipes.find((r) => r.name === 'example/demo').command, 'cargo run --example demo')
    const refused = spawnSync(CARGO, ['run', '--offline', '--example', 'plugin'], { cwd: dir, encoding: 'utf8', env })
    assert.notEqual(refused.status, 0)
    assert.match(refused.stderr, /is a library and cannot be executed/)
    const built = spawnSync('/bin/sh', ['-c', `${plugin.command} --offline`], { cwd: dir, encoding: 'utf8', env })
    assert.equal(built.status, 0, built.stderr)
    // The implied everyday command runs as written.
    const check = spawnSync('/bin/sh', ['-c', `${recipes.find((r) => r.name === 'check').command} --offline`], { cwd: dir, encoding: 'utf8', env })
    assert.equal(check.status, 0, check.stderr)
  })
})

test('members = ["crates/*"] matches what cargo matches: dot-directories, a link to a crate elsewhere, a link out of the root, files', { skip }, () => {
  const dir = mkdtempSync(join(SCRATCH, 'cs-cargo-star-'))
  const outside = mkdtempSync(join(SCRATCH, 'cs-cargo-out-'))
  const home = mkdtempSync(join(SCRATCH, 'cs-cargo-home-'))
  try {
    const crate = (at, name) => {
      mkdirSync(join(at, 'src'), { recursive: true })
      writeFileSync(join(at, 'src', 'main.rs'), 'fn main() {}\n')
      writeFileSync(join(at, 'Cargo.toml'), `[package]\nname = "${name}"\nversion = "0.1.0"\nedition = "2021"\n`)
    }
    crate(join(dir, 'crates', 'a'), 'a')
    crate(join(dir, 'crates', '.hidden'), 'hidden')
    crate(join(dir, 'real', 'b'), 'b')
    crate(join(outside, 'o'), 'o')
    writeFileSync(join(dir, 'crates', 'notes.txt'), 'not a crate\n')
    symlinkSync(join(dir, 'real', 'b'), join(dir, 'crates', 'b-link'))
    symlinkSync(join(dir, 'crates', 'notes.txt'), join(dir, 'crates', 'file-link'))
    writeFileSync(join(dir, 'Cargo.toml'), '[workspace]\nresolver = "2"\nmembers = ["crates/*"]\n')
    const meta = metadata(dir, home)
    assert.ok(meta.ok, meta.stderr)
    const theirs = meta.json.packages.map((p) => p.name).sort()
    const ours = [...new Set(collectCargo(dir).recipes.filter((r) => !r.implied).map((r) => r.scope))].sort()
    assert.deepEqual(ours, theirs)
    // A link out of the root is no member for command-scout (cargo would read it); with it, the rest stays.
    symlinkSync(join(outside, 'o'), join(dir, 'crates', 'out-link'))
    const withOut = [...new Set(collectCargo(dir).recipes.filter((r) => !r.implied).map((r) => r.scope))].sort()
    assert.deepEqual(withOut, theirs)
  } finally {
    for (const d of [dir, outside, home]) rmSync(d, { recursive: true, force: true })
  }
})
