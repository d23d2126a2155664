/**
 * The MCP server's stdio transport: newline-delimited JSON-RPC, as the SDK's StdioServerTransport,
 * but speaking the protocol when the input is bad instead of dropping it or ending silently. A
 * line that isn't JSON gets the JSON-RPC parse error (-32700), one that isn't a JSON-RPC message
 * an invalid request (-32600), and a line over the size bound is skipped up to its newline and
 * answered with an invalid request saying so; the server goes on in every case.
 */
import process from 'node:process'
import type { Readable, Writable } from 'node:stream'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'

/** The longest message read (the SDK's own bound); a longer line is answered and skipped. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024

const PARSE_ERROR = -32700
const INVALID_REQUEST = -32600

export class LineTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void

  #chunks: Buffer[] = []
  #size = 0
  /** Inside a line over the bound: the rest of it, up to its newline, is dropped. */
  #skipping = false
  #started = false

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    private readonly maxBytes = MAX_MESSAGE_BYTES,
  ) {}

  readonly #onData = (chunk: Buffer): void => {
    let start = 0
    for (let nl = chunk.indexOf(0x0a, start); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      this.#take(chunk.subarray(start, nl))
      this.#endLine()
      start = nl + 1
    }
    if (start < chunk.length) this.#take(chunk.subarray(start))
  }

  readonly #onError = (error: Error): void => {
    this.onerror?.(error)
  }

  readonly #onEnd = (): void => {
    void this.close()
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('the transport is already started')
    this.#started = true
    this.input.on('data', this.#onData)
    this.input.on('error', this.#onError)
    this.input.on('end', this.#onEnd)
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const text = `${JSON.stringify(message)}\n`
    if (!this.output.write(text)) await new Promise<void>((resolve) => this.output.once('drain', resolve))
  }

  async close(): Promise<void> {
    this.input.off('data', this.#onData)
    this.input.off('error', this.#onError)
    this.input.off('end', this.#onEnd)
    if (this.input.listenerCount('data') === 0) this.input.pause()
    this.#chunks = []
    this.#size = 0
    this.onclose?.()
  }

  #take(part: Buffer): void {
    if (this.#skipping || part.length === 0) return
    if (this.#size + part.length > this.maxBytes) {
      this.#chunks = []
      this.#size = 0
      this.#skipping = true
      void this.#reject(null, INVALID_REQUEST, `message too large: a message may be at most ${this.maxBytes} bytes; it was skipped`)
      return
    }
    this.#chunks.push(part)
    this.#size += part.length
  }

  #endLine(): void {
    if (this.#skipping) {
      this.#skipping = false
      return
    }
    const line = Buffer.concat(this.#chunks).toString('utf8').replace(/\r$/, '')
    this.#chunks = []
    this.#size = 0
    if (line.trim() === '') return
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch (error) {
      void this.#reject(null, PARSE_ERROR, `Parse error: the line is not JSON (${(error as Error).message})`)
      return
    }
    const parsed = JSONRPCMessageSchema.safeParse(value)
    if (!parsed.success) {
      const id = typeof (value as { id?: unknown })?.id === 'string' || typeof (value as { id?: unknown })?.id === 'number'
        ? (value as { id: string | number }).id
        : null
      void this.#reject(id, INVALID_REQUEST, 'Invalid Request: the message is not a JSON-RPC 2.0 request, notification or response')
      return
    }
    this.onmessage?.(parsed.data)
  }

  /** An error response the SDK's types don't allow (no id is known): written as JSON-RPC says. */
  async #reject(id: string | number | null, code: number, message: string): Promise<void> {
    const text = `${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`
    if (!this.output.write(text)) await new Promise<void>((resolve) => this.output.once('drain', resolve))
  }
}
