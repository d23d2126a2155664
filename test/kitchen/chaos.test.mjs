// Seeded chaos: owners crash at named points of launch, tick, send, stop and close (an injected
// fault throws, the instance is abandoned, a new one opens the same kitchen dir), and two owners race
// through a takeover. Invariants, checked in every iteration:
//   1. never two live cooks (process groups whose stdout is a run file of the task, also an unlinked
//      one) for one task, and never two cooks writing one run file;
//   2. every final outcome is notified exactly once, and only after delivery;
//   3. no closed task leaves its worktree;
//   4. the chain never deadlocks (every operation is bounded);
//   5. no unhandled rejection.
// Replay a failure with KITCHEN_CHAOS_SEED=<seed> (the iteration's seed is printed); set the number of
// iterations with KITCHEN_CHAOS_ITERATIONS (default 200).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { openKitchen, Store } from '../../dist/src/kitchen/index.js'
import { scanCooks } from '../../dist/src/kitchen/cooks/index.js'
import { git, makeRepo, sleep, tempDir } from './support.mjs'
import { runFileWriters } from '../support/processes.mjs'
import { rng } from '../support/random.mjs'

/**
 * A process with SIGKILL, or a SIGTERM it neither ignores nor catches, pending is dying: on a loaded
 * machine a member of a signalled cook group can wait a while for the CPU that ends it, after its
 * leader is gone and the kitchen rightly counts the cook as over. It is not a live cook.
 */
function dying(pid) {
  let text
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8')
  } catch {
    return true
  }
  const mask = (key) => BigInt('0x' + (new RegExp(`^${key}:\\s*([0-9a-f]+)`, 'm').exec(text)?.[1] ?? '0'))
  const pending = mask('SigPnd') | mask('ShdPnd')
  const handled = mask('SigIgn') | mask('SigCgt')
  const bit = (sig) => 1n << BigInt(sig - 1)
  return (pending & bit(9)) !== 0n || ((pending & bit(15)) !== 0n && (handled & bit(15)) === 0n)
}

// A cook in plain sh: it starts in about a millisecond, so hundreds of launches stay cheap.
const FAST_COOK = `#!/bin/sh
prompt=""; model="fake/default"
for a in "$@"; do
  case "$a" in --prompt-file=*) prompt="\${a#--prompt-file=}";; --model=*) model="\${a#--model=}";; esac
done
mode=$(grep -o '@chaos:[a-z0-9]*' "$prompt" | tail -n 1); mode=\${mode#@chaos:}
ms() { date +%s%3N; }
P=\${model%%/*}; M=\${model#*/}
line() { printf '%s\\n' "$1"; }
line "{\\"type\\":\\"run_start\\",\\"at\\":$(ms),\\"v\\":1,\\"sessionId\\":\\"s\\",\\"resumed\\":false,\\"model\\":{\\"provider\\":\\"$P\\",\\"model\\":\\"$M\\"}}"
line "{\\"type\\":\\"prompted\\",\\"at\\":$(ms),\\"source\\":\\"prompt\\",\\"text\\":\\"go\\"}"
report() {
  line "{\\"type\\":\\"tool_end\\",\\"at\\":$(ms),\\"callId\\":\\"c1\\",\\"tool\\":\\"chef_report\\",\\"isError\\":false,\\"report\\":{\\"status\\":\\"$1\\",\\"summary\\":\\"$2\\"}}"
  line "{\\"type\\":\\"settled\\",\\"at\\":$(ms)}"
}
case "$mode" in
  hang) sleep 1000 & wait ;;
  crash) exit 3 ;;
  fail) if [ "$model" = "p/a" ]; then
          line "{\\"type\\":\\"assistant\\",\\"at\\":$(ms),\\"model\\":{\\"provider\\":\\"p\\",\\"model\\":\\"a\\"},\\"stopReason\\":\\"error\\",\\"text\\":\\"\\",\\"error\\":\\"402: Payment Required\\"}"
          line "{\\"type\\":\\"settled\\",\\"at\\":$(ms)}"
        else report done fell-back; fi ;;
  needs) report needs_decision which-one ;;
  slow) sleep 0.15; report done slow ;;
  *) report done ok ;;
esac
`

const POINTS = [
  'tick:read', 'tick:planned', 'tick:acted',
  'launch:worktree', 'launch:prompt', 'launch:handled', 'launch:claimed', 'launch:spawned',
  'dispatch:created', 'send:written', 'stop:logged', 'stop:signalled',
  'close:logged', 'close:removed', 'notify:delivered',
]
const SCRIPTS = ['done', 'done', 'needs', 'hang', 'crash', 'fail', 'slow']


const BOUND_MS = 20_000
async function bounded(p, what) {
  let timer
  const limit = new Promise((_, rej) => (timer = setTimeout(() => rej(new Error(`deadlock: ${what} did not finish in ${BOUND_MS} ms`)), BOUND_MS)))
  try {
    return await Promise.race([p, limit])
  } finally {
    clearTimeout(timer)
  }
}

const expected = (e) => e?.crash || ['KITCHEN_LEASE_LOST', 'KITCHEN_IO', 'KITCHEN_CLOSE_REFUSED', 'KITCHEN_TASK_CLOSED', 'KITCHEN_UNKNOWN_TASK'].includes(e?.code)

async function iteration(seed, env) {
  const rand = rng(seed)
  const pick = (xs) => xs[Math.floor(rand() * xs.length)]
  const root = join(env.dir, `k${seed}`)
  mkdirSync(root)
  writeFileSync(join(root, 'config.json'), JSON.stringify({
    maxCooks: 2, killGraceMs: 60, exitGraceMs: 150, exitWaitMs: 300, reclaimAfterMs: 1000,
    models: { default: [{ model: 'p/a' }, { model: 'p/b' }] },
  }))
  const store = Store.open(root)
  const delivered = new Set()
  const alive = new Set()
  let nextPid = 1_000_000 + seed * 10
  const violations = []

  const open = async (takeover = false, faults = true) => {
    const identity = { pid: ++nextPid, pidStart: 's' }
    alive.add(identity.pid)
    const ctl = { point: pick(POINTS), after: Math.floor(rand() * 3), armed: faults && rand() < 0.7 }
    const deps = {
      cookCommand: ['/bin/sh', env.cook, '--model={model}', '--prompt-file={promptFile}'],
      identity,
      holderAlive: async (h) => alive.has(h.pid),
      tickMs: 0,
      wakeQuietMs: 1,
      wakeCapMs: 5,
      deliver: async (w) => {
        await sleep(Math.floor(rand() * 3))
        if (rand() < 0.15) return false // the chef dropped it
        for (const r of w.runs) delivered.add(`${r.task}#${r.run}`)
        return true
      },
      fault: (point) => {
        if (!ctl.armed || point !== ctl.point) return
        if (ctl.after-- > 0) return
        ctl.armed = false
        alive.delete(identity.pid)
        throw Object.assign(new Error(`simulated crash at ${point}`), { crash: true })
      },
    }
    try {
      const o = await bounded(openKitchen(root, deps, { takeover }), 'open')
      return o.kind === 'owner' ? o.kitchen : undefined
    } catch (e) {
      if (e?.crash) return undefined // crashed during its first tick
      throw e
    }
  }

  // Every process whose stdout is a run file of this kitchen, also one that a reclaim unlinked
  // (`... (deleted)`): such a cook would be invisible to the kitchen, so it counts here.
  const sample = async () => {
    const writers = runFileWriters(root).filter((w) => !dying(w.pid))
    // a cook and the children that share its stdout are one process group: count groups per task
    const per = new Map()
    for (const w of writers) {
      const groups = per.get(w.task) ?? new Map()
      if (!groups.has(w.pgid)) groups.set(w.pgid, w)
      per.set(w.task, groups)
    }
    for (const [task, groups] of per) per.set(task, [...groups.values()])
    for (const [task, ws] of per) {
      if (ws.length <= 1) continue
      const ps = (pid) => {
        try {
          const st = readFileSync(`/proc/${pid}/stat`, 'utf8')
          const f = st.slice(st.lastIndexOf(')') + 2).split(' ')
          return `pid ${pid} ppid ${f[1]} pgid ${f[2]} state ${f[0]} cmd ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim()}`
        } catch {
          return `pid ${pid} gone`
        }
      }
      violations.push(`two live cooks for ${task}: ${ws.map((w) => `${ps(w.pid)} -> ${w.target}`).join('; ')}`)
    }
  }

  const T0 = Date.now()
  const ids = () => readdirSync(join(root, 'tasks')).filter((n) => /^p\d+-\d+$/.test(n))
  let k = await open()
  const project = `p${seed}`
  const steps = 5 + Math.floor(rand() * 5)
  let added = false
  for (let step = 0; step < steps; step++) {
    if (!k) k = await open()
    if (!k) continue
    const op = !added ? 'add' : pick(['dispatch', 'dispatch', 'send', 'stop', 'close', 'tick', 'tick', 'race'])
    const task = ids().length ? pick(ids()) : undefined
    try {
      switch (op) {
        case 'add':
          await bounded(k.addProject({ path: env.repo, name: project }), 'addProject')
          added = true
          break
        case 'dispatch': {
          const n = 1 + Math.floor(rand() * 2)
          await bounded(k.dispatch({ project, tasks: Array.from({ length: n }, (_, i) => ({ title: `t${i}`, brief: `@chaos:${pick(SCRIPTS)}` })) }), 'dispatch')
          break
        }
        case 'send':
          if (task) await bounded(k.send(task, `go on @chaos:${pick(['done', 'needs', 'slow'])}`), 'send')
          break
        case 'stop':
          if (task) await bounded(k.stop(task), 'stop')
          break
        case 'close':
          if (task) await bounded(k.close(task, { discard: rand() < 0.7 }), 'close')
          break
        case 'tick':
          await bounded(k.tick(), 'tick')
          await sleep(Math.floor(rand() * 40))
          break
        case 'race': {
          // a second owner takes over while the first is mid-tick; the first must find out before writing
          const first = k
          const pending = first.tick().catch((e) => {
            if (!expected(e)) throw e
          })
          const second = await open(true)
          await bounded(pending, 'raced tick')
          if (second) {
            for (const pid of [...alive]) if (pid !== second.lease.pid) alive.delete(pid)
            first.dispose()
            k = second
          }
          break
        }
      }
    } catch (e) {
      if (e?.code === 'KITCHEN_PROJECT_EXISTS') added = true // an earlier owner wrote it, then crashed
      else if (!expected(e)) throw e
    }
    if (k && (k.dead || k.lost || !alive.has(k.lease.pid))) {
      k.dispose()
      alive.delete(k.lease.pid)
      k = undefined
    }
    await sample()
    if (process.env.KITCHEN_CHAOS_TRACE) console.log(seed, step, op, Date.now() - T0)
  }

  // Settle: a last owner with no faults stops what still cooks and delivers every notice.
  if (k) k.dispose()
  alive.clear()
  const final = await open(false, false)
  assert.ok(final, 'the last owner opens')
  const deadline = Date.now() + 15_000
  for (;;) {
    const t = await bounded(final.tick(), 'final tick')
    await sample()
    let busy = false
    for (const v of t.views) {
      if (v.state.kind === 'cooking') {
        busy = true
        if (rand() < 0.5 || Date.now() > deadline - 10_000) await bounded(final.stop(v.id), 'final stop').catch((e) => { if (!expected(e)) throw e })
      } else if (v.live || v.state.kind === 'queued') busy = true
      else if (v.notice && !delivered.has(`${v.id}#${v.notice.run}`)) busy = true
      else if (v.notice) busy = true // delivered, notified write pending
    }
    await bounded(final.idle(), 'waker')
    if (!busy) break
    if (Date.now() > deadline) {
      violations.push(`did not settle: ${t.views.map((v) => `${v.id} ${v.state.kind}${v.live ? ' live' : ''}${v.notice ? ' notice' : ''}`).join(', ')}`)
      break
    }
    if (process.env.KITCHEN_CHAOS_TRACE) console.log(seed, 'settle', Date.now() - T0, t.views.map((v) => `${v.id} ${v.state.kind}${v.live ? ' live' : ''}${v.notice ? ' notice' : ''}`).join(', '))
    await sleep(20)
  }

  // Invariants on disk.
  const t = await final.tick()
  for (const v of t.views) {
    const dir = join(root, 'tasks', v.id)
    const log = existsSync(join(dir, 'log.jsonl')) ? readFileSync(join(dir, 'log.jsonl'), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []
    const notified = log.filter((e) => e.type === 'notified').map((e) => e.run)
    if (new Set(notified).size !== notified.length) violations.push(`${v.id}: a run notified twice: ${notified}`)
    for (const r of notified) if (!delivered.has(`${v.id}#${r}`)) violations.push(`${v.id}: run ${r} marked notified without delivery`)
    if (v.state.kind === 'idle' && v.state.outcome.kind !== 'stopped' && v.state.run !== undefined && !notified.includes(v.state.run)) {
      violations.push(`${v.id}: final outcome of run ${v.state.run} (${v.state.outcome.kind}) never notified`)
    }
    if (v.state.kind === 'closed' && existsSync(v.spec.worktree)) violations.push(`${v.id}: closed with its worktree on disk`)
    for (const f of readdirSync(join(dir, 'runs')).filter((n) => n.endsWith('.jsonl'))) {
      const starts = readFileSync(join(dir, 'runs', f), 'utf8').split('\n').filter((l) => l.includes('"run_start"')).length
      if (starts > 1) violations.push(`${v.id}: ${f} written by ${starts} cooks`)
    }
  }
  // Leave nothing running: stop every cook that is left, then end this owner.
  for (const v of t.views) if (v.state.kind === 'cooking') await final.stop(v.id).catch(() => {})
  for (const c of await scanCooks((p) => store.taskOfRunFile(p))) {
    try { process.kill(-c.pid, 'SIGKILL') } catch {}
  }
  await final.shutdown()
  return violations
}

test('chaos: crashes at named points and racing owners keep the invariants', { timeout: 600_000 }, async () => {
  const unhandled = []
  const onUnhandled = (e) => unhandled.push(e)
  process.on('unhandledRejection', onUnhandled)
  const dir = tempDir('kitchen-chaos-')
  const cook = join(dir, 'fast-cook.sh')
  writeFileSync(cook, FAST_COOK)
  chmodSync(cook, 0o755)
  const repo = makeRepo(dir, 'repo')
  const env = { dir, cook, repo }
  const fixed = process.env.KITCHEN_CHAOS_SEED
  const count = fixed ? 1 : Number(process.env.KITCHEN_CHAOS_ITERATIONS ?? 200)
  const base = fixed ? Number(fixed) : (Date.now() % 1_000_000) * 1000
  let done = 0
  try {
    for (let i = 0; i < count; i++) {
      const seed = base + i
      let violations
      try {
        violations = await iteration(seed, env)
      } catch (error) {
        throw new Error(`chaos iteration failed; replay with KITCHEN_CHAOS_SEED=${seed}: ${error.stack ?? error}`)
      }
      assert.deepEqual(violations, [], `invariants broken; replay with KITCHEN_CHAOS_SEED=${seed}`)
      if (unhandled.length > 0) throw new Error(`unhandled rejection; replay with KITCHEN_CHAOS_SEED=${seed}: ${unhandled[0]?.stack ?? unhandled[0]}`)
      done++
      // keep the shared repo small: drop this iteration's worktree registrations
      rmSync(join(dir, `k${seed}`, 'worktrees'), { recursive: true, force: true })
      if (i % 20 === 19) git(repo, 'worktree', 'prune')
    }
  } finally {
    process.off('unhandledRejection', onUnhandled)
    const cpu = process.cpuUsage()
    console.log(`chaos: ${done} of ${count} iterations passed (seeds ${base}..${base + count - 1}); test process cpu ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s`)
  }
  assert.equal(done, count)
})
