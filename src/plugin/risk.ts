/**
 * Which command lines ask for approval before they run. Pure: reads the command text only.
 *
 * Destructive means the harm outlives the workspace or can't be rebuilt from it:
 * - deleting files other than build output (`rm -rf src`, `rimraf ~/x`, `find . -delete`,
 *   `git clean -fdx`, `git reset --hard`, `git checkout -- .`);
 * - rewriting or deleting shared history (`git push --force`, `git push origin :branch`,
 *   `git branch -D`, `git stash clear`, `git prune`, `git reflog expire`);
 * - pruning or removing containers, images, volumes (`docker system prune`, `docker volume rm`);
 * - dropping data (`DROP TABLE`, `dropdb`, `prisma migrate reset`, `rails db:drop`, `redis-cli flushall`);
 * - publishing (`npm publish`, `cargo publish`, `twine upload`, `docker push`, `gh release create`,
 *   `semantic-release`, `changeset publish`);
 * - deploying (`firebase deploy`, `vercel --prod`, `kubectl apply`, `terraform apply|destroy`,
 *   `helm upgrade`, `aws s3 rm|sync --delete`);
 * - running a task whose name says one of those (`make deploy`, `npm run publish`, `just release`),
 *   since a task's body is not part of its command line.
 *
 * Cleaning build output does NOT count: `rm -rf dist build coverage target node_modules *.o`
 * removes only what a build or an install recreates, inside the workspace the sandbox confines
 * writes to, and asking before every `make clean` would train people to approve blindly. A target
 * outside that list, an absolute or home path, `..`, or a bare `*`/`.` makes an `rm` destructive.
 * Read-only, build and test commands never ask.
 *
 * The recipe rules (curated/commands.ts `destroys`) read the same words (shell-words.ts) and disagree
 * on purpose where the two judge different things: `rm -rf dist` is fine here (a project's own task,
 * run in its workspace, removing what a build recreates) but destructive in a curated recipe, whose
 * target is a parameter the reader fills in on their own machine, so any `rm -r` there can lose data.
 * Conversely a recipe's `npm publish` only "writes": recipes are how-tos a person picked on purpose.
 */
import { readShellLine, shellScript } from '../shell-words.js'

export interface CommandRisk {
  destructive: boolean
  /** What makes it destructive, for the approval prompt. */
  reason?: string
}

/** Top-level path segments a build or an install recreates. */
const BUILD_OUTPUT = new Set([
  'dist', 'build', 'out', 'coverage', '.nyc_output', 'target', 'node_modules', '.cache', '.parcel-cache',
  '.next', '.nuxt', '.svelte-kit', '.turbo', '.vite', '.angular', 'storybook-static', '__pycache__',
  '.pytest_cache', '.mypy_cache', '.ruff_cache', '.tox', 'htmlcov', '.gradle', 'obj', 'bin', 'tmp', '.tmp',
  '_build', 'public/build', 'lib-cov', '.eslintcache', '.tsbuildinfo', 'tsconfig.tsbuildinfo',
])
/** File patterns that are build output wherever they are. */
const BUILD_OUTPUT_FILES = /(\.(o|a|so|obj|pyc|pyo|class|tsbuildinfo|log)|\.egg-info)$/

/** Words in a task name that say what it does. */
const TASK_WORDS: Record<string, string> = {
  deploy: 'deploys', undeploy: 'removes a deployment', publish: 'publishes', unpublish: 'unpublishes',
  release: 'publishes a release', destroy: 'destroys resources', teardown: 'tears down resources',
  drop: 'drops data', prune: 'prunes data', purge: 'purges data', nuke: 'deletes everything it targets',
  wipe: 'wipes data',
}
/** Words next to `release` that make it a build step, not a publication (`build:release`). */
const BUILD_WORDS = new Set(['build', 'compile', 'bundle', 'dist', 'pack', 'package', 'notes', 'changelog', 'check', 'test', 'dry', 'dryrun', 'preview'])

/** Runners whose next word (after `run`/`task` where they take one) is a task name. */
const TASK_RUNNERS: Record<string, readonly string[]> = {
  make: [], just: [], task: [], mise: ['run'], rake: [], invoke: [], nox: ['-s'],
  npm: ['run', 'run-script'], pnpm: ['run'], yarn: ['run'], bun: ['run'], deno: ['task'], cargo: ['make', 'xtask'],
}
/** Package-manager subcommands that are not tasks (so `yarn install` is not read as a task). */
const PM_BUILTINS = new Set([
  'install', 'i', 'ci', 'add', 'remove', 'rm', 'uninstall', 'update', 'up', 'upgrade', 'test', 't', 'start', 'stop',
  'restart', 'exec', 'x', 'dlx', 'create', 'init', 'audit', 'outdated', 'ls', 'list', 'why', 'info', 'view',
  'pack', 'link', 'unlink', 'config', 'cache', 'store', 'version', 'help', 'run', 'run-script', 'workspace', 'workspaces',
])

const PUBLISHERS: Array<[RegExp, string]> = [
  [/^(npm|pnpm|yarn|bun)( -\S+)* (publish|unpublish|deprecate)\b/, 'publishes a package'],
  [/^(lerna|changeset|changesets) publish\b/, 'publishes packages'],
  [/^(semantic-release|np|release-it|goreleaser)\b/, 'publishes a release'],
  [/^cargo (publish|yank)\b/, 'publishes a crate'],
  [/^(python3?|py) (-m twine upload|setup\.py .*\b(upload|register)\b)/, 'publishes a package'],
  [/^(gh-pages|surge|netlify-cli deploy)\b/, 'publishes a site'],
  [/^(twine upload|poetry publish|flit publish|hatch publish|uv publish|gem push|vsce publish|ovsx publish)\b/, 'publishes a package'],
  [/^(docker|podman) (push|image push)\b/, 'pushes an image'],
  [/^gh release (create|upload|delete)\b/, 'publishes a release'],
  [/^(mvn|mvnw|\.\/mvnw)( .*)? deploy\b/, 'deploys artifacts'],
  [/^(gradle|gradlew|\.\/gradlew)( .*)? publish/, 'publishes artifacts'],
]
const DEPLOYERS: Array<[RegExp, string]> = [
  [/^(firebase|fly|flyctl|netlify|serverless|sls|wrangler|railway|amplify|eb|cap|heroku|surge|now)( .*)? (deploy|publish|remove|destroy|up)\b/, 'deploys'],
  [/^vercel( .*)? (--prod|deploy|remove|rm)\b/, 'deploys'],
  [/^vercel$/, 'deploys'],
  [/^(terraform|tofu)( .*)? (apply|destroy|import|taint)\b/, 'changes infrastructure'],
  [/^(pulumi)( .*)? (up|destroy|update)\b/, 'changes infrastructure'],
  [/^(cdk|cdktf)( .*)? (deploy|destroy)\b/, 'changes infrastructure'],
  [/^kubectl( .*)? (apply|delete|create|replace|patch|scale|drain|rollout)\b/, 'changes a cluster'],
  [/^helm( .*)? (install|upgrade|uninstall|delete|rollback)\b/, 'changes a cluster'],
  [/^gcloud( .*)? (deploy|delete)\b/, 'deploys'],
  [/^aws( .*)? s3 (rm|rb|mv)\b/, 'deletes cloud storage'],
  [/^aws( .*)? s3 sync( .*)? --delete\b/, 'deletes cloud storage'],
  [/^aws( .*)? s3 (sync|cp) .*s3:\/\//, 'uploads to cloud storage'],
  [/^aws( .*)? (deploy|cloudformation (deploy|delete-stack)|lambda update-function-code)\b/, 'deploys'],
  [/^az( .*)? (deploy|delete)\b/, 'deploys'],
  [/^ansible-playbook\b/, 'changes remote hosts'],
  [/^rsync( .*)? --delete/, 'deletes files at the destination'],
]
const DATA_DROPPERS: Array<[RegExp, string]> = [
  [/^(dropdb|dropuser)\b/, 'drops a database'],
  [/^(npx |pnpm |yarn |bunx )?prisma (migrate reset|db push( .*)? (--force-reset|--accept-data-loss))/, 'resets a database'],
  [/^(bin\/)?(rails|rake)( .*)? db:(drop|reset|purge|schema:load|truncate_all)\b/, 'drops a database'],
  [/^(python3? )?(\.\/)?manage\.py (flush|reset_db|sqlflush)\b/, 'flushes a database'],
  [/^redis-cli( .*)? (flushall|flushdb)\b/i, 'flushes a database'],
  [/^(docker|podman)( compose| container| image| volume| network| system| builder)? (prune|rm|rmi)\b/, 'removes containers, images or volumes'],
  [/^(docker|podman) compose( .*)? down( .*)? (-v|--volumes)\b/, 'removes volumes'],
  [/^docker-compose( .*)? down( .*)? (-v|--volumes)\b/, 'removes volumes'],
  [/^(mkfs(\.\w+)?|shred|wipefs)\b/, 'destroys data on disk'],
  [/^dd( .*)? of=/, 'overwrites a file or device'],
]
const SQL_DROP = /\b(drop\s+(table|database|schema|index|view|user|role)|truncate\s+table|delete\s+from\s+\w+\s*(;|$))/i

export function classifyCommandRisk(command: string): CommandRisk {
  if (SQL_DROP.test(command)) return { destructive: true, reason: `runs SQL that drops or deletes data (${command.match(SQL_DROP)![0].trim()})` }
  for (const argv of simpleCommands(command)) {
    const reason = argvRisk(argv)
    if (reason) return { destructive: true, reason }
  }
  return { destructive: false }
}

/** The simple commands (argv lists) of a command line, `sh -c '...'` followed: what a shell would run. */
export function simpleCommandArgv(command: string): string[][] {
  return simpleCommands(command)
}

/** Splits a command line into simple commands (argv lists), following `sh -c '...'`. */
function simpleCommands(command: string, depth = 0): string[][] {
  const expanded: string[][] = []
  for (const argv of readShellLine(command).commands) {
    const stripped = stripWrappers(argv)
    if (stripped.length === 0) continue
    const script = depth < 3 ? shellScript(stripped) : undefined
    if (script) expanded.push(...simpleCommands(script, depth + 1))
    else expanded.push(stripped)
  }
  return expanded
}

/** Drops leading `VAR=value`, `sudo`, `env`, `time`, `exec`, `nice`, `npx`, `pnpm exec`, ... */
function stripWrappers(argv: string[]): string[] {
  let i = 0
  for (;;) {
    const word = argv[i]
    if (word === undefined) return []
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) i++
    else if (['sudo', 'env', 'time', 'exec', 'nice', 'nohup', 'command', 'npx', 'bunx', 'pnpx', 'cross-env', 'dotenv'].includes(word)) {
      i++
      while (argv[i]?.startsWith('-')) i++
    } else if (['pnpm', 'yarn', 'npm', 'bun'].includes(word) && ['exec', 'dlx', 'x'].includes(argv[i + 1] ?? '')) i += 2
    else if (word === '--') i++
    else break
  }
  return argv.slice(i)
}

function base(word: string): string {
  return word.replace(/^.*\//, '')
}

function argvRisk(argv: string[]): string | undefined {
  const cmd = base(argv[0]!)
  const line = [cmd, ...argv.slice(1)].join(' ')
  if (['rm', 'rimraf', 'del', 'del-cli', 'trash', 'shx', 'unlink', 'rmdir'].includes(cmd)) {
    const args = cmd === 'shx' ? (argv[1] === 'rm' ? argv.slice(2) : []) : argv.slice(1)
    if (cmd === 'shx' && argv[1] !== 'rm') return undefined
    const targets = args.filter((a) => !a.startsWith('-'))
    const unsafe = targets.filter((t) => !isBuildOutput(t))
    if (unsafe.length > 0) return `deletes ${unsafe.slice(0, 3).join(' ')}${unsafe.length > 3 ? ' ...' : ''} (not build output)`
    return undefined
  }
  if (cmd === 'find' && argv.some((a) => a === '-delete' || a === '-exec' && ['rm', 'shred'].includes(base(argv[argv.indexOf(a) + 1] ?? '')))) {
    return 'deletes the files find matches'
  }
  if (cmd === 'git') return gitRisk(argv.slice(1))
  for (const [pattern, reason] of [...PUBLISHERS, ...DEPLOYERS, ...DATA_DROPPERS]) if (pattern.test(line)) return `${reason} (${truncate(line)})`
  return taskNameRisk(cmd, argv.slice(1)) ?? scriptNameRisk(cmd, argv)
}

/** A script whose file name says it deploys or publishes: `./deploy.sh`, `node scripts/publish.mjs`. */
function scriptNameRisk(cmd: string, argv: string[]): string | undefined {
  const interpreters = ['node', 'bash', 'sh', 'zsh', 'python', 'python3', 'ruby', 'perl', 'tsx', 'ts-node', 'bun', 'deno']
  const script = interpreters.includes(cmd) ? argv.slice(1).find((a) => !a.startsWith('-') && a !== 'run') : argv[0]
  if (!script || !/[./]/.test(script)) return undefined
  const parts = base(script).toLowerCase().replace(/\.[a-z0-9]+$/, '').split(/[^a-z0-9]+/).filter(Boolean)
  const word = parts.find((p) => TASK_WORDS[p] && !(p === 'release' && parts.some((q) => BUILD_WORDS.has(q))))
  return word ? `the script ${script} ${TASK_WORDS[word]} (by its name)` : undefined
}

function gitRisk(args: string[]): string | undefined {
  // skip global options such as -C dir, -c key=value
  let i = 0
  while (args[i]?.startsWith('-')) i += ['-C', '-c', '--git-dir', '--work-tree'].includes(args[i]!) ? 2 : 1
  const sub = args[i]
  const rest = args.slice(i + 1)
  const has = (...flags: string[]) => rest.some((a) => flags.includes(a) || flags.some((f) => f.startsWith('--') && a.startsWith(`${f}=`)))
  switch (sub) {
    case 'push':
      if (has('-f', '--force', '--force-with-lease', '--force-if-includes', '--mirror', '--prune')) return 'force-pushes or prunes remote branches (git push)'
      if (has('-d', '--delete') || rest.some((a) => /^\+|^:/.test(a))) return 'deletes or overwrites a remote branch (git push)'
      return undefined
    case 'reset':
      return has('--hard', '--merge', '--keep') ? 'discards uncommitted changes (git reset --hard)' : undefined
    case 'clean':
      return rest.some((a) => /^-[a-zA-Z]*f/.test(a) || a === '--force') ? 'deletes untracked files (git clean -f)' : undefined
    case 'checkout':
    case 'restore':
      return rest.includes('--') || rest.includes('.') || has('--worktree', '-f', '--force') ? `discards uncommitted changes (git ${sub})` : undefined
    case 'branch':
      return has('-D') || (has('-d', '--delete') && has('-f', '--force')) ? 'deletes a branch with unmerged work (git branch -D)' : undefined
    case 'stash':
      return rest[0] === 'drop' || rest[0] === 'clear' ? `deletes stashed work (git stash ${rest[0]})` : undefined
    case 'tag':
      return has('-d', '--delete') ? 'deletes a tag (git tag -d)' : undefined
    case 'prune':
    case 'filter-branch':
    case 'filter-repo':
      return `rewrites or prunes history (git ${sub})`
    case 'gc':
      return rest.some((a) => a.startsWith('--prune')) ? 'prunes unreachable objects (git gc --prune)' : undefined
    case 'reflog':
      return rest[0] === 'expire' || rest[0] === 'delete' ? 'expires reflog entries (git reflog expire)' : undefined
    case 'remote':
      return rest[0] === 'prune' || rest[0] === 'remove' || rest[0] === 'rm' ? `prunes remote-tracking refs (git remote ${rest[0]})` : undefined
    case 'worktree':
      return rest[0] === 'remove' && has('-f', '--force') ? 'deletes a worktree with its changes (git worktree remove --force)' : undefined
    default:
      return undefined
  }
}

/** A runner invocation whose task name says it deploys, publishes, drops, ... */
function taskNameRisk(cmd: string, args: string[]): string | undefined {
  const lead = TASK_RUNNERS[cmd]
  if (!lead) return undefined
  const words = args.filter((a) => !a.startsWith('-') && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(a))
  let task: string | undefined
  if (lead.length === 0) task = words[0]
  else if (lead.includes(words[0] ?? '')) task = words[1]
  else if (['yarn', 'pnpm', 'bun'].includes(cmd) && words[0] && !PM_BUILTINS.has(words[0])) task = words[0]
  if (!task) return undefined
  if (['npm', 'pnpm', 'yarn', 'bun'].includes(cmd) && (task === 'publish' || task === 'unpublish') && words[0] === task) return undefined
  const parts = task.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean)
  for (const part of parts) {
    const says = TASK_WORDS[part]
    if (!says) continue
    if (part === 'release' && parts.some((p) => BUILD_WORDS.has(p))) continue
    return `the task "${task}" ${says} (${truncate([cmd, ...args].join(' '))})`
  }
  return undefined
}

function isBuildOutput(target: string): boolean {
  if (target === '' || target.startsWith('/') || target.startsWith('~') || target.startsWith('$')) return false
  const path = target.replace(/^(\.\/)+/, '').replace(/\/+$/, '')
  if (path === '' || path === '.' || path === '*' || path === '..' || path.split('/').includes('..')) return false
  const first = path.split('/')[0]!
  if (BUILD_OUTPUT.has(first) || BUILD_OUTPUT.has(path)) return true
  // a file pattern such as *.o or build-*.log anywhere in the tree
  return BUILD_OUTPUT_FILES.test(path) && !path.includes('*/') && path !== '*'
}

function truncate(text: string, max = 80): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}

/** Sources whose recipe description is the command body itself (a package script's line, a deno task's). */
const BODY_SOURCES = new Set(['scripts', 'deno'])

/**
 * A recipe call's risk: its command line (with the call's arguments), and, where the collector
 * records it, the body the runner will execute (`"ship": "npm publish"` runs as `npm run ship`).
 */
export function classifyRecipeRisk(recipe: { source: string; description: string }, command: string): CommandRisk {
  const risk = classifyCommandRisk(command)
  if (risk.destructive || !BODY_SOURCES.has(recipe.source) || !recipe.description) return risk
  const body = classifyCommandRisk(recipe.description)
  return body.destructive ? { destructive: true, reason: `runs \`${truncate(recipe.description, 60)}\`, which ${body.reason}` } : risk
}
