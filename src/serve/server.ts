/** Starting and stopping the recipe server (app.ts is the handler); used by the CLI, the tests and the benchmark. */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { hostname, networkInterfaces } from 'node:os'
import type { ConfigInput } from '../book/config.js'
import { discover } from '../book/discover.js'
import { watchedLibrary } from '../curated/live-library.js'
import { SHIPPED_RECIPES_DIR } from '../curated/load.js'
import { scanReport } from '../book/report.js'
import { createApp, hostKey, type KitchenSurface } from './app.js'

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
  /** The kitchen board (src/serve/kitchen/ `kitchenRoutes`); closed with the server. */
  kitchen?: KitchenSurface
}

export interface RunningServer {
  server: Server
  /** Where a client on this machine reaches it (127.0.0.1 for a server on every interface). */
  url: string
  /** What it is bound to, as given (`http://0.0.0.0:8787/` for every interface). */
  bound: string
  /** Whether only this machine can reach it (a loopback address). */
  loopback: boolean
  close(): Promise<void>
}

const WILDCARDS = new Set(['0.0.0.0', '::', '0:0:0:0:0:0:0:0', ''])

/** A host in a URL: IPv6 addresses in brackets. */
const inUrl = (host: string) => (host.includes(':') ? `[${host}]` : host)

/** Whether a listen address keeps the server on this machine. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase()
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h) || h === '0:0:0:0:0:0:0:1'
}

/**
 * The Host header values the server answers to: the loopback names (127.0.0.1, localhost, [::1]),
 * the host it was given, and, for every interface, this machine's addresses and name. Never a
 * name the server can't know as its own, which is what a rebound DNS name is.
 */
function hostsFor(host: string, port: number): () => ReadonlySet<string> {
  const fixed = ['127.0.0.1', 'localhost', '[::1]', inUrl(host.toLowerCase())]
  let memo: { at: number; hosts: ReadonlySet<string> } | undefined
  return () => {
    if (memo && Date.now() - memo.at < 5_000) return memo.hosts
    const names = [...fixed]
    if (WILDCARDS.has(host)) {
      // Addresses come and go (a laptop changes networks): asked again every few seconds.
      for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) names.push(inUrl(a.address.replace(/%.*$/, '').toLowerCase()))
      names.push(hostname().toLowerCase())
    }
    memo = { at: Date.now(), hosts: new Set(names.map((n) => hostKey(`${n}:${port}`))) }
    return memo.hosts
  }
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const library = watchedLibrary([...(options.noShipped ? [] : [SHIPPED_RECIPES_DIR]), ...(options.recipeDirs ?? [])])
  const root = options.root
  const host = options.host ?? '127.0.0.1'
  let hosts: (() => ReadonlySet<string>) | undefined
  const app = createApp({
    library: library.read,
    version: options.version,
    hosts: () => hosts?.() ?? new Set(),
    ...(options.kitchen ? { kitchen: options.kitchen } : {}),
    ...(root ? { commands: () => { const r = discover(root, options.config ?? {}); return scanReport(r) } } : {}),
  })
  const server = createServer(app)
  server.keepAliveTimeout = 5_000
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
    options.kitchen?.close()
    throw error
  }
  const { port } = server.address() as AddressInfo
  hosts = hostsFor(host, port)
  const local = WILDCARDS.has(host) ? (host.includes(':') ? '[::1]' : '127.0.0.1') : inUrl(host)
  return {
    server,
    url: `http://${local}:${port}/`,
    bound: `http://${inUrl(host)}:${port}/`,
    loopback: isLoopback(host),
    close: () => new Promise((resolve) => {
      options.kitchen?.close() // its event streams end before the connections go
      server.closeAllConnections()
      server.close(() => void library.close().then(resolve))
    }),
  }
}
