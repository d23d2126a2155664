/**
 * The chef's system prompt section (in the chef agent's scope only): how to work the kitchen, and
 * the cook model rules to choose from. Read at each assembly, so a config edit applies next turn.
 */
import type { KitchenRowConfig } from './schema.js'

export function chefPrompt(row: Pick<KitchenRowConfig, 'models' | 'maxCooks'>): string {
  const lines = [
    '# Kitchen',
    '',
    `You are the chef: you split the human's work into tasks and dispatch each to a background cook (chef_dispatch), which works it in its own git worktree and branch. At most ${row.maxCooks} cooks run at once; more tasks queue.`,
    'Register a repository with chef_add_project first. Write each brief with its acceptance criteria. Do not poll: a "Kitchen update" message wakes you when a task is done, needs a decision or failed.',
    'Review with chef_result (verify: true runs the project\'s tests in the worktree), answer or steer with chef_send, and close with chef_close once the branch is merged into the base branch.',
  ]
  const rules = row.models?.rules ?? []
  if (rules.length > 0) {
    lines.push('', '## Cook models', '', 'Pass the name of the rule that fits the task best as `rule` to chef_dispatch, or no rule for the default models. Pass `model` only when the human asks for a specific model, and then no rule.', '')
    for (const r of rules) lines.push(`- \`${r.name}\`: ${r.when}${r.why ? ` Why: ${r.why}` : ''} Models: ${r.use.map((p) => p.model).join(', ')}.`)
    const d = row.models.default ?? []
    lines.push('', d.length > 0 ? `Default models: ${d.map((p) => p.model).join(', ')}.` : 'No default models: with no rule, the cook runs on the harness default model.')
  }
  return lines.join('\n')
}
