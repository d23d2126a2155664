// Hostile repositories: each case a scan once hung on, blew up on or leaked through. Every scan
// runs as the CLI in a child process with a deadline, so a hang fails the test instead of
// stalling it, and its JSON must parse.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

const bin = new URL('../../bin/command-scout', import.meta.url).pathname
const DEADLINE_MS = 60_000

function repo(t, files = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'cs-hostile-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), content)
  }
  return dir
}

const fifo = (path) => (mkdirSync(dirname(path), { recursive: true }), execFileSync('mkfifo', [path]))

/** Scans `root` as the CLI does; fails on a hang, a crash or output that is not JSON. */
function scan(root, extra = [], options = {}) {
  const r = spawnSync(process.execPath, [bin, 'scan', '--root', root, '--format', 'json', ...extra], { encoding: 'utf8', timeout: DEADLINE_MS, maxBuffer: 256 * 1024 * 1024, ...options })
  assert.equal(r.signal, null, `the scan did not finish within ${DEADLINE_MS} ms (${r.signal}); stderr: ${r.stderr?.slice(0, 500)}`)
  assert.equal(r.status, 0, r.stderr)
  const report = JSON.parse(r.stdout)
  return { ...report, messages: report.diagnostics.map((d) => `${d.file}: ${d.message}`).join('\n'), bytes: r.stdout.length }
}

test('manifests that are FIFOs are reported, never read', (t) => {
  const root = repo(t, {
    'apps/web/package.json': '{"scripts":{"dev":"vite"}}',
    'mod.just': 'x:\n  echo\n',
  })
  for (const f of ['package.json', 'Cargo.toml', 'justfile', 'Makefile', 'Taskfile.yml', 'deno.json']) fifo(join(root, f))
  const r = scan(root)
  for (const f of ['package.json', 'Cargo.toml', 'justfile', 'Makefile', 'Taskfile.yml', 'deno.json']) {
    assert.match(r.messages, new RegExp(`${f.replace('.', '\\.')}: ${f.replace('.', '\\.')} is a FIFO \\(named pipe\\), not a regular file`), r.messages)
  }
})

test('FIFOs behind pnpm-workspace.yaml, a member package.json, an import, a mod, an include and a member Cargo.toml', (t) => {
  const root = repo(t, {
    'package.json': '{"packageManager":"pnpm@9.0.0","scripts":{"a":"b"}}',
    'justfile': "import 'imp.just'\nmod m\nr:\n  echo\n",
    'Makefile': 'include inc.mk\nall: ; @true\n',
    'Cargo.toml': '[workspace]\nmembers = ["crates/*"]\n',
    'crates/one/src/main.rs': '',
  })
  for (const f of ['pnpm-workspace.yaml', 'imp.just', 'm.just', 'inc.mk', 'crates/one/Cargo.toml']) fifo(join(root, f))
  const r = scan(root)
  for (const f of ['pnpm-workspace.yaml', 'imp.just', 'm.just', 'inc.mk', 'crates/one/Cargo.toml']) assert.match(r.messages, new RegExp(`${f} is a FIFO`), f)
  assert.ok(r.recipes.some((x) => x.id === 'make:all'))
  assert.ok(r.recipes.some((x) => x.id === 'just:r'))
  // The workspace member FIFO: pnpm-workspace.yaml lists a member whose package.json is a FIFO.
  const ws = repo(t, { 'package.json': '{"workspaces":["p/*"]}' })
  fifo(join(ws, 'p/x/package.json'))
  assert.match(scan(ws).messages, /p\/x\/package\.json is a FIFO/)
})

test('manifests linked to /dev/zero, /dev/urandom and /dev/null, and include /dev/tty', (t) => {
  const root = repo(t, { 'Makefile': 'include /dev/tty\n-include /dev/zero\nall: ; @true\n' })
  symlinkSync('/dev/zero', join(root, 'package.json'))
  symlinkSync('/dev/urandom', join(root, 'Cargo.toml'))
  symlinkSync('/dev/null', join(root, 'justfile'))
  const r = scan(root)
  assert.match(r.messages, /package\.json: package\.json is a character device, not a regular file/)
  assert.match(r.messages, /Cargo\.toml: Cargo\.toml is a character device/)
  assert.match(r.messages, /justfile is a character device/)
  if (existsSync('/dev/tty')) assert.match(r.messages, /\/dev\/tty is a character device/)
  assert.match(r.messages, /\/dev\/zero is a character device/)
  assert.deepEqual(r.recipes.map((x) => x.id), ['make:.DEFAULT_GOAL', 'make:all'])
})

test('a 200 MB manifest is a diagnostic naming its size and the cap', (t) => {
  const root = repo(t)
  for (const f of ['package.json', 'Makefile', 'Cargo.toml']) {
    writeFileSync(join(root, f), '')
    truncateSync(join(root, f), 200 * 1024 * 1024) // sparse: costs no disk
  }
  const r = scan(root)
  for (const f of ['package.json', 'Makefile', 'Cargo.toml']) assert.match(r.messages, new RegExp(`${f.replace('.', '\\.')} is 200 MiB, over the 8\\.0 MiB limit for a manifest \\(MAX_MANIFEST_BYTES\\)`))
})

test('symlink loops and doublings (a -> ., b -> ., nested) with ** workspaces end, each package once', (t) => {
  for (const pm of ['npm', 'pnpm']) {
    const root = repo(t, {
      'package.json': JSON.stringify({ packageManager: `${pm}@9.0.0`, workspaces: ['**'] }),
      'pnpm-workspace.yaml': "packages:\n  - '**'\n",
      'packages/a/package.json': '{"name":"a","scripts":{"t":"x"}}',
    })
    for (const d of ['', 'packages', 'packages/a']) {
      symlinkSync('.', join(root, d, 'l1'))
      symlinkSync('.', join(root, d, 'l2'))
    }
    symlinkSync('..', join(root, 'packages/a/up'))
    const r = scan(root)
    assert.deepEqual(r.recipes.map((x) => `${x.cwd} ${x.name}`), ['packages/a t'], pm)
  }
})

test('cargo ** members with a -> . and b -> . end', (t) => {
  const root = repo(t, { 'Cargo.toml': '[workspace]\nmembers = ["**"]\n', 'c/Cargo.toml': '[package]\nname = "c"\n', 'c/src/main.rs': '' })
  symlinkSync('.', join(root, 'a'))
  symlinkSync('.', join(root, 'b'))
  symlinkSync('.', join(root, 'c', 'loop'))
  const r = scan(root)
  assert.ok(r.recipes.some((x) => x.name === 'c/bin/c' || x.name === 'bin/c'), JSON.stringify(r.recipes.map((x) => x.name)))
})

test('glob and brace bombs in workspace patterns are refused with the reason', (t) => {
  const bombs = ['{a,b}'.repeat(200), '{a,b}'.repeat(100), '*a'.repeat(50), '{'.repeat(10_000) + 'a' + '}'.repeat(10_000), '{1..1000000000}', `packages/${'*a'.repeat(6)}`, '+(a|+(b|+(c)))']
  const root = repo(t, {
    'package.json': JSON.stringify({ workspaces: bombs }),
    'deno.json': JSON.stringify({ workspace: bombs.map((b) => `./${b}`) }),
    'Cargo.toml': `[workspace]\nmembers = ${JSON.stringify(bombs)}\n`,
    'Makefile': bombs.map((b) => `-include ${b.slice(0, 5000)}.mk`).join('\n') + '\nall: ; @true\n',
    [`packages/${'a'.repeat(200)}/package.json`]: '{}',
  })
  const r = scan(root)
  assert.match(r.messages, /is not a glob command-scout can read \(its braces stand for more than 1000 patterns\)/)
  assert.match(r.messages, /a path segment has more than 2 "\*"/)
  assert.match(r.messages, /it is longer than 512 characters/)
  assert.match(r.messages, /"\{1\.\.1000000000\}" could reach outside/)
  assert.ok(r.messages.length < 20_000, 'messages quote patterns shortened')
  assert.match(r.messages, /workspace member glob .* is not a glob command-scout can read/)
})

test('YAML alias bombs in pnpm-workspace.yaml and a Taskfile end with a diagnostic', (t) => {
  const levels = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
  for (let i = 1; i < 9; i++) levels.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`)
  const bomb = levels.join('\n')
  const root = repo(t, {
    'package.json': '{"packageManager":"pnpm@9.0.0"}',
    'pnpm-workspace.yaml': `${bomb}\npackages: [*i]\n`,
    'Taskfile.yml': `version: '3'\n${bomb}\ntasks:\n  x:\n    cmds: *i\n`,
  })
  const r = scan(root)
  assert.match(r.messages, /pnpm-workspace\.yaml can't be read: .*[Ee]xcessive alias count/)
  assert.ok(r.bytes < 1_000_000)
})

test('202 bytes of nested $(foreach) stay bounded and render as JSON', (t) => {
  const makefile = 'D := 0 1 2 3 4 5 6 7 8 9\nN := $(foreach a,$(D),$(foreach b,$(D),$(foreach c,$(D),$(foreach d,$(D),$(a)$(b)$(c)$(d)))))\n$(N): $(N)\n$(N): $(N) x\n'
  const r = scan(repo(t, { Makefile: makefile }))
  assert.ok(r.recipes.length <= 20_000)
  assert.ok(r.recipes.every((x) => x.prerequisites.length <= 1000))
  assert.match(r.messages, /MAX_PREREQUISITES/)
  assert.ok(r.bytes < 64 * 1024 * 1024, `${r.bytes} bytes`)
  // Deeper nesting runs out of the expansion limits instead of memory.
  const deeper = 'D := 0 1 2 3 4 5 6 7 8 9\nN := $(foreach a,$(D),$(foreach b,$(D),$(foreach c,$(D),$(foreach d,$(D),$(foreach e,$(D),$(foreach f,$(D),$(a)$(b)$(c)$(d)$(e)$(f)))))))\n$(N): $(N)\nall: ; @true\n'
  const d = scan(repo(t, { Makefile: deeper }))
  assert.match(d.messages, /MAX_EXPANSION/)
  assert.ok(d.recipes.some((x) => x.id === 'make:all'))
})

test('self-calling $(call) that doubles at every level ends at the step limit', (t) => {
  const r = scan(repo(t, { Makefile: 'f = $(call f)$(call f)\nX := $(call f)\nall: ; @true\n' }))
  assert.ok(r.recipes.some((x) => x.id === 'make:all'))
})

test('include and import diamonds read each file once', (t) => {
  const files = { justfile: "import? 'a0.just'\nimport? 'b0.just'\nroot:\n  echo\n", Taskfile: '' }
  const task = { 'Taskfile.yml': "version: '3'\nincludes:\n  a: ./a0.yml\n  b: ./b0.yml\ntasks:\n  root: echo\n" }
  for (let i = 0; i < 30; i++) {
    for (const x of ['a', 'b']) {
      files[`${x}${i}.just`] = `import? 'a${i + 1}.just'\nimport? 'b${i + 1}.just'\nr${x}${i}:\n  echo\n`
      task[`${x}${i}.yml`] = `version: '3'\nincludes:\n  a: ./a${i + 1}.yml\n  b: ./b${i + 1}.yml\ntasks:\n  t: echo\n`
    }
  }
  delete files.Taskfile
  const j = scan(repo(t, files))
  assert.equal(j.recipes.length, 61)
  const tk = scan(repo(t, task))
  assert.match(tk.messages, /MAX_TASKS/)
  assert.ok(tk.recipes.length <= 20_000)
})

test('include *.mk repeated 100,000 times globs once', (t) => {
  const r = scan(repo(t, { Makefile: `${'include *.mk\n'.repeat(100_000)}all: ; @true\n`, 'a.mk': 'a: ; @true\n' }))
  assert.deepEqual(r.recipes.map((x) => x.id).sort(), ['make:.DEFAULT_GOAL', 'make:a', 'make:all'])
})

test('include /etc/passwd, just import and a Taskfile include of it list no users', (t) => {
  const root = repo(t, {
    Makefile: 'include /etc/passwd\nall: ; @true\n',
    justfile: "import '/etc/passwd'\nr:\n  echo\n",
    'Taskfile.yml': "version: '3'\nincludes:\n  p: /etc/passwd\ntasks:\n  x: echo\n",
  })
  const r = scan(root)
  const names = r.recipes.map((x) => x.name)
  // just refuses the whole justfile over its import, so its own recipe `r` is not listed either.
  assert.deepEqual(names.sort(), ['.DEFAULT_GOAL', 'all', 'x'])
  const text = JSON.stringify(r)
  assert.doesNotMatch(text, /\/bin\/bash|nologin|daemon:/)
  assert.match(r.messages, /passwd: this included makefile is outside the scanned directory and make refuses it/)
  assert.match(r.messages, /passwd: this file is outside the scanned directory and just refuses it/)
  assert.match(r.messages, /passwd: this included Taskfile is outside the scanned directory and go-task refuses it/)
  assert.equal(r.diagnostics.filter((d) => d.file.endsWith('passwd') && d.source === 'make').length, 1)
})

test('a Makefile that links to a file outside the root which make refuses lists nothing of it, and says it is a link', (t) => {
  const parent = repo(t, { 'outside/secret': 'user-one:x:1000:1000::/home/user-one:/bin/bash\n' })
  const root = join(parent, 'repo')
  mkdirSync(root)
  symlinkSync(join(parent, 'outside', 'secret'), join(root, 'Makefile'))
  const r = scan(root)
  assert.deepEqual(r.recipes, [])
  assert.doesNotMatch(JSON.stringify(r), /user-one|\/bin\/bash/)
  assert.match(r.messages, /^Makefile: this makefile is a link to a file outside the scanned directory, and make refuses that file: .*; none of its targets are listed$/m)
  assert.equal(r.diagnostics.filter((d) => d.source === 'make').length, 1)
})

test('cargo members outside the root are refused, and a FIFO there is not touched', (t) => {
  const parent = repo(t, { 'sibling/Cargo.toml': '[package]\nname = "sib"\n', 'sibling/src/main.rs': '' })
  fifo(join(parent, 'trap', 'Cargo.toml'))
  const root = join(parent, 'root')
  mkdirSync(root)
  for (const members of ['["/etc/*"]', '["../*"]', '[".."]', '["../sibling"]']) {
    writeFileSync(join(root, 'Cargo.toml'), `[workspace]\nmembers = ${members}\n`)
    const r = scan(root)
    assert.deepEqual(r.recipes, [], members)
    assert.match(r.messages, /outside the scanned directory/, members)
  }
})

test('npm, pnpm and deno members linked to outside the root are refused', (t) => {
  const parent = repo(t, { 'outside/pkg/package.json': '{"name":"evil","scripts":{"x":"y"}}', 'outside/pkg/deno.json': '{"tasks":{"x":"y"}}' })
  for (const [manifest, extra] of [
    ['package.json', {}],
    ['package.json', { packageManager: 'pnpm@9.0.0' }],
    ['deno.json', {}],
  ]) {
    const root = join(parent, `root-${Math.random().toString(36).slice(2)}`)
    mkdirSync(join(root, 'packages'), { recursive: true })
    symlinkSync(join(parent, 'outside', 'pkg'), join(root, 'packages', 'linked'))
    writeFileSync(join(root, 'pnpm-workspace.yaml'), 'packages:\n  - packages/*\n')
    writeFileSync(join(root, manifest), JSON.stringify(manifest === 'deno.json' ? { workspace: ['./packages/*', './packages/linked'] } : { ...extra, workspaces: ['packages/*'] }))
    const r = scan(root)
    assert.deepEqual(r.recipes.filter((x) => x.cwd !== '.'), [], manifest)
    assert.match(r.messages, /outside the scanned directory/)
  }
})

test('unreadable manifests are diagnostics that say so', (t) => {
  const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p))
  if (process.getuid?.() !== 0 || !setpriv) return t.skip('needs root and setpriv to run the scan as another user')
  const root = repo(t, { 'package.json': '{"scripts":{"a":"b"}}', Makefile: 'include inc.mk\nall: ; @true\n', 'inc.mk': 'x: ; @true\n', justfile: 'r:\n  echo\n', 'Cargo.toml': '[package]\nname="x"\n', 'deno.json': '{}', 'Taskfile.yml': "version: '3'\n" })
  for (const f of ['package.json', 'inc.mk', 'justfile', 'Cargo.toml', 'deno.json', 'Taskfile.yml']) chmodSync(join(root, f), 0o000)
  chmodSync(root, 0o755)
  chmodSync(dirname(root), 0o1777)
  const r = spawnSync(setpriv, ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, bin, 'scan', '--root', root, '--format', 'json'], { encoding: 'utf8', timeout: DEADLINE_MS })
  if (r.status !== 0 && /EACCES|Cannot find module|permission/i.test(r.stderr) && !r.stdout) return t.skip(`the package is not readable by nobody: ${r.stderr.slice(0, 200)}`)
  const report = JSON.parse(r.stdout)
  const messages = report.diagnostics.map((d) => d.message).join('\n')
  for (const f of ['package.json', 'inc.mk', 'justfile', 'Cargo.toml', 'deno.json', 'Taskfile.yml']) assert.match(messages, new RegExp(`${f.replace('.', '\\.')} can't be read: permission denied`), messages)
  assert.doesNotMatch(messages, /inc\.mk does not exist/)
})
