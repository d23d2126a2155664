/**
 * A worker thread that runs built-in collectors, so that a scan too slow for the session's start
 * finishes off the main thread: the harness stays responsive while it runs, and a scan that never
 * returns can be abandoned (the worker is terminated) instead of holding the session's tools.
 * Each request names one collector, and only its reader is loaded (collectors/load.ts): a worker
 * that runs the Makefile reader does not pay for the other twelve.
 */
import { parentPort } from 'node:worker_threads'
import type { BuiltinSource } from '../base/collector-table.js'
import { loadCollector } from '../collectors/load.js'
import { runCollector } from '../collectors/run-collector.js'

export interface ScanRequest {
  id: number
  root: string
  source: string
  options: unknown
  budgetMs: number
}

/** Runs one request's collector; its result or why it failed goes back under the request's id. */
async function answer(request: ScanRequest): Promise<void> {
  try {
    // A source that is no built-in collector is refused by loadCollector ("no built-in collector named ...").
    const collector = await loadCollector(request.source as BuiltinSource)
    const { source, root, budgetMs } = request
    const result = runCollector({ source, root, budgetMs }, () => collector.collect({ root, options: request.options as never }))
    parentPort!.postMessage({ id: request.id, result })
  } catch (error) {
    parentPort!.postMessage({ id: request.id, error: String((error as Error)?.message ?? error) })
  }
}

parentPort?.on('message', (request: ScanRequest) => void answer(request))
