// Runs the test files (test/**/*.test.mjs) with node's test runner. Node 20's --test takes
// no globs, so the files are listed here. Arguments name suites: folders under test/.
import { readdirSync, statSync } from 'node:fs'
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
const result = spawnSync(process.execPath, ['--test', '--test-concurrency=2', ...files], { stdio: 'inherit', cwd: root })
process.exit(result.status ?? 1)
