/**
 * The HTTP side of `command-scout serve`, on node:http: a handful of fixed routes with JSON in and
 * out need no router or middleware, a framework would add dependencies and per-request work, and the
 * benchmark's baseline (a bare node:http handler) then measures exactly what this code adds.
 *
 * Routes: the API (api.ts, openapi.ts), the pages (pages.ts) and their assets; with a kitchen, its
 * board under /kitchen and /api/v1/kitchen (src/serve/kitchen/, handed in as a `KitchenSurface`, so
 * this module reads no kitchen). Every page is served with a Content-Security-Policy that allows
 * this origin only, so nothing loads from elsewhere.
 *
 * Who may ask: a request whose Host header names another host than the server's own (`hosts`:
 * the address it listens on, by number or as localhost) is answered 421, so a web page whose DNS
 * name was rebound to 127.0.0.1 can't read the API through the visitor's browser; an API request
 * with an Origin header from any other origin is answered 403. A request target longer than
 * MAX_TARGET_CHARS is answered 414, and a malformed %-escape in a path 400 (the 404 page for a page).
 */
import { readFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { fileURLToPath } from 'node:url'
import type { Library } from '../curated/schema.js'
import type { ScanReport } from '../book/report.js'
import { error, getRecipe, queryProblem, renderRecipeAnswer, searchRecipes, type ApiAnswer, type ApiError } from './api.js'
import { openApiDocument } from './openapi.js'
import { badRequestPage, commandsPage, indexPage, notFoundPage, recipePage } from './pages.js'

/** Largest render body accepted (a recipe's parameters are a few short values). */
export const MAX_BODY_BYTES = 16 * 1024
/** Longest request target (path and query) answered; a search query has its own, smaller bound (api.ts). */
export const MAX_TARGET_CHARS = 4096

export interface AppOptions {
  library: () => Library
  version: string
  /** The repository's commands, when the server was started with --root. */
  commands?: () => ScanReport
  /**
   * The Host header values this server answers to (`host:port`, lower case; `[v6]:port`), or a
   * function giving them (the port is known once the server listens). Undefined: any host (tests
   * that call the handler without a server).
   */
  hosts?: ReadonlySet<string> | (() => ReadonlySet<string>)
  /** The kitchen board, when the server was started with --kitchen. */
  kitchen?: KitchenSurface
}

/** What the kitchen board answers to a GET under /kitchen or /api/v1/kitchen; this module writes it. */
export type KitchenAnswer =
  | { kind: 'json'; answer: ApiAnswer }
  | { kind: 'page'; status: number; html: string }
  | { kind: 'text'; status: number; type: string; body: string | Buffer; headers?: Record<string, string> }
  /** An event stream: `open` starts it on the response, false when too many are open (then `busy` is the answer). */
  | { kind: 'stream'; open(res: ServerResponse): boolean; busy(): ApiAnswer }

export interface KitchenSurface {
  answer(path: string, query: URLSearchParams, req: IncomingMessage): Promise<KitchenAnswer>
  close(): void
}

const isKitchenPath = (path: string) => /^\/(api\/v1\/)?kitchen(\/|$)/.test(path)

/** A path segment decoded, or undefined when its %-escapes are malformed (`%E0%A4%A`). */
function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

/** `Host` as it is compared: lower case, the port always there (80 when left out). */
export function hostKey(host: string): string {
  const h = host.trim().toLowerCase()
  return /:\d+$/.test(h) && !/^\[[^\]]*$/.test(h) ? h : `${h}:80`
}

const WEB_DIR = new URL('../../../web/', import.meta.url)
const ASSETS: Record<string, { type: string; body: Buffer }> = Object.fromEntries(
  [['app.js', 'text/javascript; charset=utf-8'], ['style.css', 'text/css; charset=utf-8'],
    ['kitchen.js', 'text/javascript; charset=utf-8'], ['kitchen.css', 'text/css; charset=utf-8']]
    .map(([name, type]) => [`/assets/${name}`, { type: type!, body: readFileSync(fileURLToPath(new URL(name!, WEB_DIR))) }]),
)

const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), 'x-content-type-options': 'nosniff', ...headers })
  res.end(body)
}

function sendJson(res: ServerResponse, a: ApiAnswer): void {
  send(res, a.status, 'application/json; charset=utf-8', JSON.stringify(a.body), { 'cache-control': 'no-store', ...a.headers })
}

function sendPage(res: ServerResponse, status: number, html: string): void {
  send(res, status, 'text/html; charset=utf-8', html, { 'content-security-policy': CSP, 'cache-control': 'no-store' })
}

const notAllowed = (allow: string) => error(405, 'METHOD_NOT_ALLOWED', `use ${allow} on this path`, undefined, { allow })
const badEscape = (path: string) => error(400, 'INVALID_PATH', `the path ${JSON.stringify(path.slice(0, 200))} has a malformed %-escape`)

/** Whether an Origin header names this server itself (http, one of its hosts). */
function sameOrigin(origin: string, hosts: ReadonlySet<string>): boolean {
  const m = /^http:\/\/([^/]+)$/i.exec(origin.trim())
  return m !== null && hosts.has(hostKey(m[1]!))
}

/** Reads a JSON body: 415 for another type, 413 past MAX_BODY_BYTES (the rest is not read), 400 for bad JSON. */
async function readJson(req: IncomingMessage): Promise<{ value: unknown } | ApiAnswer> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
  if (type !== 'application/json') return error(415, 'UNSUPPORTED_MEDIA_TYPE', `send the body as application/json (got ${type ? JSON.stringify(type) : 'no content type'})`)
  const declared = Number(req.headers['content-length'] ?? 0)
  if (declared > MAX_BODY_BYTES) return error(413, 'BODY_TOO_LARGE', `the body may be at most ${MAX_BODY_BYTES} bytes (got ${declared})`)
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) return error(413, 'BODY_TOO_LARGE', `the body may be at most ${MAX_BODY_BYTES} bytes`)
    chunks.push(chunk)
  }
  try {
    return { value: JSON.parse(Buffer.concat(chunks).toString('utf8')) }
  } catch (e) {
    return error(400, 'INVALID_JSON', `the body is not valid JSON: ${(e as Error).message}`)
  }
}

/** The kitchen board's paths: GET only, and 404 when the server has no kitchen. */
async function serveKitchen(kitchen: KitchenSurface | undefined, req: IncomingMessage, res: ServerResponse, url: URL, api: boolean): Promise<void> {
  const method = req.method ?? 'GET'
  if (method !== 'GET' && method !== 'HEAD') {
    return api ? sendJson(res, notAllowed('GET')) : send(res, 405, 'text/plain; charset=utf-8', 'Method not allowed\n', { allow: 'GET' })
  }
  if (!kitchen) {
    if (!api) return sendPage(res, 404, notFoundPage(url.pathname))
    return sendJson(res, error(404, 'NO_KITCHEN', 'this server serves no kitchen; start it with `command-scout serve --kitchen [DIR]`'))
  }
  const a = await kitchen.answer(url.pathname, url.searchParams, req)
  if (a.kind === 'json') return sendJson(res, a.answer)
  if (a.kind === 'page') return sendPage(res, a.status, a.html)
  if (a.kind === 'text') return send(res, a.status, a.type, a.body, { 'cache-control': 'no-store', ...a.headers })
  if (method === 'HEAD') return send(res, 200, 'text/event-stream; charset=utf-8', '', { 'cache-control': 'no-store' })
  if (!a.open(res)) return sendJson(res, a.busy())
}

export function createApp(options: AppOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const openapi = JSON.stringify(openApiDocument(options.version, { kitchen: options.kitchen !== undefined }))
  const allowed = (): ReadonlySet<string> | undefined => (typeof options.hosts === 'function' ? options.hosts() : options.hosts)
  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = req.url ?? '/'
    const url = new URL(target, 'http://localhost')
    const path = url.pathname
    const api = path.startsWith('/api/')
    const hosts = allowed()
    // A refusal below leaves any body unread: the connection closes after it.
    const refuse = () => res.setHeader('connection', 'close')
    if (hosts) {
      const host = req.headers.host
      if (host === undefined || !hosts.has(hostKey(host))) {
        const message = `this server answers to ${[...hosts].join(', ')}, not to ${host === undefined ? 'a request without a Host header' : JSON.stringify(host.slice(0, 200))}`
        refuse()
        return api ? sendJson(res, error(421, 'MISDIRECTED_REQUEST', message)) : send(res, 421, 'text/plain; charset=utf-8', `Misdirected request: ${message}\n`)
      }
      const origin = req.headers.origin
      if (api && origin !== undefined && !sameOrigin(origin, hosts)) {
        refuse()
        return sendJson(res, error(403, 'CROSS_ORIGIN', `requests from ${JSON.stringify(origin.slice(0, 200))} are refused; the API answers pages of its own origin only`))
      }
    }
    if (target.length > MAX_TARGET_CHARS) {
      const message = `the request target is ${target.length} characters; at most ${MAX_TARGET_CHARS} are answered`
      refuse()
      return api ? sendJson(res, error(414, 'URI_TOO_LONG', message)) : send(res, 414, 'text/plain; charset=utf-8', `URI too long: ${message}\n`)
    }
    const method = req.method ?? 'GET'
    const readOnly = method === 'GET' || method === 'HEAD'
    if (isKitchenPath(path)) return serveKitchen(options.kitchen, req, res, url, api)
    if (path.startsWith('/api/')) {
      if (path === '/api/v1/openapi.json') return readOnly ? send(res, 200, 'application/json; charset=utf-8', openapi) : sendJson(res, notAllowed('GET'))
      if (path === '/api/v1/recipes') return sendJson(res, readOnly ? searchRecipes(options.library(), url.searchParams) : notAllowed('GET'))
      if (path === '/api/v1/commands') {
        if (!readOnly) return sendJson(res, notAllowed('GET'))
        if (!options.commands) return sendJson(res, error(404, 'NO_REPOSITORY', 'this server serves no repository; start it with `command-scout serve --root DIR`'))
        return sendJson(res, { status: 200, body: options.commands() })
      }
      const render = /^\/api\/v1\/recipes\/([^/]+)\/render$/.exec(path)
      if (render) {
        if (method !== 'POST') return sendJson(res, notAllowed('POST'))
        const body = await readJson(req)
        if ('status' in body) {
          res.setHeader('connection', 'close') // an unread body must not be parsed as the next request
          return sendJson(res, body)
        }
        const id = decodeSegment(render[1]!)
        if (id === undefined) return sendJson(res, badEscape(path))
        return sendJson(res, renderRecipeAnswer(options.library(), id, body.value))
      }
      const one = /^\/api\/v1\/recipes\/([^/]+)$/.exec(path)
      if (one) {
        if (!readOnly) return sendJson(res, notAllowed('GET'))
        const id = decodeSegment(one[1]!)
        return sendJson(res, id === undefined ? badEscape(path) : getRecipe(options.library(), id))
      }
      return sendJson(res, error(404, 'NOT_FOUND', `no API path ${path}; the document is /api/v1/openapi.json`))
    }
    if (!readOnly) return send(res, 405, 'text/plain; charset=utf-8', 'Method not allowed\n', { allow: 'GET' })
    const asset = ASSETS[path]
    if (asset) return send(res, 200, asset.type, asset.body, { 'cache-control': 'public, max-age=300' })
    if (path === '/') {
      const problem = queryProblem(url.searchParams)
      if (problem) return sendPage(res, 400, badRequestPage((problem.body as ApiError).error.message))
      return sendPage(res, 200, indexPage(options.library(), url.searchParams, options.commands !== undefined))
    }
    if (path === '/commands' && options.commands) return sendPage(res, 200, commandsPage(options.commands()))
    const page = /^\/recipes\/([^/]+)$/.exec(path)
    const id = page ? decodeSegment(page[1]!) : undefined
    const recipe = id !== undefined ? options.library().byId.get(id) : undefined
    if (recipe) return sendPage(res, 200, recipePage(options.library(), recipe, url.searchParams.get('platform'), options.commands !== undefined))
    return sendPage(res, 404, notFoundPage(path))
  }
  return (req, res) => {
    route(req, res).catch((e: unknown) => {
      if (res.headersSent) return res.destroy()
      sendJson(res, error(500, 'INTERNAL', `the server failed on this request: ${(e as Error)?.message ?? e}`))
    })
  }
}
