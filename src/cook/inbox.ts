/**
 * The cook's side of a task's inbox: while a turn is active, each message the kitchen wrote to
 * `<taskDir>/inbox/` is moved to `inbox/handled/` first and only then steered into the agent, so a
 * message is delivered by one reader only (the cook now, or the kitchen's next launch prompt).
 * Outside a turn (before the first one, while the run ends, after a stop) messages stay where the
 * kitchen will find them.
 */
import { readdirSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import { INBOX_NAME } from '../kitchen/domain.js'
import { MESSAGE_BYTES, handledDirIn, inboxDirIn, readBounded } from '../kitchen/store/index.js'

/** How often the cook looks at its inbox while a turn runs. */
export const INBOX_POLL_MS = 300

export interface ClaimedMessage {
  name: string
  text: string
}

/**
 * Moves every waiting message to `handled/` (oldest first, by name) and returns their texts. A
 * message another reader moved first is skipped. A missing inbox is an empty one.
 */
export function claimInbox(taskDir: string): ClaimedMessage[] {
  const inbox = inboxDirIn(taskDir)
  const handledDir = handledDirIn(taskDir)
  let names: string[]
  try {
    names = readdirSync(inbox).filter((n) => INBOX_NAME.test(n)).sort()
  } catch {
    return []
  }
  const out: ClaimedMessage[] = []
  for (const name of names) {
    const handled = join(handledDir, name)
    try {
      renameSync(join(inbox, name), handled)
    } catch {
      continue // gone: the kitchen took it into a launch prompt
    }
    let text: string
    try {
      // a regular file only (a FIFO or a link in its place is skipped, never a read that blocks), bounded
      text = readBounded(handled, MESSAGE_BYTES)
    } catch {
      continue
    }
    out.push({ name, text })
  }
  return out
}

/** The steer as the model reads it. */
export function steerText(text: string): string {
  return `## Message from the chef\n\n${text.trim()}\n`
}
