/**
 * The harness bundle: every row this package gives dsh, bundled into one script
 * (dist/src/rows.bundle.cjs, made by scripts/bundle-rows.mjs from src/rows/index.ts) and compiled
 * with V8's code cache, so that a session or a cook starts without parsing and compiling about 160
 * modules. Each row's entry asks it for its plugin (`harnessBundle()?.adapter()`) and, when the
 * build made no bundle (no esbuild), imports its compiled module instead. All rows share the one
 * bundle, so their modules are one instance, as they were as modules.
 *
 * The cache is the CLI's (src/cli/launcher.ts): a file per Node version, architecture and bundle
 * build, in the user's private cache folder (src/base/cache-dir.ts), sealed with a checksum that is
 * checked before V8 sees a byte (V8's answer to a damaged cache is a fatal error). When none is
 * there, or V8 refused it, the process writes one, with what it compiled by then: a second after
 * the session has started (start-mark.ts), or at its exit when that comes first.
 * COMMAND_SCOUT_CACHE=off turns the cache off; COMMAND_SCOUT_HARNESS_BUNDLE=off the bundle.
 */
import { lstatSync, readFileSync } from 'node:fs'
import module from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import vm from 'node:vm'
import { cacheFolder, CODE_BOUND, ownFile, writePrivate } from '../base/cache-dir.js'
import { openCodeCache, sealCodeCache } from '../base/code-cache.js'
import { shareHostPeers } from './host-peers.js'

/** What the bundle exports (src/rows/index.ts): each row's module, loaded on first use. */
export interface HarnessBundle {
  readonly [row: string]: (...args: any[]) => Promise<any>
}

const BUNDLE_FILE = fileURLToPath(new URL('../rows.bundle.cjs', import.meta.url))
const PEER = /^@deepseek-ai\//
/** How long after the start the code cache is made (the catalog and the watcher's first walk run in it). */
const SAVE_AFTER_START_MS = 1_000

let bundle: Promise<HarnessBundle | undefined> | undefined

/** The build id and the harness packages the bundle's header names (scripts/bundle-rows.mjs). */
function headerOf(source: string): { build: string; peers: string[] } | undefined {
  const m = /^\/\*command-scout build ([0-9a-f]+) peers ([^*]*)\*\//.exec(source)
  return m ? { build: m[1]!, peers: m[2]!.split(',').filter((p) => PEER.test(p)) } : undefined
}

/** A sealed cache file's V8 bytes when it is this user's regular file and its checksum holds. */
function readCache(file: string): Buffer | undefined {
  try {
    return ownFile(lstatSync(file)) ? openCodeCache(readFileSync(file)) : undefined
  } catch {
    return undefined
  }
}

/**
 * The bundle's `require`. The harness packages it names (its header lists them) are imported first,
 * as the modules imported them (their `import` condition, through the resolve hook to the harness's
 * own copies), and handed over: the bundle gets the instances the harness has loaded, never a second
 * copy from a package's CommonJS build (a `require` condition).
 */
async function bundleRequire(peerNames: readonly string[]): Promise<(specifier: string) => unknown> {
  const nodeRequire = module.createRequire(BUNDLE_FILE)
  const peers = new Map<string, unknown>()
  await Promise.all(peerNames.map(async (specifier) => {
    const namespace = (await import(specifier)) as Record<string, unknown>
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

/** The bundle's exports, compiled once per process; undefined when the build made none. */
export function harnessBundle(): Promise<HarnessBundle | undefined> {
  return (bundle ??= load())
}

async function load(): Promise<HarnessBundle | undefined> {
  shareHostPeers()
  let source: string
  try {
    // COMMAND_SCOUT_HARNESS_BUNDLE=off: each row loads its compiled modules (real names in stacks, one module per file).
    if (process.env.COMMAND_SCOUT_HARNESS_BUNDLE === 'off') throw new Error('off')
    // ASCII (scripts/bundle-rows.mjs makes it so): read as latin1, a copy, where UTF-8 would be decoded.
    source = readFileSync(BUNDLE_FILE, 'latin1')
  } catch {
    return undefined
  }
  const header = headerOf(source)
  if (!header) return undefined
  const require = await bundleRequire(header.peers)
  const dir = cacheFolder('code')
  const name = `rows-${process.version}-${process.arch}-${header.build}.bin`
  const cachedData = dir ? readCache(join(dir, name)) : undefined
  const script = new vm.Script(source, {
    filename: BUNDLE_FILE,
    cachedData,
    // The import() of a harness package the cook runner makes at run time: the main context's loader.
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  })
  const bundled = { exports: {} as object }
  const wrapper = script.runInThisContext() as (exports: object, require: (specifier: string) => unknown, module: object, file: string, dir: string) => void
  wrapper(bundled.exports, require, bundled, BUNDLE_FILE, dirname(BUNDLE_FILE))
  const exports = bundled.exports as HarnessBundle & { whenStarted?: (fn: () => void) => void }
  if (dir && (cachedData === undefined || script.cachedDataRejected)) {
    let saved = false
    const save = () => {
      if (saved) return
      saved = true
      try {
        writePrivate(dir, name, sealCodeCache(script.createCachedData()), CODE_BOUND)
      } catch {
        // a full or read-only cache folder: the next session compiles again
      }
    }
    // A second after the session has started, the cache holds what a start compiles (the next start
    // runs that); a process that ends before, or has no adapter row, makes it as it exits.
    exports.whenStarted?.(() => setTimeout(save, SAVE_AFTER_START_MS).unref())
    process.once('exit', save)
  }
  return exports
}
