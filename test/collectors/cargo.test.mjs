import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { mkdtempSync, rmSync, mkdirSync, writeFileSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { collectCargo, cargoCollector } from '../../dist/src/collectors/cargo/collect.js'
import { RecipeBook } from '../../dist/src/index.js'

const fx = (name) => fileURLToPath(new URL(`../fixtures/cargo/${name}`, import.meta.url))
/** The targets' recipes, without the implied `cargo build`/`check`/`test` (tested on their own). */
const declared = (result) => result.recipes.filter((r) => !r.implied)
const rows = (result) => declared(result).map((r) => [r.name, r.command])
const diag = (result) => result.diagnostics.map((d) => ({ file: d.file, line: d.line, severity: d.severity }))

test('single-main: src/main.rs is a bin named after the package', () => {
  const result = collectCargo(fx('single-main'))
  assert.deepEqual(rows(result), [['bin/hello', 'cargo run --bin hello']])
  const [r] = declared(result)
  assert.equal(r.id, 'cargo:bin/hello')
  assert.equal(r.runner, 'cargo')
  assert.equal(r.cwd, '.')
  assert.equal(r.file, 'Cargo.toml')
  assert.equal(r.scope, undefined)
  assert.deepEqual(result.diagnostics, [])
  assert.deepEqual(result.files, ['Cargo.toml'])
})

test('single-layouts: every layout cargo infers, declared tables merged, required-features become --features, benches run with cargo bench', () => {
  const result = collectCargo(fx('single-layouts'))
  assert.deepEqual(rows(result), [
    ['bin/gen-code', 'cargo run --bin gen-code --features codegen,extra'],
    ['bin/cli', 'cargo run --bin cli'],
    ['bin/layouts', 'cargo run --bin layouts'],
    ['bin/server', 'cargo run --bin server'],
    ['example/basic', 'cargo run --example basic --features extra'],
    ['example/demo', 'cargo run --example demo'],
    ['test/custom', 'cargo test --test custom'],
    ['test/e2e', 'cargo test --test e2e'],
    ['test/smoke', 'cargo test --test smoke'],
    ['bench/criterion', 'cargo bench --bench criterion --features extra'],
    ['bench/parse', 'cargo bench --bench parse'],
    ['bench/throughput', 'cargo bench --bench throughput'],
  ])
  const byName = Object.fromEntries(declared(result).map((r) => [r.name, r]))
  assert.match(byName['bin/gen-code'].description, /tools\/gen\.rs.*requires features codegen, extra/)
  assert.equal(byName['bin/gen-code'].line, 10)
  assert.match(byName['bin/server'].description, /src\/bin\/server\/main\.rs/)
  assert.equal(byName['bin/server'].line, undefined, 'inferred targets have no table line')
  assert.match(byName['bench/criterion'].description, /^Cargo benchmark `criterion` \(perf\/criterion\.rs\)/)
  assert.equal(byName['bench/criterion'].line, 27)
  assert.ok(!declared(result).some((r) => r.name === 'test/custom_check'), 'a declared path claims the inferred file')
  assert.deepEqual(result.diagnostics, [])
})

test('autobins-off: package.autobins/autoexamples false keep declared targets only; a top-level switch is ignored with a warning', () => {
  const result = collectCargo(fx('autobins-off'))
  assert.deepEqual(rows(result), [['bin/kept', 'cargo run --bin kept'], ['test/it', 'cargo test --test it']])
  assert.deepEqual(diag(result), [{ file: 'Cargo.toml', line: undefined, severity: 'warning' }])
  assert.match(result.diagnostics[0].message, /autotests.*move it into \[package\]/)
})

test('edition-2015: a declared [[bin]] turns bin discovery off; other kinds are still found', () => {
  assert.deepEqual(rows(collectCargo(fx('edition-2015'))), [['bin/only', 'cargo run --bin only'], ['example/still', 'cargo run --example still']])
})

test('workspace-virtual: member globs, exclude, literal members, path dependencies, package prefix and -p', () => {
  const result = collectCargo(fx('workspace-virtual'))
  assert.deepEqual(rows(result), [
    ['api/bin/api', 'cargo run -p api --bin api'],
    ['api/example/client', 'cargo run -p api --example client'],
    ['api/test/health', 'cargo test -p api --test health'],
    ['api/bench/latency', 'cargo bench -p api --bench latency'],
    ['cli/bin/cli', 'cargo run -p cli --bin cli'],
    ['xtask/bin/xtask', 'cargo run -p xtask --bin xtask'],
    ['shared/bin/shared-tool', 'cargo run -p shared --bin shared-tool'],
  ])
  assert.deepEqual(declared(result).map((r) => [r.scope, r.file, r.cwd])[0], ['api', 'crates/api/Cargo.toml', '.'])
  assert.equal(declared(result)[0].id, 'cargo:api/bin/api')
  assert.deepEqual(result.diagnostics, [])
  assert.ok(!result.files.includes('crates/legacy/Cargo.toml'), 'excluded members are not read')
})

test('workspace tool names carry the package once', () => {
  const names = [...new RecipeBook(declared(collectCargo(fx('workspace-virtual')))).assignToolNames('scoped').values()]
  assert.deepEqual(names.slice(0, 2), ['cargo_api_bin_api', 'cargo_api_example_client'])
})

test('workspace-root-package: the root package and its members; a one-package workspace is named as a single package', () => {
  assert.deepEqual(rows(collectCargo(fx('workspace-root-package'))), [
    ['app/bin/app', 'cargo run -p app --bin app'],
    ['member/bin/member', 'cargo run -p member --bin member'],
  ])
  assert.deepEqual(rows(collectCargo(fx('workspace-single-member'))), [['bin/solo', 'cargo run --bin solo']])
})

test('broken-toml: a TOML error is a diagnostic with its line', () => {
  const result = collectCargo(fx('broken-toml'))
  assert.deepEqual(result.recipes, [])
  assert.deepEqual(diag(result), [{ file: 'Cargo.toml', line: 4, severity: 'error' }])
  assert.match(result.diagnostics[0].message, /not valid TOML/)
})

test('broken-members: a glob matching nothing and members without Cargo.toml are errors; the rest is listed', () => {
  const result = collectCargo(fx('broken-members'))
  assert.deepEqual(rows(result), [['bin/ok', 'cargo run --bin ok']])
  assert.equal(result.diagnostics.length, 3)
  assert.match(result.diagnostics[0].message, /"plugins\/\*" matches no directory/)
  assert.match(result.diagnostics[1].message, /crates\/nomanifest \(from "crates\/\*"\) has no Cargo\.toml/)
  assert.match(result.diagnostics[2].message, /member missing has no Cargo\.toml/)
})

test('broken-bin-path: a missing [[bin]] path, a [[bin]] with no file and a nameless [[bin]] are errors with lines', () => {
  const result = collectCargo(fx('broken-bin-path'))
  assert.deepEqual(rows(result), [['bin/paths', 'cargo run --bin paths']])
  assert.deepEqual(diag(result), [
    { file: 'Cargo.toml', line: 6, severity: 'error' },
    { file: 'Cargo.toml', line: 10, severity: 'error' },
    { file: 'Cargo.toml', line: 13, severity: 'error' },
  ])
})

test('no Cargo.toml: nothing, and no diagnostics', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cs-cargo-'))
  try {
    assert.deepEqual(cargoCollector.collect({ root: dir, options: { enabled: true } }), { recipes: [], diagnostics: [], files: [] })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('symbolic links to files and directories count as what they point at', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cs-cargo-'))
  try {
    mkdirSync(join(dir, 'src', 'bin'), { recursive: true })
    mkdirSync(join(dir, 'shared', 'tool'), { recursive: true })
    writeFileSync(join(dir, 'Cargo.toml'), '[package]\nname = "links"\nversion = "0.1.0"\nedition = "2021"\n')
    writeFileSync(join(dir, 'shared', 'real.rs'), 'fn main() {}\n')
    writeFileSync(join(dir, 'shared', 'tool', 'main.rs'), 'fn main() {}\n')
    symlinkSync(join(dir, 'shared', 'real.rs'), join(dir, 'src', 'main.rs'))
    symlinkSync(join(dir, 'shared', 'real.rs'), join(dir, 'src', 'bin', 'linked.rs'))
    symlinkSync(join(dir, 'shared', 'tool'), join(dir, 'src', 'bin', 'tool'))
    assert.deepEqual(declared(collectCargo(dir)).map((r) => r.name), ['bin/links', 'bin/linked', 'bin/tool'])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('every Cargo package or workspace has cargo build, check and test, marked as implied by the manifest', () => {
  const single = collectCargo(fx('single-main')).recipes.filter((r) => r.implied)
  assert.deepEqual(single.map((r) => [r.name, r.command, r.file, r.cwd]), [
    ['build', 'cargo build', 'Cargo.toml', '.'],
    ['check', 'cargo check', 'Cargo.toml', '.'],
    ['test', 'cargo test', 'Cargo.toml', '.'],
  ])
  assert.match(single[0].description, /implied by Cargo\.toml, not declared in it/)
  const virtual = collectCargo(fx('workspace-virtual')).recipes.filter((r) => r.implied)
  assert.equal(virtual.length, 3)
  assert.ok(virtual.every((r) => r.scope === undefined && /workspace's \d+ packages/.test(r.description)))
  assert.deepEqual(collectCargo(fx('broken-toml')).recipes, [], 'no manifest cargo can read, no everyday commands')
})
