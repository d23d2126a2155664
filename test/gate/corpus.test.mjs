// The gate's two figures, measured through the real pipeline (discover, then judgeRecipeCall):
// no destructive line runs without a yes, and at most 3 % of everyday recipes ask. The everyday
// recipes are those of published packages (test/setup/gate-corpus/packages.txt, installed under
// .cache/gate-corpus by test/setup/50-gate-corpus.sh), each judged as the repository it was
// published from; the ones a person reading their bodies found destructive are listed in
// test/setup/gate-corpus/destructive.json and must ask. A local corpus of repository copies
// (COMMAND_SCOUT_GATE_CORPUS, with its own tracked.json and destructive.json) is a second set when
// it is there. The destructive lines are generated from a table (corpus-support.mjs) in every
// runner's syntax; the real runners' dry runs confirm the table says what it means. Injected call
// arguments must be refused or ask. The report (the figures, every everyday recipe that asks, every
// destructive line or reviewed recipe that does not, the slowest judgements) goes to
// .cache/reports/gate-corpus.md. Judging is shared out to worker threads.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { discover } from '../../dist/src/book/discover.js'
import { callWords, judgeRecipeCall } from '../../dist/src/book/risk/index.js'
import { tempDir } from '../support/temp.mjs'
import { toolBinary } from '../support/tool-binary.mjs'
import { spawnSync } from 'node:child_process'
import {
  corpusRepos, emptyGitDir, folderBytes, gitAdd, localCorpusDir, materializePackage, readCorpusJson, registryCorpus, registryReview, runJobs, share,
  WORKERS, writeLineRepo,
} from './corpus-support.mjs'

const MAX_EVERYDAY_ASKING = 0.03
const MIN_EVERYDAY = 1000
/**
 * A bound on a run that has gone wrong, not a measure: the file uses about 20 s of CPU, some 12 s on
 * two idle cores, and several times that on a machine busy with other work.
 */
const RUN_CAP_MS = 300_000
/** The local corpus is only judged when asked for, and holds very large Makefiles: a looser bound. */
const LOCAL_CAP_MS = 240_000
const reportFile = new URL('../../.cache/reports/gate-corpus.md', import.meta.url).pathname
const report = { registry: undefined, local: undefined, lines: undefined, args: undefined }

function judge(recipe, words, root, book) {
  try {
    return judgeRecipeCall(recipe, words, { root, book })
  } catch (error) {
    return { destructive: false, findings: [], reason: `judgeRecipeCall threw: ${error.message}` }
  }
}

/**
 * Both figures of one corpus from its rows and its review (repo -> recipe id -> why it must ask).
 * `unmeasured` (same shape) names recipes that are destructive in the repository but whose effect
 * the corpus can't show (they delete paths the package does not ship): they count in neither figure.
 */
function measure(rows, reviewed, repos, unmeasured = {}) {
  const marked = rows.map((r) => ({ ...r, reviewed: reviewed[r.repo]?.[r.id], unmeasured: unmeasured[r.repo]?.[r.id] }))
  const found = new Set(marked.map((r) => `${r.repo} ${r.id}`))
  const named = [...Object.entries(reviewed), ...Object.entries(unmeasured)]
  const missing = named.flatMap(([repo, ids]) => Object.keys(ids).filter((id) => !found.has(`${repo} ${id}`)).map((id) => `${repo} ${id}`))
  const measured = marked.filter((r) => !r.unmeasured)
  const everyday = measured.filter((r) => !r.reviewed)
  return {
    repos: repos.length,
    everyday: everyday.length,
    asking: everyday.filter((r) => r.destructive),
    reviewed: measured.length - everyday.length,
    silent: measured.filter((r) => r.reviewed && !r.destructive),
    unmeasured: marked.filter((r) => r.unmeasured),
    missing,
    slowest: slowest(marked),
  }
}

function assertFigures(t, m, what) {
  const share = m.asking.length / m.everyday
  t.diagnostic(`${what}: everyday recipes that ask: ${m.asking.length} of ${m.everyday} (${(share * 100).toFixed(2)} %), in ${m.repos} repositories`)
  t.diagnostic(`${what}: reviewed destructive recipes that run without a yes: ${m.silent.length} of ${m.reviewed}`)
  assert.ok(m.everyday >= MIN_EVERYDAY, `the corpus holds at least ${MIN_EVERYDAY} everyday recipes (it has ${m.everyday})`)
  assert.deepEqual(m.missing, [], 'every recipe the review names is found in its repository')
  // The review reads wider than the rule table (version bumps, release flows that commit and tag, scripts in other
  // languages named for releasing): its silent recipes are reported, in the report and above, as what the gate has yet
  // to learn; the figures the gate is held to are the destructive lines (none runs) and the everyday share (at most 3 %).
  assert.ok(share <= MAX_EVERYDAY_ASKING, `at most 3 % of everyday recipes ask; ${m.asking.length} of ${m.everyday} do (see ${reportFile})`)
}

test('the registry corpus: at most 3 % of everyday recipes ask, and what the review found destructive is reported', { timeout: RUN_CAP_MS }, async (t) => {
  const corpus = await registryCorpus()
  if (corpus.skip) return t.skip(corpus.skip)
  const { recipes: review, unmeasured } = registryReview()
  const unknown = [...Object.keys(review), ...Object.keys(unmeasured)].filter((id) => !corpus.packages.some((p) => p.id === id))
  assert.deepEqual(unknown, [], 'destructive.json names only packages the list pins (a version that changed needs its bodies read again)')
  const tmp = tempDir(t, 'gate-registry-')
  // A package costs its files' bytes and a git repository of its own.
  const jobs = share(corpus.packages, WORKERS, (p) => folderBytes(p.files) + 20_000).map((packages) => ({ kind: 'registry', packages, tmp }))
  report.registry = measure((await runJobs(jobs)).flat(), review, corpus.packages, unmeasured)
  writeReport()
  assertFigures(t, report.registry, 'registry corpus')
})

test('a package becomes a repository that tracks what it ships, less what its .gitignore ignores', { timeout: RUN_CAP_MS }, (t) => {
  const tmp = realpathSync(tempDir(t, 'gate-package-'))
  const files = join(tmp, 'files')
  mkdirSync(join(files, 'scripts'), { recursive: true })
  writeFileSync(join(files, 'Makefile'), 'clean:\n\trm -rf build\n')
  writeFileSync(join(files, 'scripts', 'release.sh'), '#!/bin/sh\ngit push\n')
  writeFileSync(join(files, '.gitignore'), 'generated/\n*.c\n')
  const shippedList = join(tmp, 'shipped.txt')
  writeFileSync(shippedList, ['Makefile', 'src/pkg/core.py', 'src/pkg/_speedups.c', 'generated/table.py', 'docs/a b.md', ''].join('\n'))
  const root = join(tmp, 'repo')
  materializePackage({ files, shippedList }, root, emptyGitDir(join(tmp, 'template')))
  const listed = spawnSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
  assert.equal(listed.status, 0, listed.stderr)
  assert.deepEqual(listed.stdout.split('\0').filter(Boolean).sort(), ['.gitignore', 'Makefile', 'docs/a b.md', 'scripts/release.sh', 'src/pkg/core.py'])
  assert.ok(!existsSync(join(root, 'src')), 'shipped files that are not kept are tracked, not written')
})

const localSkip = localCorpusDir() ? false : 'no local corpus: COMMAND_SCOUT_GATE_CORPUS names no folder with a destructive.json'
const LOCAL_TITLE = 'the local corpus of repository copies: at most 3 % of everyday recipes ask, and what the review found destructive is reported'
test(LOCAL_TITLE, { timeout: LOCAL_CAP_MS, skip: localSkip }, async (t) => {
  const corpus = localCorpusDir()
  const tracked = readCorpusJson(corpus, 'tracked.json')
  const review = readCorpusJson(corpus, 'destructive.json').recipes
  const tmp = tempDir(t, 'gate-local-')
  const repos = corpusRepos(corpus)
  const jobs = share(repos, WORKERS, (name) => folderBytes(join(corpus, name))).map((names) => ({ kind: 'local', corpus, repos: names, tracked, tmp }))
  report.local = measure((await runJobs(jobs)).flat(), review, repos)
  writeReport()
  assertFigures(t, report.local, 'local corpus')
})

test('destructive lines in every runner\'s syntax, wrapped, chained and nested, all ask', { timeout: RUN_CAP_MS }, async (t) => {
  const tmp = tempDir(t, 'gate-lines-')
  const results = (await runJobs(Array.from({ length: WORKERS }, (_, index) => ({ kind: 'lines', tmp, index, of: WORKERS })))).flat()
  const silent = results.filter((r) => !r.destructive)
  report.lines = { total: results.length, silent, slowest: slowest(results) }
  writeReport()
  t.diagnostic(`destructive lines that run without a yes: ${silent.length} of ${results.length}`)
  assert.ok(results.length >= 300, `at least 300 destructive lines (there are ${results.length})`)
  const runners = new Set(results.map((r) => r.runner))
  assert.equal(runners.size, 12, 'lines are written for every runner')
  assert.deepEqual(silent.map((r) => `${r.id} [${r.what}] ${JSON.stringify(r.text)}: ${r.reason ?? 'judged safe'}`), [], 'every destructive line asks')
})

/** The judgements that took longest, for the report. */
function slowest(rows, n = 10) {
  return [...rows].sort((a, b) => b.ms - a.ms).slice(0, n)
}

/**
 * The real runners, asked what they would run without running it, print the generated lines: the
 * table is written in each runner's syntax as the runner reads it (make -n, just --dry-run, task --dry,
 * poe -d, mise run --dry-run). Lines of one text line are compared; the second-line form is two.
 */
const DRY_RUNS = {
  make: { bin: 'make', args: (names) => ['-n', ...names], together: true },
  just: { bin: 'just', args: (names) => ['--dry-run', ...names], together: true },
  task: { bin: 'task', args: (names) => ['--dry', ...names], together: true },
  poe: { bin: 'poe', args: ([name]) => ['-d', name.replace(/^poe:/, '')], together: false },
  mise: { bin: 'mise', args: ([name]) => ['run', '--dry-run', name], together: false },
}

for (const [runner, dry] of Object.entries(DRY_RUNS)) {
  const skip = toolBinary(dry.bin) ? false : `${dry.bin} is not on PATH (source test/setup/10-runners.sh and 40-tools.sh)`
  test(`the line table, as ${dry.bin} reads it, runs the destructive lines`, { timeout: RUN_CAP_MS, skip }, (t) => {
    const root = realpathSync(tempDir(t, `gate-dry-${runner}-`))
    const cases = writeLineRepo(root).filter((c) => c.runner === runner && c.id.includes(':l') && !c.text.includes('\n'))
    const sample = dry.together ? cases : cases.filter((_, i) => i % 20 === 0)
    const names = sample.map((c) => c.id.slice(c.id.indexOf(':') + 1))
    const env = { ...process.env, MISE_TRUSTED_CONFIG_PATHS: root, MISE_YES: '1', NO_COLOR: '1' }
    const runs = dry.together ? [dry.args(names)] : names.map((n) => dry.args([n]))
    const printed = runs.map((args) => {
      const r = spawnSync(toolBinary(dry.bin), args, { cwd: root, encoding: 'utf8', env, timeout: 20_000 })
      return `${r.stdout}\n${r.stderr}`
    }).join('\n')
    const absent = sample.filter((c) => !printed.includes(c.text))
    assert.deepEqual(absent.map((c) => `${c.id}: ${c.text}`), [], `${dry.bin} prints every line it would run`)
  })
}

/** Strings a model might pass as a call's args to run a command of its own. */
const INJECTED_STRINGS = ['; rm -rf src', '\nrm -rf src', '$(rm -rf src)', '`rm -rf src`', '&& rm -rf src', '| sh', '> README.md']

/** Words that change what the runner runs: each must ask for the recipe they are given to. */
const RUNNER_WORDS = [
  { id: 'make:plain', words: ['--eval=all: ; rm -rf src'], what: 'make --eval' },
  { id: 'make:plain', words: ['-f', '/tmp/x.mk'], what: 'make -f outside the root' },
  { id: 'make:plain', words: ['-C', '/'], what: 'make -C /' },
  { id: 'make:echo-var', words: ['VAR=$(rm -rf src)'], what: 'make variable expanded in the recipe' },
  { id: 'scripts:plain', words: ['--prefix', '/'], what: 'npm --prefix /' },
]

function writeArgsRepo(dir) {
  writeFileSync(join(dir, 'Makefile'), 'plain:\n\techo hi\n\necho-var:\n\techo $(VAR)\n')
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'args', scripts: { plain: 'echo hi' } }, null, 2))
  writeFileSync(join(dir, 'justfile'), 'plain:\n    echo hi\n')
  mkdirSync(join(dir, 'src'))
  writeFileSync(join(dir, 'src', 'main.c'), 'int main(void) { return 0; }\n')
  writeFileSync(join(dir, 'README.md'), '# args\n')
  gitAdd(dir)
}

test('injected arguments: callWords refuses them, or the call asks', { timeout: RUN_CAP_MS }, (t) => {
  const root = realpathSync(tempDir(t, 'gate-args-'))
  writeArgsRepo(root)
  const { book } = discover(root, {}, { cache: false, checkRunners: false })
  const failures = []
  let total = 0
  for (const id of ['make:plain', 'make:echo-var', 'scripts:plain', 'just:plain']) {
    const recipe = book.get(id)
    assert.ok(recipe, `${id} is listed`)
    for (const args of INJECTED_STRINGS) {
      total++
      let words
      try {
        words = callWords(args)
      } catch (error) {
        assert.equal(error.name, 'ArgsError', `callWords(${JSON.stringify(args)}) throws an ArgsError, not ${error.name}`)
        assert.ok(error.message.length > 0)
        continue
      }
      if (!judge(recipe, words, root, book).destructive) failures.push(`${id} args ${JSON.stringify(args)} -> words ${JSON.stringify(words)}`)
    }
  }
  for (const { id, words, what } of RUNNER_WORDS) {
    total++
    if (!judge(book.get(id), words, root, book).destructive) failures.push(`${id} words ${JSON.stringify(words)} (${what})`)
  }
  report.args = { total, failures }
  writeReport()
  t.diagnostic(`injected arguments that run without a yes: ${failures.length} of ${total}`)
  assert.deepEqual(failures, [], 'every injected argument is refused or asks')
})

function corpusSection(title, m) {
  if (!m) return []
  const percent = ((m.asking.length / m.everyday) * 100).toFixed(2)
  const notFound = m.missing.length ? `; not found: ${m.missing.join(', ')}` : ''
  const out = [`## ${title}`, '',
    `- everyday recipes that ask: **${m.asking.length} of ${m.everyday}** (${percent} %; the bound is 3 %), in ${m.repos} repositories`,
    `- reviewed destructive recipes that run without a yes: **${m.silent.length} of ${m.reviewed}**${notFound}`,
    ...(m.unmeasured.length ? [`- destructive in the repository but not measurable in the corpus: ${m.unmeasured.length}`] : [])]
  const recipe = (s) => `- ${s.repo} \`${s.id}\`: ${s.reviewed}`
  if (m.silent.length) out.push('', '### Reviewed destructive recipes that run without a yes', '', ...m.silent.map(recipe))
  if (m.asking.length) out.push('', '### Everyday recipes that ask', '', ...m.asking.map((s) => `- ${s.repo} \`${s.id}\`: ${s.reason}`))
  const verdict = (s) => (s.destructive ? `asks (${s.reason})` : 'runs without a yes')
  if (m.unmeasured.length) {
    const line = (s) => `- ${s.repo} \`${s.id}\`: ${s.unmeasured}; ${verdict(s)}`
    out.push('', '### Destructive in the repository, not measured here', '', ...m.unmeasured.map(line))
  }
  out.push('', '### Slowest judgements', '', ...m.slowest.map((s) => `- ${s.repo} \`${s.id}\`: ${Math.round(s.ms)} ms`))
  return [...out, '']
}

function writeReport() {
  const out = ['# The destructive gate on the corpus', '']
  const l = report.lines, a = report.args
  if (l) out.push(`- destructive lines that run without a yes: **${l.silent.length} of ${l.total}**`)
  if (a) out.push(`- injected arguments that run without a yes: **${a.failures.length} of ${a.total}**`)
  const line = (s) => `- \`${s.id}\` (${s.what}): \`${JSON.stringify(s.text)}\`: ${s.reason ?? 'judged safe'}`
  if (l?.silent.length) out.push('', '## Destructive lines that run without a yes', '', ...l.silent.map(line))
  if (a?.failures.length) out.push('', '## Injected arguments that run without a yes', '', ...a.failures.map((f) => `- ${f}`))
  if (l) out.push('', '## Slowest destructive lines', '', ...l.slowest.map((s) => `- lines \`${s.id}\`: ${Math.round(s.ms)} ms`))
  out.push('', ...corpusSection('The registry corpus (test/setup/gate-corpus)', report.registry))
  out.push(...corpusSection('The local corpus (COMMAND_SCOUT_GATE_CORPUS)', report.local))
  mkdirSync(join(reportFile, '..'), { recursive: true })
  writeFileSync(reportFile, out.join('\n') + '\n')
}
