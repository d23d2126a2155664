// Writing fixture files, and waiting until files have settled: a scan keeps what it read only
// when everything was last changed a while before it began (src/collectors/shared/observe.ts, SETTLE_MS).
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { waitUntil } from './temp.mjs'

/** Writes a file, making its directories. */
export function write(path, text) {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, text)
}

/** The newest mtime or ctime of `dir` and anything under it (entries that can't be stat'ed are skipped). */
export function newestChange(dir) {
  let newest = 0
  const walk = (d) => {
    const st = statSync(d)
    newest = Math.max(newest, st.mtimeMs, st.ctimeMs)
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name))
      else {
        try {
          const s = statSync(join(d, e.name))
          newest = Math.max(newest, s.mtimeMs, s.ctimeMs)
        } catch {}
      }
    }
  }
  walk(dir)
  return newest
}

/** Waits until nothing under any of `dirs` changed in the last `ms` (a state of the files, not a delay). */
export function settled(dirs, ms) {
  return waitUntil(() => dirs.every((d) => Date.now() - newestChange(d) > ms), { what: `the files under ${dirs.join(', ')} to be ${ms} ms old` })
}
