// Synthetic repositories shaped like four public ones, for the whole-process benchmark and for
// profiling by hand: node bench/shapes.mjs DIR writes them under DIR.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { makeMonorepo } from './scripts.bench.mjs'

function write(path, text) {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, text)
}

/** git's shape: variables, conditionals over uname and config, includes, many rules, one big file. */
export function makeGitLike(dir) {
  const lines = ['# A makefile shaped like git\'s', 'all::', 'SHELL_PATH = /bin/sh', "uname_S := $(shell sh -c 'uname -s 2>/dev/null || echo not')", 'include config.mak.uname', '-include config.mak.autogen', '-include config.mak', '']
  for (let i = 0; i < 400; i++) lines.push(`LIB_OBJS += lib/obj${i}.o`)
  for (let i = 0; i < 60; i++) lines.push(`ifdef NO_FEATURE_${i}`, `\tBASIC_CFLAGS += -DNO_FEATURE_${i}`, 'else', `\tLIB_OBJS += compat/feature${i}.o`, 'endif')
  lines.push('ifdef MSVC', 'include compat/vcbuild/scripts/clink.mk', 'endif', 'ifeq ($(uname_S),Darwin)', 'BASIC_LDFLAGS += -framework Security', 'endif')
  for (let i = 0; i < 300; i++) lines.push(`git-cmd${i}$X: builtin/cmd${i}.o GIT-LDFLAGS $(GITLIBS)`, `\t$(QUIET_LINK)$(CC) $(ALL_CFLAGS) -o $@ $(ALL_LDFLAGS) $(filter %.o,$^) $(LIBS)`, '')
  lines.push('.PHONY: all install clean test doc html info reconfigure')
  for (const t of ['install', 'clean', 'test', 'doc', 'html', 'info']) lines.push(`${t}: ## ${t} everything`, `\t$(MAKE) -C sub ${t}`, '')
  lines.push('ifdef AUTOCONFIGURED', 'reconfigure: configure', '\t./configure', 'endif')
  while (lines.length < 3500) lines.push(`# filler comment line ${lines.length}`)
  write(join(dir, 'Makefile'), `${lines.join('\n')}\n`)
  const uname = ['ifeq ($(uname_S),Linux)', 'HAVE_ALLOCA_H = YesPlease', 'endif', 'ifeq ($(uname_S),Windows)', 'MSVC = 1', 'endif']
  for (let i = 0; i < 200; i++) uname.push(`ifeq ($(uname_S),OS${i})`, `\tNO_FEATURE_${i % 60} = YesPlease`, 'endif')
  write(join(dir, 'config.mak.uname'), `${uname.join('\n')}\n`)
}

/** tokio's shape: a virtual workspace of 40 crates with examples, tests and benches. */
export function makeTokioLike(dir) {
  const members = Array.from({ length: 40 }, (_, i) => `crates/c${i}`)
  write(join(dir, 'Cargo.toml'), `[workspace]\nresolver = "2"\nmembers = ["crates/*"]\n`)
  for (const [i, m] of members.entries()) {
    write(join(dir, m, 'Cargo.toml'), `[package]\nname = "c${i}"\nversion = "0.1.0"\nedition = "2021"\n\n[[example]]\nname = "ex${i}-declared"\npath = "examples/declared.rs"\n`)
    write(join(dir, m, 'src/lib.rs'), 'pub fn f() {}\n')
    for (let k = 0; k < 4; k++) write(join(dir, m, `examples/e${k}.rs`), 'fn main() {}\n')
    write(join(dir, m, 'examples/declared.rs'), 'fn main() {}\n')
    for (let k = 0; k < 3; k++) write(join(dir, m, `tests/t${k}.rs`), '#[test] fn t() {}\n')
  }
}

/** A Taskfile with includes: 10 included files of 20 tasks each, one of them flattened. */
export function makeTaskfileLike(dir) {
  const includes = Array.from({ length: 10 }, (_, i) => `  ns${i}:\n    taskfile: ./tasks/ns${i}.yml${i === 0 ? '\n    flatten: true' : ''}`)
  write(join(dir, 'Taskfile.yml'), `version: '3'\nincludes:\n${includes.join('\n')}\ntasks:\n  default:\n    desc: Build everything\n    cmds: [echo all]\n`)
  for (let i = 0; i < 10; i++) {
    const tasks = Array.from({ length: 20 }, (_, k) => `  t${i}-${k}:\n    desc: Task ${k} of ${i}\n    cmds:\n      - echo ${k}`)
    write(join(dir, `tasks/ns${i}.yml`), `version: '3'\ntasks:\n${tasks.join('\n')}\n`)
  }
}

/**
 * One Makefile of `targets` targets, half of them documented (`## text`), with variables,
 * prerequisites, a `.PHONY` line per ten and recipes that name variables: the growth benchmark's.
 */
export function makeBigMakefile(dir, targets) {
  const lines = ['# A makefile with many targets', 'CC ?= cc', 'CFLAGS := -O2', 'OUT = build', '']
  for (let i = 0; i < targets; i++) {
    if (i % 10 === 0) lines.push(`.PHONY: ${Array.from({ length: Math.min(10, targets - i) }, (_, k) => `target-${i + k}`).join(' ')}`)
    lines.push(`target-${i}: ${i + 1 < targets ? `target-${i + 1} ` : ''}| $(OUT)${i % 2 === 0 ? ` ## Build part ${i} of the project` : ''}`, `\t$(CC) $(CFLAGS) -c src/part-${i}.c -o $(OUT)/part-${i}.o $(EXTRA_${i % 7})`, '')
  }
  write(join(dir, 'Makefile'), `${lines.join('\n')}\n`)
}

/** The four shapes, by the directory name each gets. */
export const SHAPES = {
  vite: (d) => makeMonorepo(d, 279, 'pnpm'),
  git: makeGitLike,
  tokio: makeTokioLike,
  taskfile: makeTaskfileLike,
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const base = process.argv[2]
  if (!base) {
    process.stderr.write('usage: node bench/shapes.mjs DIR\n')
    process.exit(2)
  }
  for (const [name, make] of Object.entries(SHAPES)) make(join(base, name))
}
