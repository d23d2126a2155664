/**
 * What a command does, judged from its text: whether it writes, whether it deletes or overwrites,
 * and whether it breaks one of the Specification's safety rules. Static and deliberately small:
 * the lists below are the whole policy, so a reviewer can read it in one sitting.
 *
 * The verdicts differ from the destructive gate's for discovered commands (book/risk/) where they
 * should: here every `rm -r` is destructive (a recipe's target is
 * whatever the reader passes), there `rm -rf dist` is a routine clean of build output.
 */
import { readShellLine, shellScript } from './shell-split.js'

/** Commands that change state whatever their arguments. */
const WRITE_COMMANDS = new Set([
  'rm', 'rmdir', 'mv', 'cp', 'mkdir', 'touch', 'ln', 'chmod', 'chown', 'chgrp', 'dd', 'truncate', 'shred', 'tee',
  'install', 'rsync', 'scp', 'patch', 'unlink', 'kill', 'pkill', 'killall', 'mkfs', 'dropdb', 'createdb',
  'remove-item', 'move-item', 'copy-item', 'new-item', 'set-content', 'add-content', 'out-file', 'stop-process',
  'del', 'erase', 'rd', 'ssh-keygen', 'ssh-add', 'brew', 'apt', 'apt-get',
])
/** git subcommands that only read. Everything else (and `branch`/`tag`/`stash` with a name or flag below) writes. */
const GIT_READ = new Set([
  'status', 'log', 'show', 'diff', 'rev-parse', 'ls-files', 'ls-remote', 'ls-tree', 'describe', 'shortlog', 'blame', 'reflog', 'cat-file', 'grep',
  'remote', 'config', 'count-objects', 'for-each-ref', 'show-ref', 'merge-base', 'name-rev', 'check-ignore', 'version', 'help', 'worktree', 'var',
  'cherry', 'whatchanged', 'fsck', 'verify-commit', 'verify-tag',
])
const GIT_LISTING = new Set(['branch', 'tag', 'stash'])
const GIT_LISTING_READ_FLAGS = new Set([
  '-a', '--all', '-r', '--remotes', '-v', '-vv', '--verbose', '-l', '--list', '--show-current', '--contains', '--merged', '--no-merged', '--sort',
  '--points-at', '-n', '--format', '--column', '--no-column', 'list', 'show',
])
const GIT_READ_SUBSUB: Record<string, Set<string>> = {
  remote: new Set(['-v', 'show', 'get-url']),
  worktree: new Set(['list']),
  config: new Set(['--get', '--list', '-l', '--get-all', '--show-origin']),
}
/** docker (and podman) subcommand paths that only read. */
const DOCKER_READ = new Set([
  'ps', 'images', 'inspect', 'logs', 'version', 'info', 'stats', 'top', 'port', 'diff', 'history', 'events', 'search',
  'system df', 'system info', 'system events', 'volume ls', 'volume inspect', 'network ls', 'network inspect', 'image ls', 'image inspect',
  'image history', 'container ls', 'container inspect', 'container logs', 'container top', 'container port', 'container diff', 'container stats',
  'compose ps', 'compose logs', 'compose config', 'compose ls', 'compose images', 'compose top', 'compose version', 'context ls', 'context show',
  'context inspect', 'buildx ls', 'buildx version', 'manifest inspect', 'builder ls',
])
const PACKAGE_MANAGER_WRITE = new Set([
  'install', 'i', 'ci', 'uninstall', 'remove', 'rm', 'un', 'add', 'update', 'up', 'upgrade', 'publish', 'unpublish', 'link', 'unlink', 'prune',
  'dedupe', 'version', 'init', 'import', 'rebuild',
])
const SQL_WRITE = /\b(drop|delete\s+from|truncate|insert\s+into|update\s+\w+\s+set|alter|create|grant|revoke|vacuum)\b/i
const SQL_DESTRUCTIVE = /\b(drop\s+(table|database|schema)|truncate|delete\s+from)\b/i
const PREFIXES = new Set(['sudo', 'env', 'command', 'time', 'nohup', 'nice', 'exec'])

/** The simple commands of a command line, each as its words without leading prefixes, plus the files written. */
function tokenize(command: string): { commands: string[][]; writesFiles: string[] } {
  const line = readShellLine(command)
  return { commands: line.commands.map(stripPrefixes), writesFiles: line.writesFiles }
}

function stripPrefixes(words: string[]): string[] {
  let i = 0
  while (i < words.length && (PREFIXES.has(words[i]!) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!) || (i > 0 && PREFIXES.has(words[i - 1]!) && words[i]!.startsWith('-')))) i++
  return words.slice(i)
}

const base = (word: string) => word.replace(/^.*[\\/]/, '').toLowerCase()
const positionals = (words: string[]) => words.filter((w) => !w.startsWith('-'))

/**
 * The commands a simple command runs on its behalf: `find -exec CMD ... ;`, `xargs CMD ...`, and the
 * script of `sh -c '...'` (classified as a command line of its own).
 */
function nested(words: string[]): { argv: string[][]; scripts: string[] } {
  const cmd = base(words[0] ?? '')
  const argv: string[][] = []
  const scripts: string[] = []
  if (cmd === 'find') {
    words.forEach((w, i) => {
      if (['-exec', '-execdir', '-ok', '-okdir'].includes(w)) {
        const end = words.findIndex((x, j) => j > i && (x === ';' || x === '+' || x === '\\;'))
        argv.push(words.slice(i + 1, end === -1 ? undefined : end))
      }
    })
  } else if (cmd === 'xargs') {
    const i = words.findIndex((w, j) => j > 0 && !w.startsWith('-'))
    if (i > 0) argv.push(words.slice(i))
  } else {
    const script = shellScript(words)
    if (script) scripts.push(script)
  }
  return { argv, scripts }
}

function viaNested(words: string[], reason: (w: string[]) => string | undefined, line: (c: string) => string | undefined): string | undefined {
  const { argv, scripts } = nested(words)
  for (const a of argv) {
    const r = reason(stripPrefixes(a))
    if (r) return r
  }
  for (const script of scripts) {
    const r = line(script)
    if (r) return r
  }
  return undefined
}

/** Why a simple command writes, or undefined when it only reads (as far as these lists know). */
function writeReason(words: string[]): string | undefined {
  const inner = viaNested(words, (w) => writeReason(w) ?? destructiveReason(w), (c) => writes(c))
  if (inner) return inner
  const cmd = base(words[0] ?? '')
  const args = words.slice(1)
  if (cmd === 'kill' && args[0] === '-0') return undefined // only asks whether the process exists
  if (cmd === 'find' && args.includes('-delete')) return '`find -delete` deletes the files it matches'
  if (WRITE_COMMANDS.has(cmd) || cmd.startsWith('mkfs.')) return `\`${cmd}\` changes files or processes`
  if ((cmd === 'sed' || cmd === 'perl') && args.some((a) => /^-[a-zA-Z]*i/.test(a) || a === '--in-place')) return `\`${cmd} -i\` edits files in place`
  if (cmd === 'git') {
    const rest = args.filter((a, i) => !(a.startsWith('-') && i === 0) && !(i > 0 && args[i - 1] === '-C'))
    const sub = positionals(args.filter((a, i) => !(i > 0 && (args[i - 1] === '-C' || args[i - 1] === '-c'))))[0]
    if (!sub) return undefined
    const after = rest.slice(rest.indexOf(sub) + 1)
    if (GIT_READ.has(sub)) {
      const allowed = GIT_READ_SUBSUB[sub]
      if (allowed && after.length > 0 && !after.some((a) => allowed.has(a))) return `\`git ${sub} ${after.join(' ')}\` changes the repository's settings`
      return undefined
    }
    if (GIT_LISTING.has(sub) && !(sub === 'stash' && after.length === 0)
      && after.every((a) => GIT_LISTING_READ_FLAGS.has(a) || (a.startsWith('--format') || a.startsWith('--sort')))) {
      return undefined
    }
    // With --list, the other words of `git branch`/`git tag` are patterns to match, not names to create.
    if ((sub === 'branch' || sub === 'tag') && after.some((a) => a === '--list' || a === '-l') && !after.some((a) => /^-[dDmMcCf]$|^--(delete|move|copy|force)$/.test(a))) return undefined
    if (sub === 'clean' && after.some((a) => a === '--dry-run' || /^-[a-zA-Z]*n/.test(a))) return undefined
    return `\`git ${sub}\` changes the repository`
  }
  if (cmd === 'docker' || cmd === 'podman') {
    const [a, b] = positionals(args)
    if (!a) return undefined
    if (DOCKER_READ.has(a) || (b && DOCKER_READ.has(`${a} ${b}`))) return undefined
    return `\`${cmd} ${a}${b && !DOCKER_READ.has(a) && ['system', 'volume', 'network', 'image', 'container', 'compose', 'context', 'buildx', 'builder'].includes(a) ? ` ${b}` : ''}\` changes containers, images or volumes`
  }
  if (['npm', 'pnpm', 'yarn', 'bun'].includes(cmd)) {
    const sub = positionals(args)[0]
    if (sub && PACKAGE_MANAGER_WRITE.has(sub)) return `\`${cmd} ${sub}\` changes installed packages`
    if (sub === 'cache' && args.includes('clean')) return `\`${cmd} cache clean\` deletes the cache`
    return undefined
  }
  if (['psql', 'mysql', 'sqlite3', 'mongosh', 'redis-cli'].includes(cmd) && SQL_WRITE.test(args.join(' '))) return `\`${cmd}\` runs a statement that changes data`
  if (cmd === 'redis-cli' && args.some((a) => /^(flushall|flushdb|del|set)$/i.test(a))) return '`redis-cli` changes data'
  return undefined
}

/** Why a simple command deletes or overwrites (the Specification's "destructive"), if it does. */
function destructiveReason(words: string[]): string | undefined {
  const inner = viaNested(words, destructiveReason, (c) => destroys(c))
  if (inner) return inner
  const cmd = base(words[0] ?? '')
  const args = words.slice(1)
  // Deleting only empty directories (`-empty -delete`) loses no data; any other `find -delete` does.
  if (cmd === 'find' && args.includes('-delete') && !args.includes('-empty')) return '`find -delete` deletes the files it matches'
  if ((cmd === 'find' || cmd === 'xargs') && nested(words).argv.some((a) => ['rm', 'shred', 'unlink'].includes(base(stripPrefixes(a)[0] ?? '')))) return `\`${cmd} ... rm\` deletes every file ${cmd} passes it`
  const joined = args.join(' ')
  // Deleting one named file is a write; deleting a tree (`rm -r`, `Remove-Item -Recurse`) is destructive.
  if (cmd === 'rm' && args.some((a) => /^-[a-zA-Z]*[rR]/.test(a) || a === '--recursive')) return '`rm -r` deletes a directory tree'
  if (cmd === 'remove-item' && args.some((a) => /^-r(ecurse)?$/i.test(a))) return '`Remove-Item -Recurse` deletes a directory tree'
  if (['shred', 'dropdb'].includes(cmd) || cmd.startsWith('mkfs')) return `\`${cmd}\` destroys data`
  if (cmd === 'rd' && /\/s\b/i.test(joined)) return '`rd /s` deletes a directory tree'
  if (cmd === 'dd' && args.some((a) => a.startsWith('of='))) return '`dd of=` overwrites its target'
  if (cmd === 'truncate') return '`truncate` overwrites a file'
  if (cmd === 'git') {
    const sub = positionals(args)[0]
    if (sub === 'reset' && args.includes('--hard')) return '`git reset --hard` discards uncommitted changes'
    if (sub === 'clean' && args.some((a) => /^-[a-zA-Z]*f/.test(a) || a === '--force') && !args.some((a) => a === '--dry-run' || /^-[a-zA-Z]*n/.test(a))) {
      return '`git clean -f` deletes untracked files'
    }
    if (sub === 'push' && args.some((a) => a === '-f' || a.startsWith('--force') || /^\+/.test(a))) return '`git push --force` overwrites remote history'
    if (sub === 'branch' && args.some((a) => a === '-D' || (a === '--delete' && args.includes('--force')))) return '`git branch -D` deletes an unmerged branch'
    if (sub === 'stash' && args.some((a) => a === 'drop' || a === 'clear')) return '`git stash drop/clear` deletes stashed changes'
  }
  if (cmd === 'docker' || cmd === 'podman') {
    const [a, b] = positionals(args)
    if (a === 'system' && b === 'prune') return '`docker system prune` deletes containers, networks and images'
    if (a === 'volume' && (b === 'rm' || b === 'prune')) return `\`docker volume ${b}\` deletes volumes and their data`
    if (args.includes('--volumes') && (b === 'prune' || a === 'prune')) return '`--volumes` deletes volume data'
  }
  if (['psql', 'mysql', 'sqlite3', 'mongosh'].includes(cmd) && SQL_DESTRUCTIVE.test(joined)) return `\`${cmd}\` runs a statement that deletes data`
  if (cmd === 'redis-cli' && args.some((a) => /^(flushall|flushdb)$/i.test(a))) return '`redis-cli flushall` deletes every key'
  return undefined
}

/** Why the command line writes (its first writing part), or undefined when it only reads. */
export function writes(command: string): string | undefined {
  const parsed = tokenize(command)
  if (parsed.writesFiles.length) return `\`> ${parsed.writesFiles[0]}\` writes a file`
  for (const words of parsed.commands) {
    const reason = writeReason(words) ?? destructiveReason(words)
    if (reason) return reason
  }
  return undefined
}

export function destroys(command: string): string | undefined {
  for (const words of tokenize(command).commands) {
    const reason = destructiveReason(words)
    if (reason) return reason
  }
  return undefined
}

export interface SafetyFinding {
  code: 'E_REMOTE_SCRIPT' | 'E_INLINE_CREDENTIAL' | 'E_DISABLES_SECURITY' | 'E_EXFILTRATION'
  reason: string
  fix: string
}

const FETCH = String.raw`(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod|fetch)\b`
const SHELLS = String.raw`(?:sudo\s+)?(?:(?:ba|z|da|k|fi|c|tc)?sh|python3?|perl|ruby|node|iex|invoke-expression|pwsh|powershell)\b`
/** The safety policy, as (code, pattern, reason, fix) rows; matched against the raw command, case-insensitively. */
const SAFETY: ReadonlyArray<readonly [SafetyFinding['code'], RegExp, string, string]> = [
  ['E_REMOTE_SCRIPT', new RegExp(`${FETCH}[^;&]*\\|\\s*${SHELLS}`, 'i'), 'pipes a download into a shell', 'download the script to a file, show how to inspect it, then run it as a separate step'],
  ['E_REMOTE_SCRIPT', new RegExp(`${SHELLS}[^;&|]*(?:<\\(|\\$\\(|\`)\\s*${FETCH}`, 'i'), 'runs a downloaded script without saving it', 'download the script to a file, show how to inspect it, then run it as a separate step'],
  ['E_INLINE_CREDENTIAL', /--(?:password|passwd|pass|token|api-?key|secret|access-key|secret-key|auth-token)(?:=|\s+)(?!-)\S/i, 'passes a credential on the command line', 'read it from a prompt, a file or stdin (e.g. `--password-stdin`)'],
  ['E_INLINE_CREDENTIAL', /\b(?:mysql|mysqldump|mysqladmin)\b.*\s-p[^\s-]/i, 'passes a MySQL password inline (`-p<password>`)', 'use `-p` alone to be prompted, or an option file'],
  ['E_INLINE_CREDENTIAL', /\b(?:[A-Z_]*(?:PASSWORD|PASSWD|TOKEN|SECRET|API_KEY|ACCESS_KEY)|MYSQL_PWD)=(?!\$)\S/, 'sets a credential variable inline', 'let the user export it beforehand or read it from a file'],
  ['E_INLINE_CREDENTIAL', /\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@{}]+:[^/\s@{}]+@/i, 'embeds a user:password in a URL', 'use a credential helper or prompt instead'],
  ['E_INLINE_CREDENTIAL', /\bcurl\b[^;&|]*\s(?:-u|--user)\s*[^\s:-][^\s:]*:\S+/i, 'passes user:password inline', 'pass only the user name and let curl prompt, or use a .netrc file'],
  ['E_INLINE_CREDENTIAL', /authorization:\s*(?:bearer|basic|token)\s+(?!\$)[A-Za-z0-9._~+/=-]{6,}/i, 'embeds an authorization token', 'read the token from an environment variable the user sets'],
  ['E_DISABLES_SECURITY', /\bsetenforce\s+(?:0|permissive)\b/i, 'turns SELinux enforcement off', 'fix the file contexts or policy instead'],
  ['E_DISABLES_SECURITY', /\bchmod\b[^;&|]*\s(?:0?777|a\+rwx|ugo\+rwx|o\+w|a\+w)\b/i, 'makes files writable by everyone', 'grant the narrowest permission the task needs (e.g. 755, u+w)'],
  ['E_DISABLES_SECURITY', /\b(?:ufw\s+disable|systemctl\s+(?:stop|disable|mask)\s+(?:firewalld|ufw|apparmor|auditd|iptables|nftables)|iptables\s+-F|spctl\s+--master-disable|csrutil\s+disable|set-mppreference\s+-disable\w*|set-executionpolicy\s+(?:unrestricted|bypass)|netsh\s+advfirewall\s+set\s+\w+\s+state\s+off)\b/i, 'disables a firewall, sandbox or malware protection', 'open only what the task needs (one port, one exception)'],
  ['E_DISABLES_SECURITY', /(?:\bcurl\b[^;&|]*\s(?:-k|--insecure)\b|\bwget\b[^;&|]*--no-check-certificate|http\.sslverify\s+false|strict-ssl\s+false|NODE_TLS_REJECT_UNAUTHORIZED=0|GIT_SSL_NO_VERIFY=(?:1|true))/i, 'turns TLS certificate checks off', 'install the right CA certificate instead'],
  ['E_EXFILTRATION', /\b(?:curl|wget|scp|sftp|rsync|nc|ncat|netcat|socat|ftp|invoke-webrequest|invoke-restmethod|mail|sendmail)\b[^;&]*(?:\.ssh\/(?!\S*\.pub\b)|\.aws\/|\.gnupg|\.netrc|\.docker\/config\.json|\.kube\/config|\.npmrc|\/etc\/(?:shadow|passwd|sudoers)|\bid_(?:rsa|ecdsa|ed25519|dsa)\b(?!\.pub))/i, 'sends credentials or system files over the network', 'never upload secrets; share only what the task needs, e.g. a public key (.pub)'],
]

export function safetyFindings(command: string): SafetyFinding[] {
  return SAFETY.filter(([, re]) => re.test(command)).map(([code, , reason, fix]) => ({ code, reason, fix }))
}
