// A scripted fake of the OpenAI-compatible chat API on 127.0.0.1 that tells a chef's request from
// a cook's by the tools it offers (chef_dispatch: the chef; chef_report: a cook; else: other).
// Each role has its own handler `(request, info) => step`, where a step is
//   { tool, args } | { calls: [{ tool, args }] } | { text } | { status: 402, message }
// and `info` is { role, index (per role), model }. Requests without tools get a short text.
import { createServer } from 'node:http'

export function roleOf(request) {
  const names = (request?.tools ?? []).map((t) => t.function?.name ?? t.name)
  if (names.includes('chef_report')) return 'cook'
  if (names.includes('chef_dispatch')) return 'chef'
  return 'other'
}

export function toolNamesOf(request) {
  return (request?.tools ?? []).map((t) => t.function?.name ?? t.name)
}

/** Every text a request carries (system, user, tool results), for "did the model see X". */
export function requestText(request) {
  return (request?.messages ?? []).map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n')
}

export function lastToolResult(request) {
  const tools = (request?.messages ?? []).filter((m) => m.role === 'tool')
  const m = tools.at(-1)
  return m ? (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)) : undefined
}

export async function startRoleModel(handlers = {}) {
  const requests = []
  const counts = { chef: 0, cook: 0, other: 0 }
  let callCounter = 0
  const server = createServer((req, res) => {
    let raw = ''
    req.setEncoding('utf8')
    req.on('data', (c) => { raw += c })
    req.on('end', async () => {
      if (req.method !== 'POST' || !req.url.endsWith('/chat/completions')) {
        res.writeHead(404).end()
        return
      }
      let body
      try {
        body = JSON.parse(raw)
      } catch {
        res.writeHead(400).end()
        return
      }
      const hasTools = Array.isArray(body.tools) && body.tools.length > 0
      let step
      const role = hasTools ? roleOf(body) : 'other'
      if (!hasTools) step = { text: 'title' }
      else {
        const index = counts[role]++
        requests.push({ role, index, model: body.model, body })
        const h = handlers[role]
        try {
          step = h ? await h(body, { role, index, model: body.model }) : undefined
        } catch (error) {
          step = { text: `fake model handler failed: ${error?.message ?? error}` }
        }
        step ??= { text: 'FINAL' }
      }
      if (step.status) {
        res.writeHead(step.status, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ error: { message: step.message ?? `HTTP ${step.status}`, type: 'fake', code: String(step.status) } }))
        return
      }
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' })
      const send = (payload) => res.write(`data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`)
      const calls = step.calls ?? (step.tool ? [{ tool: step.tool, args: step.args }] : [])
      if (calls.length > 0) {
        calls.forEach((call, i) => {
          const args = typeof call.args === 'string' ? call.args : JSON.stringify(call.args ?? {})
          send({ choices: [{ index: 0, delta: { tool_calls: [{ index: i, id: `call-${++callCounter}`, type: 'function', function: { name: call.tool, arguments: args } }] }, finish_reason: null }] })
        })
        send({ choices: [{ index: 0, delta: { content: '' }, finish_reason: 'tool_calls' }], usage: { prompt_tokens: 3, completion_tokens: 2 } })
      } else {
        send({ choices: [{ index: 0, delta: { content: step.text }, finish_reason: null }] })
        send({ choices: [{ index: 0, delta: { content: '' }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 1 } })
      }
      send('[DONE]')
      res.end()
    })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address()
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    of: (role) => requests.filter((r) => r.role === role),
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(() => resolve()) }),
  }
}

/** Resolve when `fn()` is truthy (polled), or reject with `what` after `ms`. */
export async function until(fn, what, ms = 60_000) {
  const deadline = Date.now() + ms
  for (;;) {
    const v = await fn()
    if (v) return v
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}
