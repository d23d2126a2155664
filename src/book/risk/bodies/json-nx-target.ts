/**
 * One Nx target's configuration as Nx resolves it (checked against `nx show project --json`): the
 * package.json script Nx infers as an `nx:run-script` target (limited by `nx.includedScripts`),
 * then package.json `nx.targets`, then project.json `targets`, each layer merged over the one
 * before when their executors are compatible and replacing it when not; the `command` shorthand is
 * `nx:run-commands`; then nx.json `targetDefaults` (the entry for the executor, else for the target
 * name, else the first glob key that matches) beneath it. Tokens `{projectRoot}`, `{projectName}`
 * and a leading `{workspaceRoot}` are interpolated into the options. The run is nx.ts'.
 */
import { boundedMatcher } from '../../../collectors/shared/globs.js'
import { isRecord } from '../../../collectors/shared/json-text.js'
import type { BodyContext } from '../types.js'
import { fileIn } from './json-body.js'
import { entries, items, lineOfNode, plain, prop, readJsonDoc, str, type JsonDoc, type Node } from './json-doc.js'

export type Json = Record<string, unknown>

export interface NxProject {
  readonly dir: string
  readonly name: string
  readonly projectJson?: JsonDoc
  readonly packageJson?: JsonDoc
  readonly targetDefaults: Json
}

export interface ResolvedTarget {
  readonly def: Json
  /** Where the most specific layer is written. */
  readonly file: string
  readonly line?: number
}

const SOURCE = 'nx'

/** The project in `dir`, with what can be read of its files and of nx.json. */
export function readProject(ctx: BodyContext, dir: string, name: string): NxProject {
  const doc = (file: string) => {
    const read = readJsonDoc(ctx, SOURCE, file, true)
    return 'doc' in read ? read.doc : undefined
  }
  const nx = doc('nx.json')
  const defaults = plain(prop(nx?.root, 'targetDefaults'))
  const projectJson = doc(fileIn(dir, 'project.json'))
  const packageJson = doc(fileIn(dir, 'package.json'))
  return { dir, name, ...(projectJson ? { projectJson } : {}), ...(packageJson ? { packageJson } : {}), targetDefaults: isRecord(defaults) ? defaults : {} }
}

/** The names of the targets written for the project (project.json, package.json `nx`, inferred scripts). */
export function targetNames(project: NxProject): string[] {
  const names = new Set<string>()
  for (const e of entries(prop(project.projectJson?.root, 'targets'))) names.add(e.key)
  for (const e of entries(prop(prop(project.packageJson?.root, 'nx'), 'targets'))) names.add(e.key)
  for (const e of entries(prop(project.packageJson?.root, 'scripts'))) if (scriptIncluded(project, e.key)) names.add(e.key)
  return [...names]
}

function scriptIncluded(project: NxProject, name: string): boolean {
  const included = prop(prop(project.packageJson?.root, 'nx'), 'includedScripts')
  return included === undefined || items(included).some((n) => str(n) === name)
}

/** The target's resolved configuration, or undefined when no file of the project writes it. */
export function resolveTarget(project: NxProject, name: string): ResolvedTarget | undefined {
  const layers: Array<{ def: Json; doc: JsonDoc; node: Node }> = []
  const pkg = project.packageJson
  const script = prop(prop(pkg?.root, 'scripts'), name)
  if (pkg && script && scriptIncluded(project, name)) layers.push({ def: { executor: 'nx:run-script', options: { script: name } }, doc: pkg, node: script })
  const pkgTarget = prop(prop(prop(pkg?.root, 'nx'), 'targets'), name)
  if (pkg && pkgTarget) layers.push({ def: asTarget(plain(pkgTarget)), doc: pkg, node: pkgTarget })
  const pj = project.projectJson
  const pjTarget = prop(prop(pj?.root, 'targets'), name)
  if (pj && pjTarget) layers.push({ def: asTarget(plain(pjTarget)), doc: pj, node: pjTarget })
  if (layers.length === 0) return undefined
  let def = layers[0]!.def
  for (const layer of layers.slice(1)) def = compatible(def, layer.def) ? merge(def, layer.def) : layer.def
  def = withDefaults(def, name, project.targetDefaults)
  const last = layers[layers.length - 1]!
  return { def: interpolate(def, project) as Json, file: last.doc.file, line: lineOfNode(last.doc, last.node) }
}

/** A target object with the `command` shorthand made `nx:run-commands`. */
function asTarget(value: unknown): Json {
  if (!isRecord(value)) return {}
  if (typeof value.command !== 'string') return value
  const { command, ...rest } = value
  return { ...rest, executor: 'nx:run-commands', options: { ...(isRecord(rest.options) ? rest.options : {}), command } }
}

function options(def: Json): Json {
  return isRecord(def.options) ? def.options : {}
}

/** Nx's isCompatibleTarget: no executor on one side, or the same one (and the same command or script). */
function compatible(a: Json, b: Json): boolean {
  if (!a.executor || !b.executor) return true
  if (a.executor !== b.executor) return false
  const key = a.executor === 'nx:run-commands' ? commandKey : a.executor === 'nx:run-script' ? (d: Json) => options(d).script : undefined
  if (key === undefined) return true
  const x = key(a)
  const y = key(b)
  return !x || !y || x === y
}

function commandKey(def: Json): unknown {
  const o = options(def)
  return o.command ?? (Array.isArray(o.commands) ? o.commands.map((c) => (isRecord(c) ? c.command : c)).join(' && ') : undefined)
}

function merge(base: Json, over: Json): Json {
  const configurations: Json = { ...(isRecord(base.configurations) ? base.configurations : {}) }
  for (const [k, v] of Object.entries(isRecord(over.configurations) ? over.configurations : {})) {
    configurations[k] = { ...(isRecord(configurations[k]) ? configurations[k] : {}), ...(isRecord(v) ? v : {}) }
  }
  return { ...base, ...over, executor: over.executor ?? base.executor, options: { ...options(base), ...options(over) }, configurations }
}

/** nx.json targetDefaults beneath the target: the executor's entry, else the name's, else a glob key's. */
function withDefaults(def: Json, name: string, targetDefaults: Json): Json {
  const pick = (key: unknown) => (typeof key === 'string' && Object.hasOwn(targetDefaults, key) ? targetDefaults[key] : undefined)
  let found = pick(def.executor) ?? pick(name)
  if (found === undefined) {
    for (const key of Object.keys(targetDefaults)) {
      if (!/[*?[{]/.test(key)) continue
      if (boundedMatcher([key]).match(name)) {
        found = targetDefaults[key]
        break
      }
    }
  }
  const defaults = asTarget(found)
  if (def.executor && defaults.executor && def.executor !== defaults.executor) return def
  return merge(defaults, def)
}

/** `{projectRoot}`, `{projectName}` and a leading `{workspaceRoot}` in every string of the options. */
function interpolate(value: unknown, project: NxProject, depth = 0): unknown {
  if (depth > 32) return value
  if (typeof value === 'string') {
    const text = value.startsWith('{workspaceRoot}') ? value.replace(/^\{workspaceRoot\}\/?/, '') || '.' : value
    return text.replaceAll('{projectRoot}', project.dir).replaceAll('{projectName}', project.name)
  }
  if (Array.isArray(value)) return value.map((v) => interpolate(v, project, depth + 1))
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, project, depth + 1)]))
  return value
}
