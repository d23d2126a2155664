/** The runners recipes name: whether one is installed, and how a person installs it. */
import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'
import type { Recipe } from './recipe.js'

export const INSTALL_HINTS: Readonly<Record<string, string>> = {
  make: 'install GNU make (apt-get install make)',
  just: 'install just (npm i -g rust-just, or cargo install just)',
  deno: 'install deno (npm i -g deno)',
  cargo: 'install Rust with rustup',
  task: 'install go-task (https://taskfile.dev/installation)',
  pnpm: 'install pnpm (npm i -g pnpm, or corepack enable)',
  yarn: 'install yarn (npm i -g yarn, or corepack enable)',
  bun: 'install bun (npm i -g bun)',
  npm: 'install Node.js with npm',
  nx: 'install Nx in the workspace (npm i -D nx) or globally (npm i -g nx)',
  mise: 'install mise (npm i -g @jdxcode/mise, or https://mise.jdx.dev)',
  cmake: 'install CMake (apt-get install cmake)',
  ctest: 'install CMake, which ships ctest (apt-get install cmake)',
  cpack: 'install CMake, which ships cpack (apt-get install cmake)',
  composer: 'install Composer (apt-get install composer php-cli)',
  poe: 'install poethepoet (pipx install poethepoet)',
  pdm: 'install pdm (pipx install pdm)',
  hatch: 'install hatch (pipx install hatch)',
  rye: 'install rye (https://rye.astral.sh)',
  go: 'install Go (https://go.dev/dl, or apt-get install golang)',
}

/** Whether an executable is on PATH (no shell, no spawn). */
export function onPath(command: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const exts = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : ['']
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue
    for (const ext of exts) {
      try {
        accessSync(join(dir, command + ext), constants.X_OK)
        return true
      } catch {
        // not here
      }
    }
  }
  return false
}

/** How to install `runner`: the recipe's own way when its collector gave one (`install`), else the table's. */
export function installHint(runner: string, install?: string): string {
  return install ?? INSTALL_HINTS[runner] ?? `install ${runner}`
}

/** The sentence a tool carries when its runner is not installed: which one, and how to install it. */
export function missingRunnerNote(runner: string, install?: string): string {
  return `Warning: ${runner} is not installed here, so this fails until someone installs it (${installHint(runner, install)}).`
}

/** Why a command can't run when its runner is missing: which runner, and how to install it. */
export function missingRunnerMessage(runner: string, command: string, install?: string): string {
  return `${runner} is not installed here (not on PATH), so \`${command}\` can't run; ${installHint(runner, install)}, then try again`
}

/**
 * The runner a recipe's command line starts with when it is not installed, else undefined. The
 * command's first word decides (a third-party recipe may name a runner and run something else);
 * paths and `VAR=value` prefixes are not checked.
 */
export function missingExecutable(command: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const first = /^\s*([A-Za-z0-9_][A-Za-z0-9_.+-]*)(?:\s|$)/.exec(command)?.[1]
  return first !== undefined && !onPath(first, env) ? first : undefined
}

/**
 * Why a call of `recipe` can't run because the executable its command starts with is not installed
 * (which one, how to install it: the recipe's own way when that executable is its runner), or undefined.
 */
export function missingRunnerRefusal(recipe: Pick<Recipe, 'command' | 'runner' | 'install'>, command: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const missing = missingExecutable(recipe.command, env)
  return missing ? missingRunnerMessage(missing, command, missing === recipe.runner ? recipe.install : undefined) : undefined
}
