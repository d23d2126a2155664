/**
 * The rule table: which simple commands delete, overwrite, discard work, rewrite history, publish,
 * deploy or drop data. Kept as data (WRAPPERS, DELETERS, SUBCOMMAND_RULES, ...); the functions
 * below only apply it. A command is first seen through its wrappers (`sudo -u root`, `timeout 5`,
 * `env X=1`, `xargs`, `find -exec`, `busybox`, ...); `sh -c`, `eval` and inline interpreter code
 * (`python -c`, `node -e`, ...) are handed back to the judge to read again.
 *
 * Build output stays free (paths.ts decides what that is): `rm -rf dist` never asks, `rm -rf src`
 * always does, and so does a path only known at run time.
 */
import { literalWord, type ShellWord, type SimpleCommand } from './shell.js'
import type { PathJudge } from './paths.js'
import type { Finding } from './types.js'

/** What a rule needs from the judge: paths, where the command runs, and a way to read nested shell text. */
export interface RuleContext {
  readonly paths: PathJudge
  /** Relative to the root: where the command runs. */
  readonly cwd: string
  /** Judge shell text a command runs (`sh -c '...'`, `eval`, a `su -c` string). */
  nested(text: string, how: string): void
}

type Kind = Finding['kind']
export interface RuleHit {
  readonly kind: Kind
  readonly reason: string
}

// ---------------------------------------------------------------------------------------------
// Wrappers: commands that run the command after them. `options` take a value; `stop` ends options.

interface Wrapper {
  /** Options that take the next word as their value (or `-oVALUE` joined). */
  readonly valued?: readonly string[]
  /** Positional words before the wrapped command (`timeout DURATION`, `flock FILE`). */
  readonly positionals?: number
  /** `VAR=value` words before the command are skipped (env, cross-env). */
  readonly assignments?: boolean
  /** The wrapped command gets operands the gate can't see (xargs: from standard input). */
  readonly hiddenOperands?: boolean
}

const WRAPPERS: Readonly<Record<string, Wrapper>> = {
  sudo: {
    valued: ['-u', '--user', '-g', '--group', '-C', '--close-from', '-D', '--chdir', '-h', '--host', '-p', '--prompt', '-r', '--role', '-t', '--type',
      '-U', '--other-user', '-T', '--command-timeout'],
    assignments: true,
  },
  doas: { valued: ['-u', '-C'] },
  run0: { valued: ['-u', '--user', '-g', '--group', '-D', '--chdir'] },
  env: { valued: ['-u', '--unset', '-C', '--chdir', '-S', '--split-string'], assignments: true },
  'cross-env': { assignments: true },
  'cross-env-shell': { assignments: true },
  dotenv: { valued: ['-e', '-c', '-v', '-p'] },
  'dotenv-cli': { valued: ['-e', '-c', '-v', '-p'] },
  timeout: { valued: ['-s', '--signal', '-k', '--kill-after'], positionals: 1 },
  gtimeout: { valued: ['-s', '--signal', '-k', '--kill-after'], positionals: 1 },
  nice: { valued: ['-n', '--adjustment'] },
  renice: { valued: ['-n'] },
  ionice: { valued: ['-c', '--class', '-n', '--classdata', '-p', '--pid'] },
  chrt: { positionals: 1 },
  taskset: { positionals: 1 },
  stdbuf: { valued: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  unbuffer: {},
  nohup: {},
  setsid: {},
  command: {},
  builtin: {},
  exec: { valued: ['-a'] },
  time: { valued: ['-f', '--format', '-o', '--output'] },
  chronic: {},
  caffeinate: {},
  flock: { valued: ['-w', '--timeout', '-E', '--conflict-exit-code'], positionals: 1 },
  watch: { valued: ['-n', '--interval'] },
  strace: { valued: ['-o', '-e', '-p', '-s'] },
  ltrace: { valued: ['-o', '-e', '-p'] },
  valgrind: {},
  xargs: {
    valued: ['-I', '-i', '-n', '--max-args', '-P', '--max-procs', '-d', '--delimiter', '-L', '-l', '--max-lines', '-s', '--max-chars', '-E', '-e', '-a', '--arg-file'],
    hiddenOperands: true,
  },
  npx: { valued: ['-p', '--package', '-c', '--call'] },
  bunx: { valued: ['-p', '--package'] },
  pnpx: { valued: ['-p', '--package'] },
  'pnpm exec': {},
  'pnpm dlx': {},
  'yarn exec': {},
  'yarn dlx': {},
  'npm exec': { valued: ['-p', '--package', '-c', '--call'] },
  'bun x': {},
  'uv run': { valued: ['--with', '--python', '-p', '--project', '--directory', '--package', '--group', '--extra'] },
  'poetry run': {},
  'pipenv run': {},
  'pdm run': {},
  'hatch run': {},
  'bundle exec': {},
  'go run': {},
  'docker compose exec': {},
  nsenter: { valued: ['-t', '--target'] },
  chroot: { positionals: 1 },
  'su -c': {},
  runuser: { valued: ['-u', '--user', '-g', '--group'] },
  sg: { positionals: 1 },
  firejail: {},
  'systemd-run': { valued: ['-u', '--unit', '-p', '--property'] },
}

/** Shells whose `-c` string is read again. */
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'busybox sh', 'fish'])

// ---------------------------------------------------------------------------------------------
// Commands whose operands are paths they delete, with the options that take a value.

const DELETERS: Readonly<Record<string, { verb: string; valued?: readonly string[] }>> = {
  rm: { verb: 'deletes' },
  rmdir: { verb: 'deletes' },
  unlink: { verb: 'deletes' },
  shred: { verb: 'shreds', valued: ['-n', '--iterations', '-s', '--size', '--random-source'] },
  srm: { verb: 'deletes' },
  wipe: { verb: 'wipes' },
  rimraf: { verb: 'deletes' },
  del: { verb: 'deletes' },
  'del-cli': { verb: 'deletes' },
  trash: { verb: 'moves to the trash' },
  'trash-put': { verb: 'moves to the trash' },
  'shx rm': { verb: 'deletes' },
  'git rm': { verb: 'deletes' },
}

// ---------------------------------------------------------------------------------------------
// Subcommand rules: `<command> <subcommand...>` (global options skipped), with an optional test
// on the rest of the words. Matched by the longest command path first.

interface SubRule {
  /** Words after the command, as a path (`['release', 'create']`); '*' matches any one word. */
  readonly sub: readonly string[]
  /** Extra words one of which must appear in the rest (flags may be joined: `-fdx` has `f`). */
  readonly with?: readonly string[]
  /** Short flag letters one of which must appear in a `-abc` group. */
  readonly flag?: string
  /** Words whose presence makes it safe (`--dry-run`, `--staged`). */
  readonly unless?: readonly string[]
  readonly kind: Kind
  readonly says: string
}

const R = (sub: string, kind: Kind, says: string, extra: Partial<SubRule> = {}): SubRule => ({ sub: sub ? sub.split(' ') : [], kind, says, ...extra })

const PUBLISH_PM = [R('publish', 'publishes', 'publishes a package', { unless: ['--dry-run'] }),
  R('install', 'overwrites', 'installs packages globally, outside the repository', { with: ['-g', '--global', '--location=global'] }),
  R('i', 'overwrites', 'installs packages globally, outside the repository', { with: ['-g', '--global', '--location=global'] }),
  R('add', 'overwrites', 'installs packages globally, outside the repository', { with: ['-g', '--global'] }),
  R('uninstall', 'overwrites', 'removes globally installed packages', { with: ['-g', '--global'] }),
  R('remove', 'overwrites', 'removes globally installed packages', { with: ['-g', '--global'] }),
  R('link', 'overwrites', 'links the package into the global install, outside the repository'), R('unpublish', 'publishes', 'unpublishes a package'),
  R('deprecate', 'publishes', 'deprecates a published package'), R('dist-tag add', 'publishes', 'moves a published tag'), R('dist-tag rm', 'publishes', 'removes a published tag'),
  R('owner rm', 'publishes', 'removes a package owner'), R('npm publish', 'publishes', 'publishes a package'),
  R('stage publish', 'publishes', 'publishes a package')]

/** Global options that take a value, per command, skipped before the subcommand. */
const GLOBAL_VALUED: Readonly<Record<string, readonly string[]>> = {
  git: ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env'],
  docker: ['-H', '--host', '-c', '--context', '--config', '-l', '--log-level'],
  podman: ['--connection', '-c', '--url', '--root', '--runroot'],
  kubectl: ['-n', '--namespace', '--context', '--cluster', '--kubeconfig', '-s', '--server', '--user', '--as'],
  helm: ['-n', '--namespace', '--kube-context', '--kubeconfig'],
  terraform: ['-chdir'],
  aws: ['--profile', '--region', '--endpoint-url', '--output'],
  gcloud: ['--project', '--account', '--configuration'],
  npm: ['--prefix', '-C', '-w', '--workspace', '--registry', '--userconfig', '--otp', '--tag', '--access'],
  pnpm: ['--prefix', '-C', '--dir', '-w', '--filter', '-F', '--registry'],
  yarn: ['--cwd', '--registry'],
  cargo: ['--manifest-path', '-p', '--package', '--config', '-Z', '--registry', '--index', '--token'],
  gh: ['-R', '--repo', '--hostname'],
  psql: ['-d', '--dbname', '-h', '--host', '-p', '--port', '-U', '--username'],
}

const SUBCOMMAND_RULES: Readonly<Record<string, readonly SubRule[]>> = {
  git: [
    R('reset', 'discards', 'discards uncommitted changes', { with: ['--hard', '--merge', '--keep'] }),
    R('clean', 'deletes', 'deletes every untracked file it finds', { flag: 'f', with: ['--force'], unless: ['-n', '--dry-run'] }),
    R('checkout', 'discards', 'discards uncommitted changes', { with: ['--', '.', '-f', '--force', '-p', '--patch', '--ours', '--theirs'] }),
    R('restore', 'discards', 'discards uncommitted changes', { unless: ['--staged', '-S'] }),
    R('switch', 'discards', 'discards uncommitted changes', { with: ['-f', '--force', '--discard-changes'] }),
    R('stash drop', 'discards', 'deletes stashed work'),
    R('stash clear', 'discards', 'deletes all stashed work'),
    R('push', 'rewrites-history', 'force-pushes, overwriting the remote branch', { flag: 'f', with: ['--force', '--force-with-lease', '--force-if-includes', '--mirror'] }),
    R('push', 'rewrites-history', 'deletes remote branches', { flag: 'd', with: ['--delete', '--prune'] }),
    R('push', 'publishes', 'publishes commits or tags to a shared remote (git push)', { unless: ['--dry-run', '-n'] }),
    R('branch', 'discards', 'deletes a branch with unmerged work', { flag: 'D', with: ['--delete --force'] }),
    R('tag', 'discards', 'deletes a tag', { flag: 'd', with: ['--delete'] }),
    R('update-ref', 'discards', 'deletes or moves a ref, which can leave commits unreachable'),
    R('worktree remove', 'discards', 'deletes a worktree with its changes', { flag: 'f', with: ['--force'] }),
    R('worktree prune', 'discards', 'prunes worktree records'),
    R('filter-branch', 'rewrites-history', 'rewrites history'),
    R('filter-repo', 'rewrites-history', 'rewrites history'),
    R('replace', 'rewrites-history', 'replaces objects in history'),
    R('prune', 'discards', 'prunes unreachable objects'),
    R('gc', 'discards', 'prunes unreachable objects', { with: ['--prune', '--prune=now', '--aggressive'] }),
    R('reflog expire', 'discards', 'expires reflog entries'),
    R('reflog delete', 'discards', 'deletes reflog entries'),
    R('remote remove', 'discards', 'removes a remote'),
    R('remote rm', 'discards', 'removes a remote'),
    R('remote prune', 'discards', 'prunes remote-tracking branches'),
    R('rebase', 'rewrites-history', 'rewrites the history of a branch', { unless: ['--abort', '--continue', '--skip', '--quit', '--show-current-patch'] }),
    R('commit', 'rewrites-history', 'rewrites the last commit', { with: ['--amend'] }),
    R('symbolic-ref', 'discards', 'deletes a symbolic ref', { flag: 'd', with: ['--delete'] }),
    R('lfs prune', 'discards', 'prunes local LFS objects'),
  ],
  npm: PUBLISH_PM, pnpm: PUBLISH_PM, pn: PUBLISH_PM, yarn: PUBLISH_PM, bun: PUBLISH_PM,
  lerna: [R('publish', 'publishes', 'publishes packages')],
  'standard-version': [R('', 'publishes', 'bumps the version, commits and tags a release', { unless: ['--dry-run'] })],
  bumpp: [R('', 'publishes', 'bumps the version, commits, tags and pushes a release', { unless: ['--dry-run'] })],
  'shelljs-release': [R('', 'publishes', 'publishes a release')],
  npmpub: [R('', 'publishes', 'publishes a package')],
  releasearoni: [R('', 'publishes', 'publishes a release')],
  'gh-release': [R('', 'publishes', 'publishes a release')],
  changeset: [R('publish', 'publishes', 'publishes packages')],
  changesets: [R('publish', 'publishes', 'publishes packages')],
  'semantic-release': [R('', 'publishes', 'publishes a release', { unless: ['--dry-run', '-d'] })],
  'release-it': [R('', 'publishes', 'publishes a release', { unless: ['--dry-run', '-d'] })],
  np: [R('', 'publishes', 'publishes a package', { unless: ['--preview'] })],
  goreleaser: [R('release', 'publishes', 'publishes a release', { unless: ['--snapshot', '--skip=publish'] })],
  cargo: [R('release', 'publishes', 'publishes a release', { with: ['--execute', '-x'] }),
    R('publish', 'publishes', 'publishes a crate', { unless: ['--dry-run', '-n'] }), R('yank', 'publishes', 'yanks a published crate'),
    R('owner', 'publishes', 'changes a crate\'s owners', { with: ['--remove', '-r', '--add', '-a'] })],
  twine: [R('upload', 'publishes', 'uploads a package')],
  poetry: [R('publish', 'publishes', 'publishes a package', { unless: ['--dry-run'] })],
  flit: [R('publish', 'publishes', 'publishes a package')],
  hatch: [R('publish', 'publishes', 'publishes a package')],
  uv: [R('publish', 'publishes', 'publishes a package', { unless: ['--dry-run'] })],
  pdm: [R('publish', 'publishes', 'publishes a package', { unless: ['--dry-run'] })],
  gem: [R('push', 'publishes', 'publishes a gem'), R('yank', 'publishes', 'yanks a gem'), R('owner', 'publishes', 'changes a gem\'s owners', { with: ['--remove', '-r'] })],
  vsce: [R('publish', 'publishes', 'publishes an extension'), R('unpublish', 'publishes', 'unpublishes an extension')],
  ovsx: [R('publish', 'publishes', 'publishes an extension')],
  jsr: [R('publish', 'publishes', 'publishes a package', { unless: ['--dry-run'] })],
  deno: [R('publish', 'publishes', 'publishes a package', { unless: ['--dry-run'] })],
  dotnet: [R('nuget push', 'publishes', 'publishes a package'), R('nuget delete', 'publishes', 'deletes a published package')],
  nuget: [R('push', 'publishes', 'publishes a package'), R('delete', 'publishes', 'deletes a published package')],
  mvn: [R('*', 'publishes', 'deploys artifacts', { with: ['deploy', 'release:perform', 'deploy:deploy', 'site-deploy'] })],
  mvnw: [R('*', 'publishes', 'deploys artifacts', { with: ['deploy', 'release:perform', 'deploy:deploy', 'site-deploy'] })],
  gradle: [R('*', 'publishes', 'publishes artifacts', { with: ['publish', 'publishToMavenCentral', 'publishPlugins', 'uploadArchives'] })],
  gradlew: [R('*', 'publishes', 'publishes artifacts', { with: ['publish', 'publishToMavenCentral', 'publishPlugins', 'uploadArchives'] })],
  docker: [R('push', 'publishes', 'pushes an image'), R('image push', 'publishes', 'pushes an image'), R('manifest push', 'publishes', 'pushes an image manifest'),
    R('buildx build', 'publishes', 'pushes an image', { with: ['--push'] }), R('system prune', 'drops-data', 'deletes containers, images, networks and caches'),
    R('image prune', 'drops-data', 'deletes images'), R('container prune', 'drops-data', 'deletes containers'), R('volume prune', 'drops-data', 'deletes volumes'),
    R('volume rm', 'drops-data', 'deletes volumes'), R('network prune', 'drops-data', 'deletes networks'), R('network rm', 'drops-data', 'deletes networks'),
    R('builder prune', 'drops-data', 'deletes the build cache'), R('rm', 'drops-data', 'deletes containers'), R('container rm', 'drops-data', 'deletes containers'),
    R('rmi', 'drops-data', 'deletes images'), R('image rm', 'drops-data', 'deletes images'),
    R('compose down', 'drops-data', 'deletes the project\'s volumes', { flag: 'v', with: ['--volumes', '--rmi'] }),
    R('stack rm', 'deploys', 'removes a deployed stack'), R('service rm', 'deploys', 'removes a service')],
  'docker-compose': [R('down', 'drops-data', 'deletes the project\'s volumes', { flag: 'v', with: ['--volumes', '--rmi'] }), R('rm', 'drops-data', 'deletes containers')],
  gh: [R('repo delete', 'drops-data', 'deletes a repository'), R('repo archive', 'deploys', 'archives a repository'), R('release create', 'publishes', 'publishes a release'),
    R('release delete', 'publishes', 'deletes a release'), R('release upload', 'publishes', 'uploads release assets'), R('release edit', 'publishes', 'changes a published release'),
    R('release delete-asset', 'publishes', 'deletes a release asset'), R('secret delete', 'drops-data', 'deletes a secret'), R('variable delete', 'drops-data', 'deletes a variable'),
    R('api', 'drops-data', 'sends a DELETE request to GitHub', { with: ['-XDELETE', 'DELETE', '--method=DELETE'] }),
    R('pr merge', 'publishes', 'merges a pull request'), R('issue delete', 'drops-data', 'deletes an issue'), R('cache delete', 'drops-data', 'deletes caches')],
  kubectl: ['apply', 'delete', 'create', 'replace', 'patch', 'scale', 'drain', 'cordon', 'taint', 'edit', 'set', 'rollout', 'label', 'annotate', 'expose', 'autoscale']
    .map((s) => R(s, 'deploys', `changes a cluster (kubectl ${s})`, { unless: ['--dry-run', '--dry-run=client', '--dry-run=server'] })),
  helm: ['install', 'upgrade', 'uninstall', 'delete', 'rollback', 'push'].map((s) => R(s, 'deploys', `changes a cluster (helm ${s})`, { unless: ['--dry-run'] })),
  terraform: [...['apply', 'destroy', 'import', 'taint', 'untaint', 'state rm', 'state mv', 'state push', 'force-unlock', 'workspace delete']
    .map((s) => R(s, 'deploys', `changes infrastructure (terraform ${s})`))],
  tofu: ['apply', 'destroy', 'import', 'taint', 'state rm', 'state push'].map((s) => R(s, 'deploys', `changes infrastructure (tofu ${s})`)),
  terragrunt: ['apply', 'destroy', 'run-all', 'apply-all', 'destroy-all'].map((s) => R(s, 'deploys', `changes infrastructure (terragrunt ${s})`)),
  pulumi: ['up', 'update', 'destroy', 'import', 'refresh', 'stack rm', 'state delete'].map((s) => R(s, 'deploys', `changes infrastructure (pulumi ${s})`, { unless: ['--preview-only'] })),
  cdk: [R('deploy', 'deploys', 'deploys a stack'), R('destroy', 'deploys', 'destroys a stack')],
  cdktf: [R('deploy', 'deploys', 'deploys a stack'), R('destroy', 'deploys', 'destroys a stack')],
  sst: [R('deploy', 'deploys', 'deploys'), R('remove', 'deploys', 'removes a deployment')],
  vercel: [R('', 'deploys', 'deploys to production', { with: ['--prod', '--production'] }), R('deploy', 'deploys', 'deploys'),
    R('remove', 'deploys', 'removes a deployment'), R('rm', 'deploys', 'removes a deployment'), R('promote', 'deploys', 'promotes a deployment'),
    R('rollback', 'deploys', 'rolls back production'), R('alias', 'deploys', 'moves a domain')],
  netlify: [R('deploy', 'deploys', 'deploys a site'), R('sites:delete', 'deploys', 'deletes a site')],
  firebase: [R('deploy', 'deploys', 'deploys'), R('hosting:disable', 'deploys', 'takes a site down'), R('functions:delete', 'deploys', 'deletes functions'),
    R('firestore:delete', 'drops-data', 'deletes data'), R('database:remove', 'drops-data', 'deletes data')],
  fly: [R('deploy', 'deploys', 'deploys an app'), R('destroy', 'deploys', 'destroys an app'), R('apps destroy', 'deploys', 'destroys an app'),
    R('volumes destroy', 'drops-data', 'destroys a volume')],
  flyctl: [R('deploy', 'deploys', 'deploys an app'), R('destroy', 'deploys', 'destroys an app'), R('apps destroy', 'deploys', 'destroys an app')],
  serverless: [R('deploy', 'deploys', 'deploys'), R('remove', 'deploys', 'removes a deployment')],
  sls: [R('deploy', 'deploys', 'deploys'), R('remove', 'deploys', 'removes a deployment')],
  wrangler: [R('deploy', 'deploys', 'deploys a worker'), R('publish', 'deploys', 'deploys a worker'), R('delete', 'deploys', 'deletes a worker'),
    R('pages deploy', 'deploys', 'deploys a site'), R('d1 execute', 'drops-data', 'runs SQL on a remote database', { with: ['--remote'] })],
  railway: [R('up', 'deploys', 'deploys'), R('down', 'deploys', 'removes a deployment'), R('delete', 'deploys', 'deletes a project')],
  heroku: [R('*', 'deploys', 'changes a Heroku app', { with: ['apps:destroy', 'pg:reset', 'releases:rollback', 'container:push', 'container:release', 'builds:create'] })],
  amplify: [R('publish', 'deploys', 'deploys'), R('push', 'deploys', 'deploys'), R('delete', 'deploys', 'deletes an app')],
  eb: [R('deploy', 'deploys', 'deploys'), R('terminate', 'deploys', 'terminates an environment')],
  cap: [R('*', 'deploys', 'deploys', { with: ['deploy'] })],
  kamal: [R('deploy', 'deploys', 'deploys'), R('setup', 'deploys', 'deploys'), R('remove', 'deploys', 'removes a deployment'), R('rollback', 'deploys', 'rolls back')],
  surge: [R('', 'deploys', 'publishes a site')],
  'gh-pages': [R('', 'deploys', 'publishes a site')],
  'ansible-playbook': [R('', 'deploys', 'changes remote hosts', { unless: ['--check', '-C', '--syntax-check', '--list-tasks', '--list-hosts'] })],
  gcloud: [R('*', 'deploys', 'deploys or deletes cloud resources', { with: ['deploy', 'delete', 'rm'] })],
  gsutil: [R('rm', 'drops-data', 'deletes cloud storage'), R('rb', 'drops-data', 'deletes a bucket'), R('rsync', 'drops-data', 'deletes cloud storage at the destination', { flag: 'd' }),
    R('cp', 'deploys', 'uploads to cloud storage', { with: ['gs://'] }), R('mv', 'drops-data', 'moves cloud storage')],
  aws: [R('s3 rm', 'drops-data', 'deletes cloud storage'), R('s3 rb', 'drops-data', 'deletes a bucket'), R('s3 mv', 'drops-data', 'moves cloud storage'),
    R('s3 sync', 'drops-data', 'deletes cloud storage at the destination', { with: ['--delete'] }),
    R('s3 sync', 'deploys', 'uploads to cloud storage', { with: ['s3://'] }), R('s3 cp', 'deploys', 'uploads to cloud storage', { with: ['s3://'] }),
    R('s3api delete-object', 'drops-data', 'deletes cloud storage'), R('s3api delete-bucket', 'drops-data', 'deletes a bucket'),
    R('cloudformation deploy', 'deploys', 'deploys a stack'), R('cloudformation delete-stack', 'deploys', 'deletes a stack'), R('deploy', 'deploys', 'deploys'),
    R('lambda update-function-code', 'deploys', 'deploys a function'), R('lambda delete-function', 'deploys', 'deletes a function'),
    R('ec2 terminate-instances', 'deploys', 'terminates instances'), R('rds delete-db-instance', 'drops-data', 'deletes a database'),
    R('rds delete-db-cluster', 'drops-data', 'deletes a database'), R('dynamodb delete-table', 'drops-data', 'deletes a table'),
    R('ecr batch-delete-image', 'drops-data', 'deletes images'), R('ecs update-service', 'deploys', 'deploys a service'),
    R('ecs delete-service', 'deploys', 'deletes a service')],
  az: [R('*', 'deploys', 'deploys or deletes cloud resources', { with: ['deploy', 'delete', 'up'] })],
  doctl: [R('*', 'deploys', 'deploys or deletes cloud resources', { with: ['delete', 'create-deployment'] })],
  'redis-cli': [R('*', 'drops-data', 'flushes a database', { with: ['flushall', 'FLUSHALL', 'flushdb', 'FLUSHDB'] })],
  artisan: ['migrate:fresh', 'migrate:reset', 'migrate:refresh', 'migrate:rollback', 'db:wipe'].map((s) => R(s, 'drops-data', `drops database data (artisan ${s})`)),
  'manage.py': ['flush', 'reset_db', 'sqlflush', 'reset_schema'].map((s) => R(s, 'drops-data', `deletes the database's data (manage.py ${s})`)),
  rails: ['db:drop', 'db:reset', 'db:purge', 'db:schema:load', 'db:truncate_all', 'db:migrate:reset', 'db:setup'].map((s) => R(s, 'drops-data', `drops database data (rails ${s})`)),
  rake: ['db:drop', 'db:reset', 'db:purge', 'db:schema:load', 'db:truncate_all', 'db:migrate:reset'].map((s) => R(s, 'drops-data', `drops database data (rake ${s})`)),
  prisma: [R('migrate reset', 'drops-data', 'resets the database'), R('db push', 'drops-data', 'may drop database data', { with: ['--force-reset', '--accept-data-loss'] })],
  supabase: [R('db reset', 'drops-data', 'resets the database'), R('db push', 'deploys', 'changes the remote database'), R('functions deploy', 'deploys', 'deploys functions'),
    R('functions delete', 'deploys', 'deletes functions'), R('projects delete', 'drops-data', 'deletes a project')],
  'drizzle-kit': [R('drop', 'drops-data', 'drops migrations'), R('push', 'drops-data', 'changes the database schema', { with: ['--force'] })],
  sequelize: [R('db:drop', 'drops-data', 'drops the database'), R('db:migrate:undo:all', 'drops-data', 'undoes every migration')],
  'sequelize-cli': [R('db:drop', 'drops-data', 'drops the database'), R('db:migrate:undo:all', 'drops-data', 'undoes every migration')],
  typeorm: [R('schema:drop', 'drops-data', 'drops the schema')],
  knex: [R('migrate:rollback', 'drops-data', 'undoes every migration', { with: ['--all'] })],
  alembic: [R('downgrade', 'drops-data', 'downgrades the database', { with: ['base'] })],
  flyway: [R('clean', 'drops-data', 'drops every object in the schema')],
  liquibase: [R('drop-all', 'drops-data', 'drops every object'), R('dropAll', 'drops-data', 'drops every object')],
  mongosh: [R('*', 'drops-data', 'drops data', { with: ['--eval'] })],
  rsync: [R('*', 'deletes', 'deletes files at the destination', { with: ['--delete', '--delete-before', '--delete-after', '--delete-during', '--delete-excluded', '--remove-source-files'] })],
  launchctl: [R('remove', 'deploys', 'removes a service')],
  systemctl: ['stop', 'disable', 'mask', 'kill'].map((s) => R(s, 'deploys', `changes system services (systemctl ${s})`)),
}

/** Commands that destroy data by their name alone. */
const ALWAYS: Readonly<Record<string, RuleHit>> = {
  dropdb: { kind: 'drops-data', reason: 'drops a database' },
  dropuser: { kind: 'drops-data', reason: 'drops a database user' },
  mkfs: { kind: 'drops-data', reason: 'formats a disk' },
  wipefs: { kind: 'drops-data', reason: 'wipes a disk' },
  fdisk: { kind: 'drops-data', reason: 'partitions a disk' },
  parted: { kind: 'drops-data', reason: 'partitions a disk' },
  blkdiscard: { kind: 'drops-data', reason: 'discards a disk\'s data' },
  shutdown: { kind: 'deploys', reason: 'shuts the machine down' },
  reboot: { kind: 'deploys', reason: 'reboots the machine' },
  halt: { kind: 'deploys', reason: 'halts the machine' },
  poweroff: { kind: 'deploys', reason: 'powers the machine off' },
}

/** Database clients whose SQL (in `-c`, `-e`, `--command`, `--execute` or a here-string) is read for DROP, TRUNCATE, DELETE. */
const SQL_CLIENTS = new Set([
  'psql', 'mysql', 'mariadb', 'sqlite3', 'sqlcmd', 'cockroach', 'clickhouse-client', 'clickhouse', 'duckdb', 'mongo', 'cqlsh', 'snowsql', 'bq',
])
const SQL_DROP = /\b(drop\s+(table|database|schema|index|view|user|role|owned|collection|keyspace)|truncate(\s+table)?\s+\w|delete\s+from\s+[\w."]+\s*(;|$|where\s+(1\s*=\s*1|true)))|\b(dropDatabase|deleteMany|drop)\s*\(/i

/** Interpreters whose inline code (`-c`, `-e`, ...) is read for the files it deletes or overwrites. */
const INLINE: Readonly<Record<string, readonly string[]>> = {
  python: ['-c'], python3: ['-c'], python2: ['-c'], py: ['-c'], pypy3: ['-c'],
  node: ['-e', '--eval', '-p', '--print'], nodejs: ['-e', '--eval', '-p', '--print'], bun: ['-e', '--eval', '-p', '--print'], deno: ['eval'],
  perl: ['-e', '-E'], ruby: ['-e'], php: ['-r'], lua: ['-e'], Rscript: ['-e'], osascript: ['-e'],
}
/** Calls in code that delete or overwrite files: the first string literal after them is the path, when there is one. */
const CODE_DELETES = /\b(?:shutil\s*\.\s*(?:rmtree|move)|os\s*\.\s*(?:remove|unlink|rmdir|removedirs|truncate)|rmSync|rmdirSync|unlinkSync|truncateSync|writeFileSync|fs\s*\.\s*(?:rm|unlink|rmdir|writeFile|truncate)|fsPromises\s*\.\s*(?:rm|unlink|rmdir)|rimraf(?:\.sync)?|remove_tree|rmtree|FileUtils\s*\.\s*(?:rm_rf|rm_r|rm_f|rm|remove_dir|remove_entry|remove)|File\s*\.\s*(?:delete|unlink)|Dir\s*\.\s*(?:rmdir|delete|unlink)|Deno\s*\.\s*(?:remove|writeTextFile|truncate)|unlink|rmdir|\.unlink|\.rmdir)\s*\(?(?=\s*(?:r|f)?['"(])/g
/** Calls that hand a string to a shell: its literal, when it is one, is read again. */
const CODE_SHELL = /\b(os\s*\.\s*system|os\s*\.\s*popen|subprocess\s*\.\s*\w+|execSync|exec|spawnSync|system|shell_exec|passthru|popen)\s*\(\s*\[?\s*(?:(['"])([^'"\n]*)\2)?/g
/** The first string literal of a call's arguments: the path it acts on. */
const CODE_PATH = /\(?\s*(?:r|f)?(['"])([^'"\n]*)\1/

// ---------------------------------------------------------------------------------------------

function base(word: string): string {
  return word.replace(/^.*\//, '')
}

/** Whether `word` is an option (`-x`, `--long`), given that `--` has not been seen. */
function isOption(word: string): boolean {
  return word.length > 1 && word.startsWith('-')
}

/**
 * The command a wrapper runs, seen through any number of wrappers: the words from the wrapped
 * command on, and whether its operands are hidden (xargs).
 */
export function unwrap(words: readonly ShellWord[], ctx: RuleContext): { words: readonly ShellWord[]; hidden: boolean; assignments: ShellWord[] } {
  let rest = words
  let hidden = false
  const assignments: ShellWord[] = []
  for (let guard = 0; guard < 16 && rest.length; guard++) {
    const head = base(rest[0]!.value)
    const two = rest[1] ? `${head} ${rest[1].value}` : ''
    const three = rest[2] ? `${two} ${rest[2].value}` : ''
    const name = WRAPPERS[three] ? three : WRAPPERS[two] ? two : WRAPPERS[head] ? head : undefined
    if (head === 'busybox' || head === 'toybox') {
      rest = rest.slice(1)
      continue
    }
    if (head === 'find') return { words: rest, hidden, assignments }
    if (head === 'parallel') {
      // `parallel rm ::: a b`: the command, then its operands after `:::`.
      const after = rest.slice(1)
      let i = 0
      while (i < after.length && isOption(after[i]!.value)) i += ['-j', '--jobs', '-S', '--sshlogin'].includes(after[i]!.value) ? 2 : 1
      const sep = after.findIndex((w) => w.value === ':::' || w.value === '::::')
      const command = after.slice(i, sep === -1 ? undefined : sep)
      const operands = sep === -1 ? [] : after.slice(sep + 1)
      if (command.length === 0) {
        // `parallel ::: 'rm -rf src' 'npm publish'`: each argument is a command line.
        for (const line of operands) ctx.nested(line.dynamic ? line.text : line.value, 'parallel runs it')
        return { words: [], hidden, assignments }
      }
      rest = [...command.filter((w) => w.value !== '{}'), ...operands]
      hidden ||= sep === -1 || command.some((w) => w.value === '{}')
      continue
    }
    if (!name) break
    const spec = WRAPPERS[name]!
    if (head === 'command' && rest[1] && /^-[vV]$/.test(rest[1].value)) return { words: [], hidden, assignments } // a lookup, not a run
    if (name === 'su -c' || (head === 'su' && rest.some((w) => w.value === '-c'))) {
      const i = rest.findIndex((w) => w.value === '-c')
      const script = rest[i + 1]
      if (script) ctx.nested(script.dynamic ? script.text : script.value, 'su -c runs it')
      return { words: [], hidden, assignments }
    }
    let i = name.split(' ').length
    let positionals = spec.positionals ?? 0
    while (i < rest.length) {
      const w = rest[i]!.value
      if (w === '--') { i++; break }
      if (spec.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) { assignments.push(rest[i]!); i++; continue }
      if (head === 'env' && (w === '-S' || w === '--split-string' || w.startsWith('--split-string='))) {
        const text = w.includes('=') ? w.slice(w.indexOf('=') + 1) : rest[i + 1]?.value ?? ''
        ctx.nested(text, 'env -S runs it')
        return { words: [], hidden, assignments }
      }
      if (isOption(w)) {
        const valued = spec.valued ?? []
        i += valued.includes(w) ? 2 : 1
        continue
      }
      if (positionals > 0) { positionals--; i++; continue }
      break
    }
    if (spec.hiddenOperands) hidden = true
    rest = rest.slice(i)
  }
  return { words: rest, hidden, assignments }
}

/** The findings of one simple command (its wrappers seen through). */
export function judgeSimple(command: SimpleCommand, ctx: RuleContext): Array<RuleHit & { command: string }> {
  const hits: Array<RuleHit & { command: string }> = []
  const add = (hit: RuleHit | undefined, text = command.text) => {
    if (hit) hits.push({ ...hit, command: text })
  }
  for (const write of command.writes) {
    if (ctx.paths.isGitData(write.target, command.cd ?? ctx.cwd)) {
      add({ kind: 'overwrites', reason: `writes into git's own data (\`${write.target.text}\`)` })
      continue
    }
    if (!write.truncates) continue
    const why = ctx.paths.judge(write.target, command.cd ?? ctx.cwd, 'overwrite')
    if (why) add({ kind: 'overwrites', reason: `overwrites ${why} (a \`>\` redirection)` })
  }
  const { words, hidden } = unwrap(command.words, ctx)
  if (words.length === 0) return hits
  const cwd = command.cd ?? ctx.cwd
  add(commandHit(words, hidden, { ...ctx, cwd }))
  add(stdinHit(words, command, { ...ctx, cwd }))
  return hits
}

function commandHit(words: readonly ShellWord[], hidden: boolean, ctx: RuleContext): RuleHit | undefined {
  const head = base(words[0]!.value)
  const args = words.slice(1)
  if (words[0]!.dynamic) return undefined // judged as unknown by the caller through its text
  if (SHELLS.has(head)) return shellHit(args, ctx)
  if (head === 'eval') {
    ctx.nested(args.map((w) => (w.dynamic ? w.text : w.value)).join(' '), 'eval runs it')
    return undefined
  }
  if (head === 'find') return findHit(args, ctx)
  const two = args[0] ? `${head} ${args[0].value}` : ''
  const deleter = DELETERS[two] ? two : DELETERS[head] ? head : undefined
  if (deleter) return deleteHit(deleter, words.slice(deleter.split(' ').length), hidden, ctx)
  const inline = INLINE[head]
  if (inline) {
    const hit = inlineHit(head, args, inline, ctx)
    if (hit) return hit
  }
  if (ALWAYS[head] || /^mkfs\./.test(head)) return ALWAYS[head] ?? ALWAYS.mkfs
  const special = overwriteHit(head, args, hidden, ctx)
  if (special) return special
  if (SQL_CLIENTS.has(head)) {
    const sql = args.map((w) => w.value).join(' ')
    const m = SQL_DROP.exec(sql)
    if (m) return { kind: 'drops-data', reason: `runs SQL that deletes data (${m[0].trim()})` }
  }
  const rules = SUBCOMMAND_RULES[head] ?? SUBCOMMAND_RULES[head.replace(/^\.\//, '')]
  if (rules) return subcommandHit(head, args, rules) ?? (INLINE[head] || head === 'gh' || head === 'git' ? undefined : subcommandNameHit(head, args))
  if (head === 'php' && args[0] && base(args[0].value) === 'artisan') return subcommandHit('artisan', args.slice(1), SUBCOMMAND_RULES.artisan!)
  if (/^python[0-9.]*$/.test(head) && args[0] && base(args[0].value) === 'manage.py') return subcommandHit('manage.py', args.slice(1), SUBCOMMAND_RULES['manage.py']!)
  if (/^python[0-9.]*$/.test(head) && args[0]?.value === '-m' && args[1]?.value === 'twine') return subcommandHit('twine', args.slice(2), SUBCOMMAND_RULES.twine!)
  if (/^python[0-9.]*$/.test(head) && args[0] && base(args[0].value) === 'setup.py' && args.some((w) => w.value === 'upload' || w.value === 'register')) {
    return { kind: 'publishes', reason: 'publishes a package (setup.py upload)' }
  }
  if ((head === 'bin/rails' || head === 'rails' || head === 'bundle') && args.some((w) => /^db:/.test(w.value))) {
    return subcommandHit('rails', args.filter((w) => w.value !== 'exec' && w.value !== 'rails' && w.value !== 'rake'), SUBCOMMAND_RULES.rails!)
  }
  const named = INLINE[head] || SHELLS.has(head) ? undefined : subcommandNameHit(head, args)
  if (named) return named
  if (head === 'dd') {
    const of = args.find((w) => w.value.startsWith('of='))
    if (of) {
      const why = ctx.paths.judge({ ...of, value: of.value.slice(3), text: of.text.slice(3) }, ctx.cwd, 'overwrite')
      if (why) return { kind: 'overwrites', reason: `overwrites ${why} (dd of=)` }
    }
  }
  return undefined
}

/**
 * What a command runs from its standard input: a shell or an interpreter fed a here-document (read
 * again), or the output of the command before it (`curl ... | sh`: can't be known), SQL fed to a client.
 */
function stdinHit(words: readonly ShellWord[], command: SimpleCommand, ctx: RuleContext): RuleHit | undefined {
  const head = base(words[0]!.value)
  const reads = SHELLS.has(head) && !words.slice(1).some((w) => !isOption(w.value) || /^-[a-zA-Z]*c/.test(w.value))
  if (command.stdin !== undefined) {
    if (reads) ctx.nested(command.stdin, `${head} runs its standard input`)
    else if (SQL_CLIENTS.has(head)) {
      const m = SQL_DROP.exec(command.stdin)
      if (m) return { kind: 'drops-data', reason: `runs SQL that deletes data (${m[0].trim()})` }
    } else if (INLINE[head] && words.slice(1).every((w) => w.value === '-' || isOption(w.value))) {
      return inlineHit(head, [literalWord(INLINE[head]![0]!), literalWord(command.stdin)], INLINE[head]!, ctx)
    }
    return undefined
  }
  return undefined
}

/** Whether the command is a shell running what the command before it in a pipeline prints (`curl ... | sh`). */
export function runsPipedInput(words: readonly ShellWord[], command: SimpleCommand): boolean {
  const head = words[0] ? base(words[0].value) : ''
  return command.piped === true && command.stdin === undefined && SHELLS.has(head) && !words.slice(1).some((w) => !isOption(w.value) || /^-[a-zA-Z]*c/.test(w.value))
}

function shellHit(args: readonly ShellWord[], ctx: RuleContext): RuleHit | undefined {
  const i = args.findIndex((w) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(w.value))
  if (i !== -1) {
    const script = args[i + 1]
    if (script) ctx.nested(script.dynamic ? script.text : script.value, 'the shell runs it')
  }
  return undefined
}

function deleteHit(deleter: string, operands: readonly ShellWord[], hidden: boolean, ctx: RuleContext): RuleHit | undefined {
  const spec = DELETERS[deleter]!
  if (deleter === 'git rm' && operands.some((w) => w.value === '--cached')) return undefined
  const targets: ShellWord[] = []
  let options = true
  for (let i = 0; i < operands.length; i++) {
    const w = operands[i]!
    if (options && w.value === '--') { options = false; continue }
    if (options && isOption(w.value)) {
      if (spec.valued?.includes(w.value)) i++
      continue
    }
    targets.push(w)
  }
  const label = deleter === 'git rm' ? 'git rm' : deleter
  // `rm -rf $(find . -name __pycache__)`: what find lists is what it would delete with -delete.
  const found = targets.filter((t) => t.dynamic && /^(\$\(|`)\s*find\s[^;&|`()]*(\)|`)$/.test(t.text))
  if (found.length && found.length === targets.length) {
    for (const t of found) {
      const inner = t.text.replace(/^(\$\(|`)\s*/, '').replace(/\s*(\)|`)$/, '')
      const words = inner.split(/\s+/).slice(1).map((w) => literalWord(w.replace(/^(['"])(.*)\1$/, '$2')))
      const hit = findHit([...words, literalWord('-delete')], ctx)
      if (hit) return hit
    }
    return undefined
  }
  if (targets.length === 0 && hidden) return { kind: 'deletes', reason: `deletes files it is given at run time (\`${label}\` behind xargs or parallel), which can't be known before it runs` }
  const bad = targets.map((t) => ctx.paths.judge(t, ctx.cwd)).filter((why): why is string => why !== undefined)
  if (bad.length === 0) return undefined
  return { kind: 'deletes', reason: `${spec.verb} ${bad.slice(0, 2).join(' and ')}${bad.length > 2 ? ` (and ${bad.length - 2} more)` : ''}` }
}

/** `find ... -delete`, `-exec rm {} +`: the starting points and name tests say what it may reach. */
function findHit(args: readonly ShellWord[], ctx: RuleContext): RuleHit | undefined {
  const starts: ShellWord[] = []
  let i = 0
  while (i < args.length && !args[i]!.value.startsWith('-') && !['(', '!', ','].includes(args[i]!.value)) starts.push(args[i++]!)
  if (starts.length === 0) starts.push(literalWord('.'))
  const names: string[] = []
  let action: string | undefined
  for (; i < args.length; i++) {
    const w = args[i]!.value
    if (['-name', '-iname', '-path', '-ipath', '-wholename', '-regex'].includes(w) && args[i + 1]) names.push(args[++i]!.value)
    else if (w === '-delete') action = '-delete'
    else if (['-exec', '-execdir', '-ok', '-okdir'].includes(w)) {
      const end = args.findIndex((x, k) => k > i && (x.value === ';' || x.value === '+' || x.value === '\\;'))
      const inner = args.slice(i + 1, end === -1 ? undefined : end).filter((x) => x.value !== '{}')
      i = end === -1 ? args.length : end
      if (inner.length === 0) continue
      const innerHead = base(inner[0]!.value)
      if (DELETERS[innerHead] || innerHead === 'shred' || (innerHead === 'git' && inner[1]?.value === 'rm')) action = `${w} ${innerHead}`
      else {
        const hit = commandHit(inner, true, ctx)
        if (hit) return hit
      }
    }
  }
  if (!action) return undefined
  // Everything it reaches is build output when each starting point is, or every name test names output files.
  const startsFree = starts.every((s) => ctx.paths.judge(s, ctx.cwd) === undefined)
  const namesFree = names.length > 0
    && names.every((n) => ctx.paths.judge({ value: `./${n}`, text: n, dynamic: false, pattern: /[*?[]/.test(n) }, ctx.cwd) === undefined)
  if (startsFree || namesFree) return undefined
  return { kind: 'deletes', reason: `deletes the files find matches (\`${action}\`${names.length ? ` on ${names.join(', ')}` : ''} under ${starts.map((s) => s.text).join(' ')}), which are not only build output` }
}

/** Overwrites: `sed -i`, `mv`, `cp`, `ln -sf`, `truncate`, `chmod -R` that locks, `tee`. */
function overwriteHit(head: string, args: readonly ShellWord[], hidden: boolean, ctx: RuleContext): RuleHit | undefined {
  const operands = (valued: readonly string[] = []) => {
    const out: ShellWord[] = []
    let options = true
    for (let i = 0; i < args.length; i++) {
      const w = args[i]!
      if (options && w.value === '--') { options = false; continue }
      if (options && isOption(w.value)) { if (valued.includes(w.value)) i++; continue }
      out.push(w)
    }
    return out
  }
  const flags = args.filter((w) => isOption(w.value)).map((w) => w.value)
  const hasShort = (letter: string) => flags.some((f) => /^-[a-zA-Z]+$/.test(f) && f.includes(letter))
  const judge = (w: ShellWord, how: 'delete' | 'overwrite' = 'overwrite') => ctx.paths.judge(w, ctx.cwd, how)
  if (['cp', 'install', 'ln', 'mv', 'tee'].includes(head)) {
    const into = args.filter((w) => !isOption(w.value)).find((w, k, all) => (head === 'tee' || k === all.length - 1) && ctx.paths.isGitData(w, ctx.cwd))
    if (into) return { kind: 'overwrites', reason: `writes into git's own data (\`${into.text}\`: a hook there runs at every commit)` }
  }
  switch (head) {
    case 'sed':
    case 'gsed':
    case 'perl': {
      const inPlace = flags.some((f) => f === '--in-place' || f.startsWith('--in-place=') || /^-[a-zA-Z]*i/.test(f) && (head !== 'perl' || /^-[a-zA-Z]*i/.test(f)))
      if (!inPlace) return undefined
      const ops = operands(['-e', '--expression', '-f', '--file', '-l', '-E'])
      const files = head === 'perl' || flags.some((f) => f === '-e' || f === '--expression') ? ops : ops.slice(1)
      const bad = files.map((w) => judge(w)).filter(Boolean)
      return bad.length ? { kind: 'overwrites', reason: `edits in place (${head} -i) ${bad[0]}` } : undefined
    }
    case 'truncate': {
      const bad = operands(['-s', '--size', '-r', '--reference']).map((w) => judge(w)).filter(Boolean)
      return bad.length ? { kind: 'overwrites', reason: `truncates ${bad[0]}` } : undefined
    }
    case 'mv': {
      if (hidden) return { kind: 'overwrites', reason: 'moves files it is given at run time (mv behind xargs), which can\'t be known before it runs' }
      const ops = operands(['-t', '--target-directory', '-S', '--suffix'])
      const targetDir = args.findIndex((w) => w.value === '-t' || w.value === '--target-directory')
      const dest = targetDir !== -1 ? args[targetDir + 1] : ops[ops.length - 1]
      const sources = targetDir !== -1 ? ops : ops.slice(0, -1)
      if (!dest || sources.length === 0) return undefined
      if (dest.dynamic || !ctx.paths.insideRepository(dest, ctx.cwd)) {
        // Sources only known at run time moved to a place only known at run time (`mv "$tmp" "$out"`) is unknown text: it runs.
        const bad = sources.filter((w) => !w.dynamic).map((w) => judge(w, 'delete')).filter(Boolean)
        if (bad.length) return { kind: 'deletes', reason: `moves ${dest.dynamic ? `to a place known only when it runs (${dest.text})` : `out of the repository (to ${dest.text})`} ${bad[0]}` }
      }
      if (!hasShort('n') && !flags.includes('--no-clobber') && ctx.paths.existingFile(dest, ctx.cwd)) {
        const why = judge(dest)
        if (why) return { kind: 'overwrites', reason: `overwrites ${why} (mv)` }
      }
      return undefined
    }
    case 'cp':
    case 'install': {
      const ops = operands(['-t', '--target-directory', '-S', '--suffix', '-m', '--mode', '-o', '--owner', '-g', '--group'])
      const targetDir = args.findIndex((w) => w.value === '-t' || w.value === '--target-directory')
      const dest = targetDir !== -1 ? args[targetDir + 1] : ops[ops.length - 1]
      if (dest && (ops.length >= 2 || targetDir !== -1 || (head === 'install' && hasShort('d'))) && ctx.paths.outsideRepository(dest, ctx.cwd)) {
        return { kind: 'overwrites', reason: `writes outside the repository, into \`${dest.text}\` (${head})` }
      }
      if (!dest || ops.length < 2 || hasShort('n') || flags.includes('--no-clobber')) return undefined
      if (!ctx.paths.existingFile(dest, ctx.cwd)) return undefined
      const why = judge(dest)
      return why ? { kind: 'overwrites', reason: `overwrites ${why} (${head})` } : undefined
    }
    case 'ln': {
      if (!hasShort('f') && !flags.includes('--force')) return undefined
      const ops = operands(['-t', '--target-directory', '-S', '--suffix'])
      const link = ops[ops.length - 1]
      if (!link || ops.length < 2 || !ctx.paths.existingFile(link, ctx.cwd)) return undefined
      const why = judge(link)
      return why ? { kind: 'overwrites', reason: `replaces with a link (ln -f) ${why}` } : undefined
    }
    case 'tee': {
      if (hasShort('a') || flags.includes('--append')) return undefined
      const bad = operands().map((w) => judge(w)).filter(Boolean)
      return bad.length ? { kind: 'overwrites', reason: `overwrites ${bad[0]} (tee)` } : undefined
    }
    case 'chmod': {
      const ops = operands(['--reference'])
      const mode = ops[0]?.value ?? ''
      const locks = locksFiles(mode)
      if (!locks || !(hasShort('R') || flags.includes('--recursive'))) return undefined
      const bad = ops.slice(1).map((w) => judge(w)).filter(Boolean)
      return bad.length ? { kind: 'overwrites', reason: `locks ${bad[0]} (chmod -R ${mode} takes away write access)` } : undefined
    }
    default:
      return undefined
  }
}

/** A chmod mode that takes write (or read) access away from the owner: `000`, `0444`, `a-w`, `u=rx`. */
function locksFiles(mode: string): boolean {
  if (/^[0-7]{3,4}$/.test(mode)) return (Number(mode[mode.length - 3]) & 2) === 0
  return mode.split(',').some((clause) => /^[ugoa]*-[rwxXst]*[rw]/.test(clause) || (/^[ugoa]*=[rxXst]*$/.test(clause) && /^[ua]/.test(clause || 'a')))
}

function subcommandHit(head: string, args: readonly ShellWord[], rules: readonly SubRule[]): RuleHit | undefined {
  const valued = GLOBAL_VALUED[head] ?? []
  let i = 0
  while (i < args.length && isOption(args[i]!.value)) i += valued.includes(args[i]!.value) ? 2 : 1
  const rest = args.slice(i).map((w) => w.value)
  const all = args.map((w) => w.value)
  for (const rule of rules) {
    let tail = all
    if (rule.sub.length && rule.sub[0] !== '*') {
      // Subcommand words, allowing options between them (`git stash -q drop`); the tail is what follows the last.
      const positional = rest.filter((w) => !isOption(w))
      if (!rule.sub.every((s, k) => positional[k] === s)) continue
      let at = i - 1
      for (const word of rule.sub) at = all.indexOf(word, at + 1)
      tail = all.slice(at + 1)
    } else if (rule.sub[0] === '*' && rest.length === 0 && !rule.with) continue
    if (rule.unless?.some((u) => tail.includes(u) || all.includes(u))) continue
    if (rule.with || rule.flag) {
      const withHit = rule.with?.some((w) => (
        w.includes(' ')
          ? w.split(' ').every((p) => tail.includes(p))
          : tail.some((t) => t === w || t.startsWith(`${w}=`) || (w.endsWith('://') && t.startsWith(w)) || (w.startsWith('+') && t.startsWith('+')))
      ))
      const flagHit = rule.flag !== undefined && tail.some((t) => /^-[a-zA-Z]+$/.test(t) && t.includes(rule.flag!))
      const refHit = head === 'git' && rule.says.startsWith('force-pushes') && tail.some((t) => /^\+/.test(t))
      const deleteRef = head === 'git' && rule.says === 'deletes remote branches' && tail.some((t) => /^:[^/]/.test(t))
      if (!withHit && !flagHit && !refHit && !deleteRef) continue
    }
    return { kind: rule.kind, reason: rule.says }
  }
  return undefined
}

/** Inline interpreter code: the shell commands it runs (read again), and the files it deletes or overwrites. */
function inlineHit(head: string, args: readonly ShellWord[], flags: readonly string[], ctx: RuleContext): RuleHit | undefined {
  const i = args.findIndex((w) => flags.includes(w.value) || flags.some((f) => f.startsWith('--') && w.value.startsWith(`${f}=`)))
  if (i === -1) return undefined
  const joined = args[i]!.value.startsWith('--') && args[i]!.value.includes('=')
  const word = joined ? { ...args[i]!, value: args[i]!.value.slice(args[i]!.value.indexOf('=') + 1) } : args[i + 1]
  if (!word) return undefined
  const code = word.value
  for (const m of code.matchAll(CODE_SHELL)) {
    if (m[3] !== undefined) ctx.nested(m[3], `${head} code runs it`)
    else return { kind: 'runs-code', reason: `runs shell commands from ${head} code that can't be read before it runs (${m[1]})` }
  }
  for (const m of code.matchAll(CODE_DELETES)) {
    const path = CODE_PATH.exec(code.slice(m.index! + m[0].length - 1, m.index! + m[0].length + 400))
    if (!path) return { kind: 'deletes', reason: `deletes files from ${head} code (${m[0].replace(/[\s(]+$/, '')}) whose paths can't be read before it runs` }
    const why = ctx.paths.judge(literalWord(path[2]!), ctx.cwd)
    if (why) return { kind: 'deletes', reason: `deletes ${why} (${head} code calling ${m[0].replace(/[\s(]+$/, '')})` }
  }
  // `open('README.md', 'w')`: Python truncating a file.
  for (const m of code.matchAll(/\bopen\s*\(\s*(?:r|f)?(['"])([^'"\n]*)\1\s*,\s*(?:mode\s*=\s*)?(['"])w/g)) {
    const why = ctx.paths.judge(literalWord(m[2]!), ctx.cwd, 'overwrite')
    if (why) return { kind: 'overwrites', reason: `overwrites ${why} (${head} code opening it for writing)` }
  }
  return undefined
}

/** Words in a task's, a script's or a subcommand's name that say what it does. */
const NAME_WORDS: Readonly<Record<string, string>> = {
  deploy: 'deploys', undeploy: 'removes a deployment', publish: 'publishes', unpublish: 'unpublishes', release: 'publishes a release',
  destroy: 'destroys resources', teardown: 'tears down resources', upload: 'uploads', nuke: 'deletes everything it targets', wipe: 'wipes data',
  purge: 'purges data', drop: 'drops data',
}
/** Words beside `release` that make it a build step rather than a publication (`build:release`, `release-notes`). */
const BUILD_WORDS = new Set([
  'build', 'compile', 'bundle', 'dist', 'pack', 'package', 'notes', 'changelog', 'check', 'test', 'dry', 'dryrun', 'preview', 'mode', 'profile', 'flags',
])

/** What a name says its command does (`deploy-prod` deploys, `build:release` doesn't publish), or undefined. */
export function nameSays(name: string): string | undefined {
  const parts = name.replace(/\.[A-Za-z0-9]+$/, '').replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean)
  for (const part of parts) {
    const says = NAME_WORDS[part]
    if (!says) continue
    if (part === 'release' && parts.some((p) => BUILD_WORDS.has(p))) continue
    return says
  }
  return undefined
}

/** Runners whose tasks are judged by their bodies (through the book), not by a subcommand's name. */
const TASK_RUNNER_HEADS = new Set([
  'make', 'gmake', 'npm', 'pnpm', 'yarn', 'bun', 'just', 'task', 'deno', 'mise', 'composer', 'poe', 'pdm', 'hatch', 'rye', 'nx', 'cargo', 'go',
  'npx', 'rake', 'invoke', 'nox', 'tox', 'gradle', 'gradlew', 'mvn', 'mvnw', 'turbo', 'lerna', 'ant', 'sbt', 'bazel', 'earthly', 'dagger', 'grunt',
])
/** A subcommand word that names the action (publish, deploy, ...): `docusaurus deploy`, `gulp publish`, `napi pre-publish`. */
const SUBCOMMAND_NAME_WORDS = new Set(['deploy', 'undeploy', 'publish', 'unpublish', 'destroy', 'teardown', 'upload'])

/** Task runners the gate can't read the tasks of (grunt, gulp, rake, gradle, ...): their task's name is what there is. */
const UNREAD_RUNNERS = new Set(['grunt', 'gulp', 'rake', 'invoke', 'nox', 'tox', 'turbo', 'lerna', 'ant', 'sbt', 'bazel', 'earthly', 'dagger', 'gradle', 'gradlew'])

function subcommandNameHit(head: string, args: readonly ShellWord[]): RuleHit | undefined {
  if (UNREAD_RUNNERS.has(head)) {
    const task = args.find((w) => !isOption(w.value) && !w.dynamic && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w.value))
    const says = task && nameSays(task.value)
    return says ? { kind: 'unknown', reason: `runs the ${head} task \`${task!.value}\`, whose body the gate can't read, and its name says it ${says}` } : undefined
  }
  if (TASK_RUNNER_HEADS.has(head)) return undefined
  // The subcommand is the word right after the command, a plain name (not a file such as `upload-pack.o`).
  const sub = args[0]
  if (!sub || sub.dynamic || !/^[a-z][a-z0-9:_-]*$/i.test(sub.value)) return undefined
  const parts = sub.value.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean)
  const word = parts.find((p) => SUBCOMMAND_NAME_WORDS.has(p))
  if (!word || args.some((w) => w.value === '--dry-run' || w.value === '--help' || w.value === '-h')) return undefined
  return { kind: word.includes('deploy') || word === 'destroy' || word === 'teardown' ? 'deploys' : 'publishes', reason: `${NAME_WORDS[word]} (its subcommand \`${sub.value}\` says so)` }
}

/** Words that make an unknown body ask: the commands of the rule table, as words. */
export const DESTRUCTIVE_WORDS: RegExp = new RegExp(`(^|[\\s;&|('"\`$])(${[
  ...Object.keys(DELETERS).filter((k) => !k.includes(' ')), 'git\\s+(reset|clean|push|checkout|restore|branch|tag|update-ref|stash|filter-branch|filter-repo|rm|worktree)',
  'shred', 'truncate', 'dd', 'mkfs', 'publish', 'unpublish', 'deploy', 'destroy', 'kubectl', 'helm', 'terraform', 'pulumi', 'dropdb', 'drop\\s+(table|database|schema)',
  'flushall', 'flushdb', 'prune', 'rmtree', 'rmSync', 'unlinkSync', 'rm_rf', 'migrate:fresh', 'db:wipe', 'db:drop', 'db:reset', 'migrate\\s+reset', 'sed\\s+-i',
  'docker\\s+(rm|rmi|volume|system)', 'gh\\s+(repo|release)', 'aws\\s+s3', 'gsutil', 'rsync', 'twine', 'vercel', 'firebase', 'netlify', 'wrangler', 'fly',
].join('|')})(?=$|[\\s;&|)'"\`])`, 'i')
