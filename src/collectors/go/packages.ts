/**
 * The packages of one Go module as `go list ./...` sees them, read statically: every directory
 * under the module's root except testdata, vendor, names starting with `.` or `_`, symbolic links
 * (Go's walk does not follow them) and nested modules (a directory with its own go.mod). A .go
 * file counts when its name and build constraints match this platform (go/build's rules:
 * `_test.go`, `_GOOS`/`_GOARCH` suffixes, `//go:build` or else `// +build` lines before the
 * package clause). For each package: its name, its directory, and the `//go:generate`
 * directives of its files.
 */
import { join } from 'node:path'
import { listDir, readText } from '../shared/fs.js'

export interface GoPackage {
  /** POSIX path relative to the module root; `.` for the root package. */
  dir: string
  name: string
  /** The file with the package clause first seen (lexical order), and its line. */
  file: string
  line: number
  /** `//go:generate` lines: file (relative to the module root) and line. */
  generate: Array<{ file: string; line: number }>
}

const KNOWN_OS = new Set([
  'aix', 'android', 'darwin', 'dragonfly', 'freebsd', 'hurd', 'illumos', 'ios', 'js', 'linux', 'nacl', 'netbsd', 'openbsd', 'plan9', 'solaris', 'wasip1',
  'windows', 'zos',
])
const KNOWN_ARCH = new Set([
  '386', 'amd64', 'amd64p32', 'arm', 'armbe', 'arm64', 'arm64be', 'loong64', 'mips', 'mipsle', 'mips64', 'mips64le', 'mips64p32', 'mips64p32le',
  'ppc', 'ppc64', 'ppc64le', 'riscv', 'riscv64', 's390', 's390x', 'sparc', 'sparc64', 'wasm',
])
const UNIX = new Set(['aix', 'android', 'darwin', 'dragonfly', 'freebsd', 'hurd', 'illumos', 'ios', 'linux', 'netbsd', 'openbsd', 'solaris'])

const HOST_OS = ({
  win32: 'windows', darwin: 'darwin', linux: 'linux', freebsd: 'freebsd', openbsd: 'openbsd', aix: 'aix', sunos: 'solaris', android: 'android',
} as Record<string, string>)[process.platform] ?? process.platform
const HOST_ARCH = ({
  x64: 'amd64', arm64: 'arm64', ia32: '386', arm: 'arm', ppc64: 'ppc64le', s390x: 's390x', riscv64: 'riscv64', loong64: 'loong64',
} as Record<string, string>)[process.arch] ?? process.arch

/** Whether a build tag holds here: the platform, `unix`, `gc`, `cgo` and every go1.N release tag. */
function tagHolds(tag: string): boolean {
  if (tag === HOST_OS || tag === HOST_ARCH || tag === 'gc' || tag === 'cgo') return true
  if (tag === 'unix') return UNIX.has(HOST_OS)
  if (HOST_OS === 'android' && tag === 'linux') return true
  if (HOST_OS === 'illumos' && tag === 'solaris') return true
  if (HOST_OS === 'ios' && tag === 'darwin') return true
  return /^go1\.\d+$/.test(tag)
}

/** A `//go:build` expression: `||`, `&&`, `!`, parentheses, tags. Malformed is false (go reports it). */
export function evalBuildExpr(expr: string): boolean {
  const tokens = expr.match(/\|\||&&|!|\(|\)|[A-Za-z0-9_.]+|\S/g) ?? []
  let i = 0
  let bad = false
  const or = (): boolean => {
    let v = and()
    while (tokens[i] === '||') { i++; v = and() || v }
    return v
  }
  const and = (): boolean => {
    let v = not()
    while (tokens[i] === '&&') { i++; v = not() && v }
    return v
  }
  const not = (): boolean => {
    if (tokens[i] === '!') { i++; return !not() }
    if (tokens[i] === '(') {
      i++
      const v = or()
      if (tokens[i] !== ')') bad = true
      i++
      return v
    }
    const t = tokens[i++]
    if (t === undefined || !/^[A-Za-z0-9_.]+$/.test(t)) { bad = true; return false }
    return tagHolds(t)
  }
  // Deeply nested parentheses are bounded by the line's length; go/build caps expressions too.
  if (tokens.length > 1000) return false
  const v = or()
  return !bad && i === tokens.length && v
}

/** A `// +build` line: space-separated options (OR) of comma-separated terms (AND), `!` negates. */
function evalPlusBuild(args: string): boolean {
  return args.split(/\s+/).filter(Boolean).some((option) => option.split(',').every((term) => {
    const neg = term.startsWith('!')
    const tag = neg ? term.slice(1) : term
    return tag !== '' && !tag.startsWith('!') && tagHolds(tag) !== neg
  }))
}

/** Whether the file name's `_GOOS`, `_GOARCH` or `_GOOS_GOARCH` suffix matches this platform. */
function nameMatches(base: string): boolean {
  const parts = base.slice(0, -3).split('_')
  if (parts.length < 2) return true
  const last = parts[parts.length - 1]!
  const prev = parts.length >= 3 ? parts[parts.length - 2]! : undefined
  if (prev !== undefined && KNOWN_OS.has(prev) && KNOWN_ARCH.has(last)) return tagHolds(prev) && tagHolds(last)
  if (KNOWN_OS.has(last) || KNOWN_ARCH.has(last)) return tagHolds(last)
  return true
}

export interface GoFileHeader {
  /** The package name, undefined when there is no package clause. */
  pkg?: string
  line: number
  /** Whether the build constraints before the package clause hold on this platform. */
  buildable: boolean
}

/**
 * The package clause and build constraints of a Go source: comments and blank lines are skipped
 * up to `package <name>`. Hand-written because only the header is needed (go/build reads no further).
 */
export function fileHeader(text: string): GoFileHeader {
  let i = 0
  let line = 1
  let goBuild: string | undefined
  const plusBuild: string[] = []
  const n = text.length
  while (i < n) {
    const c = text[i]!
    if (c === '\n') { line++; i++; continue }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\ufeff') { i++; continue }
    if (c === '/' && text[i + 1] === '/') {
      let end = text.indexOf('\n', i)
      if (end === -1) end = n
      const comment = text.slice(i, end).trimEnd()
      if (goBuild === undefined && /^\/\/go:build(\s|$)/.test(comment)) goBuild = comment.slice('//go:build'.length)
      const plus = /^\/\/\s*\+build(\s.*)?$/.exec(comment)
      if (plus) plusBuild.push(plus[1] ?? '')
      i = end
      continue
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2)
      if (end === -1) return { line, buildable: false }
      for (let k = i; k < end; k++) if (text[k] === '\n') line++
      i = end + 2
      continue
    }
    const m = /^package[ \t]+([\p{L}_][\p{L}\p{N}_]*)/u.exec(text.slice(i, i + 300))
    if (!m) return { line, buildable: false }
    const buildable = goBuild !== undefined ? evalBuildExpr(goBuild) : plusBuild.every(evalPlusBuild)
    return { pkg: m[1], line, buildable }
  }
  return { line, buildable: false }
}

/** The `//go:generate` lines of a source (go generate's rule: at the start of a line). */
function generateLines(text: string): number[] {
  const out: number[] = []
  if (!text.includes('//go:generate')) return out
  const lines = text.split('\n')
  for (let k = 0; k < lines.length; k++) if (/^\/\/go:generate[ \t]/.test(lines[k]!)) out.push(k + 1)
  return out
}

export interface PackageScan {
  packages: GoPackage[]
  /** Directories skipped for holding their own go.mod (relative to the module root). */
  nested: string[]
}

/** Every package of the module rooted at `moduleDir`, directories in lexical order. */
export function modulePackages(moduleDir: string, limit = 100_000): PackageScan {
  const packages: GoPackage[] = []
  const nested: string[] = []
  const queue: string[] = ['.']
  for (let q = 0; q < queue.length && q < limit; q++) {
    const rel = queue[q]!
    const abs = rel === '.' ? moduleDir : join(moduleDir, rel)
    let entries
    try {
      entries = listDir(abs)
    } catch {
      continue
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    if (rel !== '.' && entries.some((e) => e.name === 'go.mod' && e.isFile())) {
      nested.push(rel)
      continue
    }
    const sub = rel === '.' ? '' : `${rel}/`
    let pkg: GoPackage | undefined
    const generate: GoPackage['generate'] = []
    const children: string[] = []
    for (const e of entries) {
      const name = e.name
      if (name.startsWith('.') || name.startsWith('_')) continue
      if (e.isDirectory()) {
        if (name !== 'testdata' && name !== 'vendor') children.push(`${sub}${name}`)
        continue
      }
      if (!e.isFile() || !name.endsWith('.go') || !nameMatches(name)) continue
      const text = readText(join(abs, name))
      if (text === undefined) continue
      const header = fileHeader(text)
      if (!header.buildable || header.pkg === undefined) continue
      for (const line of generateLines(text)) generate.push({ file: `${sub}${name}`, line })
      if (name.endsWith('_test.go')) continue
      // A package's name is its non-test files' name; go list refuses a mix, the first is kept.
      pkg ??= { dir: rel, name: header.pkg, file: `${sub}${name}`, line: header.line, generate }
    }
    if (pkg) packages.push(pkg)
    else if (generate.length) packages.push({ dir: rel, name: '', file: generate[0]!.file, line: generate[0]!.line, generate })
    queue.push(...children)
  }
  // go list's order: by import path, where the root package is the module path itself.
  const key = (p: GoPackage) => (p.dir === '.' ? '' : p.dir)
  packages.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
  return { packages, nested }
}
