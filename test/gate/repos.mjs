// Repositories the gate's surface tests run real commands in: a Makefile whose `clean` deletes the
// sources (it must ask) or only build output (it must not), a `tidy` whose directory is a make
// variable (safe as listed, destructive with `DIR=src`), and a harmless `build`. Each repository
// has src/main.c and dist/app.js, so a test can see what was deleted and what survived.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'

/** Words a model might pass to smuggle a second command in; none of them may ever run one. */
export const INJECTIONS = {
  /** A command chained after the arguments. */
  chained: '; rm -rf src',
  /** A second line. */
  newline: '\nrm -rf src',
  /** A substitution. */
  substituted: '$(rm -rf src)',
  /** A list of words whose one word is make's own way to run code: --eval with $(shell ...). */
  evalWord: ['--eval=$(shell rm -rf src)'],
}

/**
 * A word full of shell syntax that does no harm: passed as one word, make is asked for a target of
 * that name; had it reached a shell as text, `injected` would exist.
 */
export const PROBE_WORD = '; touch injected'

/** Whether the probe word ever ran as shell text. */
export function probeRan(dir) {
  return existsSync(join(dir, 'injected'))
}

/**
 * The Makefile: `clean` removes `cleans` (src asks, dist doesn't), `tidy` removes $(DIR) (dist by
 * default), `build` writes a stamp.
 */
export function makefile(cleans) {
  return [
    'DIR ?= dist',
    '',
    '## Write the build stamp',
    'build:',
    '\t@echo built > build-stamp.txt',
    '',
    '## Remove what the build made',
    'clean:',
    `\trm -rf ${cleans}`,
    '',
    '## Remove one directory (DIR, default dist)',
    'tidy:',
    '\trm -rf $(DIR)',
    '',
    '.PHONY: build clean tidy',
    '',
  ].join('\n')
}

/** Writes the repository into `dir` (created); `git: true` makes it a git repository with src committed. */
export function writeGateRepo(dir, { cleans = 'src', git = false } = {}) {
  mkdirSync(join(dir, 'src'), { recursive: true })
  mkdirSync(join(dir, 'dist'), { recursive: true })
  writeFileSync(join(dir, 'Makefile'), makefile(cleans))
  writeFileSync(join(dir, 'src', 'main.c'), 'int main(void) { return 0; }\n')
  writeFileSync(join(dir, 'dist', 'app.js'), 'built\n')
  if (git) {
    writeFileSync(join(dir, '.gitignore'), 'dist/\nbuild-stamp.txt\n')
    const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' }
    for (const args of [['init', '-q'], ['add', '-A'], ['commit', '-qm', 'first']]) {
      const r = spawnSync('git', args, { cwd: dir, env, encoding: 'utf8' })
      if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`)
    }
  }
  return dir
}

/** Whether the sources are all still there. */
export function sourcesKept(dir) {
  return existsSync(join(dir, 'src', 'main.c'))
}

/** Whether the build output is still there. */
export function outputKept(dir) {
  return existsSync(join(dir, 'dist', 'app.js'))
}

/** A git repository with two commits, for the curated `git.undo_last_commit`; returns a reader of HEAD. */
export function gitWithTwoCommits(dir) {
  const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' }
  const git = (...args) => {
    const r = spawnSync('git', args, { cwd: dir, env, encoding: 'utf8' })
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`)
    return r.stdout.trim()
  }
  mkdirSync(dir, { recursive: true })
  git('init', '-q')
  writeFileSync(join(dir, 'a.txt'), 'one\n')
  git('add', 'a.txt')
  git('commit', '-qm', 'one')
  writeFileSync(join(dir, 'a.txt'), 'two\n')
  git('commit', '-qam', 'two')
  return { head: () => git('rev-parse', 'HEAD'), first: git('rev-parse', 'HEAD~1') }
}
