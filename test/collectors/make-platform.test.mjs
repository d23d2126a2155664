// Conditions that only depend on the platform (`$(shell uname -s)`, `$(shell go env GOOS)`, `uname_S !=`)
// are decided for the machine the scan runs on, as the real make decides them: the make collector's
// targets agree with GNU make's own database. The commands are never run by the collector.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { makeCollector } from '../../dist/src/collectors/make/collect.js'
import { platformOutput } from '../../dist/src/collectors/make/platform.js'
import { normalizeConfig } from '../../dist/src/book/config.js'
import { makeDatabase, isAmbiguous } from './make-database.mjs'
import { tempDir } from '../support/temp.mjs'

const MAKEFILE = `uname_S := $(shell sh -c 'uname -s 2>/dev/null || echo not')
uname_M := $(shell uname -m)
GOOS := $(shell go env GOOS)
lower != uname -s | tr '[:upper:]' '[:lower:]'
ifeq ($(uname_S),Linux)
linux-only: ; true
endif
ifeq ($(uname_S),Darwin)
darwin-only: ; true
endif
ifneq (,$(findstring MINGW,$(uname_S)))
windows-only: ; true
endif
ifeq ($(GOOS),windows)
BIN = bin/gh.exe
else
BIN = bin/gh
endif
$(BIN): ; true
ifeq ($(lower),$(shell uname -s | tr A-Z a-z))
lowered: ; true
endif
arch-$(uname_M): ; true
`

test('platform conditions are decided as make decides them on this machine', { skip: spawnSync('go', ['version']).status === 0 ? false : 'go is not on PATH (the makefile asks it for GOOS)' }, (t) => {
  const dir = tempDir(t, 'cs-make-platform-')
  writeFileSync(join(dir, 'Makefile'), MAKEFILE)
  const { recipes } = makeCollector.collect({ root: dir, options: normalizeConfig({}).collectors.makefile })
  const ours = recipes.map((r) => r.name).filter((n) => !n.startsWith('.')).sort()
  const db = makeDatabase(dir, 'Makefile')
  const theirs = [...db.entries.values()].filter((e) => !isAmbiguous(e)).map((e) => e.name).sort()
  assert.deepEqual(ours, theirs)
  assert.ok(!ours.includes('bin/gh.exe'), 'the Windows branch is not read off Windows')
})

test('only commands that tell the platform get an answer', () => {
  assert.equal(platformOutput('uname -s'), process.platform === 'linux' ? 'Linux' : platformOutput('uname'))
  assert.equal(platformOutput("sh -c 'uname -s 2>/dev/null || echo not'"), platformOutput('uname -s'))
  assert.equal(platformOutput("uname -s | tr '[:upper:]' '[:lower:]'"), platformOutput('uname -s')?.toLowerCase())
  for (const other of ['date', 'uname -s; rm -rf x', 'uname -a', 'git describe', 'go env GOPATH', 'uname -s && echo x']) assert.equal(platformOutput(other), undefined, other)
})
