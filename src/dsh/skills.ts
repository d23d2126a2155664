/**
 * `dsh-command-scout/skills`: the shipped recipe library as agent skills in the harness, one per
 * category (write.ts: the same skills `command-scout recipes skills --out DIR` writes), so a dsh
 * session's skill catalog lists them with no setup. They come from the library as loaded, so they
 * never drift from it.
 *
 * They are served by a skill provider rather than registered one by one: the provider registers
 * at once, and the skills are read when the catalog is first asked for, from the catalog the build
 * made of the library (../skills/catalog.ts), or, when the library folder is no longer the one it
 * was made from, from the library itself (every recipe's YAML and the confirmation rules). Each skill is listed
 * exactly as a runtime registration lists it (same rank, source and provider label), so the
 * catalog and the bodies the `skill` tool returns are the same either way.
 */
import type { Context } from '@deepseek-ai/cordis'
import z from '@deepseek-ai/schemastery'
import type { SkillFile } from '../skills/write.js'

export const name = 'command-scout-skills'
export const inject = ['skills']

export interface Config {}
export const Config: z<Config> = z.object({}) as never

/** The provider's name, also the `provider` label of each skill (the registry requires them equal). */
const PROVIDER = 'command-scout'
/** The registry's rank for runtime registrations (dsh-skill's RUNTIME_RANK), which these skills had. */
const RUNTIME_RANK = 250
const INVOCATION = { modelInvocable: true, userInvocable: true } as const

interface SkillCandidate {
  name: string; description: string; whenToUse?: string; invocation: typeof INVOCATION
  source: string; provider: string; rank: number; locator: unknown
}
interface SkillRegistry {
  registerProvider(create: () => {
    name: string
    list(): Promise<SkillCandidate[]>
    get(candidate: SkillCandidate): Promise<(Omit<SkillCandidate, 'rank' | 'locator'> & { content: string }) | undefined>
  }): () => void
}

/** The shipped library's skills, by name: read on first use, once (a failed read is tried again next time). */
function skillFiles(): () => Promise<Map<string, SkillFile>> {
  let files: Promise<Map<string, SkillFile>> | undefined
  return () => files ??= readSkills().catch((error: unknown) => {
    files = undefined
    throw error
  })
}

async function readSkills(): Promise<Map<string, SkillFile>> {
  const [{ catalogSkills }, { SHIPPED_RECIPES_DIR }] = await Promise.all([import('../skills/catalog.js'), import('../curated/shipped.js')])
  const skills = catalogSkills(SHIPPED_RECIPES_DIR) ?? await librarySkills(SHIPPED_RECIPES_DIR)
  return new Map(skills.map((skill) => [skill.name, skill]))
}

async function librarySkills(dir: string): Promise<SkillFile[]> {
  const [{ loadLibrary }, { recipeSkills }] = await Promise.all([import('../curated/load.js'), import('../skills/write.js')])
  return recipeSkills(loadLibrary([dir]))
}

function summaryOf(skill: SkillFile) {
  return { name: skill.name, description: skill.description, whenToUse: skill.whenToUse, invocation: INVOCATION, source: 'bundled', provider: PROVIDER }
}

export function apply(ctx: Context): void {
  const skills = (ctx as unknown as { skills: SkillRegistry }).skills
  const files = skillFiles()
  ctx.effect(() => skills.registerProvider(() => ({
    name: PROVIDER,
    list: async () => [...(await files()).values()].map((skill) => ({ ...summaryOf(skill), rank: RUNTIME_RANK, locator: skill.name })),
    async get(candidate) {
      const skill = (await files()).get(candidate.name)
      return skill && { ...summaryOf(skill), content: skill.body }
    },
  })), `skill provider ${PROVIDER}`)
}

export default { name, inject, Config, apply }
