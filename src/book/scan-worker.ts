/**
 * A worker thread that runs built-in collectors, so that a scan too slow for the session's start
 * finishes off the main thread: the harness stays responsive while it runs, and a scan that never
 * returns can be abandoned (the worker is terminated) instead of holding the session's tools.
 */
import { parentPort } from 'node:worker_threads'
import { BUILTIN_COLLECTORS } from '../collectors/index.js'
import { runCollector } from '../collectors/run-collector.js'

export interface ScanRequest {
  id: number
  root: string
  source: string
  options: unknown
  budgetMs: number
}

parentPort?.on('message', (request: ScanRequest) => {
  const collector = BUILTIN_COLLECTORS.find((c) => c.source === request.source)
  try {
    if (!collector) throw new Error(`no built-in collector named ${request.source}`)
    const result = runCollector({ source: request.source, root: request.root, budgetMs: request.budgetMs }, () => collector.collect({ root: request.root, options: request.options as never }))
    parentPort!.postMessage({ id: request.id, result })
  } catch (error) {
    parentPort!.postMessage({ id: request.id, error: String((error as Error)?.message ?? error) })
  }
})
