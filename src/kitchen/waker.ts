/**
 * The Waker batches due notices into one wake for the chef: the first notice opens a quiet window,
 * each new notice extends it, and the total wait is capped. Sending is not delivery: a run counts as
 * notified only when `deliver` resolves true, and until then its notice stays in the in-flight set
 * so the next tick does not send it twice. A wake that `deliver` reports dropped (false, or a
 * rejection) leaves the in-flight set and the next tick sends it again. A crash in between repeats a
 * notice; it never loses one.
 */

/** What the Waker needs of a notice: its task and run (the dedupe key); the rest is for `compose`. */
export interface WakeNotice {
  task: string
  run: number
}

export interface Wake {
  text: string
  runs: { task: string; run: number }[]
}

export interface WakerOptions<N extends WakeNotice> {
  /** The quiet window each new notice opens or extends (default 1.5 s). */
  quietMs?: number
  /** The longest wait from the first notice of a batch (default 5 s). */
  capMs?: number
  /** Hand the wake to the chef; true once the chef's session received it, false when it was dropped. */
  deliver(wake: Wake): Promise<boolean>
  /** Record delivery (append `notified` per run). Runs before the notices leave the in-flight set. */
  delivered(runs: Wake['runs']): Promise<void>
  /** Build the wake text from the batch (it may gather facts first: the batch is in flight meanwhile). */
  compose(notices: readonly N[]): string | Promise<string>
  /** Report a failure of `delivered` (the notice is sent again later). */
  onError?(error: unknown): void
}

const key = (n: WakeNotice) => `${n.task}#${n.run}`

export class Waker<N extends WakeNotice = WakeNotice> {
  private readonly pending = new Map<string, N>()
  private readonly inFlight = new Set<string>()
  private firstAt: number | undefined
  private timer: NodeJS.Timeout | undefined
  private readonly quietMs: number
  private readonly capMs: number
  private readonly sending = new Set<Promise<void>>()
  private disposed = false

  constructor(private readonly opts: WakerOptions<N>) {
    this.quietMs = opts.quietMs ?? 1500
    this.capMs = opts.capMs ?? 5000
  }

  /** The notices due at this tick (all of them). New ones join the batch; gone ones leave it. */
  offer(due: readonly N[]): void {
    if (this.disposed) return
    const dueKeys = new Set(due.map(key))
    for (const k of this.pending.keys()) if (!dueKeys.has(k)) this.pending.delete(k)
    let added = false
    for (const n of due) {
      const k = key(n)
      if (this.inFlight.has(k) || this.pending.has(k)) continue
      this.pending.set(k, n)
      added = true
    }
    if (this.pending.size === 0) {
      this.clearTimer()
      return
    }
    if (!added) return
    const now = Date.now()
    this.firstAt ??= now
    const wait = Math.max(0, Math.min(this.quietMs, this.firstAt + this.capMs - now))
    this.clearTimer()
    this.timer = setTimeout(() => this.flush(), wait)
  }

  /** Pi-style drop: the chef's queue was cleared with wakes in flight; send them again next tick. */
  dropped(): void {
    this.inFlight.clear()
  }

  isInFlight(task: string, run: number): boolean {
    return this.inFlight.has(key({ task, run }))
  }

  /** Resolves when no wake is being handed over (the batch in the window is not waited for). */
  async settled(): Promise<void> {
    while (this.sending.size > 0) await Promise.all([...this.sending])
  }

  /** Notices waiting in the window or in flight. */
  get busy(): boolean {
    return this.pending.size > 0 || this.inFlight.size > 0
  }

  /** Send the batch now (tests, shutdown). */
  flush(): void {
    this.clearTimer()
    this.firstAt = undefined
    if (this.pending.size === 0 || this.disposed) return
    const batch = [...this.pending.values()]
    this.pending.clear()
    for (const n of batch) this.inFlight.add(key(n))
    const runs = batch.map((n) => ({ task: n.task, run: n.run }))
    let composed: string | Promise<string>
    try {
      composed = this.opts.compose(batch)
    } catch (error) {
      composed = Promise.reject(error)
    }
    const send = async () => {
      let ok = false
      try {
        // A text composed at once is handed over at once; one that gathers facts first, when it has them.
        const wake: Wake = { text: typeof composed === 'string' ? composed : await composed, runs }
        if (this.disposed) return
        ok = await this.opts.deliver(wake)
        if (ok) await this.opts.delivered(runs)
      } catch (error) {
        this.opts.onError?.(error)
      } finally {
        for (const n of batch) this.inFlight.delete(key(n))
      }
    }
    const p = send().finally(() => this.sending.delete(p))
    this.sending.add(p)
  }

  dispose(): void {
    this.disposed = true
    this.clearTimer()
    this.pending.clear()
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
  }
}
