// The go collector against the real go command (the machine's Go toolchain): in every module the
// collector found, `go list -json ./...` must name exactly the main packages the collector gives
// `go run` recipes for, and `go generate -n ./...` (which prints the directives without running
// them) must print as many commands as the collector counts. On generated module trees too: main
// and library packages, build constraints and file-name suffixes, test-only packages, testdata,
// vendor, `_` and `.` directories, nested modules, go.work workspaces. go gets no network and no
// toolchain switch (GOPROXY=off, GOTOOLCHAIN=local).
import { describe, it as test } from 'node:test'
import assert from 'node:assert/strict'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { goCollector } from '../../dist/src/collectors/go/collect.js'
import { rng } from '../support/random.mjs'
import { toolBinary } from '../support/tool-binary.mjs'

const FIXTURES = new URL('../fixtures/go/', import.meta.url).pathname
const GO = toolBinary('go')
const skip = GO ? false : 'go is not on PATH (the Go toolchain comes with the machine; install Go to run this test)'
const execFileAsync = promisify(execFile)

function goEnv(home, workOff) {
  return { ...process.env, GOPROXY: 'off', GOTOOLCHAIN: 'local', GOSUMDB: 'off', GOCACHE: join(home, '.gocache'), GOPATH: join(home, '.gopath'), ...(workOff ? { GOWORK: 'off' } : {}) }
}

/** The main packages' directories (relative to `dir`) and the generate command count, from go itself. */
async function goTruth(dir, home, workOff) {
  const env = goEnv(home, workOff)
  const { stdout } = await execFileAsync(GO, ['list', '-json=Dir,Name,GoFiles,CgoFiles', './...'], { cwd: dir, env, encoding: 'utf8', timeout: 120_000 })
  const packages = stdout.trim() === '' ? [] : JSON.parse(`[${stdout.trim().replace(/\n}\n{/g, '\n},\n{')}]`)
  // A directory of only `package main` test files is a main package to go list, but `go run`
  // refuses it (no non-test Go files): runnable ones have GoFiles.
  const mains = packages.filter((p) => p.Name === 'main' && (p.GoFiles?.length || p.CgoFiles?.length)).map((p) => relative(dir, p.Dir).split('\\').join('/') || '.')
  const gen = await execFileAsync(GO, ['generate', '-n', './...'], { cwd: dir, env, encoding: 'utf8', timeout: 120_000 })
  const generated = gen.stderr.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('go: ')).length
  return { mains, generated }
}

function oursFor(result, cwd) {
  const mine = result.recipes.filter((r) => r.cwd === cwd)
  const mains = mine.filter((r) => r.name.startsWith('run/')).map((r) => {
    const m = /^go run (?:'\.\/(.*)'|\.\/(.*)|\.)$/.exec(r.command)
    return m[1] ?? m[2] ?? '.'
  })
  const gen = mine.find((r) => r.name === 'generate')
  const generated = gen ? Number(/Run the (\d+) /.exec(gen.description)[1]) : 0
  return { mains, generated }
}

async function compare(root, label, workOff = true) {
  const result = goCollector.collect({ root, options: { enabled: true } })
  const home = mkdtempSync(join(tmpdir(), 'scout-go-home-'))
  try {
    for (const cwd of [...new Set(result.recipes.map((r) => r.cwd))]) {
      let truth
      try {
        truth = await goTruth(join(root, cwd), home, workOff)
      } catch (error) {
        // go refuses the module: the collector must have said why, in an error.
        const first = String(error.stderr ?? error.message).trim().split('\n')[0]
        assert.ok(result.diagnostics.some((d) => d.severity === 'error'), `${label}: go fails in ${cwd} (${first}) and the collector reports no error`)
        continue
      }
      assert.deepEqual(oursFor(result, cwd).mains.sort(), truth.mains.sort(), `${label}: main packages of module ${cwd}`)
      assert.equal(oursFor(result, cwd).generated, truth.generated, `${label}: //go:generate directives of module ${cwd}`)
    }
  } finally {
    rmSync(home, { recursive: true, force: true })
  }
  return result
}

function generateTree(dir, r) {
  const pick = (n) => Math.floor(r() * n)
  const header = () => [
    '', '//go:build linux\n\n', '//go:build ignore\n\n', '//go:build !windows && (amd64 || arm64)\n\n', '// +build darwin linux\n\n',
    '// +build !linux\n\n', '/* block\ncomment */\n', '//go:build windows\n\n', '// Package doc.\n',
  ][pick(9)]
  const module = (mdir, path) => {
    mkdirSync(mdir, { recursive: true })
    writeFileSync(join(mdir, 'go.mod'), `module ${path}\n\ngo 1.22\n`)
    const dirs = ['.', 'cmd/a', 'cmd/b', 'internal/x', 'pkg/y/z', 'testdata/t', 'vendor/v', '_u', '.h', 'tools', 'only']
    for (const d of dirs) {
      if (pick(3) === 0) continue
      const pdir = join(mdir, d)
      mkdirSync(pdir, { recursive: true })
      const isMain = pick(2) === 0
      const files = 1 + pick(3)
      for (let f = 0; f < files; f++) {
        const suffix = ['', '', '_linux', '_windows', '_amd64', '_darwin_arm64', '_test'][pick(7)]
        const gen = pick(4) === 0 ? `//go:generate echo ${d}${f}\n` : ''
        const pkgName = suffix === '_test' ? `${isMain ? 'main' : 'lib'}` : isMain ? 'main' : 'lib'
        writeFileSync(join(pdir, `f${f}${suffix}.go`), `${header()}package ${pkgName}\n\n${gen}${isMain && suffix !== '_test' ? 'func main() {}\n' : ''}`)
      }
    }
    if (pick(4) === 0) {
      mkdirSync(join(mdir, 'nested'), { recursive: true })
      writeFileSync(join(mdir, 'nested', 'go.mod'), `module ${path}/nested\n`)
      writeFileSync(join(mdir, 'nested', 'main.go'), 'package main\n\nfunc main() {}\n')
    }
  }
  const members = pick(3)
  if (members === 0) module(dir, 'example.com/gen')
  else {
    const uses = []
    for (let m = 0; m < members + 1; m++) {
      module(join(dir, `m${m}`), `example.com/m${m}`)
      uses.push(`./m${m}`)
    }
    writeFileSync(join(dir, 'go.work'), `go 1.22\n\nuse (\n${uses.map((u) => `\t${u}\n`).join('')})\n`)
  }
}

describe('the go collector against the go command', { concurrency: 2 }, () => {
  for (const name of readdirSync(FIXTURES).sort()) {
    test(`go list and go generate -n agree with the collector: ${name}`, { skip }, async () => {
      await compare(join(FIXTURES, name), name)
    })
  }

  test('generated module trees and workspaces: go and the collector agree', { skip }, async () => {
    const r = rng(Number(process.env.FUZZ_SEED ?? 20261201))
    for (let k = 0; k < 12; k++) {
      const dir = mkdtempSync(join(tmpdir(), 'scout-go-gen-'))
      try {
        generateTree(dir, r)
        await compare(dir, `generated case ${k}`, false).catch((e) => { if (process.env.KEEP) cpSync(dir, `/tmp/go-gen-${k}`, { recursive: true }); throw e })
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }
  })

  test('go list -m in a generated workspace names the modules the collector found', { skip }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scout-go-work-'))
    try {
      for (const m of ['api', 'svc/one', 'svc/two']) {
        mkdirSync(join(dir, m), { recursive: true })
        writeFileSync(join(dir, m, 'go.mod'), `module example.com/${m}\n`)
      }
      writeFileSync(join(dir, 'go.work'), 'go 1.22\n\nuse ./api\nuse (\n\t./svc/one\n\t"./svc/two"\n)\n')
      const { stdout } = await execFileAsync(GO, ['list', '-m', '-f', '{{.Dir}}'], { cwd: dir, env: goEnv(dir, false), encoding: 'utf8' })
      const theirs = stdout.trim().split('\n').map((d) => relative(dir, d))
      const result = goCollector.collect({ root: dir, options: { enabled: true } })
      assert.deepEqual([...new Set(result.recipes.map((r) => r.cwd))], theirs)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
