// The make reader's shortcuts give the answers of what they stand in for, checked against it on
// generated inputs: referencedVariables (each name's end found by a regular expression) against a
// reading of the line character by character, withOrderOnly against a set of both lists, and the
// whole reader against the same makefile written with other line endings and continuations.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { referencedVariables } from '../../dist/src/collectors/make/vars.js'
import { withOrderOnly } from '../../dist/src/collectors/make/collect.js'
import { parseMakefile } from '../../dist/src/collectors/make/parse.js'
import { rng } from '../support/random.mjs'

const NAME_END = new Set([...' \t\n\r,:$(){}'])
const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/
const MAKE_OWN = new Set(['MAKE', 'MAKEFLAGS', 'MFLAGS', 'MAKECMDGOALS', 'MAKELEVEL', 'MAKEFILE_LIST', 'MAKEFILES', 'MAKE_VERSION', 'MAKE_HOST', 'CURDIR',
  'SHELL', 'MAKESHELL', 'MAKEOVERRIDES', 'VPATH', 'SUFFIXES'])

/** The variables a recipe line references, read as make's rules say, one character at a time. */
function byCharacters(line) {
  const into = new Set()
  for (let i = line.indexOf('$'); i !== -1 && i < line.length - 1; i = line.indexOf('$', i + 1)) {
    const next = line[i + 1]
    if (next === '$') {
      i++
      continue
    }
    if (next !== '(' && next !== '{') continue
    let end = i + 2
    while (end < line.length && !NAME_END.has(line[end])) end++
    if (line[end] !== (next === '(' ? ')' : '}') && line[end] !== ':') continue
    const name = line.slice(i + 2, end)
    if (VAR_NAME.test(name) && !MAKE_OWN.has(name)) into.add(name)
  }
  return [...into]
}

test('referencedVariables finds what a character-by-character reading finds, in order', () => {
  const random = rng(41)
  const pieces = ['$', '$$', '$(', '${', '(', ')', '}', ':', ',', ' ', '\t', 'CC', 'X', 'a.b', '-', '9', 'MAKE', 'SHELL', '@', '<', '=', 'é', 'subst ', '.c=.o',
    '$(CC)', '${X}', '$(OUT:.c=.o)', '$(MAKE)', '$(subst a,b,$(X))', '$$(X)', '$(X}', '${X)']
  let found = 0
  for (let i = 0; i < 20_000; i++) {
    const line = Array.from({ length: Math.floor(random() * 14) }, () => pieces[Math.floor(random() * pieces.length)]).join('')
    const into = new Set()
    referencedVariables(line, into)
    const expected = byCharacters(line)
    assert.deepEqual([...into], expected, JSON.stringify(line))
    found += expected.length
  }
  assert.ok(found > 5_000, `references compared: ${found}`)
})

test('withOrderOnly gives each prerequisite once, normal ones first, as a set of both lists does', () => {
  const random = rng(8)
  const names = ['a', 'b', 'c', 'd', 'e', 'f', '$(OUT)', 'x.o']
  for (let i = 0; i < 5_000; i++) {
    const list = () => Array.from({ length: Math.floor(random() * (random() < 0.1 ? 30 : 5)) }, () => names[Math.floor(random() * names.length)] + (random() < 0.5 ? '' : Math.floor(random() * 20)))
    const normal = list()
    const orderOnly = list()
    const merged = withOrderOnly(normal, orderOnly)
    assert.deepEqual([...merged], orderOnly.length ? [...new Set([...normal, ...orderOnly])] : normal)
  }
})

/** A generated makefile: rules, docs, recipes with references, assignments, conditionals and continued lines. */
function generatedMakefile(random) {
  const int = (n) => Math.floor(random() * n)
  const lines = ['X = 1', '.PHONY: t0 t3']
  for (let i = 0; i < 40; i++) {
    const kind = int(8)
    if (kind === 0) lines.push(`## doc ${i}`)
    else if (kind === 1) lines.push(`t${i}: t${i + 1} | $(OUT) ## part ${i}`, `\t$(CC) -o $@ $(X_${i % 3})`)
    else if (kind === 2) lines.push(`t${i}: a \\`, `  b${i} \\`, `  c`, `\techo $(Y)`)
    else if (kind === 3) lines.push(`V${i} += v${i}`)
    else if (kind === 4) lines.push('ifeq ($(X),1)', `t${i}:`, '\t@true', 'endif')
    else if (kind === 5) lines.push('')
    else if (kind === 6) lines.push(`t${i}: ; echo $(Z) # inline`)
    else lines.push(`\t# a recipe comment ${i}`)
  }
  return lines
}

test('a makefile reads the same with LF, CRLF, a final newline or none', () => {
  const random = rng(3)
  let targets = 0
  for (let i = 0; i < 300; i++) {
    const lines = generatedMakefile(random)
    const read = (text) => {
      const parsed = parseMakefile('/m/Makefile', { cwd: '/m', read: (abs) => (abs === '/m/Makefile' ? text : undefined), exists: () => false })
      return { targets: parsed.targets, phony: [...parsed.phony], problems: parsed.problems, defaultGoal: parsed.defaultGoal }
    }
    const lf = read(`${lines.join('\n')}\n`)
    assert.deepEqual(read(`${lines.join('\r\n')}\r\n`), lf)
    assert.deepEqual(read(lines.join('\n')), { ...lf, problems: lf.problems })
    targets += lf.targets.length
  }
  assert.ok(targets > 1_000, `targets compared: ${targets}`)
})

test('a rule line read by its one-match shortcut reads as the whole statement path reads it', () => {
  // `$(NOTHING)` is never assigned, so it expands to nothing: a head that starts with it says the same
  // as the head without it, and always takes the statement path (the shortcut refuses a `$`).
  const random = rng(19)
  const pick = (list) => list[Math.floor(random() * list.length)]
  const words = ['build', 'a.o', 'out/app', '.PHONY', '.DEFAULT', '%.o', 'x~y', 'q@r', 'p+q', 'a!b', '*.c', 'v1.2', 'export', 'include', 'vpath', 'ifdef',
    'else', 'define', 'override', 'a;b', 'a|b', 'a(b)', '"q"', 'a\u00a0b', 'é']
  const seps = [':', ': ', ' : ', '::', ':=', ' &: ', '&:', ':::=', ' :: ']
  const rests = ['', ' b', ' b c', ' b | c', ' | $(OUT)', ' $(DEPS) x', ' b ## doc', ' b ; echo inline', ' %.c', ' x: y', ' V = 1', ' a.o: %.o: %.c', ' b\\', ' $(X:.c=.o)']
  let same = 0
  for (let i = 0; i < 3_000; i++) {
    const head = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(words)).join(pick([' ', '\t', '  ']))
    const line = `${head}${pick(seps)}${pick(rests)}`
    const body = [line, '\techo $(CC) $@', 'other: x', '']
    const read = (first) => {
      const text = [first, ...body.slice(1)].join('\n')
      const parsed = parseMakefile('/m/Makefile', { cwd: '/m', read: (abs) => (abs === '/m/Makefile' ? text : undefined), exists: () => false })
      return { targets: parsed.targets, phony: [...parsed.phony], problems: parsed.problems.map((p) => p.message), defaultGoal: parsed.defaultGoal }
    }
    const direct = read(line)
    // The first word of a directive or a conditional is one only when it stands first: compare heads that are plain names.
    if (/^(?:export|include|vpath|ifdef|else|define|override)(?:[\s:]|$)/.test(line)) continue
    assert.deepEqual(direct, read(`$(NOTHING)${line}`), JSON.stringify(line))
    same++
  }
  assert.ok(same > 1_500, `lines compared: ${same}`)
})
