/**
 * Agent skills in the format dsh's filesystem skill loader reads (`<root>/<name>/SKILL.md`, YAML
 * frontmatter with a kebab-case `name`, `description` and `whenToUse`), for agents that read skills:
 * one skill per curated category, listing its recipes, when to use them, and how to render and run
 * them; and, for a repository, one skill per runner with its discovered commands (COMMANDS.md style).
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs'
import { writeFileSafely } from '../base/safe-write.js'
import { join } from 'node:path'
import { stringify } from 'yaml'
import { needsConfirmation } from '../curated/confirm.js'
import { stepsFor, supportedPlatforms } from '../curated/render.js'
import { CATEGORIES, type CuratedRecipe, type Library } from '../curated/schema.js'
import { renderMarkdown, type ScanReport } from '../book/report.js'

export interface SkillFile {
  /** The skill's name (kebab-case), also its folder. */
  name: string
  description: string
  whenToUse: string
  /** The Markdown body after the frontmatter. */
  body: string
}

/** The SKILL.md text: frontmatter, then the body. */
export function skillText(skill: SkillFile): string {
  return `---\n${stringify({ name: skill.name, description: skill.description, whenToUse: skill.whenToUse }, { lineWidth: 0 }).trimEnd()}\n---\n\n${skill.body}`
}

/** Prefix of every skill this package writes, so a rewrite removes only its own. */
export const SKILL_PREFIX = 'command-scout-'

const CATEGORY_WORDS: Record<string, string> = {
  git: 'git (commits, branches, history, stashes, remotes)',
  docker: 'Docker (containers, images, volumes, disk space)',
  files: 'files and directories (finding, archiving, permissions, deleting)',
  network: 'networking (ports, DNS, HTTP, TLS, downloads)',
  node: 'Node.js projects (packages, versions, caches)',
  db: 'PostgreSQL databases (backups, users, slow queries, maintenance)',
}

const RISK_NOTE: Record<string, string> = { read_only: 'read-only', low: 'low risk', medium: 'medium risk', destructive: 'DESTRUCTIVE, asks for confirmation' }

function recipeEntry(r: CuratedRecipe): string {
  // The rule a run follows (curated/confirm.ts); a destructive recipe's risk note says it already.
  const confirm = needsConfirmation(r) && r.risk !== 'destructive' ? ', asks for confirmation' : ''
  const lines = [`### ${r.title}`, '', `\`${r.id}\` · ${RISK_NOTE[r.risk]}${confirm} · ${supportedPlatforms(r).join(', ')}`, '', r.description.trim().split(/\n{2,}/)[0]!.replace(/\s*\n\s*/g, ' ')]
  if (r.parameters.length) {
    lines.push('', 'Parameters:')
    for (const p of r.parameters) {
      const type = p.type === 'enum' ? `one of ${p.values?.join(', ')}` : p.pattern_description ?? p.type
      lines.push(`- \`${p.name}\` (${type}${p.default === undefined ? ', required' : `, default ${JSON.stringify(p.default)}`}): ${p.description}`)
    }
  }
  const steps = stepsFor(r, supportedPlatforms(r)[0]!) ?? []
  lines.push('', `Steps (${supportedPlatforms(r)[0]}): ${steps.map((s) => s.purpose.replace(/\.$/, '')).join('; ')}.`)
  return lines.join('\n')
}

/** One skill per category of the library that has recipes. */
export function recipeSkills(library: Library): SkillFile[] {
  const out: SkillFile[] = []
  for (const category of CATEGORIES) {
    const recipes = library.recipes.filter((r) => r.category === category)
    if (recipes.length === 0) continue
    const name = `${SKILL_PREFIX}${category}-recipes`
    const titles = recipes.slice(0, 6).map((r) => r.title.charAt(0).toLowerCase() + r.title.slice(1))
    const head = {
      name,
      description: `${recipes.length} vetted, step-by-step recipes for ${CATEGORY_WORDS[category] ?? category}, each with a risk level, verification and undo.`,
      whenToUse: `When a task involves ${CATEGORY_WORDS[category] ?? category} and a known procedure fits, e.g. to ${titles.join(', ')}. Prefer a recipe over improvised commands.`,
    }
    const body = `# ${category} recipes

Vetted procedures from command-scout's curated library. Each recipe has a risk level: read-only,
low (reversible routinely), medium (changes state; undo documented) or destructive (deletes or
overwrites; always asks for confirmation).

## How to use a recipe

1. Render it for this machine, which fills in and shell-quotes the parameters and runs nothing:
   the \`curated_recipe_render\` tool with \`{"id": "<id>", "params": {...}}\` (dsh, or the
   \`command-scout mcp\` server), or \`command-scout recipes render <id> --param NAME=VALUE\`.
2. Run it: the \`curated_recipe_run\` tool runs the steps in order, stops at the first failure, then
   runs the verification. Or run the rendered commands yourself, one at a time, checking each.
3. A recipe that asks for confirmation (every one of risk medium or above, and every one marked for it) runs only after the user agreed:
   show them the rendered commands and the undo section first.
4. Check the result with the recipe's verification; if something went wrong, use its undo commands.

## Recipes

${recipes.map(recipeEntry).join('\n\n')}
`
    out.push({ ...head, body })
  }
  return out
}

/** One skill per runner (make, scripts, just, ...) with the commands the repository declares. */
export function commandSkills(report: ScanReport, project: string): SkillFile[] {
  const slug = project.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'project'
  const out: SkillFile[] = []
  for (const source of [...new Set(report.recipes.map((r) => r.source))]) {
    const recipes = report.recipes.filter((r) => r.source === source)
    const name = `${SKILL_PREFIX}${slug}-${source}-commands`.slice(0, 64).replace(/-+$/, '')
    const names = recipes.slice(0, 8).map((r) => r.name)
    const head = {
      name,
      description: `The ${recipes.length} ${source} command${recipes.length === 1 ? '' : 's'} the ${project} repository declares (${names.join(', ')}${recipes.length > names.length ? ', ...' : ''}): what each runs, where, and with which variables.`,
      whenToUse: `When building, testing, linting, running or releasing ${project}: run these declared commands instead of guessing the tool invocations.`,
    }
    const subset: ScanReport = { ...report, recipes, diagnostics: report.diagnostics.filter((d) => d.source === source) }
    const body = renderMarkdown(subset, `${project}: ${source} commands`)
      .replace('Generated by `command-scout docs` from the commands this repository declares. Regenerate it instead of editing it.', 'Generated by `command-scout recipes skills --root` from the commands this repository declares. Run each from its directory (the Directory column, relative to the repository root); commands that delete, publish or deploy need the user\'s consent first.')
    out.push({ ...head, body })
  }
  return out
}

/** Writes each skill as `<dir>/<name>/SKILL.md`, first removing this package's earlier skills there (others stay). */
export function writeSkills(dir: string, skills: readonly SkillFile[]): void {
  mkdirSync(dir, { recursive: true })
  for (const entry of readdirSync(dir)) {
    if (entry.startsWith(SKILL_PREFIX)) rmSync(join(dir, entry), { recursive: true, force: true })
  }
  for (const skill of skills) {
    mkdirSync(join(dir, skill.name), { recursive: true })
    // Through a new file renamed into place: a link planted at SKILL.md is replaced, never followed.
    writeFileSafely(join(dir, skill.name, 'SKILL.md'), skillText(skill))
  }
}
