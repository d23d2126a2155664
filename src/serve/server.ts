/** Starting and stopping the recipe server (app.ts is the handler); used by the CLI, the tests and the benchmark. */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ConfigInput } from '../config.js'
import { discover } from '../discover.js'
import { watchedLibrary } from '../curated/live-library.js'
import { SHIPPED_RECIPES_DIR } from '../curated/load.js'
import { scanReport } from '../render.js'
import { createApp } from './app.js'

export interface ServeOptions {
  host?: string
  /** 0 picks a free port. */
  port?: number
  version: string
  /** Libraries besides the shipped one (absolute paths). */
  recipeDirs?: string[]
  /** Leave the shipped library out (tests of other libraries). */
  noShipped?: boolean
  /** Serve this repository's commands too; scanned on each request, so the page is always current. */
  root?: string
  config?: ConfigInput
}

export interface RunningServer {
  server: Server
  url: string
  close(): Promise<void>
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const library = watchedLibrary([...(options.noShipped ? [] : [SHIPPED_RECIPES_DIR]), ...(options.recipeDirs ?? [])])
  const root = options.root
  const app = createApp({
    library: library.read,
    version: options.version,
    ...(root ? { commands: () => { const r = discover(root, options.config ?? {}); return scanReport(r) } } : {}),
  })
  const server = createServer(app)
  server.keepAliveTimeout = 5_000
  const host = options.host ?? '127.0.0.1'
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(options.port ?? 0, host, () => {
        server.off('error', reject)
        resolve()
      })
    })
  } catch (error) {
    await library.close() // the watcher would keep the process alive after a failed start
    throw error
  }
  const { port } = server.address() as AddressInfo
  const shown = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host
  return {
    server,
    url: `http://${shown}:${port}/`,
    close: () => new Promise((resolve) => {
      server.closeAllConnections()
      server.close(() => void library.close().then(resolve))
    }),
  }
}
