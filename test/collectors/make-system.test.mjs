// Real makefiles that ship with this machine's software (CPython's build Makefile, pyenv's,
// git's contrib, Sphinx docs): on a throwaway copy, the make reader must list exactly the
// explicit targets GNU make's own database lists. Each is skipped where the file is absent.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseMakefile } from '../../dist/src/collectors/make/parse.js'
import { readText } from '../../dist/src/collectors/shared/fs.js'
import { onPath } from '../../dist/src/book/discover.js'
import { isAmbiguous, makeDatabase } from './make-database.mjs'

const MAKEFILES = [
  '/root/.pyenv/Makefile',
  '/root/.pyenv/versions/3.13.0/lib/python3.13/config-3.13-x86_64-linux-gnu/Makefile',
  '/usr/lib/python3.11/config-3.11-x86_64-linux-gnu/Makefile',
  '/usr/share/doc/git/contrib/subtree/Makefile',
  '/usr/share/doc/git/contrib/persistent-https/Makefile',
  '/usr/share/doc/libxmlsec1-dev/examples/Makefile',
  '/usr/share/groff/1.22.4/font/devps/generate/Makefile',
  '/usr/lib/google-cloud-sdk/platform/gsutil/third_party/urllib3/docs/Makefile',
  '/usr/lib/google-cloud-sdk/platform/bq/third_party/gflags/Makefile',
]

for (const file of MAKEFILES) {
  const skip = (!onPath('make') && 'make is not on PATH') || (!existsSync(file) && 'not on this machine')
  test(`system makefile ${file} agrees with GNU make's database`, { skip }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'make-system-'))
    try {
      copyFileSync(file, join(dir, 'Makefile'))
      const parsed = parseMakefile(join(dir, 'Makefile'), { cwd: dir, read: readText })
      const db = makeDatabase(dir, 'Makefile')
      assert.ok(db.stdout.includes('# Files'), `make printed no database: ${db.stderr}`)
      const ours = parsed.targets
        .filter((t) => !isAmbiguous({ phony: parsed.phony.has(t.name), hasPrerequisites: t.prerequisites.length + t.orderOnly.length > 0 || t.unresolvedPrerequisites, hasRecipe: t.hasRecipe }))
        .map((t) => t.name)
      assert.deepEqual(ours.sort(), db.entries.filter((e) => !isAmbiguous(e)).map((e) => e.name).sort())
      assert.deepEqual([...parsed.phony].sort(), [...db.phony].sort())
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
}
