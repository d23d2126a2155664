// Fuzzes whole scans of hostile repositories (seeded; FUZZ_SEED replays, FUZZ_CASES sizes it):
// each case writes a small repository that mixes the manifests of every collector with some of
// the kinds below, then runs discover and renders the report. No case may hang (a worker thread
// runs them; no progress for HANG_MS fails with the seed and the case), crash (a throw, or a
// collector failure turned into a diagnostic), print bad JSON, grow past OUTPUT_LIMIT, or let
// the text of a file outside the root (which its runner refuses) reach the output.
import { isMainThread, parentPort, workerData } from 'node:worker_threads'
import { execFileSync } from 'node:child_process'
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { rng } from '../support/random.mjs'
import { runWatchedWorker } from '../support/fuzz-worker.mjs'

// CI runs 400 cases (about 15 s of CPU); FUZZ_CASES=2000 or more for a deeper run.
const CASES = Number(process.env.FUZZ_CASES ?? 400)
const HANG_MS = 20_000
const OUTPUT_LIMIT = 64 * 1024 * 1024
const ONLY = process.env.FUZZ_ONLY === undefined ? undefined : Number(process.env.FUZZ_ONLY)

export const KINDS = [
  'fifo', 'device-link', 'symlink-loop', 'doubling', 'glob-bomb', 'brace-bomb', 'alias-bomb',
  'huge-manifest', 'permission-denied', 'outside-link', 'outside-include', 'foreach-bomb', 'include-diamond', 'plain',
]

if (isMainThread) {
  const { test } = await import('node:test')
  const assert = (await import('node:assert/strict')).default
  test(`${CASES} seeded hostile repositories: no hang, no crash, valid JSON, nothing from outside the root`, async () => {
    const seed = Number(process.env.FUZZ_SEED ?? 20261201)
    // The cases link manifests to devices: making them must leave the devices themselves alone.
    const { statSync } = await import('node:fs')
    const DEVICES = ['/dev/null', '/dev/zero', '/dev/urandom', '/dev/full']
    const modes = () => DEVICES.map((d) => [d, statSync(d).mode])
    const before = modes()
    const outcome = await runWatchedWorker(new URL(import.meta.url), seed, HANG_MS)
    assert.deepEqual(modes(), before, 'no device changed its mode')
    assert.equal(outcome.cases, CASES)
    assert.deepEqual(outcome.failures, [], `replay with FUZZ_SEED=${seed}`)
    if (process.env.FUZZ_ONLY !== undefined) return process.stdout.write(`# case ${process.env.FUZZ_ONLY}: ${outcome.slowestMs} ms\n`)
    // Every kind was exercised, and the scans still found commands in the ordinary manifests.
    for (const kind of KINDS) assert.ok(outcome.kinds[kind] > 0, `kind ${kind} was generated`)
    assert.ok(outcome.recipes > CASES, `the scans found commands (${outcome.recipes})`)
    process.stdout.write(`# hostile fuzz: ${outcome.cases} cases, kinds ${JSON.stringify(outcome.kinds)}, ${outcome.recipes} recipes, ${outcome.diagnostics} diagnostics, slowest ${outcome.slowestMs} ms; over 300 ms: ${outcome.slow.join(' ')}\n`)
  })
} else {
  const { discover, scanReport, renderJson, renderMarkdown } = await import('../../dist/src/index.js')
  const { seed } = workerData
  const r = rng(seed)
  const pick = (list) => list[Math.floor(r() * list.length)]
  const chance = (p) => r() < p
  const base = mkdtempSync(join(tmpdir(), 'cs-hostile-fuzz-'))
  const kinds = Object.fromEntries(KINDS.map((k) => [k, 0]))
  const failures = []
  let recipes = 0
  let diagnostics = 0
  let slowestMs = 0
  const slow = []

  const SECRET = 'SECRET_9f2c1'
  const MANIFESTS = ['package.json', 'pnpm-workspace.yaml', 'Cargo.toml', 'justfile', 'Makefile', 'Taskfile.yml', 'deno.json']
  const MEMBERS = ['packages/a', 'packages/b', 'crates/c', 'apps/web']

  // The generator itself never writes through a FIFO or a device link an earlier kind planted.
  const write = (path, text) => {
    mkdirSync(dirname(path), { recursive: true })
    const st = lstatSync(path, { throwIfNoEntry: false })
    if (st && !st.isFile()) rmSync(path, { recursive: true, force: true })
    writeFileSync(path, text)
  }
  const attempt = (fn) => {
    try {
      fn()
    } catch {
      // a path already taken by another kind in this case: skip it
    }
  }

  /** Ordinary manifests of every collector, so that each case exercises every reader. */
  function ordinary(root, workspaces) {
    const pm = pick(['npm', 'pnpm', 'yarn', 'bun'])
    write(join(root, 'package.json'), JSON.stringify({ name: 'root', packageManager: `${pm}@9.0.0`, workspaces, scripts: { build: 'tsc', test: 'node --test' } }))
    write(join(root, 'pnpm-workspace.yaml'), `packages:\n${workspaces.map((w) => `  - ${JSON.stringify(w)}`).join('\n')}\n`)
    write(join(root, 'Cargo.toml'), `[workspace]\nmembers = ${JSON.stringify(workspaces)}\n`)
    write(join(root, 'deno.json'), JSON.stringify({ workspace: workspaces.map((w) => `./${w}`), tasks: { dev: 'deno run main.ts' } }))
    write(join(root, 'justfile'), "import? 'extra.just'\nmod? tools\nbuild:\n  echo build\n")
    write(join(root, 'Makefile'), '-include extra.mk\n.PHONY: all\nall: ## Build all\n\t@true\n')
    write(join(root, 'Taskfile.yml'), "version: '3'\nincludes:\n  x:\n    taskfile: ./extra.yml\n    optional: true\ntasks:\n  lint: echo lint\n")
    for (const m of MEMBERS) {
      write(join(root, m, 'package.json'), JSON.stringify({ name: m.replace('/', '-'), scripts: { start: 'node .' } }))
      if (chance(0.5)) write(join(root, m, 'Cargo.toml'), `[package]\nname = "${m.replace('/', '-')}"\n`), write(join(root, m, 'src/main.rs'), '')
      if (chance(0.3)) write(join(root, m, 'deno.json'), '{"tasks":{"t":"x"}}')
    }
  }

  const bombPatterns = () => pick([
    '{a,b}'.repeat(1 + Math.floor(r() * 300)),
    '*a'.repeat(1 + Math.floor(r() * 60)),
    '{'.repeat(Math.floor(r() * 12_000)) + 'a' + '}'.repeat(Math.floor(r() * 12_000)),
    `{1..${pick(['1000000000', '99999', '10'])}}`,
    `packages/${'+(a|'.repeat(1 + Math.floor(r() * 20))}x${')'.repeat(5)}`,
    '**/'.repeat(1 + Math.floor(r() * 40)) + '*',
    `${'?'.repeat(Math.floor(r() * 600))}`,
    '[a-z]'.repeat(Math.floor(r() * 200)),
  ])

  const apply = {
    fifo(root) {
      const target = chance(0.5) ? pick(MANIFESTS) : `${pick(MEMBERS)}/${pick(['package.json', 'Cargo.toml', 'deno.json'])}`
      attempt(() => rmSync(join(root, target), { force: true }))
      attempt(() => (mkdirSync(dirname(join(root, target)), { recursive: true }), execFileSync('mkfifo', [join(root, pick([target, 'extra.mk', 'extra.just', 'extra.yml', 'tools.just']))])))
    },
    'device-link'(root) {
      const target = pick([...MANIFESTS, 'extra.mk', 'extra.just', 'extra.yml', `${pick(MEMBERS)}/package.json`])
      attempt(() => rmSync(join(root, target), { force: true }))
      attempt(() => symlinkSync(pick(['/dev/zero', '/dev/urandom', '/dev/null', '/dev/tty', '/dev/full']), join(root, target)))
      if (chance(0.3)) attempt(() => write(join(root, 'Makefile'), 'include /dev/tty\n-include /dev/zero\nall: ; @true\n'))
    },
    'symlink-loop'(root) {
      attempt(() => symlinkSync('loop-b', join(root, 'loop-a')))
      attempt(() => symlinkSync('loop-a', join(root, 'loop-b')))
      attempt(() => symlinkSync(pick(['loop-a', '.', '..', 'self']), join(root, pick(MEMBERS), 'self')))
      attempt(() => symlinkSync('loop-a', join(root, pick(MANIFESTS))))
    },
    doubling(root) {
      for (const d of ['', ...MEMBERS.slice(0, 1 + Math.floor(r() * MEMBERS.length))]) {
        attempt(() => symlinkSync('.', join(root, d, 'l1')))
        attempt(() => symlinkSync('.', join(root, d, 'l2')))
        if (chance(0.5)) attempt(() => symlinkSync('..', join(root, d, 'up')))
      }
    },
    'glob-bomb'(root) {
      ordinary(root, [pick(['**', '*/**', 'packages/**']), bombPatterns(), ...MEMBERS.slice(0, 2)])
    },
    'brace-bomb'(root) {
      const bombs = [bombPatterns(), bombPatterns()]
      ordinary(root, [...bombs, 'packages/*'])
      write(join(root, 'Makefile'), `${bombs.map((b) => `-include ${b}.mk\nX := $(wildcard ${b})`).join('\n')}\nall: ; @true\n`)
    },
    'alias-bomb'(root) {
      const levels = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
      for (let i = 1; i < 3 + Math.floor(r() * 8); i++) levels.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`)
      const last = String.fromCharCode(96 + levels.length)
      const bomb = levels.join('\n')
      write(join(root, 'pnpm-workspace.yaml'), `${bomb}\npackages: [*${last}]\n`)
      write(join(root, 'Taskfile.yml'), `version: '3'\n${bomb}\ntasks:\n  x:\n    cmds: *${last}\n  y: echo\n`)
    },
    'huge-manifest'(root) {
      const target = join(root, pick([...MANIFESTS, `${pick(MEMBERS)}/package.json`, 'extra.mk']))
      attempt(() => (rmSync(target, { force: true }), write(target, ''), truncateSync(target, pick([100, 200, 9]) * 1024 * 1024)))
    },
    'permission-denied'(root) {
      for (let i = 0; i < 3; i++) attempt(() => denyAccess(join(root, pick([...MANIFESTS, `${pick(MEMBERS)}/package.json`]))))
      attempt(() => denyAccess(join(root, pick(MEMBERS))))
    },
    'outside-link'(root, outside) {
      attempt(() => (rmSync(join(root, 'packages', 'a'), { recursive: true, force: true }), symlinkSync(join(outside, 'pkg'), join(root, 'packages', 'a'))))
      attempt(() => symlinkSync(outside, join(root, 'packages', 'out')))
      attempt(() => write(join(root, 'Cargo.toml'), `[workspace]\nmembers = ${JSON.stringify([pick(['/etc/*', '../*', '..', '../outside/pkg']), 'crates/*'])}\n`))
    },
    'outside-include'(root, outside) {
      const passwd = join(outside, 'passwd')
      write(join(root, 'Makefile'), `include ${pick([passwd, '../outside/passwd', '/etc/passwd'])}\nall: ; @true\n`)
      write(join(root, 'justfile'), `import '${pick([passwd, '../outside/passwd'])}'\nbuild:\n  echo\n`)
      write(join(root, 'Taskfile.yml'), `version: '3'\nincludes:\n  p: ${passwd}\ntasks:\n  lint: echo\n`)
    },
    'foreach-bomb'(root) {
      // Small enough to run in CI; hostile.test.mjs has the full-size bombs.
      const depth = 2 + Math.floor(r() * 3)
      let body = '$(a0)'
      for (let i = depth - 1; i >= 0; i--) body = `$(foreach a${i},$(D),${i === depth - 1 ? body.replace('$(a0)', Array.from({ length: depth }, (_, k) => `$(a${k})`).join('')) : body})`
      write(join(root, 'Makefile'), `D := ${pick(['0 1 2 3 4 5 6 7 8 9', '0 1 2 3 4', 'a b c'])}\nN := ${body}\n$(N): $(N)\n${chance(0.5) ? '$(N): $(N) x\n' : ''}f = $(call f)$(call f)\nY := $(call f)\nall: ; @true\n`)
    },
    'include-diamond'(root) {
      const n = 4 + Math.floor(r() * 12)
      write(join(root, 'justfile'), "import? 'a0.just'\nimport? 'b0.just'\nroot:\n  echo\n")
      write(join(root, 'Taskfile.yml'), "version: '3'\nincludes:\n  a: ./a0.yml\n  b: ./b0.yml\ntasks:\n  root: echo\n")
      write(join(root, 'Makefile'), `${'include *.mk\n'.repeat(Math.floor(r() * 3_000))}-include d0.mk\nall: ; @true\n`)
      for (let i = 0; i < n; i++) {
        for (const x of ['a', 'b']) {
          write(join(root, `${x}${i}.just`), `import? 'a${i + 1}.just'\nimport? 'b${i + 1}.just'\nr${x}${i}:\n  echo\n`)
          write(join(root, `${x}${i}.yml`), `version: '3'\nincludes:\n  a: ./a${i + 1}.yml\n  b: ./b${i + 1}.yml\ntasks:\n  t: echo\n`)
        }
        write(join(root, `d${i}.mk`), `-include d${i + 1}.mk d${Math.floor(i / 2)}.mk\nt${i}: ; @true\n`)
      }
    },
    plain() {},
  }

  for (let index = 0; index < CASES; index++) {
    const caseDir = join(base, String(index))
    const root = join(caseDir, 'root')
    const outside = join(caseDir, 'outside')
    write(join(outside, 'passwd'), `root:x:0:0:${SECRET}:/root:/bin/bash\ndaemon:x:1:1:${SECRET}:/usr/sbin:/usr/sbin/nologin\n`)
    write(join(outside, 'pkg', 'package.json'), JSON.stringify({ name: SECRET, scripts: { [SECRET]: SECRET } }))
    write(join(outside, 'pkg', 'deno.json'), JSON.stringify({ tasks: { [SECRET]: SECRET } }))
    write(join(outside, 'pkg', 'Cargo.toml'), `[package]\nname = "${SECRET.toLowerCase()}"\n`)
    ordinary(root, pick([['packages/*', 'crates/*'], ['packages/*', 'apps/*'], ['**'], ['packages/a', 'apps/web']]))
    const chosen = new Set()
    const count = 1 + Math.floor(r() * 3)
    for (let k = 0; k < count; k++) chosen.add(pick(KINDS))
    for (const kind of chosen) {
      kinds[kind]++
      apply[kind](root, outside)
    }
    parentPort.postMessage({ type: 'case', index, preview: `kinds ${[...chosen].join(', ')}` })
    const started = performance.now()
    // FUZZ_ONLY=<index> scans that one case (the earlier ones are still generated, to replay the seed).
    if (ONLY !== undefined && index !== ONLY) {
      rmSync(caseDir, { recursive: true, force: true })
      continue
    }
    if (ONLY !== undefined) process.stderr.write(`case ${index} is in ${root} (kept)\n`)
    try {
      const result = discover(root, {}, { budgetMs: 8_000 })
      const report = scanReport(result)
      const json = renderJson(report)
      if (json.length > OUTPUT_LIMIT) throw new Error(`the report is ${json.length} characters`)
      const parsed = JSON.parse(json)
      renderMarkdown(parsed)
      if (json.includes(SECRET) || json.includes('/bin/bash')) throw new Error('text from a file outside the root reached the report')
      const crashed = parsed.diagnostics.find((d) => /collector failed/.test(d.message))
      if (crashed) throw new Error(`a collector crashed: ${crashed.message}`)
      recipes += parsed.recipes.length
      diagnostics += parsed.diagnostics.length
    } catch (error) {
      failures.push(`case ${index} (kinds ${[...chosen].join(', ')}): ${String(error?.stack ?? error).slice(0, 600)}`)
    }
    const took = Math.round(performance.now() - started)
    if (took > 300) slow.push(`${index}:${took}ms:${[...chosen].join('+')}`)
    slowestMs = Math.max(slowestMs, took)
    if (chosen.has('permission-denied')) attempt(() => execFileSync('chmod', ['-R', 'u+rwx', caseDir]))
    if (ONLY === undefined) rmSync(caseDir, { recursive: true, force: true })
  }
  if (ONLY === undefined) rmSync(base, { recursive: true, force: true })
  parentPort.postMessage({ type: 'done', cases: CASES, kinds, failures: failures.slice(0, 10), recipes, diagnostics, slowestMs, slow: slow.slice(0, 40) })
}

/**
 * chmod 0 on a file or folder a case made, never through a link: chmod follows symlinks, and
 * another kind may have made this path a link to /dev/null or to a file outside the case.
 */
function denyAccess(path) {
  if (!lstatSync(path).isSymbolicLink()) chmodSync(path, 0)
}

