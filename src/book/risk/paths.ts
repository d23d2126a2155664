/**
 * What a command may delete or overwrite without asking: build output, as the repository itself
 * says it (its `.gitignore` files, read statically with the `ignore` library, and `.git/info/exclude`)
 * or as a well-known output directory, and never a path git tracks. Everything else (a tracked
 * path, an unknown one, one outside the repository, one only known at run time) is not free.
 *
 * Git's list of tracked files comes from `git ls-files`, which only reads the index (it runs no
 * hook); the repository's own config can't make it run anything once `core.fsmonitor` is off.
 */
import { spawnSync } from 'node:child_process'
import { lstatSync, readFileSync, statSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import type { Ignore } from 'ignore'
import { ignoreRules } from '../../base/lazy.js'
import type { ShellWord } from './shell.js'

/** Directories a build, a test run or an install recreates, at any depth. */
export const OUTPUT_DIRS: ReadonlySet<string> = new Set([
  'dist', 'build', 'target', 'coverage', '.next', 'out', '.nuxt', '.svelte-kit', '.turbo', '.vite', '.angular', '.parcel-cache',
  'storybook-static', '__pycache__', '.pytest_cache', '.mypy_cache', '.ruff_cache', '.tox', '.nox', 'htmlcov', '.nyc_output',
  '.gradle', '_build', '.cache', 'node_modules', '.eslintcache', '.hypothesis', '.coverage', '.docusaurus', '.expo', '.output',
  'cmake-build-debug', 'cmake-build-release', 'CMakeFiles', '.pnpm-store', '.yarn-cache', 'lib-cov', '.sass-cache', 'zig-cache',
  'zig-out', '.zig-cache', '.dart_tool', '.build', 'DerivedData', '.terraform', '.serverless', '.vercel', '.wrangler', '.netlify',
])
/** Files that are build output wherever they are. */
const OUTPUT_FILES = /(\.(o|a|so|dylib|obj|lo|la|pyc|pyo|class|tsbuildinfo|log|gcda|gcno|gcov|d|tgz)|\.egg-info|~)$/

/** Why a path is not free to delete or overwrite; undefined when it is. */
export type PathJudgement = string | undefined

export class PathJudge {
  readonly #ignores = new Map<string, Ignore | null>()
  #tracked: Set<string> | null | undefined
  #trackedDirs: Set<string> | undefined

  constructor(readonly root: string) {}

  /**
   * Whether deleting (or overwriting) the word's path, from `cwd` (relative to the root), needs a
   * person. The answer is a clause for the refusal: `src/, which git tracks`.
   */
  judge(word: ShellWord, cwd: string, how: 'delete' | 'overwrite' = 'delete'): PathJudgement {
    // A path known only at run time: deleting it asks (the command says it deletes); writing to it is
    // unknown text with no destructive word in it, which runs (`> "$OUTPUT"`, `2> >(tee log)`).
    if (word.dynamic) return how === 'delete' ? `\`${word.text}\`, a path known only when it runs` : undefined
    const value = word.value
    if (value === '') return undefined
    if (value === '/dev/null' || /^\/dev\/(stdout|stderr|fd\/\d+|tty)$/.test(value)) return undefined
    const abs = this.#absolute(value, cwd)
    const rel = relative(this.root, abs)
    const inside = rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
    if (!inside) return this.#outside(value, abs, value.startsWith('/'))
    const path = rel.split(sep).join('/')
    if (path === '') return `\`${value}\`, the whole repository`
    if (path === '.git' || path.startsWith('.git/')) return `\`${value}\`, git's own data`
    // The path as written, with where it lands when that reads differently (`src` run in packages/web).
    const shown = path === value.replace(/^(\.\/)+/, '').replace(/\/+$/, '') ? `\`${value}\`` : `\`${value}\` (${path})`
    if (word.pattern) return this.#pattern(shown, path)
    return this.#inside(shown, path, how)
  }

  /** Whether the word names a file (or a link) that exists now: what `cp`, `mv` and `ln -f` would overwrite. */
  existingFile(word: ShellWord, cwd: string): boolean {
    if (word.dynamic || word.pattern) return false
    try {
      const st = lstatSync(this.#absolute(word.value, cwd))
      return st.isFile() || st.isSymbolicLink()
    } catch {
      return false
    }
  }

  #absolute(value: string, cwd: string): string {
    if (value === '~' || value.startsWith('~/')) return join(homedir(), value.slice(2))
    if (value.startsWith('~')) return resolve('/', value) // another user's home: outside either way
    return resolve(this.root, cwd, value)
  }

  /** `absolute`: the path was written as one (`/tmp/x`); `../x` leaves the repository for a place next to it, never scratch. */
  #outside(value: string, abs: string, absolute: boolean): PathJudgement {
    if (absolute && this.isScratch(abs)) return undefined
    return `\`${value}\`, which is outside the repository`
  }

  /** Whether `abs` is scratch space: below the temp directory, not all of it, and not a directory the repository is in. */
  isScratch(abs: string): boolean {
    const holdsRoot = relative(abs, this.root)
    if (holdsRoot === '' || (!holdsRoot.startsWith('..') && !isAbsolute(holdsRoot))) return false
    for (const temp of new Set([tmpdir(), '/tmp', '/var/tmp'])) {
      const rel = relative(temp, abs)
      if (rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) && !/[*?[]/.test(rel.split(sep)[0]!)) return true
    }
    return false
  }

  /** Whether the word names git's own data (`.git/hooks/pre-commit`): writing there changes what git runs. */
  isGitData(word: ShellWord, cwd: string): boolean {
    if (word.dynamic) return false
    const rel = relative(this.root, this.#absolute(word.value, cwd)).split(sep).join('/')
    return rel === '.git' || rel.startsWith('.git/')
  }

  /** Whether the word names a place inside the repository. */
  insideRepository(word: ShellWord, cwd: string): boolean {
    const rel = relative(this.root, this.#absolute(word.value, cwd))
    return !rel.startsWith('..') && !isAbsolute(rel)
  }

  /** Whether the word names a place outside the repository that is not scratch space (`/usr/local/bin`, `~/.config`). */
  outsideRepository(word: ShellWord, cwd: string): boolean {
    if (word.dynamic) return false
    const abs = this.#absolute(word.value, cwd)
    if (/^\/dev\/(null|stdout|stderr|fd\/\d+|tty)$/.test(word.value)) return false
    const rel = relative(this.root, abs)
    return (rel.startsWith('..') || isAbsolute(rel)) && !this.isScratch(abs)
  }

  #inside(value: string, path: string, how: 'delete' | 'overwrite'): PathJudgement {
    const tracked = this.#trackedUnder(path)
    if (tracked) return `${value}, which git tracks${tracked === path ? '' : ` (${tracked} is in it)`}`
    if (this.#isOutput(path)) return undefined
    if (this.#ignored(path)) return undefined
    if (!exists(join(this.root, path))) return undefined // nothing there to lose, and git doesn't know it
    // A file git doesn't track, written again by a build that made it (`> build-stamp.txt`): in a git
    // repository that is what a build's output looks like when nothing ignores it; deleting it still asks.
    if (how === 'overwrite' && this.#trackedFiles() !== null && !isDir(join(this.root, path))) return undefined
    return `${value}, which is not build output (no .gitignore ignores it)`
  }

  /** `*.o`, `dist/*`, `src/**\/*.pyc`: free when its fixed part is output, or its name pattern is an output file. */
  #pattern(value: string, path: string): PathJudgement {
    const segments = path.split('/')
    const firstGlob = segments.findIndex((s) => /[*?[{]/.test(s))
    const fixed = segments.slice(0, firstGlob === -1 ? segments.length : firstGlob)
    if (fixed.length && this.#isOutput(fixed.join('/'))) return undefined
    // `packages/*/dist`, `**/node_modules`: everything it matches lies in an output directory.
    const literalAfter = segments.slice(firstGlob + 1).filter((s) => !/[*?[{]/.test(s))
    if (firstGlob !== -1 && literalAfter.some((s) => OUTPUT_DIRS.has(s)) && !this.#trackedMatch(path)) return undefined
    const name = segments[segments.length - 1]!
    // `dist-*`, `build.*`: names made from an output directory's name.
    const stem = /^([A-Za-z_.]+)[-_.]/.exec(name)?.[1]
    if (firstGlob === segments.length - 1 && stem && OUTPUT_DIRS.has(stem) && !this.#trackedMatch(path)) return undefined
    if (firstGlob === segments.length - 1 && name !== '*' && name !== '.*' && name !== '**') {
      // A name pattern in a fixed directory: judge a file it would match.
      const sample = [...fixed, name.replace(/\*\*?|\?|\[[^\]]*\]|\{([^,}]*)[^}]*\}/g, (_m, alt) => alt ?? 'x')].join('/')
      if (OUTPUT_FILES.test(sample) && !this.#trackedMatch(path)) return undefined
      if (this.#ignored(sample) && !this.#trackedMatch(path)) return undefined
    }
    return `${value}, a pattern that can match files that are not build output`
  }

  #isOutput(path: string): boolean {
    const segments = path.split('/')
    if (OUTPUT_FILES.test(segments[segments.length - 1]!)) return true
    return segments.some((s) => OUTPUT_DIRS.has(s))
  }

  /** Whether the repository's `.gitignore` files (and `.git/info/exclude`) ignore the path or a parent of it. */
  #ignored(path: string): boolean {
    const segments = path.split('/')
    let ignored = false
    for (let depth = 0; depth < segments.length; depth++) {
      const dir = segments.slice(0, depth).join('/')
      const rules = this.#rules(dir)
      if (!rules) continue
      const rest = segments.slice(depth)
      // A parent directory that is ignored hides everything under it, as git doesn't descend into it.
      for (let k = 1; k <= rest.length; k++) {
        const sub = rest.slice(0, k).join('/')
        const probe = k < rest.length || isDir(join(this.root, path)) ? `${sub}/` : sub
        const result = rules.test(probe)
        if (result.ignored) ignored = true
        else if (result.unignored) ignored = false
      }
    }
    return ignored
  }

  #rules(dir: string): Ignore | null {
    let rules = this.#ignores.get(dir)
    if (rules !== undefined) return rules
    rules = null
    const texts = [readSmall(join(this.root, dir, '.gitignore'))]
    if (dir === '') texts.push(readSmall(join(this.root, '.git', 'info', 'exclude')))
    const text = texts.filter(Boolean).join('\n')
    if (text) rules = ignoreRules()({ allowRelativePaths: true }).add(text)
    this.#ignores.set(dir, rules)
    return rules
  }

  /** The path itself, or a tracked file under it, when git tracks one; undefined otherwise. */
  #trackedUnder(path: string): string | undefined {
    const tracked = this.#trackedFiles()
    if (!tracked) return undefined
    if (tracked.has(path)) return path
    if (this.#trackedDirs!.has(path)) {
      for (const file of tracked) if (file.startsWith(`${path}/`)) return file
    }
    return undefined
  }

  #trackedMatch(pattern: string): boolean {
    const tracked = this.#trackedFiles()
    if (!tracked) return false
    const re = globRegExp(pattern)
    for (const file of tracked) if (re.test(file)) return true
    return false
  }

  #trackedFiles(): Set<string> | null {
    if (this.#tracked !== undefined) return this.#tracked
    this.#tracked = null
    if (!exists(join(this.root, '.git'))) return null
    // One `git ls-files` per repository while its index is unchanged, across judgements.
    const stamp = indexStamp(this.root)
    const known = TRACKED.get(this.root)
    if (known && stamp !== undefined && known.stamp === stamp) {
      this.#trackedDirs = known.dirs
      return (this.#tracked = known.files)
    }
    const run = spawnSync('git', ['-c', 'core.fsmonitor=false', '-c', 'core.quotePath=false', 'ls-files', '-z'], {
      cwd: this.root,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      timeout: 10_000,
      env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' },
    })
    if (run.status !== 0 || typeof run.stdout !== 'string') return null
    const files = new Set(run.stdout.split('\0').filter(Boolean))
    const dirs = new Set<string>()
    for (const file of files) {
      for (let i = file.indexOf('/'); i !== -1; i = file.indexOf('/', i + 1)) dirs.add(file.slice(0, i))
    }
    this.#tracked = files
    this.#trackedDirs = dirs
    if (stamp !== undefined) {
      if (TRACKED.size >= 16) TRACKED.delete(TRACKED.keys().next().value!)
      TRACKED.set(this.root, { stamp, files, dirs })
    }
    return files
  }
}

const TRACKED = new Map<string, { stamp: string; files: Set<string>; dirs: Set<string> }>()

/** The index file's identity (size, change time, inode): a new `git add` changes it. */
function indexStamp(root: string): string | undefined {
  try {
    const st = statSync(join(root, '.git', 'index'))
    return `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`
  } catch {
    return undefined
  }
}

/** A shell glob as a regular expression over POSIX paths (`*` within a segment, `**` across). */
function globRegExp(pattern: string): RegExp {
  let re = ''
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!
    if (c === '*') {
      if (pattern[i + 1] === '*') (re += '.*', i++)
      else re += '[^/]*'
    } else if (c === '?') re += '[^/]'
    else if (c === '[') {
      const close = pattern.indexOf(']', i + 1)
      if (close === -1) re += '\\['
      else (re += `[${pattern.slice(i + 1, close).replace(/^!/, '^').replace(/\\/g, '\\\\')}]`, i = close)
    } else if (c === '{') {
      const close = pattern.indexOf('}', i + 1)
      if (close === -1) re += '\\{'
      else (re += `(?:${pattern.slice(i + 1, close).split(',').map(escapeRe).join('|')})`, i = close)
    } else re += escapeRe(c)
  }
  return new RegExp(`^${re}(?:/.*)?$`)
}

function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}

function exists(path: string): boolean {
  try {
    lstatSync(path)
    return true
  } catch {
    return false
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

function readSmall(path: string): string {
  try {
    const st = lstatSync(path)
    if (!st.isFile() || st.size > 1024 * 1024) return ''
    return readFileSync(path, 'utf8')
  } catch {
    return ''
  }
}

