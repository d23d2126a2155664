/**
 * What a scripts recipe runs (`npm run build`, `pnpm run build`, `yarn run build`, `bun run build`
 * in the package's directory): the script with its pre/post hooks and the same package's scripts it
 * calls, re-read from the package.json the collector found it in (src/collectors/scripts/collect.ts). The
 * following is json-package.ts'; calls into other workspaces stay lines for the judge.
 */
import type { BodyReader } from '../types.js'
import { BodyBuilder, dirOf } from './json-body.js'
import { readPackage, runScript } from './json-package.js'

export const readScriptsBody: BodyReader = (recipe, ctx) => {
  const body = new BodyBuilder()
  // The package's directory is its package.json's, which is also the recipe's cwd.
  const pkg = readPackage(ctx, dirOf(recipe.file))
  if (pkg === undefined || 'error' in pkg) {
    const why = pkg === undefined ? `${recipe.file} is gone; ${recipe.runner} can't run the script either` : `${pkg.error}; ${recipe.runner} refuses it too`
    body.part({ text: recipe.description, file: recipe.file, why, via: [recipe.command] })
    return body.result()
  }
  if (!runScript({ ctx, body, call: `${recipe.runner} run` }, pkg, recipe.name, [recipe.command])) {
    body.part({ text: recipe.description, file: recipe.file, why: `${recipe.file} no longer has the script "${recipe.name}"`, via: [recipe.command] })
  }
  return body.result()
}
