// The docker recipes. This machine has the docker CLI but no Docker engine (and no registry to pull
// images from), so no recipe runs for real: each is rendered, parsed with bash -n, and every docker
// subcommand and flag it uses is checked against the installed CLI's own --help.
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { library, render, assertBashSyntax, onPath } from './harness.mjs'

const PARAMS = {
  'docker.show_container_logs': { container: 'web', lines: 50, since: '2h' },
  'docker.open_shell_in_container': { container: 'web', shell: 'bash' },
  'docker.copy_files_from_container': { container: 'web', source: '/var/log/app', destination: 'logs' },
  'docker.inspect_container_env': { container: 'web' },
  'docker.prune_build_cache': { older_than: '24h' },
}
const ids = library.recipes.filter((r) => r.category === 'docker').map((r) => r.id).sort()
const engine = onPath('docker') && spawnSync('docker', ['info'], { encoding: 'utf8', timeout: 20_000 }).status === 0
const helpCache = new Map()

function help(subcommands) {
  const key = subcommands.join(' ')
  if (!helpCache.has(key)) {
    const r = spawnSync('docker', [...subcommands, '--help'], { encoding: 'utf8', timeout: 20_000 })
    helpCache.set(key, r.status === 0 ? r.stdout : undefined)
  }
  return helpCache.get(key)
}

/** The docker invocations of a command line, as word lists (quotes dropped; bash -n has checked the syntax). */
function dockerCalls(command) {
  return command.split(/\|\||&&|[|;]/).map((part) => part.trim().replace(/'/g, '').split(/\s+/)).filter((words) => words[0] === 'docker')
}

describe('docker recipes', { concurrency: true }, () => {
  test('there are docker recipes to check', () => assert.ok(ids.length >= 8, `${ids.length} docker recipes`))

  for (const id of ids) {
    test(`${id}: bash -n accepts every command; subcommands and flags exist in the docker CLI`, () => {
      const rendered = render(id, PARAMS[id] ?? {})
      const commands = assertBashSyntax(rendered)
      if (!onPath('docker')) return
      for (const words of commands.flatMap(dockerCalls)) {
        const subs = []
        let i = 1
        while (i < words.length && /^[a-z]+$/.test(words[i]) && help([...subs, words[i]]) !== undefined && subs.length < 2) subs.push(words[i++])
        assert.ok(subs.length > 0, `${id}: no docker subcommand in ${words.join(' ')}`)
        // `docker ps` and `docker images` take any word as an argument; stop at the first one that is not a subcommand.
        const text = help(subs)
        for (const flag of words.slice(i).filter((w) => w.startsWith('-'))) {
          const names = flag.startsWith('--') ? [flag.split('=')[0]] : [...flag.slice(1)].map((c) => `-${c}`)
          for (const name of names) assert.match(text, new RegExp(`(^|\\s)${name.replace(/-/g, '\\-')}[,\\s]`, 'm'), `${id}: docker ${subs.join(' ')} has no ${name}`)
        }
      }
    })
  }

  test('docker recipes are not run for real: no Docker engine here', { skip: engine ? 'a Docker engine answers, but the tests never pull images' : 'no Docker engine on this machine (docker info fails); syntax and flags checked above' }, () => {})
})
