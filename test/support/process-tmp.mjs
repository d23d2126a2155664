// Importing this gives the test process its own temp folder, removed when the process exits (also
// after a failed test). For libraries that make a per-process folder in the temp folder and never
// remove it: the harness shell (dsh-subprocess-local) makes one spill folder per process at its
// first spawn.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const PROCESS_TMP = mkdtempSync(join(tmpdir(), 'cs-process-'))
process.env.TMPDIR = PROCESS_TMP
process.on('exit', () => rmSync(PROCESS_TMP, { recursive: true, force: true }))
