/**
 * Loading the bundle in place (an overlay row naming a file in a checkout) must still share the
 * harness's single copy of `@deepseek-ai/*`: Node would otherwise resolve those imports from the
 * checkout (its devDependencies, possibly other versions, or nothing at all). A module resolve
 * hook sends `@deepseek-ai/*` imports made by this package's files to the running harness's own
 * copies. Only the overlay entries (`overlay/*.js`) install it; the bundle path needs none.
 */
import { realpathSync } from 'node:fs'
import module from 'node:module'
import { pathToFileURL } from 'node:url'

const PEER = /^@deepseek-ai\//
/** This package's root (dist/src/plugin/overlay/ is four levels down). */
const PACKAGE_ROOT = new URL('../../../../', import.meta.url).href

let installed = false

/** The harness's entry script, as a file URL to resolve its packages from. */
function hostAnchor(): string | undefined {
  const entry = process.argv[1]
  if (!entry) return undefined
  try {
    return pathToFileURL(realpathSync(entry)).href
  } catch {
    return undefined
  }
}

type ResolveContext = { parentURL?: string; conditions?: readonly string[]; importAttributes?: Record<string, string> }
type Resolved = { url: string; format?: string | null; shortCircuit?: boolean }
type NextResolve = (specifier: string, context?: ResolveContext) => Resolved

/** Installs the hook once; returns whether `@deepseek-ai/*` now resolves from the harness. */
export function shareHostPeers(): boolean {
  if (installed) return true
  const host = hostAnchor()
  const registerHooks = (module as unknown as { registerHooks?: (hooks: { resolve: (s: string, c: ResolveContext, n: NextResolve) => Resolved }) => unknown }).registerHooks
  // registerHooks: Node >= 22.15, which dsh (>= 22.19) always has.
  if (!host || typeof registerHooks !== 'function' || host.startsWith(PACKAGE_ROOT)) return false
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (PEER.test(specifier) && context.parentURL?.startsWith(PACKAGE_ROOT)) {
        try {
          return nextResolve(specifier, { ...context, parentURL: host })
        } catch {
          // the harness lacks it (a dev-only package): fall through to this package's own
        }
      }
      return nextResolve(specifier, context)
    },
  })
  installed = true
  return true
}
