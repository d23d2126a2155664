/**
 * `dsh-command-scout/skills`: the shipped recipe library as agent skills in the harness, one per
 * category (write.ts: the same skills `command-scout recipes skills --out DIR` writes), so a dsh
 * session's skill catalog lists them with no setup. They are registered on `ctx.skills` from the
 * library as loaded, so they never drift from it.
 */
import type { Context } from '@deepseek-ai/cordis'
import z from '@deepseek-ai/schemastery'
import { loadLibrary, SHIPPED_RECIPES_DIR } from '../curated/load.js'
import { recipeSkills } from '../skills/write.js'

export const name = 'command-scout-skills'
export const inject = ['skills']

export interface Config {}
export const Config: z<Config> = z.object({}) as never

interface SkillRegistry {
  register(skill: { name: string; description: string; whenToUse?: string; content: string; source: string; provider?: string; path?: string }): () => void
}

export function apply(ctx: Context): void {
  const skills = (ctx as unknown as { skills: SkillRegistry }).skills
  for (const skill of recipeSkills(loadLibrary([SHIPPED_RECIPES_DIR]))) {
    ctx.effect(() => skills.register({
      name: skill.name,
      description: skill.description,
      whenToUse: skill.whenToUse,
      content: skill.body,
      source: 'bundled',
      provider: 'command-scout',
    }), `skill ${skill.name}`)
  }
}

export default { name, inject, Config, apply }
