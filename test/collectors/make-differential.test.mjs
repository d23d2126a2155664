// Differential test against GNU make: seeded random makefiles built from valid constructs
// (rules of every shape, variables in names, includes, define blocks, continuations,
// .RECIPEPREFIX, target-specific variables) must give the same explicit targets and the same
// .PHONY set as make's own database. Set FUZZ_SEED to replay; the seed is in the failure.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseMakefile } from '../../dist/src/collectors/make/parse.js'
import { readText } from '../../dist/src/collectors/shared/fs.js'
import { onPath } from '../../dist/src/book/discover.js'
import { isAmbiguous, makeDatabase } from './make-database.mjs'
import { rng } from '../support/random.mjs'

const MAKEFILES = 40


function generate(r) {
  const pick = (n) => Math.floor(r() * n)
  const one = (list) => list[pick(list.length)]
  const name = () => one(['build', 'test', 'lint', 'app', 'out/app', 'docs/index.html', 'a.o', 'b.o', 'x-y', 'v1.2', 'gen_1', 'deploy', 'clean', 'pkg/lib.a'])
  const files = { 'Makefile': [], 'inc/one.mk': [], 'inc/two.mk': [] }
  let prefix = '\t'
  const vars = []
  const included = new Set()
  const emit = (file) => {
    const out = files[file]
    switch (pick(16)) {
      case 0: { const v = `V${pick(4)}`; vars.push(v); out.push(`${v} ${one(['=', ':=', '?=', '+=', '::='])} ${name()} ${pick(2) ? name() : ''}`); break }
      case 1: out.push(`${name()}: ${name()} ${pick(2) ? `| ${name()}` : ''} ${pick(2) ? '## doc' : ''}`, `${prefix}echo $(V${pick(4)}) $@`); break
      // Double-colon rules get names of their own: make stops when a target has both kinds.
      case 2: out.push(pick(2) ? `${name()} ${name()}: ${name()}` : `${one(['log', 'check'])} ${one(['all-checks', 'log'])}:: ${name()}`, `${prefix}true`); break
      case 3: out.push(`.PHONY: ${name()} ${name()}`); break
      case 4: out.push(`${vars.length ? `$(${one(vars)})` : name()}-t: ; true`); break
      case 5: out.push(`define BLOCK${pick(3)}`, `${name()}-in-define: x`, `${prefix}true`, 'endef'); break
      case 6: out.push(`${name()} \\`, `  ${name()}: \\`, `  ${name()}`, `${prefix}echo \\`, `${prefix}  continued`); break
      case 7: out.push(`# comment \\`, `${name()}-commented: x`); break
      case 8: out.push(`${name()}: V${pick(4)} = target-specific`); break
      case 9: out.push(`%.${one(['o', 'x'])}: %.c`, `${prefix}cc $<`, `.c.o:`, `${prefix}cc $<`); break
      case 10: out.push(`${one(['a.o b.o', 'x.o y.o'])}: %.o: %.c`, `${prefix}cc $<`); break
      case 11: if (file === 'Makefile') { prefix = pick(2) ? '>' : '\t'; out.push(`.RECIPEPREFIX = ${prefix === '\t' ? '' : prefix}`) } break
      case 12: out.push(`${name()}: ${name()} ; @echo inline $(V${pick(4)})`); break
      case 13: {
        // Targets named by make's pure text functions and substitution references.
        const v = `$(V${pick(4)})`
        out.push(`${one([`$(addprefix p-,${v})`, `$(addsuffix -s,${v})`, `$(patsubst %.o,%.bin,${v})`, `$(${`V${pick(4)}`}:.o=.c)`,
          `$(foreach w,${v},$(w)-each)`, `$(sort ${v} z-last)`, `$(notdir ${v})-n`, `$(subst -,_,${v})`, `$(filter %.o,${v})`,
          `$(if ${v},then-t,else-t)`, `$(word 1,${v})-w`, `$(basename ${v})-b`])}: ; true`)
        break
      }
      case 14: out.push(`F${pick(2)} = $(addprefix f-,$(1)) $(2)`, `$(call F${pick(2)},${name()},${name()})-c: ; true`); break
      default: out.push('', `## doc line`, `${name()}:`, `${prefix}true`)
    }
  }
  for (let i = 0; i < 3 + pick(12); i++) emit('inc/one.mk')
  for (let i = 0; i < 3 + pick(12); i++) emit('inc/two.mk')
  for (let i = 0; i < 3 + pick(25); i++) {
    emit('Makefile')
    if (pick(8) === 0) {
      // Each file included once: make reads a file again on every include, the reader once.
      const directive = one(['include inc/one.mk', '-include inc/two.mk', 'sinclude inc/missing.mk', 'include $(wildcard inc/*.mk)'])
      const covers = directive.includes('wildcard') ? ['inc/one.mk', 'inc/two.mk'] : [directive.split(' ')[1]]
      if (covers.every((f) => !included.has(f))) {
        for (const f of covers) included.add(f)
        files.Makefile.push(directive)
      }
    }
  }
  // Included files use the prefix in force where they are included; keep them on tabs.
  files.Makefile.push('.RECIPEPREFIX =')
  return files
}

test(`make reader agrees with GNU make on ${MAKEFILES} generated makefiles`, { skip: !onPath('make') && 'make is not on PATH' }, () => {
  const seed = Number(process.env.FUZZ_SEED ?? 424242)
  const r = rng(seed)
  const dir = mkdtempSync(join(tmpdir(), 'make-diff-'))
  const rejected = []
  try {
    for (let i = 0; i < MAKEFILES; i++) {
      const files = generate(r)
      rmSync(join(dir, 'inc'), { recursive: true, force: true })
      spawnSync('mkdir', ['-p', join(dir, 'inc')])
      for (const [path, lines] of Object.entries(files)) writeFileSync(join(dir, path), lines.join('\n') + '\n')
      if (process.env.KEEP_DIFF) spawnSync("cp", ["-r", dir, `/tmp/make-diff-${i}`])
      const db = makeDatabase(dir, 'Makefile')
      const parsed = parseMakefile(join(dir, 'Makefile'), { cwd: dir, read: readText })
      if (db.stderr.split('\n').some((l) => l.includes('***') && !l.includes("No rule to make target ':'"))) {
        // make stopped (a generated construct it rejects); its database is partial.
        rejected.push(i)
        continue
      }
      const context = `makefile ${i} of seed ${seed} (replay with FUZZ_SEED=${seed}):\n${files.Makefile.join('\n')}\nmake said: ${db.stderr}`
      const ours = parsed.targets.filter((t) => !isAmbiguous({ phony: parsed.phony.has(t.name), hasPrerequisites: t.prerequisites.length + t.orderOnly.length > 0 || t.unresolvedPrerequisites, hasRecipe: t.hasRecipe }))
      assert.deepEqual(ours.map((t) => t.name).sort(), db.entries.filter((e) => !isAmbiguous(e)).map((e) => e.name).sort(), context)
      assert.deepEqual([...parsed.phony].sort(), [...db.phony].sort(), context)
    }
    assert.ok(rejected.length <= MAKEFILES / 4, `make rejected too many generated makefiles (${rejected.join(', ')}), so too few were compared`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
