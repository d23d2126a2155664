// Variable expansion in the make reader: the flavors of assignment, and the promise that
// nothing is ever executed while reading a makefile.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MakeVariables, referencedVariables } from '../../dist/src/collectors/make/vars.js'
import { makeCollector } from '../../dist/src/collectors/make/collect.js'

test('recursive, simple, conditional and appending assignments expand as make expands them', () => {
  const v = new MakeVariables()
  v.assign('A', '=', '$(B) later')
  v.assign('B', '=', 'first')
  assert.equal(v.expand('$(A)').value, 'first later', '= is expanded at use')
  v.assign('S', ':=', '$(B)')
  v.assign('B', '=', 'second')
  assert.equal(v.expand('${S}').value, 'first', ':= is expanded at assignment')
  v.assign('S', '?=', 'ignored')
  v.assign('N', '?=', 'set')
  assert.equal(v.expand('$(S) $(N)').value, 'first set')
  v.assign('S', '+=', '$(B)')
  v.assign('A', '+=', '$(B)')
  assert.equal(v.expand('$(S)|$(A)').value, 'first second|second later second')
  assert.equal(v.expand('$$(A) $$$$').value, '$(A) $$', '$$ is a literal dollar')
})

test('function calls, shell assignments and self references stay unresolved instead of running or looping', () => {
  const v = new MakeVariables()
  v.assign('LOOP', '=', 'x $(LOOP)')
  assert.match(v.expand('$(LOOP)').unresolved, /references itself/)
  v.assign('SH', '!=', 'echo hi')
  assert.match(v.expand('a $(SH)').unresolved, /computed at run time/)
  assert.match(v.expand('$(shell echo hi)').unresolved, /function call \$\(shell/)
  assert.match(v.expand('$(eval X := 1)').unresolved, /function call \$\(eval/)
  assert.match(v.expand('$(value SH)').unresolved, /function call \$\(value/)
  assert.match(v.expand('$(@D)/x').unresolved, /automatic variable/)
  assert.deepEqual(v.expand('$(NOPE)/x').undefinedVars, ['NOPE'])
  assert.equal(v.expand('$(NOPE)/x').value, '/x')
})

test('substitution references and the pure text functions expand as in GNU make', () => {
  const v = new MakeVariables(undefined, '/project')
  v.assign('SRCS', '=', 'src/a.c src/b.c lib/c.c')
  v.assign('ARCH', ':=', 'x86')
  v.assign('x86_FLAGS', '=', '-m64')
  v.assign('greet', '=', 'hello $(1) from $(0)')
  const cases = {
    '$(SRCS:.c=.o)': 'src/a.o src/b.o lib/c.o',
    '$(SRCS:src/%.c=out/%.o)': 'out/a.o out/b.o lib/c.c',
    '$(patsubst %.c,%.d,$(SRCS))': 'src/a.d src/b.d lib/c.d',
    '$(subst src/,build/,$(SRCS))': 'build/a.c build/b.c lib/c.c',
    '$(filter src/%,$(SRCS))': 'src/a.c src/b.c',
    '$(filter-out src/%,$(SRCS))': 'lib/c.c',
    '$(sort b a c a)': 'a b c',
    '$(strip   a   b  )': 'a b',
    '$(words $(SRCS))': '3',
    '$(word 2,$(SRCS))': 'src/b.c',
    '$(wordlist 2,3,$(SRCS))': 'src/b.c lib/c.c',
    '$(firstword $(SRCS))|$(lastword $(SRCS))': 'src/a.c|lib/c.c',
    '$(dir $(SRCS) top)': 'src/ src/ lib/ ./',
    '$(notdir $(SRCS))': 'a.c b.c c.c',
    '$(basename $(SRCS))|$(suffix $(SRCS))': 'src/a src/b lib/c|.c .c .c',
    '$(addprefix t-,a b)|$(addsuffix .o,a b)': 't-a t-b|a.o b.o',
    '$(join a b,1 2 3)': 'a1 b2 3',
    '$(foreach d,x y,$(d)-each)': 'x-each y-each',
    '$(if $(ARCH),yes,no)|$(if $(NOPE),yes,no, really)': 'yes|no, really',
    '$(or ,second)|$(and a,b)|$(and ,b)': 'second|b|',
    '$(findstring 86,$(ARCH))': '86',
    '$($(ARCH)_FLAGS)': '-m64',
    '$(call greet,world)': 'hello world from greet',
    '$(abspath a/../b/c)': '/project/b/c',
  }
  for (const [text, want] of Object.entries(cases)) {
    const e = v.expand(text)
    assert.equal(e.unresolved, undefined, text)
    assert.equal(e.value, want, text)
  }
})

test('recipe lines yield the variables they reference, not functions, automatic or make-own variables', () => {
  const found = new Set()
  referencedVariables('$(CC) $(CFLAGS:-O2=-O3) -o $@ $< $(@D) ${LDFLAGS} $(patsubst %.c,%.o,$(SRCS)) $$HOME $(MAKE) $(shell $(TOOL) x)', found)
  assert.deepEqual([...found], ['CC', 'CFLAGS', 'LDFLAGS', 'SRCS', 'TOOL'])
})

test('reading a makefile never runs anything in it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'make-noexec-'))
  try {
    const marker = join(dir, 'ran')
    writeFileSync(join(dir, 'Makefile'), [
      `X := $(shell touch ${marker})`,
      `Y != touch ${marker}`,
      `include $(shell touch ${marker})`,
      `$(eval $(shell touch ${marker}))`,
      `$(shell touch ${marker}): ; touch ${marker}`,
      `.PHONY: build`,
      `build: $(shell touch ${marker})`,
      `\ttouch ${marker}`,
      '',
    ].join('\n'))
    const result = makeCollector.collect({ root: dir, options: { enabled: true } })
    assert.deepEqual(result.recipes.map((r) => r.name), ['.DEFAULT_GOAL', 'build'])
    assert.equal(existsSync(marker), false, 'no command in the makefile ran')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
