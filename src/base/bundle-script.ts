/**
 * A bundle this package's build makes (scripts/bundle-rows.mjs: the harness rows, the package
 * main) run as one script with V8's code cache: one file to read and one cache to deserialize
 * instead of many modules to parse and compile. The bundle is one function expression, a CommonJS
 * module's wrapper, starting with a header that names its build (`/*command-scout build <id> ...*\/`).
 *
 * The cache is a file per bundle, Node version, architecture and build in the user's private cache
 * folder (cache-dir.ts), sealed with a checksum (code-cache.ts) that is checked before V8 sees a
 * byte: V8's answer to a damaged cache is a fatal error. When none is there, or V8 refused it, the
 * process writes one with what it compiled by then: when `saveWhen` says (the harness: a second
 * after the session has started), or at its exit when that comes first. COMMAND_SCOUT_CACHE=off
 * turns the cache off.
 */
import { lstatSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import vm from 'node:vm'
import { cacheFolder, CODE_BOUND, ownFile, writePrivate } from './cache-dir.js'
import { openCodeCache, sealCodeCache } from './code-cache.js'

/** A bundle's text and the header fields after its build id (`peers a,b`: { peers: 'a,b' }). */
export interface BundleText {
  source: string
  build: string
  fields: Record<string, string>
}

/** The bundle at `file` (ASCII, so read as latin1: a copy, where UTF-8 would be decoded); undefined when it isn't there or has no header. */
export function readBundle(file: string): BundleText | undefined {
  let source: string
  try {
    source = readFileSync(file, 'latin1')
  } catch {
    return undefined
  }
  const header = /^\/\*command-scout build ([0-9a-f]+)((?: [a-z]+ [^ *]*)*)\*\//.exec(source)
  if (!header) return undefined
  const fields: Record<string, string> = {}
  for (const m of header[2]!.matchAll(/ ([a-z]+) ([^ *]*)/g)) fields[m[1]!] = m[2]!
  return { source, build: header[1]!, fields }
}

/** A sealed cache file's V8 bytes when it is this user's regular file and its checksum holds. */
function readCache(file: string): Buffer | undefined {
  try {
    return ownFile(lstatSync(file)) ? openCodeCache(readFileSync(file)) : undefined
  } catch {
    return undefined
  }
}

export interface RunOptions {
  /** The cache file's name starts with it (one per bundle). */
  name: string
  /** The bundle's `require`. */
  require: (specifier: string) => unknown
  /** Calls `save` when the cache should be made, if before the process's exit. */
  saveWhen?: (exports: Record<string, unknown>, save: () => void) => void
}

/** Compiles and runs the bundle with its code cache; answers its exports. */
export function runBundle(file: string, bundle: BundleText, options: RunOptions): Record<string, unknown> {
  const dir = cacheFolder('code')
  const name = `${options.name}-${process.version}-${process.arch}-${bundle.build}.bin`
  const cachedData = dir ? readCache(join(dir, name)) : undefined
  const script = new vm.Script(bundle.source, {
    filename: file,
    cachedData,
    // An import() the bundle makes at run time (of a harness package): the main context's loader.
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  })
  const module = { exports: {} as Record<string, unknown> }
  const wrapper = script.runInThisContext() as (exports: object, require: (specifier: string) => unknown, module: object, file: string, dir: string) => void
  wrapper(module.exports, options.require, module, file, dirname(file))
  if (dir && (cachedData === undefined || script.cachedDataRejected)) {
    let saved = false
    const save = () => {
      if (saved) return
      saved = true
      try {
        writePrivate(dir, name, sealCodeCache(script.createCachedData()), CODE_BOUND)
      } catch {
        // a full or read-only cache folder: the next process compiles again
      }
    }
    options.saveWhen?.(module.exports, save)
    process.once('exit', save)
  }
  return module.exports
}
