// Whether the installed dsh tree is the pinned one: every package npm installed (its hidden lockfile,
// node_modules/.package-lock.json) has the version and integrity the committed lock gives it, and every
// package the committed lock requires on every platform is installed. npm may add to package-lock.json
// the optional builds of other platforms that the registry lists today and did not list when the lock
// was made (pnpm's @pnpm/exe.*): those are never installed here, so they don't change what the tests run in.
// Usage: node same-tree.mjs <committed lock> <install dir>; prints each difference, exits 1 on any.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

const [lockFile, dir] = process.argv.slice(2)
const pinned = JSON.parse(readFileSync(lockFile, 'utf8')).packages
const installed = JSON.parse(readFileSync(join(dir, 'node_modules/.package-lock.json'), 'utf8')).packages
const problems = []
for (const [path, entry] of Object.entries(installed)) {
  const want = pinned[path]
  if (!want) problems.push(`${path} ${entry.version} is installed but not in the lock`)
  else if (want.version !== entry.version || (want.integrity && entry.integrity && want.integrity !== entry.integrity)) {
    problems.push(`${path} is ${entry.version}, the lock pins ${want.version}`)
  }
}
for (const [path, entry] of Object.entries(pinned)) {
  if (path !== '' && !entry.optional && !installed[path]) problems.push(`${path} ${entry.version} is in the lock but not installed`)
}
for (const p of problems) console.error(p)
process.exit(problems.length ? 1 : 0)
