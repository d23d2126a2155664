/**
 * The plugin must share the harness's single copy of `@deepseek-ai/*` however it was installed.
 * Installed into a profile (packed or `file:`), Node finds the harness's copies anyway; loaded in
 * place (a `--patch` row naming a file in a checkout, or `dsh plugin add ./dir`, which pnpm links),
 * Node resolves them from the checkout: its devDependencies, maybe other versions, or nothing at
 * all. A module resolve hook sends `@deepseek-ai/*` imports made by this package's files to the
 * running harness's own copies. The rows' loader (rows-loader.ts) installs it: while the harness
 * bundle imports those packages, or for good before the compiled modules load without a bundle.
 */
import { realpathSync } from 'node:fs'
import module from 'node:module'
import { pathToFileURL } from 'node:url'

const PEER = /^@deepseek-ai\//
/** This package's root (dist/src/dsh/ is three levels down). */
const PACKAGE_ROOT = new URL('../../../', import.meta.url).href

let installed = false

/**
 * A file of this package itself, not of a dependency or of a harness installed inside the
 * checkout (the test cache's `.cache/dsh/node_modules`): only those imports are redirected.
 */
function ownFile(url: string): boolean {
  return url.startsWith(PACKAGE_ROOT) && !url.slice(PACKAGE_ROOT.length).includes('node_modules/')
}

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

type Hooks = { deregister(): void }

/** Registers the redirecting hook; undefined where it is not needed or Node has no synchronous hooks. */
function register(): Hooks | undefined {
  const host = hostAnchor()
  const registerHooks = (module as unknown as {
    registerHooks?: (hooks: { resolve: (s: string, c: ResolveContext, n: NextResolve) => Resolved }) => Hooks
  }).registerHooks
  // registerHooks: Node >= 22.15, which dsh (>= 22.19) always has.
  if (!host || typeof registerHooks !== 'function' || ownFile(host)) return undefined
  return registerHooks({
    resolve(specifier, context, nextResolve) {
      if (PEER.test(specifier) && context.parentURL !== undefined && ownFile(context.parentURL)) {
        try {
          return nextResolve(specifier, { ...context, parentURL: host })
        } catch {
          // the harness lacks it (a dev-only package): fall through to this package's own
        }
      }
      return nextResolve(specifier, context)
    },
  })
}

/**
 * Installs the hook for the rest of the process, once: this package's compiled modules (no harness
 * bundle) import the harness packages as they load, row after row. Returns whether it is installed.
 */
export function shareHostPeers(): boolean {
  if (installed) return true
  installed = register() !== undefined
  return installed
}

/**
 * The harness's own URLs of `specifiers`, each given by `resolve` (the caller's `import.meta.resolve`)
 * with the hook installed for those calls alone. They are synchronous, so no resolution of the
 * harness's own meets the hook: while an import is awaited under it, every module the harness loads
 * meanwhile (about 140 at a session's start) is resolved through it, more slowly.
 */
export function resolveHostPeers(specifiers: readonly string[], resolve: (specifier: string) => string): string[] {
  const hooks = installed ? undefined : register()
  try {
    return specifiers.map((specifier) => resolve(specifier))
  } finally {
    hooks?.deregister()
  }
}

/**
 * `load` with the hook installed only while it runs (a cook's one import of a harness package that
 * the bundle doesn't name): a hook in place slows every later module resolution of the harness's own.
 */
export async function withHostPeers<T>(load: () => Promise<T>): Promise<T> {
  const hooks = installed ? undefined : register()
  try {
    return await load()
  } finally {
    hooks?.deregister()
  }
}
