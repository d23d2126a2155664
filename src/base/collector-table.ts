/**
 * The built-in collectors, one row each, in the book's order: everything the rest of the product
 * knows about a collector besides its reader comes from here. The recipe model and the config
 * (src/book/recipe.ts, src/book/config.ts) take their names, aliases and defaults from it, the CLI
 * its `--no-<source>` switches, the harness its rows and package subpaths (scripts/collector-rows.mjs
 * writes them), the runners their install hints, the build its code-cache sample, and the texts a
 * model reads their list of formats, and the collectors layer its readers (src/collectors/readers.ts,
 * written from the rows; src/collectors/load.ts loads one at a time, src/collectors/index.ts all).
 *
 * Plain data with no imports, so it sits in the lowest layer: the recipe model and the config,
 * which the collectors build on, read it.
 *
 * Adding a collector: write its reader (src/collectors/<source>/collect.ts exporting the Collector),
 * its tests and one row here; `npm run build` (scripts/collector-rows.mjs, before tsc) writes the
 * rest: src/collectors/readers.ts, cordis.patch.yml's rows, package.json's exports, the row modules.
 */

/** The package managers the scripts collector picks from (its `runner` option). */
export const PACKAGE_MANAGERS = ['npm', 'yarn', 'pnpm', 'bun'] as const

/** An option that is one of a few words. */
export interface ChoiceOption {
  readonly kind: 'choice'
  readonly choices: readonly string[]
  readonly default: string
  /** The harness schema's description of the option. */
  readonly help: string
}

/** An option that is a list of non-empty names (`of` says what they name, for the error). */
export interface NamesOption {
  readonly kind: 'names'
  readonly of: string
  readonly default: readonly string[]
  readonly help: string
}

export type CollectorOption = ChoiceOption | NamesOption

export interface CollectorRow {
  /**
   * The one name of the collector: the recipes' `source`, the config key `collectors.<source>`, the
   * CLI switch `--no-<source>`, the harness row `command-scout-<source>` and its module
   * `dsh-command-scout/collectors/<source>`.
   */
  readonly source: string
  /** Older config keys that still mean this collector: read as `source`, never written. */
  readonly aliases: readonly string[]
  /** The format in a sentence a model or a person reads ("Makefile targets"). */
  readonly format: string
  /** The reader: a module under src/collectors/ (compiled name) and the Collector it exports. */
  readonly reader: { readonly module: string; readonly export: string }
  /**
   * The runners its recipes start with, each with how a person installs it. A runner is listed by
   * one collector only (npm is the scripts collector's; VS Code tasks run what they name).
   */
  readonly runners: Readonly<Record<string, string>>
  /** Its config options besides `enabled` (which every collector has, true by default). */
  readonly options: Readonly<Record<string, CollectorOption>>
  /**
   * A small repository fragment in this format (path -> text) from which the collector lists
   * recipes: the build scans it to warm the code cache (scripts/warm-code-cache.mjs) and the
   * tests check it yields recipes. Reach the reader's less common paths too (includes, workspaces).
   */
  readonly sample: Readonly<Record<string, string>>
}

const LOCKFILE_PRIORITY = ['pnpm-lock.yaml', 'yarn.lock', 'bun.lockb', 'bun.lock', 'package-lock.json'] as const

export const COLLECTOR_TABLE = [
  {
    source: 'make',
    aliases: ['makefile'],
    format: 'Makefile targets',
    reader: { module: 'make/collect.js', export: 'makeCollector' },
    runners: { make: 'install GNU make (apt-get install make)' },
    options: {},
    // What real makefiles use around their rules: includes, conditionals on the platform, appends,
    // functions, order-only and pattern prerequisites, comments and docs, recipes naming variables.
    sample: {
      Makefile: [
        '# The sample of the code cache\'s warm-up', 'include rules.mk', '-include config.mak', 'VERSION ?= 1', 'OUT := build',
        "uname_S := $(shell sh -c 'uname -s 2>/dev/null || echo not')", 'SRCS = $(wildcard src/*.c)', 'OBJS += $(patsubst %.c,%.o,$(SRCS)) lib/x.o',
        'ifeq ($(uname_S),Linux)', 'CFLAGS += -DLINUX', 'else', 'CFLAGS += -DOTHER', 'endif', 'ifdef CI', 'ci: ## On CI', '\techo ci', 'endif',
        'all:: build', '', 'build: $(OBJS) | $(OUT) ## Build', '\t$(CC) $(CFLAGS) -o $(OUT)/app $(filter %.o,$^) $(LIBS) $(VERSION)', '',
        '%.o: %.c', '\t$(CC) -c $< -o $@', '$(OUT):', '\tmkdir -p $@', 'export PATH', '.PHONY: build ci all', '',
      ].join('\n'),
      'rules.mk': 'lint:\n\techo lint\n',
    },
  },
  {
    source: 'scripts',
    aliases: [],
    format: 'package.json scripts',
    reader: { module: 'scripts/collect.js', export: 'scriptsCollector' },
    runners: {
      pnpm: 'install pnpm (npm i -g pnpm, or corepack enable)',
      yarn: 'install yarn (npm i -g yarn, or corepack enable)',
      bun: 'install bun (npm i -g bun)',
      npm: 'install Node.js with npm',
    },
    options: {
      runner: { kind: 'choice', choices: ['auto', ...PACKAGE_MANAGERS], default: 'auto', help: 'auto | npm | yarn | pnpm | bun' },
      lockfilePriority: { kind: 'names', of: 'lockfile names', default: LOCKFILE_PRIORITY, help: 'Lockfiles probed in order by runner: auto.' },
    },
    sample: {
      // As published manifests are: fields around the scripts, nested objects and lists, two-space indents.
      'package.json': JSON.stringify({
        name: 'warm', version: '1.0.0', private: true, packageManager: 'pnpm@9.1.0', repository: { type: 'git', url: 'x' }, keywords: ['a', 'b'],
        scripts: { build: 'tsc', prebuild: 'echo', test: 'vitest' }, devDependencies: { typescript: '5' },
      }, null, 2),
      'pnpm-workspace.yaml': "packages:\n  - 'packages/*'\n  - 'libs/**'\n  - '!examples/*'\n",
      'examples/c/package.json': JSON.stringify({ name: 'c', scripts: { start: 'node .' } }),
      'packages/a/node_modules/d/package.json': JSON.stringify({ name: 'd', scripts: { x: 'y' } }),
      'packages/a/package.json': JSON.stringify({ name: 'a', version: '1.0.0', main: 'index.js', scripts: { dev: 'vite', 'test:watch': 'vitest' } }, null, 2),
      'libs/b/package.json': JSON.stringify({ name: 'b', scripts: { test: 'node --test' } }),
    },
  },
  {
    source: 'just',
    aliases: ['justfile'],
    format: 'justfile recipes',
    reader: { module: 'just/collect.js', export: 'justCollector' },
    runners: { just: 'install just (npm i -g rust-just, or cargo install just)' },
    options: {},
    sample: {
      justfile: 'import "extra.just"\nset dotenv-load\n# Build it\nbuild target="x": lint\n  echo {{target}}\nlint:\n  echo lint\n',
      'extra.just': 'fmt:\n  echo fmt\n',
    },
  },
  {
    source: 'deno',
    aliases: [],
    format: 'deno tasks',
    reader: { module: 'deno/collect.js', export: 'denoCollector' },
    runners: { deno: 'install deno (npm i -g deno)' },
    options: {},
    sample: {
      'deno.json': '{ // comment\n  "tasks": { "dev": "deno run main.ts", "check": { "command": "deno check", "description": "Check" } },\n}\n',
    },
  },
  {
    source: 'cargo',
    aliases: [],
    format: 'Cargo targets',
    reader: { module: 'cargo/collect.js', export: 'cargoCollector' },
    runners: { cargo: 'install Rust with rustup' },
    options: {},
    sample: {
      'Cargo.toml': '[workspace]\nmembers = ["crates/*"]\n',
      'crates/c/Cargo.toml': '[package]\nname = "c"\nversion = "0.1.0"\n\n[[bin]]\nname = "tool"\npath = "src/main.rs"\n',
      'crates/c/src/main.rs': 'fn main() {}\n',
      'crates/c/examples/demo.rs': 'fn main() {}\n',
    },
  },
  {
    source: 'task',
    aliases: ['taskfile'],
    format: 'Taskfile tasks',
    reader: { module: 'task/collect.js', export: 'taskCollector' },
    runners: { task: 'install go-task (https://taskfile.dev/installation)' },
    options: {},
    sample: {
      'Taskfile.yml': "version: '3'\nincludes:\n  ns: ./tasks.yml\ntasks:\n  default:\n    desc: All\n    cmds: [echo all]\n",
      'tasks.yml': "version: '3'\ntasks:\n  one:\n    cmds: [echo one]\n",
    },
  },
  {
    source: 'go',
    aliases: [],
    format: 'Go modules',
    reader: { module: 'go/collect.js', export: 'goCollector' },
    runners: { go: 'install Go (https://go.dev/dl, or apt-get install golang)' },
    options: {},
    sample: {
      'go.mod': 'module example.com/warm\n\ngo 1.22\n',
      'main.go': 'package main\n\n//go:generate echo hi\nfunc main() {}\n',
      'cmd/tool/main.go': 'package main\n\nfunc main() {}\n',
    },
  },
  {
    source: 'python',
    aliases: [],
    format: 'pyproject.toml tasks',
    reader: { module: 'python/collect.js', export: 'pythonCollector' },
    runners: {
      poe: 'install poethepoet (pipx install poethepoet)',
      pdm: 'install pdm (pipx install pdm)',
      hatch: 'install hatch (pipx install hatch)',
      rye: 'install rye (https://rye.astral.sh)',
    },
    options: {},
    sample: {
      'pyproject.toml': '[project]\nname = "warm"\n[project.scripts]\nwarm = "warm:main"\n[tool.poe.tasks]\nfmt = "black ."\n'
        + '[tool.pdm.scripts]\nlint = "ruff check ."\n[tool.hatch.envs.default.scripts]\ntest = "pytest"\n',
    },
  },
  {
    source: 'composer',
    aliases: [],
    format: 'composer scripts',
    reader: { module: 'composer/collect.js', export: 'composerCollector' },
    runners: { composer: 'install Composer (apt-get install composer php-cli)' },
    options: {},
    sample: {
      'composer.json': JSON.stringify({ name: 'w/warm', scripts: { test: 'phpunit', 'post-install-cmd': 'echo' } }),
    },
  },
  {
    source: 'vscode',
    aliases: [],
    format: 'VS Code tasks',
    reader: { module: 'vscode/collect.js', export: 'vscodeCollector' },
    // A task runs the program it names (or a shell): no runner of its own to install.
    runners: {},
    options: {},
    sample: {
      '.vscode/tasks.json': '{ "version": "2.0.0", "tasks": [ { "label": "build", "type": "shell", "command": "make" } ] }',
    },
  },
  {
    source: 'cmake',
    aliases: [],
    format: 'CMake presets',
    reader: { module: 'cmake/collect.js', export: 'cmakeCollector' },
    runners: {
      cmake: 'install CMake (apt-get install cmake)',
      ctest: 'install CMake, which ships ctest (apt-get install cmake)',
      cpack: 'install CMake, which ships cpack (apt-get install cmake)',
    },
    options: {},
    sample: {
      'CMakeLists.txt': 'cmake_minimum_required(VERSION 3.20)\nproject(warm)\n',
      'CMakePresets.json': JSON.stringify({
        version: 3, configurePresets: [{ name: 'dev', binaryDir: '${sourceDir}/build' }], buildPresets: [{ name: 'dev', configurePreset: 'dev' }],
      }),
    },
  },
  {
    source: 'mise',
    aliases: [],
    format: 'mise tasks',
    reader: { module: 'mise/collect.js', export: 'miseCollector' },
    runners: { mise: 'install mise (npm i -g @jdxcode/mise, or https://mise.jdx.dev)' },
    options: {},
    sample: {
      'mise.toml': '[tasks.hello]\nrun = "echo hello"\ndescription = "Say hello"\n',
    },
  },
  {
    source: 'nx',
    aliases: [],
    format: 'Nx targets',
    reader: { module: 'nx/collect.js', export: 'nxCollector' },
    runners: { nx: 'install Nx in the workspace (npm i -D nx) or globally (npm i -g nx)' },
    options: {},
    sample: {
      'nx.json': '{}',
      'apps/web/project.json': JSON.stringify({
        name: 'web', targets: { build: { executor: 'nx:run-commands', options: { command: 'vite build' } } },
      }),
    },
  },
] as const satisfies readonly CollectorRow[]

type Row = (typeof COLLECTOR_TABLE)[number]
/** A built-in collector's source (its one name). */
export type BuiltinSource = Row['source']
/** An older config key of a built-in collector. */
export type CollectorAlias = Row['aliases'][number]
/** The row of one source. */
export type CollectorRowOf<S extends BuiltinSource> = Extract<Row, { source: S }>
/** The source an older config key means. */
export type AliasSource<A extends CollectorAlias, R = Row> = R extends { source: infer S; aliases: readonly (infer K)[] } ? (A extends K ? S : never) : never

/** The built-in sources, in the book's order. */
export const BUILTIN_SOURCES: readonly BuiltinSource[] = COLLECTOR_TABLE.map((row) => row.source)

/** Older config key -> the source it means. */
export const COLLECTOR_ALIASES: Readonly<Record<CollectorAlias, BuiltinSource>> = Object.fromEntries(
  COLLECTOR_TABLE.flatMap((row) => row.aliases.map((alias) => [alias, row.source])),
) as Record<CollectorAlias, BuiltinSource>

/** The row of `source`, or undefined for a name that is no built-in collector. */
export function collectorRow(source: string): CollectorRow | undefined {
  return (COLLECTOR_TABLE as readonly CollectorRow[]).find((row) => row.source === source)
}

/**
 * The formats as a list in a sentence: `Makefile targets, package.json scripts, ... and Nx
 * targets` (`or` for "no Makefile targets, ... or Nx targets").
 */
export function formatsSentence(conjunction: 'and' | 'or' = 'and'): string {
  const formats = COLLECTOR_TABLE.map((row) => row.format)
  return `${formats.slice(0, -1).join(', ')} ${conjunction} ${formats[formats.length - 1]}`
}

/**
 * Every row's sample in one repository (path -> text), as the build's code-cache warmer scans it.
 * Two rows naming one path would hide one sample: that throws.
 */
export function sampleRepository(): Record<string, string> {
  const files: Record<string, string> = {}
  for (const row of COLLECTOR_TABLE as readonly CollectorRow[]) {
    for (const [path, text] of Object.entries(row.sample)) {
      if (Object.hasOwn(files, path)) throw new Error(`the ${row.source} collector's sample names ${path}, which another row's sample has`)
      files[path] = text
    }
  }
  return files
}
