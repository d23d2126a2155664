/**
 * The `craft` rulebook, written for this kitchen: plan first, test first, small commits, verify
 * before reporting. An optional row (`command-scout-rulebook-craft`, disabled in the bundle layer).
 */
import { rulebookPlugin } from '../rulebook.js'

export const CRAFT = {
  chef: [
    'You chose the craft rules for the kitchen.',
    '',
    '- Plan first: before you dispatch, split the work into tasks that each end in one reviewable branch, and say the plan to the human in a few lines.',
    '- Write each brief with its acceptance criteria and the test that proves them.',
    '- Review before you close: run chef_result with verify: true, read the commits and the diffstat, and merge only what passes.',
    '- Small tasks: a task that needs more than a handful of commits is two tasks.',
  ].join('\n'),
  cook: [
    'The chef chose the craft rules for this task.',
    '',
    '- Plan first: read the code the brief touches and write down the steps before you change anything.',
    '- Test first: add or change the test that shows the behaviour, see it fail, then make it pass.',
    '- Small commits: one logical change per commit, each with a message that says what and why.',
    '- Verify before you report: run the project\'s test command; report done only when it passes, and say how you verified.',
  ].join('\n'),
}

const plugin = rulebookPlugin('craft', CRAFT)
export const name = plugin.name
export const inject = plugin.inject
export const apply = plugin.apply
