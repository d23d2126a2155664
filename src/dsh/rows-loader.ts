/**
 * The harness bundle: every row this package gives dsh, bundled into one script
 * (dist/src/rows.bundle.cjs, made by scripts/bundle-rows.mjs from src/rows/index.ts) and run with
 * V8's code cache (../base/bundle-script.ts), so that a session or a cook starts without parsing and
 * compiling about 160 modules. Each row's entry asks it for its plugin
 * (`(await harnessBundle())?.adapter()`) and, when the build made no bundle (no esbuild), imports its
 * compiled module instead. All rows share the one bundle, so their modules are one instance, as they
 * were as modules. The code cache is made a second after the session has started (start-mark.ts).
 * COMMAND_SCOUT_HARNESS_BUNDLE=off: each row loads its compiled modules (real names in stacks, one
 * module per file).
 */
import module from 'node:module'
import { fileURLToPath } from 'node:url'
import { readBundle, runBundle } from '../base/bundle-script.js'
import { resolveHostPeers, shareHostPeers } from './host-peers.js'

/** What the bundle exports (src/rows/index.ts): each row's module, loaded on first use. */
export interface HarnessBundle {
  readonly [row: string]: (...args: any[]) => Promise<any>
}

const BUNDLE_FILE = fileURLToPath(new URL('../rows.bundle.cjs', import.meta.url))
const PEER = /^@deepseek-ai\//
/** How long after the start the code cache is made (the skills catalog is read in it; the watcher starts after it, live-book.ts WATCH_AFTER_MS). */
const SAVE_AFTER_START_MS = 1_000

let bundle: Promise<HarnessBundle | undefined> | undefined

/**
 * The bundle's `require`. The harness packages it names (its header lists them) are imported first,
 * as the modules imported them (their `import` condition, through the resolve hook to the harness's
 * own copies), and handed over: the bundle gets the instances the harness has loaded, never a second
 * copy from a package's CommonJS build (a `require` condition).
 */
async function bundleRequire(peerNames: readonly string[]): Promise<(specifier: string) => unknown> {
  const nodeRequire = module.createRequire(BUNDLE_FILE)
  const peers = new Map<string, unknown>()
  // Resolved first, each to the URL the harness loaded it from (the hook's redirect); then imported without the hook.
  const urls = resolveHostPeers(peerNames, (specifier) => import.meta.resolve(specifier))
  await Promise.all(peerNames.map(async (specifier, i) => {
    const namespace = (await import(urls[i]!)) as Record<string, unknown>
    // The bundle's interop (esbuild's, for a package as Node imports it) takes what require gives
    // as the default export and its properties as the named ones: a package that exports only a
    // default (schemastery's `z`) is given as that value, one with named exports as its namespace.
    const names = Object.keys(namespace).filter((key) => key !== '__esModule')
    peers.set(specifier, names.length === 1 && names[0] === 'default' ? namespace.default : namespace)
  }))
  return (specifier) => {
    if (peers.has(specifier)) return peers.get(specifier)
    if (PEER.test(specifier)) throw new Error(`the harness bundle requires ${specifier}, which its header does not list; run npm run build`)
    return nodeRequire(specifier)
  }
}

/**
 * The bundle's exports, run once per process; undefined when the build made none, and then the
 * harness packages resolve from the harness for the rest of the process (host-peers.ts), as the
 * compiled modules an entry imports instead need.
 */
export function harnessBundle(): Promise<HarnessBundle | undefined> {
  return (bundle ??= load())
}

async function load(): Promise<HarnessBundle | undefined> {
  const text = process.env.COMMAND_SCOUT_HARNESS_BUNDLE === 'off' ? undefined : readBundle(BUNDLE_FILE)
  if (!text) return void shareHostPeers()
  const require = await bundleRequire((text.fields.peers ?? '').split(',').filter((p) => PEER.test(p)))
  return runBundle(BUNDLE_FILE, text, {
    name: 'rows',
    require,
    // A second after the session has started the cache holds what a start compiles (the next start runs that).
    saveWhen: (exports, save) => (exports.whenStarted as ((fn: () => void) => void) | undefined)?.(() => setTimeout(save, SAVE_AFTER_START_MS).unref()),
  }) as unknown as HarnessBundle
}
