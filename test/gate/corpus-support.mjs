// The destructive lines the gate is measured on, as a table: base lines of every rule family, the
// forms that hide them (wrappers, chains, nesting, inline interpreters), each written in every
// runner's syntax into one git repository, plus the calls from one recipe to another each runner
// has. Also the repositories the everyday corpora are judged in: each published package of the
// registry corpus (test/setup/gate-corpus, installed under .cache/gate-corpus), and each folder
// of a local corpus of repository copies (COMMAND_SCOUT_GATE_CORPUS); and the worker threads that
// judge them all (this module is also the workers' entry).
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { availableParallelism } from 'node:os'
import { dirname, join } from 'node:path'
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'

/** One line of each rule family; `src/`, `bin/run.sh`, README.md and composer.json are tracked where they run. */
export const BASE_LINES = [
  'rm -rf src', 'rm -r src', 'rm src/main.c', 'rmdir src', 'shred -u README.md', 'unlink README.md', 'truncate -s 0 README.md',
  'dd if=/dev/zero of=README.md bs=1 count=1', 'echo x > README.md', ': > src/main.c', "sed -i 's/a/b/' README.md", 'mv src /tmp/src',
  'ln -sf /dev/null README.md', 'cp /etc/hostname README.md', 'chmod -R 000 src', 'rsync -a --delete /tmp/empty/ src/', 'find . -delete',
  "find src -name '*.c' -delete", "find . -name '*.c' -exec rm {} +", 'git reset --hard', 'git clean -fdx', 'git checkout -- .',
  'git restore .', 'git push --force', 'git push origin --delete x', 'git branch -D x', 'git tag -d v1', 'git update-ref -d refs/heads/x',
  'git worktree remove --force w', 'git stash drop', 'git stash clear', 'git filter-branch --tree-filter true HEAD', 'git rm -r src',
  'npm publish', 'pnpm publish', 'yarn publish', 'npm unpublish pkg@1.0.0', 'cargo publish', 'twine upload dist/*', 'gh release create v1',
  'gh release delete v1', 'gh repo delete o/r --yes', 'kubectl apply -f k8s/', 'kubectl delete ns prod', 'helm install app ./chart',
  'helm upgrade app ./chart', 'helm uninstall app', 'terraform apply -auto-approve', 'terraform destroy -auto-approve', 'pulumi up --yes',
  'pulumi destroy --yes', 'vercel --prod', 'fly deploy', 'serverless deploy', 'aws s3 rm s3://b --recursive', 'gsutil rm gs://b/x',
  'docker system prune -af', 'docker volume rm v', 'docker rm -f c', 'docker compose down -v', 'dropdb app', 'psql -c "DROP TABLE users"',
  'mysql -e "TRUNCATE TABLE t"', 'redis-cli FLUSHALL', 'php artisan migrate:fresh', 'php artisan db:wipe', 'python manage.py flush --no-input',
  'rails db:drop', 'rails db:reset', 'prisma migrate reset --force', 'supabase db reset', 'rm -rf bin', 'rm -rf ~/x', 'rm -rf /', 'rm -rf ..',
]

/** Code that deletes, run by an interpreter from the command line. */
export const INTERPRETER_LINES = [
  `python3 -c "import shutil; shutil.rmtree('src')"`,
  `node -e "require('fs').rmSync('src',{recursive:true})"`,
  `perl -e 'unlink "README.md"'`,
  `ruby -e 'FileUtils.rm_rf("src")'`,
  `php -r 'unlink("composer.json");'`,
]

/** The lines the hiding forms are applied to: a deletion, a history rewrite, a publication. */
export const HIDDEN = ['rm -rf src', 'git push --force', 'npm publish']

/** Forms that run `x` all the same: wrappers, chains, nesting, substitutions, a second line, the background. */
export const FORMS = {
  'sudo': (x) => `sudo -u root ${x}`, 'doas': (x) => `doas ${x}`, 'env': (x) => `env X=1 ${x}`, 'timeout': (x) => `timeout 5 ${x}`,
  'nice': (x) => `nice -n 5 ${x}`, 'ionice': (x) => `ionice -c3 ${x}`, 'stdbuf': (x) => `stdbuf -oL ${x}`, 'nohup': (x) => `nohup ${x}`,
  'command': (x) => `command ${x}`, 'builtin': (x) => `builtin ${x}`, 'exec': (x) => `exec ${x}`, 'xargs': (x) => `echo | xargs ${x}`,
  'busybox': (x) => `busybox ${x}`, 'parallel': (x) => `parallel ::: '${x}'`, 'sh -c': (x) => `sh -c '${x}'`, 'bash -c': (x) => `bash -c "${x}"`,
  'eval': (x) => `eval "${x}"`, 'and': (x) => `true && ${x}`, 'or': (x) => `${x} || true`, 'if': (x) => `if true; then ${x}; fi`,
  'group': (x) => `{ ${x}; }`, 'subshell': (x) => `(${x})`, 'for': (x) => `for f in a; do ${x}; done`,
  'while': (x) => `while false; do :; done; ${x}`, 'case': (x) => `case a in a) ${x};; esac`, 'function': (x) => `f() { ${x}; }; f`,
  'backticks': (x) => `echo \`${x}\``, 'substitution': (x) => `echo $(${x})`, 'process substitution': (x) => `cat <(${x})`,
  'second line': (x) => `true\n${x}`, 'background': (x) => `${x} &`,
}

/** Every generated line: `{ what, text }`, where `what` says which table row it is. */
export function destructiveLines() {
  const lines = BASE_LINES.map((text) => ({ what: 'base', text }))
  for (const text of INTERPRETER_LINES) lines.push({ what: 'interpreter', text })
  for (const [form, wrap] of Object.entries(FORMS)) for (const x of HIDDEN) lines.push({ what: form, text: wrap(x) })
  return lines
}

const MAKE_ESCAPE = (text) => text.replace(/\$/g, '$$$$')
const JUST_ESCAPE = (text) => text.replace(/\{\{/g, '{{{{')
const TOML = (text) => JSON.stringify(text)
const textsByName = (entries, extra) => Object.fromEntries([...entries.map((e) => [e.name, e.text]), ...extra])

/**
 * One writer per runner: `body(entries, extra)` returns the manifest text for entries `{ name, text }`
 * (shell text) and `extra` (the runner's own chain syntax). `id(name)` is the recipe id discover gives.
 */
export const RUNNERS = {
  make: {
    file: 'Makefile',
    id: (n) => `make:${n}`,
    body: (entries, extra = []) => [...extra.filter((e) => e.head).map((e) => e.head),
      ...entries.flatMap((e) => [`${e.name}:`, ...e.text.split('\n').map((l) => `\t${MAKE_ESCAPE(l)}`), '']),
      ...extra.flatMap((e) => e.lines ?? []), ''].join('\n'),
  },
  scripts: {
    file: 'package.json',
    id: (n) => `scripts:${n}`,
    body: (entries, extra = []) => JSON.stringify({ name: 'lines', private: true, scripts: textsByName(entries, extra) }, null, 2),
  },
  just: {
    file: 'justfile',
    id: (n) => `just:${n}`,
    body: (entries, extra = []) => [...extra.filter((e) => e.head).map((e) => e.head),
      ...entries.flatMap((e) => [`${e.name}:`, ...e.text.split('\n').map((l) => `    ${JUST_ESCAPE(l)}`), '']),
      ...extra.flatMap((e) => e.lines ?? []), ''].join('\n'),
  },
  task: {
    file: 'Taskfile.yml',
    id: (n) => `task:${n}`,
    body: (entries, extra = {}) => {
      const tasks = { ...Object.fromEntries(entries.map((e) => [e.name, { cmds: [e.text] }])), ...extra.tasks }
      return JSON.stringify({ version: '3', vars: extra.vars ?? {}, tasks }, null, 2)
    },
  },
  deno: {
    file: 'deno.json',
    id: (n) => `deno:${n}`,
    body: (entries, extra = []) => JSON.stringify({ tasks: textsByName(entries, extra) }, null, 2),
  },
  mise: {
    file: 'mise.toml',
    id: (n) => `mise:${n}`,
    body: (entries, extra = []) => [...entries.flatMap((e) => [`[tasks.${e.name}]`, `run = ${TOML(e.text)}`, '']), ...extra, ''].join('\n'),
  },
  composer: {
    file: 'composer.json',
    id: (n) => `composer:${n}`,
    body: (entries, extra = []) => JSON.stringify({ name: 'lines/lines', scripts: textsByName(entries, extra) }, null, 2),
  },
  poe: { section: 'tool.poe.tasks', id: (n) => `python:poe:${n}`, entry: (e) => `${e.name} = { shell = ${TOML(e.text)} }` },
  pdm: { section: 'tool.pdm.scripts', id: (n) => `python:pdm:${n}`, entry: (e) => `${e.name} = { shell = ${TOML(e.text)} }` },
  hatch: { section: 'tool.hatch.envs.default.scripts', id: (n) => `python:hatch:${n}`, entry: (e) => `${e.name} = ${TOML(e.text)}` },
  vscode: {
    file: '.vscode/tasks.json',
    id: (n) => `vscode:${n}`,
    body: (entries, extra = []) => {
      const tasks = [...entries.map((e) => ({ label: e.name, type: 'shell', command: e.text })), ...extra]
      return JSON.stringify({ version: '2.0.0', tasks }, null, 2)
    },
  },
  nx: {
    file: 'apps/lines/project.json',
    id: (n) => `nx:lines:${n}`,
    body: (entries, extra = {}) => {
      const target = (command) => ({ executor: 'nx:run-commands', options: { command, cwd: '.' } })
      return JSON.stringify({ name: 'lines', targets: { ...Object.fromEntries(entries.map((e) => [e.name, target(e.text)])), ...extra } }, null, 2)
    },
  },
}

/** The python runners share one pyproject.toml. */
function pyproject(byRunner) {
  const parts = ['[project]', 'name = "lines"', 'version = "0.0.0"', '']
  for (const name of ['poe', 'pdm', 'hatch']) {
    const { entries, extra } = byRunner[name]
    parts.push(`[${RUNNERS[name].section}]`, ...entries.map(RUNNERS[name].entry), ...extra, '')
  }
  return parts.join('\n')
}

/**
 * Chains each runner has, from `a` to `b` where `b` runs `x`: what to add to the manifest, and the
 * name of the recipe to judge. `k` keeps names unique.
 */
function chains(runner, x, k) {
  const a = `c${k}`, b = `c${k}b`, c = `c${k}c`
  const plain = { name: b, text: x }
  // The variable forms put the line's last word (its operand) in a runner variable.
  const last = x.split(' ').pop()
  const verb = x.split(' ').slice(0, -1).join(' ')
  switch (runner) {
    case 'make': return [
      { entries: [plain], extra: [{ lines: [`${a}: ${b}`, '\t@echo done', ''] }], judge: a, what: 'make prerequisite' },
      { entries: [{ name: c, text: x }], extra: [{ lines: [`${a}x: ; $(MAKE) ${c}`, ''] }], judge: `${a}x`, what: 'make $(MAKE) call' },
      { entries: [], extra: [{ head: `DIR${k} = ${last}` }, { lines: [`${a}v:`, `\t${verb} $(DIR${k})`, ''] }], judge: `${a}v`, what: 'make variable' },
    ]
    case 'scripts': return [
      { entries: [plain], extra: [[a, `npm run ${b}`]], judge: a, what: 'npm run call' },
      { entries: [], extra: [[`pre${a}x`, x], [`${a}x`, 'echo done']], judge: `${a}x`, what: 'npm pre hook' },
    ]
    case 'just': return [
      { entries: [plain], extra: [{ lines: [`${a}: ${b}`, '    @echo done', ''] }], judge: a, what: 'just dependency' },
      { entries: [], extra: [{ head: `dir${k} := "${last}"` }, { lines: [`${a}v:`, `    ${verb} {{dir${k}}}`, ''] }], judge: `${a}v`, what: 'just variable' },
    ]
    case 'task': return [
      { entries: [plain], extra: { tasks: { [a]: { deps: [b], cmds: ['echo done'] } } }, judge: a, what: 'task deps' },
      { entries: [{ name: c, text: x }], extra: { tasks: { [`${a}x`]: { cmds: [{ task: c }] } } }, judge: `${a}x`, what: 'task call' },
      { entries: [], extra: { vars: { [`DIR${k}`]: last }, tasks: { [`${a}v`]: { cmds: [`${verb} {{.DIR${k}}}`] } } }, judge: `${a}v`, what: 'task variable' },
    ]
    case 'deno': return [{ entries: [plain], extra: [[a, `deno task ${b}`]], judge: a, what: 'deno task call' }]
    case 'mise': return [{ entries: [plain], extra: [`[tasks.${a}]`, `depends = ["${b}"]`, 'run = "echo done"', ''], judge: a, what: 'mise depends' }]
    case 'composer': return [{ entries: [plain], extra: [[a, `@${b}`]], judge: a, what: 'composer @script' }]
    case 'poe': return [{ entries: [plain], extra: [`${a} = { sequence = ["${b}"] }`], judge: a, what: 'poe sequence' }]
    case 'pdm': return [{ entries: [plain], extra: [`${a} = { composite = ["${b}"] }`], judge: a, what: 'pdm composite' }]
    case 'hatch': return [{ entries: [plain], extra: [`${a} = ["${b}"]`], judge: a, what: 'hatch script list' }]
    case 'vscode': return [{ entries: [plain], extra: [{ label: a, type: 'shell', command: 'echo done', dependsOn: [b] }], judge: a, what: 'vscode dependsOn' }]
    case 'nx': {
      const target = { executor: 'nx:run-commands', options: { command: 'echo done' }, dependsOn: [b] }
      return [{ entries: [plain], extra: { [a]: target }, judge: a, what: 'nx dependsOn' }]
    }
  }
  return []
}

function mergeExtra(runner, list) {
  if (runner === 'task') return list.reduce((acc, e) => ({ vars: { ...acc.vars, ...e.vars }, tasks: { ...acc.tasks, ...e.tasks } }), { vars: {}, tasks: {} })
  if (runner === 'nx') return Object.assign({}, ...list)
  return list.flat()
}

/**
 * Writes the line repository into `dir`: every line as a recipe of every runner, the chains, and a
 * recipe per runner that runs a script holding the line. Returns the cases: `{ id, runner, what, text }`.
 */
export function writeLineRepo(dir) {
  const lines = destructiveLines()
  const cases = []
  const byRunner = {}
  let k = 0
  for (const runner of Object.keys(RUNNERS)) {
    const entries = lines.map((l, i) => ({ name: `l${String(i).padStart(4, '0')}`, text: l.text }))
    entries.forEach((e, i) => cases.push({ id: RUNNERS[runner].id(e.name), runner, what: lines[i].what, text: e.text }))
    const extras = []
    for (const x of ['rm -rf src', 'npm publish']) {
      for (const chain of chains(runner, x, k++)) {
        entries.push(...chain.entries)
        extras.push(chain.extra)
        cases.push({ id: RUNNERS[runner].id(chain.judge), runner, what: chain.what, text: x })
      }
    }
    const script = `scripts/clean-${runner}.sh`
    entries.push({ name: 'sclean', text: `./${script}` }, { name: 'sclean2', text: `sh ${script}` })
    for (const name of ['sclean', 'sclean2']) cases.push({ id: RUNNERS[runner].id(name), runner, what: 'script file', text: `git reset --hard (in ${script})` })
    mkdirSync(join(dir, 'scripts'), { recursive: true })
    writeFileSync(join(dir, script), '#!/bin/sh\nset -e\necho cleaning\ngit reset --hard\n')
    chmodSync(join(dir, script), 0o755)
    byRunner[runner] = { entries, extra: mergeExtra(runner, extras) }
  }
  for (const [runner, { entries, extra }] of Object.entries(byRunner)) {
    if (!RUNNERS[runner].file) continue
    mkdirSync(dirname(join(dir, RUNNERS[runner].file)), { recursive: true })
    writeFileSync(join(dir, RUNNERS[runner].file), RUNNERS[runner].body(entries, extra))
  }
  writeFileSync(join(dir, 'pyproject.toml'), pyproject(byRunner))
  writeFileSync(join(dir, 'nx.json'), '{}\n')
  writeTrackedTree(dir)
  gitAdd(dir)
  return cases
}

/** What the lines act on, tracked: sources, a script folder, a readme. */
function writeTrackedTree(dir) {
  mkdirSync(join(dir, 'src'), { recursive: true })
  mkdirSync(join(dir, 'bin'), { recursive: true })
  writeFileSync(join(dir, 'src', 'main.c'), 'int main(void) { return 0; }\n')
  writeFileSync(join(dir, 'bin', 'run.sh'), '#!/bin/sh\nexec ./app "$@"\n')
  chmodSync(join(dir, 'bin', 'run.sh'), 0o755)
  writeFileSync(join(dir, 'README.md'), '# lines\n')
  writeFileSync(join(dir, '.gitignore'), 'dist/\nnode_modules/\n')
}

const GIT_ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' }

function git(dir, args, input) {
  const r = spawnSync('git', args, { cwd: dir, encoding: 'utf8', env: GIT_ENV, input })
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} in ${dir} failed: ${r.stderr}`)
}

/** `git init` and `git add` (forced: every file a copy holds is tracked in the repository it comes from). */
export function gitAdd(dir) {
  git(dir, ['init', '-q'])
  git(dir, ['add', '-A', '--force'])
}

/** Git's hash of the empty file: the blob the index gives a path that is tracked but not copied. */
const EMPTY_BLOB = 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391'

/**
 * The registry corpus: `{ packages }` (each with `files`, its kept files, and `shippedList`, the
 * other shipped files its repository tracks) when the cache matches the pinned list, else `{ skip }`
 * with the installer's reason.
 */
export async function registryCorpus() {
  const { cacheState } = await import('../setup/gate-corpus/corpus.mjs')
  const state = cacheState()
  return state.ok ? { packages: state.packages } : { skip: state.why }
}

/**
 * The review of the registry corpus: `recipes` (package id -> recipe id -> why it must ask) and
 * `unmeasured` (recipes destructive in the repository whose effect the corpus can't show).
 */
export function registryReview() {
  const review = JSON.parse(readFileSync(new URL('../setup/gate-corpus/destructive.json', import.meta.url), 'utf8'))
  return { recipes: review.recipes, unmeasured: review.unmeasured ?? {} }
}

/**
 * One published package as the repository it was published from: its kept files as shipped, all
 * tracked. An sdist is the project's source tree, so every other file it ships is tracked as well,
 * except what the project's own .gitignore files ignore (generated files a build put in the sdist,
 * which git does not track in the repository). The paths are written straight into git's index:
 * the gate reads what git tracks from the index, and needs no file's blob. `gitDir` is an empty
 * repository's .git (emptyGitDir), copied rather than made anew for each package.
 */
export function materializePackage(pkg, dest, gitDir) {
  cpSync(pkg.files, dest, { recursive: true })
  cpSync(gitDir, join(dest, '.git'), { recursive: true })
  const kept = listFiles(dest)
  let tracked = kept
  if (pkg.shippedList && existsSync(pkg.shippedList)) {
    const keptSet = new Set(kept)
    const shipped = readFileSync(pkg.shippedList, 'utf8').split('\n').filter((p) => p && !keptSet.has(p))
    const ignored = ignoredPaths(dest, shipped)
    tracked = [...kept, ...shipped.filter((p) => !ignored.has(p))]
  }
  writeIndex(join(dest, '.git'), tracked)
}

/**
 * Writes git's index (format version 2, gitformat-index(5)) listing `paths` as regular files with
 * the empty blob and no stat data: what `git ls-files` reads, without a `git` run per package.
 */
export function writeIndex(gitDirPath, paths) {
  const sorted = [...new Set(paths)].map((p) => Buffer.from(p, 'utf8')).sort(Buffer.compare)
  const blob = Buffer.from(EMPTY_BLOB, 'hex')
  const parts = [indexHeader(sorted.length)]
  for (const path of sorted) {
    // 62 bytes of fixed fields, the path, and 1 to 8 NULs so that the entry ends on 8 bytes.
    const entry = Buffer.alloc(Math.ceil((62 + path.length + 1) / 8) * 8)
    entry.writeUInt32BE(0o100644, 24)
    blob.copy(entry, 40)
    entry.writeUInt16BE(Math.min(path.length, 0xfff), 60)
    path.copy(entry, 62)
    parts.push(entry)
  }
  const body = Buffer.concat(parts)
  writeFileSync(join(gitDirPath, 'index'), Buffer.concat([body, createHash('sha1').update(body).digest()]))
}

function indexHeader(count) {
  const header = Buffer.alloc(12)
  header.write('DIRC', 0, 'latin1')
  header.writeUInt32BE(2, 4)
  header.writeUInt32BE(count, 8)
  return header
}

/** A fresh, empty repository's .git folder under `dir` (no template files), to copy into each package. */
export function emptyGitDir(dir) {
  mkdirSync(dir, { recursive: true })
  git(dir, ['init', '-q', '--template='])
  return join(dir, '.git')
}

/** The paths git's ignore rules (the repository's .gitignore files) match. */
function ignoredPaths(dir, paths) {
  if (!paths.length) return new Set()
  const r = spawnSync('git', ['check-ignore', '--no-index', '--stdin'], { cwd: dir, encoding: 'utf8', env: GIT_ENV, input: paths.join('\n') + '\n' })
  // 0: some are ignored, 1: none is; anything else is an error worth seeing.
  if (r.status !== 0 && r.status !== 1) throw new Error(`git check-ignore in ${dir} failed: ${r.stderr}`)
  return new Set(r.stdout.split('\n').filter(Boolean))
}

function listFiles(dir, prefix = '') {
  const out = []
  for (const e of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    if (!prefix && e.name === '.git') continue
    const rel = prefix ? `${prefix}/${e.name}` : e.name
    if (e.isDirectory()) out.push(...listFiles(dir, rel))
    else out.push(rel)
  }
  return out
}

/** The local corpus folder (COMMAND_SCOUT_GATE_CORPUS, with its destructive.json); undefined when unset or absent. */
export function localCorpusDir() {
  const dir = process.env.COMMAND_SCOUT_GATE_CORPUS
  return dir && existsSync(join(dir, 'destructive.json')) ? dir : undefined
}

/** The repository folders of the local corpus, sorted. */
export function corpusRepos(corpus) {
  return readdirSync(corpus).filter((n) => statSync(join(corpus, n)).isDirectory()).sort()
}

/**
 * Copies one local corpus repository into `dest` as the repository it came from: `_gitignore`
 * files become `.gitignore` again, the tracked paths its manifests name (tracked.json) get
 * placeholders, and every file is added to a fresh git index.
 */
export function materialize(corpus, name, dest, tracked) {
  cpSync(join(corpus, name), dest, { recursive: true })
  restoreIgnores(dest)
  for (const path of tracked ?? []) {
    const abs = join(dest, path)
    if (path.endsWith('/')) {
      if (!existsSync(abs) || readdirSync(abs).length === 0) mkdirSync(abs, { recursive: true }), writeFileSync(join(abs, '.tracked'), '')
    } else if (!existsSync(abs)) {
      mkdirSync(dirname(abs), { recursive: true })
      writeFileSync(abs, '')
    }
  }
  gitAdd(dest)
}

function restoreIgnores(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const abs = join(dir, entry.name)
    if (entry.isDirectory()) restoreIgnores(abs)
    else if (entry.name === '_gitignore') renameSync(abs, join(dir, '.gitignore'))
  }
}

/** Reads a JSON file of the local corpus. */
export function readCorpusJson(corpus, file) {
  return JSON.parse(readFileSync(join(corpus, file), 'utf8'))
}

/** Bytes of a folder's files: what judging a repository costs, roughly, for sharing the work out. */
export function folderBytes(dir) {
  let n = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const abs = join(dir, entry.name)
    n += entry.isDirectory() ? folderBytes(abs) : statSync(abs).size
  }
  return n
}

/** Splits `items` into `count` shares of about equal weight, heaviest first. */
export function share(items, count, weight) {
  const shares = Array.from({ length: count }, () => ({ weight: 0, items: [] }))
  for (const item of [...items].map((i) => ({ i, w: weight(i) })).sort((a, b) => b.w - a.w)) {
    const least = shares.reduce((a, b) => (b.weight < a.weight ? b : a))
    least.weight += item.w
    least.items.push(item.i)
  }
  return shares.map((s) => s.items).filter((s) => s.length > 0)
}

/** How many workers judge at once: the machine's cores, at most 4. */
export const WORKERS = Math.max(1, Math.min(4, availableParallelism()))

/** Runs `jobs` (each a plain object for judgeJob) in worker threads, one each; resolves to their results in order. */
export function runJobs(jobs) {
  return Promise.all(jobs.map((job) => new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { gateCorpusJob: job } })
    worker.once('message', resolve)
    worker.once('error', reject)
    worker.once('exit', (code) => code === 0 || reject(new Error(`a judging worker exited with code ${code}`)))
  })))
}

/** The slowest judgements of a run, for the report: the gate is called before every run. */
function timed(fn) {
  const start = performance.now()
  const value = fn()
  return { value, ms: performance.now() - start }
}

/** Judges every recipe `discover` lists in `root`; rows carry `repo` (the package or folder) and the verdict. */
function judgeBook(repo, root, api) {
  const { book } = api.discover(root, {}, { cache: false, checkRunners: false })
  return [...book.entries()].map((recipe) => {
    const { value, ms } = timed(() => api.judge(recipe, root, book))
    return { repo, id: recipe.id, destructive: value.destructive, reason: value.reason, ms }
  })
}

function judgeLines(job, api) {
  const root = realpathSync(mkdtempSync(join(job.tmp, 'lines-')))
  const cases = writeLineRepo(root).filter((_, i) => i % job.of === job.index)
  const { book } = api.discover(root, {}, { cache: false, checkRunners: false })
  return cases.map((c) => {
    const recipe = book.get(c.id)
    if (!recipe) return { ...c, destructive: false, reason: 'no such recipe: the collector did not list it', ms: 0 }
    const { value, ms } = timed(() => api.judge(recipe, root, book))
    return { ...c, destructive: value.destructive, reason: value.reason, ms }
  })
}

async function judgeJob(job) {
  const { discover } = await import('../../dist/src/book/discover.js')
  const { judgeRecipeCall } = await import('../../dist/src/book/risk/index.js')
  const judge = (recipe, root, book) => {
    try {
      return judgeRecipeCall(recipe, [], { root, book })
    } catch (error) {
      return { destructive: false, reason: `judgeRecipeCall threw: ${error.message}` }
    }
  }
  const api = { discover, judge }
  const fresh = (name) => realpathSync(mkdtempSync(join(job.tmp, `${name.replace(/[^\w.@=-]/g, '_').slice(0, 32)}-`)))
  if (job.kind === 'lines') return judgeLines(job, api)
  if (job.kind === 'registry') {
    const gitDir = emptyGitDir(fresh('template'))
    return job.packages.flatMap((pkg) => {
      const root = fresh(pkg.key)
      materializePackage(pkg, root, gitDir)
      return judgeBook(pkg.id, root, api)
    })
  }
  return job.repos.flatMap((name) => {
    const root = fresh(name)
    materialize(job.corpus, name, root, job.tracked[name])
    return judgeBook(name, root, api)
  })
}

if (!isMainThread && workerData?.gateCorpusJob) parentPort.postMessage(await judgeJob(workerData.gateCorpusJob))
