/** `command-scout recipes skills --out DIR [--root DIR]`: write agent skills (write.ts). */
import { existsSync } from 'node:fs'
import { basename, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { CliIo } from './io.js'
import { loadLibrary, SHIPPED_RECIPES_DIR } from '../curated/load.js'
import { discover } from '../book/discover.js'
import { scanReport } from '../book/report.js'
import { commandSkills, recipeSkills, writeSkills } from '../skills/write.js'

export const SKILLS_HELP = `command-scout recipes skills: write agent skills (SKILL.md folders agents read)

Usage:
  command-scout recipes skills --out DIR
      one skill per recipe category
  command-scout recipes skills --out DIR --root REPO
      one skill per runner, with REPO's commands

Earlier command-scout-* skills in DIR are replaced; other skills there are left
alone. For dsh, write into <project>/.dsh/skills or ~/.dsh/skills; the bundle's
command-scout-skills row already registers the shipped library's recipe skills.

Options:
  -o, --out DIR      where to write (required)
  -r, --root REPO    write the repository's command skills instead of the
                     recipe skills
      --dir DIR      an extra curated library (repeatable)
      --no-shipped   leave the shipped library out
  -h, --help         show this help
`

export async function skillsCommand(argv: string[], io: CliIo): Promise<number> {
  let values: { out?: string; root?: string; dir?: string[]; 'no-shipped'?: boolean; help?: boolean }
  try {
    ;({ values } = parseArgs({
      args: argv, strict: true, allowPositionals: false,
      options: {
        out: { type: 'string', short: 'o' }, root: { type: 'string', short: 'r' }, dir: { type: 'string', multiple: true }, 'no-shipped': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }))
    if (values.help) return io.stdout(SKILLS_HELP), 0
    if (!values.out) throw new Error('--out DIR is required: where to write the skills')
  } catch (error) {
    io.stderr(`command-scout: recipes skills: ${(error as Error).message}\nTry 'command-scout recipes skills --help'.\n`)
    return 2
  }
  const out = resolve(io.cwd, values.out)
  if (values.root !== undefined) {
    const root = resolve(io.cwd, values.root)
    if (!existsSync(root)) return io.stderr(`command-scout: recipes skills: --root ${root} does not exist\n`), 2
    const skills = commandSkills(scanReport(discover(root)), basename(root))
    writeSkills(out, skills)
    io.stdout(`Wrote ${skills.length} skill${skills.length === 1 ? '' : 's'} to ${out} (${skills.map((s) => s.name).join(', ') || 'no commands found'})\n`)
    return 0
  }
  const dirs = [...(values['no-shipped'] ? [] : [SHIPPED_RECIPES_DIR]), ...(values.dir ?? []).map((d) => resolve(io.cwd, d))]
  const library = loadLibrary(dirs)
  const skills = recipeSkills(library)
  writeSkills(out, skills)
  io.stdout(`Wrote ${skills.length} skill${skills.length === 1 ? '' : 's'} to ${out} (${library.recipes.length} recipes)\n`)
  return 0
}
