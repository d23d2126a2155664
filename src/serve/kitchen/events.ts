/**
 * The board's server-sent event stream (`GET /api/v1/kitchen/events`): every change the board sees,
 * numbered, kept in a ring of the last RING_SIZE, and written to each connected client that wants
 * it (all tasks, or one). A page gives the number it was rendered at (`since`, and later the
 * browser's Last-Event-ID), so nothing between its render and its connection is lost; a number the
 * ring no longer holds, or one of another server's epoch, gets a `reset` event: load the page again.
 *
 * Bounded: at most `maxClients` streams at once (more are refused with 503), a client that stops
 * reading is dropped once BACKLOG_BYTES wait for it, a comment every HEARTBEAT_MS keeps proxies and
 * the browser from timing out, and a client that goes away is removed with its timer.
 */
import { randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'

export type EventType = 'task' | 'lines' | 'removed' | 'kitchen' | 'reset'

interface Kept {
  seq: number
  type: EventType
  task?: string
  data: string
}

interface Client {
  res: ServerResponse
  task?: string
  timer: NodeJS.Timeout
}

export const RING_SIZE = 2_000
export const DEFAULT_MAX_CLIENTS = 32
const BACKLOG_BYTES = 2 * 1024 * 1024
const HEARTBEAT_MS = 15_000

export class EventHub {
  /** Told apart from another server's numbers (a restart starts again at 1). */
  readonly epoch = randomBytes(4).toString('hex')
  private seq = 0
  private readonly ring: Kept[] = []
  private readonly clients = new Set<Client>()
  private closed = false

  constructor(private readonly maxClients = DEFAULT_MAX_CLIENTS, private readonly onCount: (n: number) => void = () => {}) {}

  /** The id of the newest event, as a page records it for `since`. */
  get cursor(): string {
    return `${this.epoch}-${this.seq}`
  }

  get size(): number {
    return this.clients.size
  }

  /** Numbers an event, keeps it, and writes it to every client that wants it. */
  publish(type: EventType, task: string | undefined, payload: object): void {
    const kept: Kept = { seq: ++this.seq, type, ...(task !== undefined ? { task } : {}), data: JSON.stringify(payload) }
    this.ring.push(kept)
    if (this.ring.length > RING_SIZE) this.ring.splice(0, this.ring.length - RING_SIZE)
    for (const c of this.clients) if (wants(c, kept)) this.write(c, frame(this.epoch, kept))
  }

  /**
   * Starts a stream on `res`, or answers false when `maxClients` are connected already (the caller
   * answers 503). `since` is the cursor the client has seen (`epoch-seq`), or undefined for "now".
   */
  open(req: IncomingMessage, res: ServerResponse, task: string | undefined, since: string | undefined): boolean {
    if (this.closed || this.clients.size >= this.maxClients) return false
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'x-accel-buffering': 'no',
    })
    res.write(`retry: 2000\n\n`)
    const client: Client = { res, ...(task !== undefined ? { task } : {}), timer: setInterval(() => this.write(client, ': keepalive\n\n'), HEARTBEAT_MS) }
    client.timer.unref()
    this.clients.add(client)
    this.onCount(this.clients.size)
    const drop = () => this.drop(client)
    req.once('close', drop)
    res.once('close', drop)
    res.once('error', drop)
    this.replay(client, since)
    return true
  }

  /** What the client missed since its cursor, or `reset` when the ring can't tell. */
  private replay(client: Client, since: string | undefined): void {
    if (since === undefined) return
    const m = /^([0-9a-f]{8})-(\d{1,15})$/.exec(since)
    const seen = m ? Number(m[2]) : NaN
    const oldest = this.ring[0]?.seq ?? this.seq + 1
    if (!m || m[1] !== this.epoch || seen > this.seq || seen + 1 < oldest) {
      const reason = 'the board changed more than this page can catch up with; load it again'
      this.write(client, frame(this.epoch, { seq: this.seq, type: 'reset', data: JSON.stringify({ reason }) }))
      return
    }
    for (const kept of this.ring) if (kept.seq > seen && wants(client, kept)) this.write(client, frame(this.epoch, kept))
  }

  /** Writes to a client; one that has let BACKLOG_BYTES pile up is dropped (it reads slower than the board changes). */
  private write(client: Client, text: string): void {
    const res = client.res
    if (res.destroyed || res.writableEnded) return this.drop(client)
    if (res.writableLength > BACKLOG_BYTES) {
      res.destroy()
      return this.drop(client)
    }
    res.write(text)
  }

  private drop(client: Client): void {
    if (!this.clients.delete(client)) return
    clearInterval(client.timer)
    if (!client.res.writableEnded) client.res.end()
    this.onCount(this.clients.size)
  }

  /** Ends every stream (the server is closing). */
  close(): void {
    this.closed = true
    for (const c of [...this.clients]) this.drop(c)
  }
}

function wants(client: Client, kept: Kept): boolean {
  return client.task === undefined || kept.task === undefined || kept.task === client.task
}

/** One SSE frame; the JSON text holds no line break (JSON escapes CR and LF in strings). */
function frame(epoch: string, kept: Kept): string {
  return `id: ${epoch}-${kept.seq}\nevent: ${kept.type}\ndata: ${kept.data}\n\n`
}
