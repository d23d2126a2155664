// A scripted fake of the OpenAI-compatible chat-completions API on 127.0.0.1, for running the real
// dsh against (DEEPSEEK_BASE_URL = model.baseURL, any DEEPSEEK_API_KEY). It streams SSE exactly as
// @deepseek-ai/dsh-llm-mock-server does, and adds what that server cannot: answers chosen per
// request (by the tools a request offers, so a chef and a cook share one fake), HTTP errors such as
// 402, and a record of every request.
//
//   import { startFakeModel, offersTool } from '../support/fake-model.mjs'
//   const model = await startFakeModel()
//   const cook = model.route('cook', (req) => offersTool(req, 'chef_report'))
//   cook.push({ tool: 'bash', args: { command: 'git commit -am x' } }, { tool: 'chef_report', args: { status: 'done', summary: 'ok' } })
//   model.route('chef', (req) => offersTool(req, 'chef_dispatch')).push({ text: 'dispatched' })
//   ... run dsh with dshEnv({ home, model }) ...
//   await cook.waitForRequests(2)      // resolves with cook.requests once two requests arrived
//   cook.requests[1].body.messages     // what dsh sent
//   await model.close()
//
// API
//   startFakeModel({ fallback? }) -> model      fallback: the answer when no route has one ({ text: 'FINAL' })
//   model.baseURL                               http://127.0.0.1:<port>/v1
//   model.route(name, match) -> route           match(body) -> boolean; routes are tried in the order made;
//                                               a request no route matches goes to the default route
//   model.default                               the default route (name 'default', matches everything)
//   route.push(...answers)                      queue answers, one per request this route answers
//   route.fallback = answer                     the answer once the queue is empty (default: model's fallback)
//   route.requests                              records of the requests this route answered
//   route.waitForRequests(n, ms = 60000)        resolves with route.requests when there are n
//   model.requests                              every record (all routes), in arrival order
//   model.waitForRequests(n, ms)                the same over all routes
//   model.close()                               stops the server and drops open connections
//   Requests that offer no tools (a session title, a summary) get { text: 'title' }, are recorded
//   with `auxiliary: true` in model.auxiliary, and consume nothing.
//
// A record: { index, route, body, tools: [names], answer }, where body is the parsed request. It is
// recorded when the request arrives (waitForRequests resolves then); `answer` is set once decided.
//
// Answers
//   { text: '...' }                             a final text answer (finish_reason stop)
//   { tool: 'name', args: {...} | 'json' }      one tool call (finish_reason tool_calls)
//   { calls: [{ tool, args }, ...], text? }     several tool calls in one response, optional text first
//   { status: 402, message?, code?, type? }     an HTTP error with an OpenAI-style JSON error body
//   async (body, record) => answer              decided when the request arrives; may wait for a state
//                                               (a file, a promise), which holds the response open
//
// Helpers: offersTool(body, name), toolNames(body), toolResults(body) -> [{ id, content }],
// messageText(body) -> every message's text joined (system included), systemText(body).
import { createServer } from 'node:http'

/** Tool names a request offered. */
export function toolNames(body) {
  return (body?.tools ?? []).map((t) => t.function?.name ?? t.name)
}

/** Whether a request offers the tool `name` (how a cook's request is told from a chef's). */
export function offersTool(body, name) {
  return toolNames(body).includes(name)
}

function text(content) {
  if (typeof content === 'string') return content
  if (Array.isArray(content)) return content.map((p) => (typeof p === 'string' ? p : p?.text ?? '')).join('')
  return ''
}

/** Every message's text in a request, joined by blank lines (system, user, assistant and tool). */
export function messageText(body) {
  return (body?.messages ?? []).map((m) => text(m.content)).join('\n\n')
}

/** The system message's text. */
export function systemText(body) {
  return (body?.messages ?? []).filter((m) => m.role === 'system').map((m) => text(m.content)).join('\n\n')
}

/** The tool results a request carries back: [{ id, content }]. */
export function toolResults(body) {
  return (body?.messages ?? []).filter((m) => m.role === 'tool').map((m) => ({ id: m.tool_call_id, content: text(m.content) }))
}

function waiter(list, n, ms, label) {
  return new Promise((resolve, reject) => {
    if (list.length >= n) return resolve(list)
    const timer = setTimeout(() => {
      remove()
      reject(new Error(`fake model: ${label} got ${list.length} of ${n} requests in ${ms} ms`))
    }, ms)
    const check = () => {
      if (list.length >= n) {
        remove()
        resolve(list)
      }
    }
    const remove = () => {
      clearTimeout(timer)
      list.waiters.delete(check)
    }
    list.waiters.add(check)
  })
}

function recordList() {
  const list = []
  list.waiters = new Set()
  list.add = (r) => {
    list.push(r)
    for (const w of [...list.waiters]) w()
  }
  return list
}

export async function startFakeModel({ fallback = { text: 'FINAL' } } = {}) {
  const routes = []
  const requests = recordList()
  const auxiliary = []
  let callCounter = 0

  function makeRoute(name, match) {
    const queue = []
    const route = {
      name,
      match,
      fallback: undefined,
      requests: recordList(),
      push(...answers) {
        queue.push(...answers)
        return route
      },
      next() {
        return queue.length > 0 ? queue.shift() : route.fallback ?? fallback
      },
      waitForRequests(n, ms = 60_000) {
        return waiter(route.requests, n, ms, `route ${name}`)
      },
    }
    return route
  }
  const defaultRoute = makeRoute('default', () => true)

  function send(res, payload) {
    res.write(`data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`)
  }

  function answer(res, a) {
    if (a && typeof a.status === 'number') {
      res.writeHead(a.status, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: { message: a.message ?? `fake model answered ${a.status}`, type: a.type ?? 'fake_error', code: a.code ?? String(a.status) } }))
      return
    }
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' })
    const calls = a?.calls ?? (a?.tool ? [{ tool: a.tool, args: a.args }] : [])
    const words = a?.text ?? (calls.length > 0 ? '' : 'FINAL')
    if (words) send(res, { choices: [{ index: 0, delta: { role: 'assistant', content: words }, finish_reason: null }] })
    calls.forEach((call, i) => {
      const args = typeof call.args === 'string' ? call.args : JSON.stringify(call.args ?? {})
      send(res, { choices: [{ index: 0, delta: { tool_calls: [{ index: i, id: `call-${++callCounter}`, type: 'function', function: { name: call.tool, arguments: args } }] }, finish_reason: null }] })
    })
    send(res, { choices: [{ index: 0, delta: { content: '' }, finish_reason: calls.length > 0 ? 'tool_calls' : 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 2 } })
    send(res, '[DONE]')
    res.end()
  }

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
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'fake model: the body is not JSON' } }))
        return
      }
      const tools = toolNames(body)
      if (tools.length === 0) {
        auxiliary.push({ body, auxiliary: true })
        answer(res, { text: 'title' })
        return
      }
      const route = routes.find((r) => r.match(body)) ?? defaultRoute
      const record = { index: requests.length, route: route.name, body, tools, answer: undefined }
      let a = route.next()
      requests.add(record)
      route.requests.add(record)
      try {
        if (typeof a === 'function') a = await a(body, record)
      } catch (error) {
        a = { text: `fake model answer failed: ${error?.message ?? error}` }
      }
      record.answer = a ?? fallback
      if (!res.destroyed) answer(res, record.answer)
    })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address()
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    auxiliary,
    default: defaultRoute,
    route(name, match) {
      const r = makeRoute(name, match)
      routes.push(r)
      return r
    },
    waitForRequests(n, ms = 60_000) {
      return waiter(requests, n, ms, 'the model')
    },
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(() => resolve()) }),
  }
}
