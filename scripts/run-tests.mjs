// Runs the test files (test/**/*.test.mjs) with node's test runner. Node 20's --test takes
// no globs, so the files are listed here. Arguments name suites: folders under test/.
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'

const root = new URL('..', import.meta.url).pathname
const suites = process.argv.slice(2)
function walk(dir, out = []) {
  for (const name of readdirSync(dir).sort()) {
    if (name === 'fixtures' || name === 'node_modules') continue
    const path = join(dir, name)
    if (statSync(path).isDirectory()) walk(path, out)
    else if (name.endsWith('.test.mjs')) out.push(path)
  }
  return out
}
const dirs = suites.length ? suites.map((s) => join(root, 'test', s)) : [join(root, 'test')]
const files = dirs.flatMap((d) => walk(d))
if (files.length === 0) {
  console.error(`no test files under ${dirs.join(', ')}`)
  process.exit(1)
}
// The run gets a temp folder of its own, so what a test leaves behind shows up here and nowhere
// else (a test removes what it made, also when it fails; test/support/temp.mjs helps). Readable
// by others: the PostgreSQL tests run the server as another user.
const runTmp = mkdtempSync(join(tmpdir(), 'cs-test-run-'))
chmodSync(runTmp, 0o755)
// The CLI keeps scan results in the user's cache directory: the tests' go to one of the run's own.
const cacheDir = mkdtempSync(join(tmpdir(), 'cs-test-cache-'))
const result = spawnSync(process.execPath, ['--test', '--test-concurrency=2', ...files], { stdio: 'inherit', cwd: root, env: { ...process.env, TMPDIR: runTmp, COMMAND_SCOUT_CACHE_DIR: cacheDir } })
rmSync(cacheDir, { recursive: true, force: true })
const left = readdirSync(runTmp)
if (left.length) {
  const kinds = [...new Set(left.map((name) => name.replace(/[A-Za-z0-9]{6}$/, '*')))].sort()
  console.error(`\nscripts/run-tests.mjs: the tests left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in the temp folder (${kinds.join(', ')}); removed now. Each test should remove what it makes.`)
}
rmSync(runTmp, { recursive: true, force: true })
process.exit(result.status ?? 1)
