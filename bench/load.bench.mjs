// What dsh pays to load the bundle, three ways, each beside its baseline in the same run (medians of
// paired rounds whose order alternates, so that load on a shared machine hits both sides alike):
//   (a) importing every module that cordis.patch.yml's rows name, each entry in a fresh process,
//       after the @deepseek-ai packages are loaded (as dsh has them loaded), against the packages alone;
//   (b) a headless dsh session, process start to its first model request, against the fake model
//       (test/support/fake-model.mjs), with and without the bundle's rows (loaded in place from dist/),
//       and with as many empty plugins as the bundle has enabled rows: what dsh itself charges for
//       that many rows, whatever they hold, so that "bundle - empty rows" is the bundle's own code;
//   (c) a cook (the bundle's cook runner on the same dsh), spawn to its first run line and to its first
//       model request, against the stock headless run's first model request.
// (b) and (c) need the pinned dsh (bash test/setup/20-dsh.sh); they say so and are skipped without it.
// Where the time of one entry goes: node bench/import-cost.mjs. Goal: the bundle costs at most 40 ms.
// Usage (after npm run build): node bench/load.bench.mjs; LOAD_ROUNDS=9, LOAD_PARTS=imports,session,cook.
import { spawnSync } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { bundleRows, loadNode, peerPackages, REPO } from './load-support.mjs'
import { median, ms, signedMs } from './support.mjs'

const ROUNDS = Number(process.env.LOAD_ROUNDS ?? 7)
const PARTS = (process.env.LOAD_PARTS ?? 'imports,session,cook').split(',')

console.log(`machine: ${cpus().length} cores, load ${loadavg()[0].toFixed(2)}; ${ROUNDS} paired rounds, order alternating`)

// ------------------------------------------------------------------------------------------------
// (a) imports

/**
 * One fresh process: the peers, then `entries`; answers the time of each part, measured inside, and
 * the process's whole wall time, measured outside.
 */
function importRun(node, peers, entries) {
  const program = [
    'const peers = JSON.parse(process.argv[1]); const entries = JSON.parse(process.argv[2])',
    'const t0 = performance.now(); for (const p of peers) await import(p)',
    'const t1 = performance.now(); for (const e of entries) await import(e)',
    'const t2 = performance.now(); process.stdout.write(JSON.stringify({ peers: t1 - t0, entries: t2 - t1 }))',
  ].join('\n')
  const t = process.hrtime.bigint()
  const r = spawnSync(node, ['--input-type=module', '-e', program, JSON.stringify(peers), JSON.stringify(entries)], { cwd: REPO, encoding: 'utf8' })
  const wall = Number(process.hrtime.bigint() - t) / 1e6
  if (r.status !== 0) throw new Error(`importing ${entries.join(', ') || 'the peers'} failed: ${r.stderr.trim().split('\n').slice(-3).join(' ')}`)
  return { ...JSON.parse(r.stdout), wall }
}

function importsPart() {
  const node = loadNode()
  const peers = peerPackages(node.path)
  const rows = bundleRows()
  const enabled = rows.filter((r) => !r.disabled)
  const cases = [
    ...[...new Map(rows.map((r) => [r.file, r])).values()].map((r) => ({
      label: `${r.id} (${r.name})${r.disabled ? ', disabled by default' : ''}`,
      entries: [r.file],
    })),
    { label: `every enabled row (${enabled.length}), one process`, entries: [...new Set(enabled.map((r) => r.file))], total: true },
    { label: `every row (${rows.length}), one process`, entries: [...new Set(rows.map((r) => r.file))] },
  ]
  const inside = new Map(cases.map((c) => [c, []]))
  const over = new Map(cases.map((c) => [c, []]))
  const peersInside = []
  const peersWall = []
  for (let i = 0; i < ROUNDS; i++) {
    // Each case is paired with a peers-only process right before or after it, alternating.
    for (const c of cases) {
      const alone = () => importRun(node.path, peers, [])
      const loaded = () => importRun(node.path, peers, c.entries)
      const [bare, withEntries] = i % 2 === 0 ? [alone(), loaded()] : (([y, x]) => [x, y])([loaded(), alone()])
      peersInside.push(bare.peers)
      peersWall.push(bare.wall)
      inside.get(c).push(withEntries.entries)
      over.get(c).push(withEntries.wall - bare.wall)
    }
  }
  console.log(`\n(a) importing the rows' modules after the ${peers.length} @deepseek-ai packages (${node.label}); baseline: the packages alone,`
    + ` ${ms(median(peersInside))} to import, ${ms(median(peersWall))} the whole process`)
  console.log('| row (module) | import, measured inside | whole process over the packages alone | goal |')
  console.log('|---|---|---|---|')
  for (const c of cases) console.log(`| ${c.label} | ${ms(median(inside.get(c)))} | ${signedMs(median(over.get(c)))} | ${c.total ? '≤ 40 ms' : ''} |`)
}

// ------------------------------------------------------------------------------------------------
// (b) and (c): the real dsh

/** The bundle's layer as an overlay naming dist/'s files in place: the same rows, ids and config. */
function overlayText() {
  const rows = bundleRows()
  const lines = ['- insert:']
  for (const r of rows) {
    lines.push(`    - id: ${r.id}`, `      name: ${JSON.stringify(r.file)}`)
    if (r.config !== undefined) lines.push(`      config: ${JSON.stringify(r.config)}`)
    if (r.disabled) lines.push('      disabled: true')
  }
  return `${lines.join('\n')}\n`
}

/** An overlay of `n` plugins that do nothing (each its own module file in `dir`): dsh's own cost of n rows. */
function emptyRowsOverlay(dir, n) {
  const lines = ['- insert:']
  for (let i = 1; i <= n; i++) {
    const file = join(dir, `empty-row-${i}.mjs`)
    writeFileSync(file, `export const name = 'empty-row-${i}'\nexport function apply() {}\n`)
    lines.push(`    - id: empty-row-${i}`, `      name: ${JSON.stringify(file)}`)
  }
  return `${lines.join('\n')}\n`
}

/** A function answer that notes when the request came, then answers `answer`. */
function timed(at, answer) {
  return async () => {
    at.push(performance.now())
    return answer
  }
}

async function sessionPart(h) {
  const ws = join(h.scratch, 'ws')
  mkdirSync(ws, { recursive: true })
  writeFileSync(join(ws, 'Makefile'), '.PHONY: build test\nbuild: ## Build it\n\t@echo built\ntest: ## Test it\n\t@echo tested\n')
  const enabled = bundleRows().filter((r) => !r.disabled).length
  const overlays = { bundle: join(h.scratch, 'bundle.yml'), empty: join(h.scratch, 'empty-rows.yml') }
  writeFileSync(overlays.bundle, overlayText())
  writeFileSync(overlays.empty, emptyRowsOverlay(h.scratch, enabled))
  const run = async (kind) => {
    const at = []
    h.model.default.push(timed(at, { text: 'done' }))
    const patches = [h.home.deterministicPatch, ...(overlays[kind] ? [overlays[kind]] : [])].flatMap((p) => ['--patch', p])
    const t = performance.now()
    const r = await h.harness.startDsh({ args: ['--profile', 'headless', ...patches, 'say hi'], cwd: ws, home: h.home, model: h.model }).done
    if (r.code !== 0) throw new Error(`headless dsh (${kind}) failed: ${r.stderr.trim().split('\n').slice(-3).join(' ')}`)
    const first = h.model.requests.at(-1)
    if (kind === 'bundle' && !first.tools.includes('make_build')) {
      throw new Error(`the bundle's tools are not in the first model request (tools: ${first.tools.join(', ')})`)
    }
    return { first: at[0] - t, exit: performance.now() - t }
  }
  // Each warm once: the first run of a home sets up its profile, the bundle's first makes its code cache.
  const kinds = ['bare', 'bundle', 'empty']
  for (const kind of kinds) await run(kind)
  const times = Object.fromEntries(kinds.map((k) => [k, { first: [], exit: [] }]))
  const diff = { bundle: { first: [], exit: [] }, empty: { first: [], exit: [] }, own: { first: [], exit: [] } }
  for (let i = 0; i < ROUNDS; i++) {
    // The order rotates each round, so that each kind runs first, second and third equally often.
    const round = {}
    for (let j = 0; j < kinds.length; j++) {
      const kind = kinds[(i + j) % kinds.length]
      round[kind] = await run(kind)
    }
    for (const k of ['first', 'exit']) {
      for (const kind of kinds) times[kind][k].push(round[kind][k])
      diff.bundle[k].push(round.bundle[k] - round.bare[k])
      diff.empty[k].push(round.empty[k] - round.bare[k])
      diff.own[k].push(round.bundle[k] - round.empty[k])
    }
  }
  console.log('\n(b) headless dsh session against the fake model, a workspace with a two-target Makefile (one text answer)')
  console.log(`| measure | with the bundle | without (baseline) | with ${enabled} empty rows | bundle - without, paired | empty rows - without, paired | bundle - empty rows, paired | goal |`)
  console.log('|---|---|---|---|---|---|---|---|')
  for (const [k, label, goal] of [['first', 'process start to first model request', '≤ +40 ms'], ['exit', 'process start to exit', '']]) {
    console.log(`| ${label} | ${ms(median(times.bundle[k]))} | ${ms(median(times.bare[k]))} | ${ms(median(times.empty[k]))} | ${signedMs(median(diff.bundle[k]))} | ${signedMs(median(diff.empty[k]))} | ${signedMs(median(diff.own[k]))} | ${goal} |`)
  }
  console.log(`"empty rows": ${enabled} plugins that do nothing, one module each, as many as the bundle's enabled rows (cordis.patch.yml keeps each collector its own row): what dsh charges per row, whatever the row holds.`)
}

async function cookPart(h) {
  const cookSupport = await import('../test/cook/support.mjs')
  const { offersTool } = await import('../test/support/fake-model.mjs')
  const cookRoute = h.model.route('cook', (b) => offersTool(b, 'chef_report'))
  const ws = join(h.scratch, 'bare')
  mkdirSync(ws, { recursive: true })
  let n = 0
  const cook = async () => {
    const at = []
    const task = await cookSupport.makeTask(join(h.scratch, `task-${++n}`), { id: `bench-${n}` })
    cookRoute.push(timed(at, { tool: 'chef_report', args: { status: 'done', summary: 'ok' } }))
    const t = performance.now()
    const c = cookSupport.startCook({ task, run: 1, prompt: 'Report done.\n', model: h.model, home: h.home, modelName: 'deepseek-official/deepseek-v4-flash' })
    await cookSupport.until(() => c.lines().length > 0, 'the first run line', 60_000)
    const line = performance.now() - t
    const r = await c.done
    if (r.code !== 0) throw new Error(`the cook run failed: ${r.err.trim().split('\n').slice(-3).join(' ')}`)
    return { line, first: at[0] - t }
  }
  const bare = async () => {
    const at = []
    h.model.default.push(timed(at, { text: 'hi' }))
    const t = performance.now()
    const args = ['--profile', 'headless', '--patch', h.home.deterministicPatch, 'say hi']
    const r = await h.harness.startDsh({ args, cwd: ws, home: h.home, model: h.model }).done
    if (r.code !== 0) throw new Error(`headless baseline failed: ${r.stderr}`)
    return at[0] - t
  }
  await cook()
  await bare()
  const lines = []
  const firsts = []
  const bases = []
  for (let i = 0; i < ROUNDS; i++) {
    if (i % 2 === 0) bases.push(await bare())
    const c = await cook()
    if (i % 2 === 1) bases.push(await bare())
    lines.push(c.line)
    firsts.push(c.first)
  }
  console.log('\n(c) a cook: the bundle\'s cook runner on the same dsh (one chef_report step), against the stock headless run')
  console.log('| measure | cook | baseline: stock headless, start to first model request | over the baseline |')
  console.log('|---|---|---|---|')
  console.log(`| spawn to the cook's first model request | ${ms(median(firsts))} | ${ms(median(bases))} | ${signedMs(median(firsts) - median(bases))} |`)
  const line = median(lines)
  console.log(`| spawn to the cook's first run line (dispatch to first line) | ${ms(line)} | ${ms(median(bases))} | ${signedMs(line - median(bases))} |`)
}

if (PARTS.includes('imports')) {
  try {
    importsPart()
  } catch (error) {
    console.log(`(a) failed: ${error.message}`)
    process.exitCode = 1
  }
}
if (PARTS.includes('session') || PARTS.includes('cook')) {
  const harness = await import('../test/e2e/harness.mjs')
  const why = harness.dshAvailable()
  if (why) console.log(`\n(b), (c) skipped: ${why}`)
  else {
    const { startFakeModel } = await import('../test/support/fake-model.mjs')
    const home = await harness.makeHome('cs-bench-load-')
    const scratch = join(tmpdir(), `cs-bench-load-${process.pid}`)
    mkdirSync(scratch)
    const model = await startFakeModel()
    const h = { harness, home, scratch, model }
    try {
      for (const [part, fn] of [['session', sessionPart], ['cook', cookPart]]) {
        if (!PARTS.includes(part)) continue
        try {
          await fn(h)
        } catch (error) {
          console.log(`(${part === 'session' ? 'b' : 'c'}) failed: ${error.message}`)
          process.exitCode = 1
        }
      }
    } finally {
      await model.close()
      await home.cleanup()
      rmSync(scratch, { recursive: true, force: true })
    }
  }
}
