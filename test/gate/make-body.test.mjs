// What a make recipe runs (src/book/risk/bodies/make.ts), against GNU make itself: in a throwaway
// copy of each makefile, `make -n -B <target>` prints the lines make would hand to the shell
// without running them, and the body reader must list the same lines in the same order.
// make runs some lines even under -n: `$(shell ...)`, `!=`, `+` lines, lines with $(MAKE), and the
// recipes that remake a makefile. So make is given only makefiles without the first three, and
// its SHELL is a guard that runs a line only when it is nothing but a sub-make call (for the
// .ONESHELL case, whose output depends on a POSIX shell, the makefile is checked by hand instead).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { closeSync, cpSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, isAbsolute, join, relative } from 'node:path'
import { readMakeBody } from '../../dist/src/book/risk/bodies/make.js'
import { DEFAULT_GOAL_NAME, defaultMakefile, makeCollector } from '../../dist/src/collectors/make/collect.js'
import { createRecipe } from '../../dist/src/book/recipe.js'
import { tempDir } from '../support/temp.mjs'
import { toolBinary } from '../support/tool-binary.mjs'

const fixtures = new URL('../fixtures/make/', import.meta.url).pathname
const make = toolBinary('make')
const makeDir = make && dirname(make)

/** The shell make gets: runs a line only when it is a plain sub-make call (`make ...`, `cd dir && make ...`). */
const GUARD = `#!/bin/sh
for last; do :; done
case "$last" in *"
"*) exit 0 ;; esac
if printf '%s' "$last" | grep -Eqx '(cd [A-Za-z0-9_./-]+ && )?make( [A-Za-z0-9_./=-]+)*'; then exec /bin/sh -c "$last"; fi
exit 0
`
const noMake = !make && 'GNU make is not on PATH'

/** A body context as the gate gives one: reads regular files inside the root only, at most 1 MiB. */
function context(root) {
  const real = realpathSync(root)
  return {
    root: real,
    memo: new Map(),
    read(abs) {
      let path
      try {
        path = realpathSync(abs)
      } catch {
        return undefined
      }
      const rel = relative(real, path)
      if (rel.startsWith('..') || isAbsolute(rel)) return undefined
      const fd = openSync(path, 'r')
      try {
        const st = fstatSync(fd)
        if (!st.isFile() || st.size > 1 << 20) return undefined
        const buffer = Buffer.alloc(st.size)
        readSync(fd, buffer, 0, st.size, 0)
        return buffer.toString('utf8')
      } finally {
        closeSync(fd)
      }
    },
  }
}

/** The recipe the collector lists for `name`, or one built as it would be (a file target it does not list). */
function recipeFor(root, name) {
  const listed = makeCollector.collect({ root, options: { enabled: true } }).recipes.find((r) => r.name === name)
  return listed ?? createRecipe({ source: 'make', runner: 'make', name, command: name === DEFAULT_GOAL_NAME ? 'make' : `make ${name}`, file: 'Makefile' })
}

function bodyOf(root, name, args = []) {
  const ctx = context(root)
  return readMakeBody(recipeFor(ctx.root, name), ctx, args)
}

/** A guard shell for make, in a folder of its own that the test removes. */
function guardShell(t) {
  const file = join(tempDir(t, 'make-guard-'), 'guard')
  writeFileSync(file, GUARD, { mode: 0o755 })
  return file
}

/** What make -n -B prints for the goal, without the sub-makes' "Entering directory" lines. */
function dryRun(dir, goal, args = [], shell = undefined) {
  const goals = goal === DEFAULT_GOAL_NAME ? [] : [goal]
  // make is called by name, as the recipes' $(MAKE) says it.
  const words = ['-n', '-B', ...goals, ...args, ...(shell ? [`SHELL=${shell}`] : [])]
  const r = spawnSync('make', words, { cwd: dir, encoding: 'utf8', env: { PATH: `${makeDir}:${process.env.PATH}`, LC_ALL: 'C' } })
  const lines = r.stdout.split('\n').filter((l) => !/^make(\[\d+\])?: ((Entering|Leaving) directory |Nothing to be done for |'.*' is up to date)/.test(l))
  return { status: r.status, stderr: r.stderr, text: lines.join('\n').replace(/\n+$/, '') }
}

/** Whether make may be given this makefile: nothing in it runs under -n (the guard shell aside). */
function harmless(text, subMakes) {
  if (/\$[({]shell\b/.test(text) || text.includes('!=')) return false
  if (/^\t[ \t@-]*\+/m.test(text)) return false
  // make runs .DEFAULT and match-anything rules to remake the makefiles, even under -n.
  if (/^\.DEFAULT\s*:/m.test(text) || /^%::?[^=]*$/m.test(text)) return false
  // A line with $(MAKE) runs under -n: only lines that are nothing but a sub-make call are allowed.
  for (const line of text.split('\n')) {
    if (!/\$[({]MAKE[)}]/.test(line)) continue
    if (!subMakes || !/^\t[@-]*(cd [\w/.-]+ && )?\$[({]MAKE[)}]( -C [\w/.-]+| -f [\w/.-]+| [\w.-]+| [A-Z]+=[\w.-]+)*$/.test(line)) return false
  }
  return true
}

function ours(root, goal, args) {
  return bodyOf(root, goal, args).lines.map((l) => l.text).join('\n')
}

/** Files make names as missing prerequisites are created empty (inside the copy), then make asked again. */
function dryRunCreatingSources(dir, goal, shell) {
  for (let round = 0; round < 20; round++) {
    const r = dryRun(dir, goal, [], shell)
    const missing = /No rule to make target '([^']+)'/.exec(r.stderr)?.[1]
    if (r.status === 0 || !missing || missing.startsWith('/') || missing.includes('..')) return r
    mkdirSync(dirname(join(dir, missing)), { recursive: true })
    writeFileSync(join(dir, missing), '')
  }
  return dryRun(dir, goal, [], shell)
}

// ---------------------------------------------------------------------------------------------
// The fixtures of the make collector that make may be given.

const fixtureNames = readdirSync(fixtures).sort().filter((name) => {
  const file = defaultMakefile(join(fixtures, name))
  if (!file) return false
  const texts = readdirSync(join(fixtures, name), { recursive: true }).map((f) => join(fixtures, name, f)).filter((f) => !f.endsWith('.json'))
    .map((f) => { try { return readFileSync(f, 'utf8') } catch { return '' } })
  return texts.every((t) => harmless(t, false) && !/\$[({]MAKE[)}]/.test(t))
})

test('some fixtures of the make collector qualify for the oracle', () => {
  assert.ok(fixtureNames.length >= 10, `qualifying fixtures: ${fixtureNames.join(', ')}`)
})

for (const name of fixtureNames) {
  test(`make fixture ${name}: every target's lines are the ones make -n -B prints`, { skip: noMake }, (t) => {
    const dir = tempDir(t, `make-body-${name}-`)
    cpSync(join(fixtures, name), dir, { recursive: true })
    const shell = guardShell(t)
    // The collector's targets, and plain `make` even where the collector lists nothing (make refuses the makefile).
    const names = [...new Set([DEFAULT_GOAL_NAME, ...makeCollector.collect({ root: dir, options: { enabled: true } }).recipes.map((r) => r.name)])]
    let compared = 0
    for (const goal of names) {
      const r = dryRunCreatingSources(dir, goal, shell)
      const body = bodyOf(dir, goal, [])
      const mine = body.lines.map((l) => l.text).join('\n')
      if (r.status === 0) {
        assert.equal(mine, r.text, `make ${goal} in ${name} (make said: ${r.stderr})`)
        compared++
      } else if (r.text === '' && !/No rule to make target/.test(r.stderr)) {
        // make refuses the makefile (a syntax error, a directory where the makefile should be, an include cycle it crashes on).
        assert.deepEqual(body.lines, [], `make ${goal} in ${name}: make ran nothing (${r.stderr.slice(-200)})`)
        assert.ok(body.unknown.length > 0, `make ${goal} in ${name}: the body says why nothing runs`)
        compared++
      } else {
        // make stopped part way (an error it reports): what it printed so far comes first in the body.
        assert.ok(mine.startsWith(r.text), `make ${goal} in ${name}: make printed\n${r.text}\nthen stopped: ${r.stderr}\nthe body is\n${mine}`)
      }
    }
    assert.ok(compared > 0, `no target of ${name} could be compared`)
  })
}

// ---------------------------------------------------------------------------------------------
// Generated makefiles, one feature each, compared with make the same way.

const CASES = [
  {
    name: 'recursive, simple, appended and conditional variables',
    files: {
      Makefile: 'A = $(B) later\nB = first\nS := $(B)\nB = second\nS += more\nA += $(B)\nC ?= cset\nC ?= ignored\nE =\n'
        + 'all: ; echo $(A) "|" $(S) "|" $(C) "|" [$(E)] $$HOME $${X} $(subst e,E,$(B)) $(words $(A)) $(patsubst %d,%D,$(B))\n',
    },
    goals: ['all'],
  },
  {
    name: 'target-specific variables, inherited by prerequisites unless private, and pattern-specific ones',
    files: {
      Makefile: 'CFLAGS = -O\nall: CFLAGS += -g\nall: lib prog x.o\nprog: CFLAGS := $(CFLAGS) -prog\nlib: private X = only-lib\nlib: dep\n'
        + 'dep: ; echo dep $(CFLAGS) [$(X)]\nlib: ; echo lib $(CFLAGS) [$(X)]\nprog: ; echo prog $(CFLAGS)\n%.o: CFLAGS += -pat\nx.o: ; echo x.o $(CFLAGS)\n'
        + 'alone: ; echo alone $(CFLAGS)\n',
    },
    goals: ['all', 'prog', 'alone', 'x.o'],
  },
  {
    name: 'variables from the command line win over the makefile unless it says override',
    files: {
      Makefile: 'V = file\noverride W = forced\nU = $(V)-u\nifeq ($(V),cli)\nMODE = from-cli\nelse\nMODE = from-file\nendif\n'
        + 'all: dep ; echo $(V) $(W) $(U) $(MODE)\ndep: ; echo dep $(V)\nother: ; echo other $(V)\n',
    },
    goals: ['all'],
    args: [['V=cli', 'W=cli'], ['V=cli', 'other'], ['other']],
  },
  {
    name: 'automatic variables in explicit, static pattern and pattern rules',
    files: {
      Makefile: 'objs = src/a.o src/b.o\nprog: $(objs) lib/util.o | out\n'
        + '\techo $@ "<" $< "^" $^ "+" $+ "|" $| "*" $* "@D" $(@D) "@F" $(@F) "^D" $(^D) "<F" $(<F)\n'
        + '$(objs): src/%.o: src/%.c\n\techo cc $< -o $@ stem $* dir $(*D)\n'
        + 'lib/%.o: lib/%.c lib/common.h\n\techo pattern $< $^ $* into $@\n'
        + 'out: ; echo mkdir $@\nlib.a(member.o): ; echo $@ $%\n',
      'src/a.c': '', 'src/b.c': '', 'lib/util.c': '', 'lib/common.h': '',
    },
    goals: ['prog', 'lib.a(member.o)'],
  },
  {
    name: 'prerequisite chains, each target once, circular ones dropped',
    files: {
      Makefile: 'all: a b c\na: d e ; echo a\nb: d ; echo b\nc: e a ; echo c\nd: e ; echo d\ne: ; echo e\n'
        + 'loop1: loop2 ; echo loop1\nloop2: loop1 ; echo loop2\n'
        + 'x: y\nx: z\n\techo x\ny: ; echo y\nz: ; echo z\n',
    },
    goals: ['all', 'loop1', 'x'],
  },
  {
    name: 'double-colon rules run each recipe after its own prerequisites',
    files: { Makefile: 'log:: first\n\techo log one $^\nlog:: second\n\techo log two $^\nlog::\n\techo log three\nfirst second: ; echo $@\n' },
    goals: ['log'],
  },
  {
    name: 'included makefiles and their variables',
    files: {
      Makefile: 'include mk/vars.mk\n-include missing.mk\ninclude mk/rules.mk\nall: build ; echo all $(OUT)\n',
      'mk/vars.mk': 'OUT = dist\nNAME := app\n',
      'mk/rules.mk': 'build: ; echo building $(NAME) into $(OUT) from $(MAKEFILE_LIST)\n',
    },
    goals: ['all', DEFAULT_GOAL_NAME],
  },
  {
    name: 'sub-makes in the root and in sub-directories, with the variables they pass on',
    files: {
      Makefile: 'export DEST = out\nall: pre\n\t$(MAKE) -C sub t V=2\n\tcd sub && $(MAKE) t\n\t$(MAKE) other\n\t$(MAKE) -f extra.mk x\n\t$(MAKE) -C sub\n'
        + 'pre: ; echo pre $(V)\nother: ; echo other $(V)\n',
      'extra.mk': 'x: ; echo extra x $(V)\n',
      'sub/Makefile': 'first: ; echo sub first $(DEST) $(MAKELEVEL)\nt: deep ; echo sub t $(V) $(DEST)\ndeep:\n\t$(MAKE) -C ../lib all\n',
      'lib/Makefile': 'all: ; echo lib all $(V) $(DEST)\n',
    },
    goals: ['all'],
    args: [[], ['V=1']],
  },
  {
    name: '.ONESHELL makes each recipe one script',
    files: { Makefile: '.ONESHELL:\nall: dep\n\t@echo one\n\t-echo two \\\n\t  three\n\t@ echo four\n\tcd sub\n\techo "$$PWD"\ndep: ; @echo dep\n' },
    goals: ['all'],
  },
  {
    name: 'continued recipe lines go to the shell with their backslash-newlines',
    files: {
      Makefile: 'all:\n\t@echo one \\\n\t  two; \\\n\techo three\n\tfor f in a b; do \\\n\t\techo $$f; \\\n\tdone\n'
        + '\n\t# a recipe comment goes to the shell\n\techo after\n',
    },
    goals: ['all'],
  },
  {
    name: 'define blocks as canned recipes and functions',
    files: {
      Makefile: 'define STEPS\n@echo step one $@\n-echo step two \\\n  continued\nendef\ndefine greet\necho hello $(1) from $(2)\nendef\nBIN := bin\n'
        + 'define SIMPLE :=\necho simple $(BIN)\nendef\nall: ; $(STEPS)\nhi:\n\t$(call greet,world,$@)\n\t$(SIMPLE)\n',
    },
    goals: ['all', 'hi'],
  },
  {
    name: 'make\'s own variables: $(RM), $(CC), $(MAKE), $(CURDIR), MAKECMDGOALS',
    files: {
      Makefile: 'ifeq ($(MAKECMDGOALS),clean)\nWHAT = cleaning\nelse\nWHAT = building\nendif\n'
        + 'clean: ; $(RM) -r build; echo $(WHAT) $(MAKECMDGOALS) in $(notdir $(CURDIR))\nall: ; $(CC) -o app main.c; echo $(WHAT)\n',
    },
    goals: ['clean', 'all'],
  },
  {
    name: '.RECIPEPREFIX, and pattern rules over existing files, chained through an intermediate',
    files: {
      Makefile: '.RECIPEPREFIX = >\nall: a.txt b.out\n> echo all\n%.txt: %.in\n> echo copy $< $@\n'
        + '%.out: %.mid\n> echo out $< $@ $*\n%.mid: %.src\n> echo mid $< $@\n',
      'a.in': '', 'b.src': '',
    },
    goals: ['all'],
  },
  {
    name: 'grouped targets run their recipe once for the group',
    files: { Makefile: 'all: gen1 gen2 other\ngen1 gen2 &: gen.in\n\techo generate $@ from $^\nother: gen2 ; echo other\n', 'gen.in': '' },
    goals: ['all', 'gen2'],
  },
  {
    name: 'a makefile that an included file\'s rule remakes first',
    files: {
      Makefile: 'include gen.mk\nall: ; echo all $(X)\ngen.mk: gen.in ; echo generate $@ from $<\n',
      'gen.mk': 'X = 1\n', 'gen.in': '',
    },
    goals: ['all'],
  },
]

for (const c of CASES) {
  test(`make -n -B agrees: ${c.name}`, { skip: noMake }, (t) => {
    const dir = tempDir(t, 'make-body-case-')
    for (const [file, text] of Object.entries(c.files)) {
      mkdirSync(dirname(join(dir, file)), { recursive: true })
      writeFileSync(join(dir, file), text)
      assert.ok(harmless(text, true), `${file} must be safe to give make`)
    }
    const shell = Object.values(c.files).some((text) => text.includes('.ONESHELL')) ? undefined : guardShell(t)
    for (const goal of c.goals) {
      for (const args of c.args ?? [[]]) {
        const r = dryRun(dir, goal, args, shell)
        assert.equal(r.status, 0, `make -n -B ${goal} ${args.join(' ')}: ${r.stderr}`)
        assert.equal(ours(dir, goal, args), r.text, `make ${goal} ${args.join(' ')}`)
      }
    }
  })
}

// ---------------------------------------------------------------------------------------------
// What the gate relies on, asserted directly.

function project(t, files) {
  const dir = tempDir(t, 'make-body-')
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true })
    writeFileSync(join(dir, file), text)
  }
  return realpathSync(dir)
}

test('clean: rm -rf src gives the line rm -rf src, where it is written', (t) => {
  const root = project(t, { Makefile: '.PHONY: clean\n# tidy\nclean:\n\t@rm -rf src\n' })
  const body = bodyOf(root, 'clean')
  assert.deepEqual(body.lines, [{ text: 'rm -rf src', cwd: '.', file: 'Makefile', line: 4, via: ['make clean'] }])
  assert.deepEqual(body.unknown, [])
})

test('a prerequisite\'s recipe runs first, with the chain in via', (t) => {
  const root = project(t, { Makefile: 'a: b\n\techo a\nb: ; rm -rf x\n' })
  const body = bodyOf(root, 'a')
  assert.deepEqual(body.lines.map((l) => [l.text, l.via]), [['rm -rf x', ['make a', 'make b']], ['echo a', ['make a']]])
})

test('a recipe that runs $(MAKE) b is followed into b', (t) => {
  const root = project(t, { Makefile: 'a: ; $(MAKE) b\nb: ; rm -rf build\n' })
  const body = bodyOf(root, 'a')
  assert.deepEqual(body.lines.map((l) => [l.text, l.via]), [['make b', ['make a']], ['rm -rf build', ['make a', 'make b']]])
})

test('make -C dir and cd dir && make follow into the sub-directory, with its cwd', (t) => {
  const root = project(t, {
    Makefile: 'all:\n\t$(MAKE) -C lib clean\n\tcd tools && $(MAKE)\n\tfor d in x y; do $(MAKE) -C mods/$$d wipe; done\n',
    'lib/Makefile': 'clean: ; rm -rf obj\n',
    'tools/makefile': 'first: ; echo tools\n',
    'mods/x/Makefile': 'wipe: ; rm -rf x-out\n',
    'mods/y/Makefile': 'wipe: ; rm -rf y-out\n',
  })
  const body = bodyOf(root, 'all')
  const sub = body.lines.filter((l) => l.cwd !== '.').map((l) => [l.text, l.cwd, l.file, l.via])
  assert.deepEqual(sub, [
    ['rm -rf obj', 'lib', 'lib/Makefile', ['make all', 'make -C lib clean']],
    ['echo tools', 'tools', 'tools/makefile', ['make all', 'make -C tools', 'make first']],
    ['rm -rf x-out', 'mods/x', 'mods/x/Makefile', ['make all', 'make -C mods/x wipe']],
    ['rm -rf y-out', 'mods/y', 'mods/y/Makefile', ['make all', 'make -C mods/y wipe']],
  ])
})

test('sub-makes behind wrappers, up a directory and in subshells are followed; a question about make is not', (t) => {
  const root = project(t, {
    Makefile: 'top: ; echo top\n',
    'sub/Makefile': 'all:\n\tcd .. && $(MAKE) top\n\tenv V=1 nice -n 5 make -C ../lib x\n\t(cd ../lib && sudo make y)\n\tcommand -v make\n',
    'lib/Makefile': 'x: ; echo lib x $(V)\ny: ; echo lib y\n',
  })
  const recipe = createRecipe({ source: 'make', runner: 'make', name: 'all', command: 'make all', cwd: 'sub', file: 'sub/Makefile' })
  const body = readMakeBody(recipe, context(root), [])
  assert.deepEqual(body.lines.map((l) => [l.text, l.cwd]), [
    ['cd .. && make top', 'sub'], ['echo top', '.'],
    ['env V=1 nice -n 5 make -C ../lib x', 'sub'], ['echo lib x 1', 'lib'],
    ['(cd ../lib && sudo make y)', 'sub'], ['echo lib y', 'lib'],
    ['command -v make', 'sub'],
  ])
})

test('a sub-make outside the repository is not followed, and says so', (t) => {
  const outside = project(t, { Makefile: 'x: ; rm -rf everything\n' })
  const root = project(t, { Makefile: `all:\n\t$(MAKE) -C ${outside} x\n\t$(MAKE) -C ../elsewhere y\n\tcd $$HOME && make z\n` })
  const body = bodyOf(root, 'all')
  assert.ok(!body.lines.some((l) => l.text.includes('everything')), 'nothing from the outside makefile')
  const whys = body.unknown.map((u) => u.why)
  assert.ok(whys.some((w) => w === `runs make in ${outside}, outside the repository`), whys.join('\n'))
  assert.ok(whys.some((w) => /runs make in .*elsewhere, outside the repository/.test(w)), whys.join('\n'))
  assert.ok(whys.some((w) => /directory that is known only when the line runs/.test(w)), whys.join('\n'))
})

test('$(shell ...) in a recipe line is unknown, and the rest of the line stays readable', (t) => {
  const root = project(t, { Makefile: 'CMD != echo rm\nLATER = $(shell cat list)\nx:\n\trm -rf $(shell cat dirs) build\n\t$(CMD) -rf src\n\techo $(LATER)\n' })
  const body = bodyOf(root, 'x')
  const texts = body.lines.map((l) => l.text)
  assert.ok(texts.includes('rm -rf $(shell cat dirs) build'), texts.join('\n'))
  assert.ok(texts.includes('$(CMD) -rf src'), texts.join('\n'))
  assert.ok(texts.includes('echo $(LATER)'), texts.join('\n'))
  // `!=` runs while make reads the makefile: that command comes first, as a line.
  assert.equal(texts[0], 'echo rm')
  const unknown = body.unknown.map((u) => [u.text, u.line])
  assert.deepEqual(unknown, [['$(shell cat dirs)', 4], ['$(CMD)', 5], ['$(LATER) (LATER = $(shell cat list))', 6]])
  assert.match(body.unknown[0].why, /runs the \$\(shell \.\.\.\) command when it expands the line/)
  assert.match(body.unknown[1].why, /CMD has a value computed at run time/)
})

test('a cycle of prerequisites and of sub-makes terminates', (t) => {
  const root = project(t, { Makefile: 'a: b ; echo a\nb: a ; echo b\nself: ; $(MAKE) self\nping: ; $(MAKE) pong\npong: ; $(MAKE) ping\n' })
  assert.deepEqual(bodyOf(root, 'a').lines.map((l) => l.text), ['echo b', 'echo a'])
  assert.deepEqual(bodyOf(root, 'self').lines.map((l) => l.text), ['make self'])
  // The call `make ping` again inside pong is the call being judged: it is not read a second time.
  assert.deepEqual(bodyOf(root, 'ping').lines.map((l) => l.text), ['make pong', 'make ping'])
})

test('sub-makes that grow at each level stop at the depth bound, with what is past it given as text', (t) => {
  const root = project(t, { Makefile: 'a: ; $(MAKE) a N=x$(N)\nwipe: ; rm -rf src\n' })
  const body = bodyOf(root, 'a')
  assert.ok(body.lines.length <= 20, `${body.lines.length} lines`)
  const cut = body.unknown.find((u) => /levels deep/.test(u.why))
  assert.ok(cut, JSON.stringify(body.unknown))
  assert.match(cut.text, /rm -rf src/, 'the makefile past the bound is searched for destructive words')
})

test('a prerequisite chain deeper than the bound stops with an unknown part that carries the rest', (t) => {
  const rules = Array.from({ length: 40 }, (_, k) => `t${k}: t${k + 1} ; echo ${k}`).join('\n')
  const root = project(t, { Makefile: `${rules}\nt40: ; $(RM) -r deep\n` })
  const body = bodyOf(root, 't0')
  assert.ok(body.lines.length <= 17, `${body.lines.length} lines`)
  const cut = body.unknown.find((u) => /more than 16 targets deep/.test(u.why))
  assert.ok(cut, JSON.stringify(body.unknown))
  assert.match(cut.text, /rm -f -r deep/, 'the recipes past the bound, expanded with make\'s defaults')
})

test('past the line bound, the rest is gathered into one unknown part instead of dropped', (t) => {
  const lines = Array.from({ length: 2100 }, (_, k) => `\techo ${k}`).join('\n')
  const root = project(t, { Makefile: `all:\n${lines}\n\trm -rf src\n` })
  const body = bodyOf(root, 'all')
  assert.equal(body.lines.length, 2000)
  const rest = body.unknown.at(-1)
  assert.match(rest.why, /more than 2000 lines/)
  assert.match(rest.text, /^echo 2000\n/)
  assert.match(rest.text, /\nrm -rf src$/)
})

test('prerequisites computed at run time are unknown, with the list as written', (t) => {
  const root = project(t, { Makefile: 'all: build $(shell cat targets)\n\techo all\nbuild: ; echo build\n' })
  const body = bodyOf(root, 'all')
  assert.deepEqual(body.lines.map((l) => l.text), ['cat targets', 'echo build', 'echo all'])
  assert.deepEqual(body.unknown.map((u) => u.text), ['all: build $(shell cat targets)'])
})

test('a makefile that is a link out of the root is not read', (t) => {
  const outside = project(t, { Makefile: 'clean: ; rm -rf /\n', 'evil.mk': 'clean: ; rm -rf ~\n' })
  const root = project(t, {})
  symlinkSync(join(outside, 'Makefile'), join(root, 'Makefile'))
  const body = bodyOf(root, 'clean')
  assert.deepEqual(body.lines, [])
  assert.equal(body.unknown.length, 1)
  assert.equal(body.unknown[0].why, 'make reads Makefile, outside the repository')

  // An include that leaves the root is not read either: what it would define is unknown.
  const other = project(t, { Makefile: 'include evil.mk\nall: ; echo all\n' })
  symlinkSync(join(outside, 'evil.mk'), join(other, 'evil.mk'))
  const included = bodyOf(other, 'all')
  assert.deepEqual(included.lines.map((l) => l.text), ['echo all'])
  assert.ok(included.unknown.some((u) => /make reads evil\.mk, which is outside the repository/.test(u.why)), JSON.stringify(included.unknown))
})

test('a target without rules, a missing makefile and a broken makefile give an empty body that says why', (t) => {
  const root = project(t, { Makefile: 'all: ; echo all\n' })
  const missing = bodyOf(root, 'nothing-here')
  assert.deepEqual(missing.lines, [])
  assert.match(missing.unknown[0].why, /no rule to make nothing-here/)

  const empty = project(t, {})
  const none = readMakeBody(createRecipe({ source: 'make', runner: 'make', name: 'x', command: 'make x', file: 'Makefile' }), context(empty), [])
  assert.deepEqual(none.lines, [])
  assert.match(none.unknown[0].why, /there is no makefile/)

  const broken = project(t, { Makefile: 'all:\n\techo all\nthis is not make\n' })
  const refused = bodyOf(broken, 'all')
  assert.deepEqual(refused.lines, [])
  assert.match(refused.unknown[0].why, /make stops reading the makefile before it runs anything: .*missing separator/)
  assert.equal(refused.unknown[0].line, 3)
})

test('the call\'s words: variables, more goals, -C and -f, and what makes them unknown', (t) => {
  const root = project(t, {
    Makefile: 'V = file\nall: ; echo all $(V)\nclean: ; rm -rf $(V)\n', 'sub/Makefile': 'x: ; echo sub x\n', 'other.mk': 'y: ; echo other y\n',
  })
  const texts = (name, args) => bodyOf(root, name, args).lines.map((l) => l.text)
  assert.deepEqual(texts('all', ['V=cli', 'clean']), ['echo all cli', 'rm -rf cli'])
  assert.deepEqual(texts(DEFAULT_GOAL_NAME, []), ['echo all file'])
  assert.deepEqual(texts(DEFAULT_GOAL_NAME, ['clean']), ['rm -rf file'])
  assert.deepEqual(texts('x', ['-C', 'sub']), ['echo sub x'])
  assert.deepEqual(texts('y', ['-f', 'other.mk']), ['echo other y'])
  const evaluated = bodyOf(root, 'all', ['--eval=all: ; rm -rf /', 'X!=rm -rf ~'])
  assert.deepEqual(evaluated.unknown.map((u) => u.why.replace(/ .*/, '')), ['make', 'make'])
  assert.match(evaluated.unknown[0].why, /--eval/)
  assert.match(evaluated.unknown[1].why, /make runs `rm -rf ~` when it starts/)
  assert.match(bodyOf(root, 'x', ['-C', '..']).unknown[0].why, /outside the repository/)
})

test('commands make runs while reading the makefile come first', (t) => {
  const root = project(t, { Makefile: 'VERSION := $(shell git describe --tags)\nDIRS = $(shell ls)\nall: ; echo $(VERSION)\n' })
  const body = bodyOf(root, 'all')
  assert.deepEqual(body.lines.map((l) => [l.text, l.line]), [['git describe --tags', 1], ['echo $(VERSION)', 3]])
  assert.match(body.unknown[0].why, /VERSION has a value computed at run time/)
})

test('the parser keeps nothing for scans: recipes only with keepRecipes', async () => {
  const { parseMakefile } = await import('../../dist/src/collectors/make/parse.js')
  const text = 'all: ; echo hi\n'
  const plain = parseMakefile('/virtual/Makefile', { cwd: '/virtual', read: () => text })
  assert.equal(plain.recipes, undefined)
  const kept = parseMakefile('/virtual/Makefile', { cwd: '/virtual', read: () => text, keepRecipes: true })
  assert.deepEqual(kept.recipes.rules.get('all').map((r) => r.recipe.map((l) => l.text)), [[' echo hi']])
})

test('.DEFAULT runs for a goal or prerequisite that has no rule and is no file', (t) => {
  const root = project(t, {
    Makefile: 'all: here.c missing\n\techo all\n.DEFAULT:\n\tcd src && $(MAKE) $@\n', 'here.c': '', 'src/Makefile': 'missing: ; rm -rf gone\n',
  })
  const body = bodyOf(root, 'all')
  assert.deepEqual(body.lines.map((l) => [l.text, l.cwd]), [['cd src && make missing', '.'], ['rm -rf gone', 'src'], ['echo all', '.']])
})

test('functions in recipe lines: $(info) prints instead of running, $(eval) and $(file) are unknown', (t) => {
  const root = project(t, { Makefile: 'x:\n\t$(info building $@)echo one\n\techo $(eval Y := 1)two\n\t$(file >out.txt,data)echo three\n' })
  const body = bodyOf(root, 'x')
  assert.deepEqual(body.lines.map((l) => l.text), ['echo one', 'echo $(eval Y := 1)two', '$(file >out.txt,data)echo three'])
  assert.deepEqual(body.unknown.map((u) => u.text), ['$(eval Y := 1)', '$(file >out.txt,data)'])
  assert.match(body.unknown[1].why, /reads or writes a file/)
})

test('past the bound on unknown parts, the rest are gathered into one part instead of dropped', (t) => {
  const lines = Array.from({ length: 600 }, (_, k) => `\techo $(shell echo ${k})`).join('\n')
  const root = project(t, { Makefile: `all:\n${lines}\n\techo $(shell rm -rf ~)\n` })
  const body = bodyOf(root, 'all')
  assert.equal(body.unknown.length, 500)
  assert.match(body.unknown.at(-1).why, /more than 500 parts/)
  assert.match(body.unknown.at(-1).text, /\$\(shell rm -rf ~\)$/)
})
