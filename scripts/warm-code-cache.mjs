// Ships V8's code cache for the bundle's scan path (dist/src/code-cache/): the build scans a small
// repository with one manifest of every format, in every output format, so that the bytecode of
// every collector, parser and renderer is in the cache before a user's first scan (otherwise the
// first repository scanned would decide which code gets cached, for good). The launcher uses these files when its own cache
// has none for the subcommand, and only on the Node version that built them (V8 refuses any
// other); they are owned like the bundle, so they are trusted like it. Each carries the hash of
// its bytes the launcher checks (src/cli/launcher.ts), as the runs below wrote them.
import { execFileSync } from 'node:child_process'
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const out = join(root, 'dist/src/code-cache')
const bundle = join(root, 'dist/src/cli.bundle.cjs')
if (!existsSync(bundle)) {
  rmSync(out, { recursive: true, force: true })
  process.exit(0)
}
// Already made for this build and this Node: nothing to do (a running CLI may be reading it).
const build = /^\/\*command-scout build ([0-9a-f]+)\*\//.exec(readFileSync(bundle, 'utf8'))?.[1]
const wanted = ['docs', 'scan'].map((s) => `${s}-${process.version}-${process.arch}-${build}.bin`)
if (build && wanted.every((n) => existsSync(join(out, n)))) process.exit(0)

const FILES = {
  Makefile: 'include rules.mk\nVERSION ?= 1\nifdef CI\nci: ## On CI\n\techo ci\nendif\nbuild: ## Build\n\techo $(VERSION)\n.PHONY: build\n',
  'rules.mk': 'lint:\n\techo lint\n',
  'package.json': JSON.stringify({ name: 'warm', packageManager: 'pnpm@9.1.0', scripts: { build: 'tsc', prebuild: 'echo', test: 'vitest' } }),
  'pnpm-workspace.yaml': "packages:\n  - 'packages/*'\n  - 'libs/**'\n",
  'packages/a/package.json': JSON.stringify({ name: 'a', scripts: { dev: 'vite' } }),
  'libs/b/package.json': JSON.stringify({ name: 'b', scripts: { test: 'node --test' } }),
  justfile: 'import "extra.just"\nset dotenv-load\n# Build it\nbuild target="x": lint\n  echo {{target}}\nlint:\n  echo lint\n',
  'extra.just': 'fmt:\n  echo fmt\n',
  'deno.json': '{ // comment\n  "tasks": { "dev": "deno run main.ts", "check": { "command": "deno check", "description": "Check" } },\n}\n',
  'Cargo.toml': '[workspace]\nmembers = ["crates/*"]\n',
  'crates/c/Cargo.toml': '[package]\nname = "c"\nversion = "0.1.0"\n\n[[bin]]\nname = "tool"\npath = "src/main.rs"\n',
  'crates/c/src/main.rs': 'fn main() {}\n',
  'crates/c/examples/demo.rs': 'fn main() {}\n',
  'Taskfile.yml': "version: '3'\nincludes:\n  ns: ./tasks.yml\ntasks:\n  default:\n    desc: All\n    cmds: [echo all]\n",
  'tasks.yml': "version: '3'\ntasks:\n  one:\n    cmds: [echo one]\n",
  'go.mod': 'module example.com/warm\n\ngo 1.22\n',
  'main.go': 'package main\n\n//go:generate echo hi\nfunc main() {}\n',
  'cmd/tool/main.go': 'package main\n\nfunc main() {}\n',
  'pyproject.toml': '[project]\nname = "warm"\n[project.scripts]\nwarm = "warm:main"\n[tool.poe.tasks]\nfmt = "black ."\n[tool.pdm.scripts]\nlint = "ruff check ."\n[tool.hatch.envs.default.scripts]\ntest = "pytest"\n',
  'composer.json': JSON.stringify({ name: 'w/warm', scripts: { test: 'phpunit', 'post-install-cmd': 'echo' } }),
  '.vscode/tasks.json': '{ "version": "2.0.0", "tasks": [ { "label": "build", "type": "shell", "command": "make" } ] }',
  'CMakeLists.txt': 'cmake_minimum_required(VERSION 3.20)\nproject(warm)\n',
  'CMakePresets.json': JSON.stringify({ version: 3, configurePresets: [{ name: 'dev', binaryDir: '${sourceDir}/build' }], buildPresets: [{ name: 'dev', configurePreset: 'dev' }] }),
  'mise.toml': '[tasks.hello]\nrun = "echo hello"\ndescription = "Say hello"\n',
  'nx.json': '{}',
  'apps/web/project.json': JSON.stringify({ name: 'web', targets: { build: { executor: 'nx:run-commands', options: { command: 'vite build' } } } }),
}

const repo = mkdtempSync(join(tmpdir(), 'command-scout-warm-'))
const cache = mkdtempSync(join(tmpdir(), 'command-scout-warm-cache-'))
try {
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true })
    writeFileSync(join(repo, path), text)
  }
  const env = { ...process.env, COMMAND_SCOUT_CACHE_DIR: cache, COMMAND_SCOUT_CACHE: '', COMMAND_SCOUT_CODE_CACHE: 'refresh' }
  const cli = (...args) => execFileSync(process.execPath, [join(root, 'bin/command-scout'), ...args], { env, stdio: ['ignore', 'ignore', 'ignore'] })
  // Each run adds what it compiled to the cache the one before left (COMMAND_SCOUT_CODE_CACHE=refresh).
  for (const format of ['json', 'table', 'markdown']) cli('scan', '--format', format, '--no-cache', '--root', repo)
  cli('docs', '--output', '-', '--no-cache', '--root', repo)
  const code = join(cache, 'code')
  // Made beside and renamed into place, so that no run ever sees half of it; made new (never one already there).
  const next = `${out}.${process.pid}.tmp`
  rmSync(next, { recursive: true, force: true })
  mkdirSync(next, { mode: 0o755 })
  for (const name of readdirSync(code)) {
    if (!/^(scan|docs)-.*\.bin$/.test(name)) continue
    cpSync(join(code, name), join(next, name))
    chmodSync(join(next, name), 0o644)
  }
  rmSync(out, { recursive: true, force: true })
  renameSync(next, out)
} catch (error) {
  // A build without the shipped cache still works: the first run of each subcommand writes one.
  console.warn(`command-scout: the shipped code cache was not made (${error.message.split('\n')[0]})`)
} finally {
  rmSync(repo, { recursive: true, force: true })
  rmSync(cache, { recursive: true, force: true })
}
