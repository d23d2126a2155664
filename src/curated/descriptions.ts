/**
 * The curated tools' descriptions, the same on every agent surface (dsh, MCP). A module of its own
 * that needs only the schema's lists, so that defining the dsh tools loads no library module.
 */
import { CATEGORIES, type Platform } from './schema.js'

export const CURATED_DESCRIPTIONS = {
  search: `Search the curated how-to recipes (vetted, step-by-step shell procedures with risk levels, verification and undo) for tasks in ${CATEGORIES.join(', ')}. Recipes matching every word come back (else those matching the most), best first. Then render or run one by its id.`,
  render: (platform: Platform) => `Render a curated recipe for this machine (${platform}): its commands with parameters filled in and shell-quoted, the verification checks and the undo commands. Nothing runs.`,
  run: (platform: Platform) => `Run a curated recipe on this machine (${platform}): each step in order (stopping at the first failure), then its verification. Recipes of risk medium or above, or marked for confirmation, ask the user first. Render it first when unsure.`,
  query: 'Words to look for, e.g. "undo commit" or "port in use".',
  category: 'Only this category.',
  tags: 'Only recipes with every one of these tags.',
  risk: 'Only these risk levels.',
  id: 'Recipe id from the search, e.g. git.undo_last_commit.',
  runId: 'Recipe id, e.g. network.find_process_on_port.',
  params: 'Parameter values by name; defaults fill the rest.',
  cwd: 'Working directory, relative to the workspace (default: the workspace).',
} as const
