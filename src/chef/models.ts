/**
 * Which cook models can run, checked against dsh's own providers, models and credentials before a
 * dispatch. The core's check is synchronous, so the facts are gathered first (`refresh`, async) and
 * the check reads them. A model is `provider/id`, as dsh routes it.
 */

export interface LlmView {
  listProviders(): { id: string; name?: string }[]
  listModels(provider: string): Promise<readonly { id: string }[]>
}

export interface CredentialsView {
  describe(ref: string): Promise<{ configured: boolean; source?: unknown }>
}

export type ModelVerdict = { ok: true } | { ok: false; reason: string }

export class ModelFacts {
  private verdicts = new Map<string, ModelVerdict>()

  constructor(
    private readonly llm: () => LlmView | undefined,
    private readonly credentials: () => CredentialsView | undefined,
    private readonly keys: () => Record<string, string>,
  ) {}

  /** Check each model now; later `check` calls answer from these facts. */
  async refresh(models: Iterable<string>): Promise<void> {
    const llm = this.llm()
    const wanted = [...new Set(models)]
    const next = new Map<string, ModelVerdict>()
    if (!llm) {
      // No model service (a test harness without one): nothing to check against.
      for (const m of wanted) next.set(m, { ok: true })
      this.verdicts = next
      return
    }
    const providers = llm.listProviders()
    const ids = new Set(providers.map((p) => p.id))
    const catalogs = new Map<string, Promise<readonly { id: string }[] | undefined>>()
    const catalog = (p: string) => {
      let c = catalogs.get(p)
      if (!c) catalogs.set(p, (c = llm.listModels(p).catch(() => undefined)))
      return c
    }
    const creds = new Map<string, Promise<boolean | undefined>>()
    const credential = (p: string) => {
      const name = this.keys()[p]
      const service = this.credentials()
      if (!name || !service) return Promise.resolve(undefined)
      let c = creds.get(name)
      if (!c) creds.set(name, (c = service.describe(name).then((d) => d.configured, () => false)))
      return c
    }
    for (const m of wanted) {
      const slash = m.indexOf('/')
      if (slash <= 0 || slash === m.length - 1) {
        next.set(m, { ok: false, reason: `not a dsh model name: write provider/id, e.g. ${providers[0]?.id ?? 'deepseek-official'}/<model>` })
        continue
      }
      const provider = m.slice(0, slash)
      const id = m.slice(slash + 1)
      if (!ids.has(provider)) {
        next.set(m, { ok: false, reason: `dsh has no provider "${provider}" (its providers: ${[...ids].join(', ') || 'none'})` })
        continue
      }
      const list = await catalog(provider)
      if (list && list.length > 0 && !list.some((x) => x.id === id)) {
        next.set(m, { ok: false, reason: `provider ${provider} lists no model "${id}" (its models: ${list.map((x) => x.id).join(', ')})` })
        continue
      }
      const key = this.keys()[provider]
      const configured = await credential(provider)
      if (configured === false) {
        next.set(m, { ok: false, reason: `provider ${provider} has no API key: ${key} is not configured` })
        continue
      }
      next.set(m, { ok: true })
    }
    this.verdicts = next
  }

  /** The core's model check: a model not refreshed counts as available (the core asks only for refreshed ones). */
  readonly check = (model: string): ModelVerdict => this.verdicts.get(model) ?? { ok: true }
}
