// Reads GNU make's database (`make -pRrq -f <file> :`) the way bash-completion's make target
// listing does: entries of the "# Files" section that are targets (not "# Not a target:"),
// without target-specific variable lines, names starting with "." or pattern rules; and the
// default goal (`.DEFAULT_GOAL`, what plain `make` builds).
import { spawnSync } from 'node:child_process'

/**
 * make prints a phony name that is some rule's prerequisite as a target even when no rule of
 * its own exists, exactly as it prints `name:` written alone: the database can't tell the two
 * apart, so comparisons leave such phony, empty entries out on both sides.
 */
export function isAmbiguous(entry) {
  return entry.phony && !entry.hasPrerequisites && !entry.hasRecipe
}

export function makeDatabase(dir, file, args = []) {
  const run = spawnSync('make', ['-pRrq', '-f', file, ...args, ':'], {
    // The timeout only stops a hung make; on a loaded machine the realistic fixture's $(shell ...)
    // calls alone take over 20 s.
    cwd: dir, encoding: 'utf8', timeout: 180_000, maxBuffer: 64 << 20,
    env: { PATH: process.env.PATH, LC_ALL: 'C' },
  })
  if (run.error) throw new Error(`make -pRrq in ${dir} failed to run: ${run.error.message}`)
  const entries = new Map()
  let phony = new Set()
  let inFiles = false
  let skip = false
  let varComment = false
  let current
  let defaultGoal
  for (const line of run.stdout.split('\n')) {
    const goal = /^\.DEFAULT_GOAL :?= ?(.*)$/.exec(line)
    if (goal && !inFiles) defaultGoal = goal[1].trim() || undefined
    if (line === '# Files') inFiles = true
    else if (line.startsWith('# Finished Make data base')) inFiles = false
    if (!inFiles) continue
    if (line.startsWith('#  recipe to execute')) {
      if (current) current.hasRecipe = true
      continue
    }
    if (line.startsWith('\t') || (current?.hasRecipe && line !== '' && !line.startsWith('#'))) continue
    if (line === '# Not a target:') { skip = true; continue }
    if (/^# (makefile|automatic|default|environment|command line|override)/.test(line)) { varComment = true; continue }
    // Both markers apply to the one line that follows them.
    const marked = skip || varComment
    skip = false
    varComment = false
    if (line.startsWith('#') || line === '') { if (line === '') current = undefined; continue }
    const m = /^(.+?)::?(?:\s|$)/.exec(line)
    if (marked || !m) continue
    const rest = line.slice(m[0].length).trim()
    if (m[1] === '.PHONY') phony = new Set(rest.split(/\s+/).filter(Boolean))
    else if (!m[1].startsWith('.') && !m[1].includes('%')) {
      current = entries.get(m[1]) ?? { name: m[1], hasPrerequisites: false, hasRecipe: false }
      if (rest !== '') current.hasPrerequisites = true
      entries.set(m[1], current)
    }
  }
  for (const e of entries.values()) e.phony = phony.has(e.name)
  return { entries: [...entries.values()], phony, defaultGoal, stdout: run.stdout, stderr: run.stderr }
}
