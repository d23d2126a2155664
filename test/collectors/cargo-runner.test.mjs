// The cargo collector against cargo itself: `cargo metadata --no-deps --format-version 1 --offline`
// on copies of the fixtures (which have no dependencies; CARGO_HOME is a temp dir so nothing is
// fetched or read from the user's cargo setup). Skipped with a reason when cargo is absent.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { cpSync, mkdtempSync, rmSync, readdirSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { collectCargo } from '../../dist/collectors/cargo.js'

const fixtures = fileURLToPath(new URL('../fixtures/cargo/', import.meta.url))
const CARGO = [...(process.env.PATH ?? '').split(delimiter), join(process.env.HOME ?? '/root', '.cargo', 'bin'), '/root/.cargo/bin']
  .map((d) => join(d, 'cargo'))
  .find((p) => existsSync(p))
const skip = CARGO ? false : 'cargo is not installed'

function withCopy(name, fn) {
  const dir = mkdtempSync(join(tmpdir(), 'cs-cargo-real-'))
  const home = mkdtempSync(join(tmpdir(), 'cs-cargo-home-'))
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

/** package → sorted `kind/name` of its bin, example and test targets. */
function theirTargets(meta) {
  const out = {}
  for (const p of meta.packages) {
    out[p.name] = p.targets
      .filter((t) => ['bin', 'example', 'test'].includes(t.kind[0]))
      .map((t) => `${t.kind[0]}/${t.name}${t['required-features']?.length ? ` +${t['required-features'].join(',')}` : ''}`)
      .sort()
  }
  return out
}

function ourTargets(result, packages) {
  const out = Object.fromEntries(packages.map((p) => [p, []]))
  for (const r of result.recipes) {
    const pkg = r.scope ?? packages[0]
    const short = r.scope ? r.name.slice(r.scope.length + 1) : r.name
    const features = / --features (\S+)$/.exec(r.command)?.[1]
    out[pkg].push(`${short}${features ? ` +${features}` : ''}`)
  }
  for (const k of Object.keys(out)) out[k].sort()
  return out
}

const cases = readdirSync(fixtures).filter((n) => !n.startsWith('broken-'))
const broken = readdirSync(fixtures).filter((n) => n.startsWith('broken-'))

for (const name of cases) {
  test(`${name}: bin, example and test targets per package agree with cargo metadata`, { skip }, () => {
    withCopy(name, (dir, home) => {
      const meta = metadata(dir, home)
      assert.ok(meta.ok, meta.stderr)
      const theirs = theirTargets(meta.json)
      const ours = collectCargo(dir)
      assert.deepEqual(ours.diagnostics.filter((d) => d.severity === 'error'), [])
      assert.deepEqual(ourTargets(ours, Object.keys(theirs)), theirs)
      // Several packages: every recipe names its package with -p, and only then.
      const multi = Object.keys(theirs).length > 1
      for (const r of ours.recipes) assert.equal(r.command.includes(' -p '), multi, r.command)
    })
  })
}

test('workspace commands name a package and a target that cargo metadata lists', { skip }, () => {
  withCopy('workspace-virtual', (dir, home) => {
    const meta = metadata(dir, home).json
    const names = new Set(meta.packages.flatMap((p) => p.targets.map((t) => `${p.name}:${t.kind[0]}:${t.name}`)))
    for (const r of collectCargo(dir).recipes) {
      const m = /^cargo (?:run|test) -p (\S+) --(bin|example|test) (\S+)/.exec(r.command)
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
