/** The one scan diagnostic that is a failure, not a finding: the root itself can't be scanned. */
import type { DiscoverResult } from '../book/discover.js'

/** Its message, or undefined when the root was scanned. */
export function rootProblem(result: DiscoverResult): string | undefined {
  return result.diagnostics.find((d) => d.source === 'scan')?.message
}
