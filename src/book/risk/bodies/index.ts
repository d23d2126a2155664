/** The body reader of each built-in source: what a recipe of that source runs (types.ts). */
import type { BodyReader } from '../types.js'
import { readComposerBody } from './composer.js'
import { readDenoBody } from './deno.js'
import { readJustBody } from './just.js'
import { readMakeBody } from './make.js'
import { readMiseBody } from './mise.js'
import { readNxBody } from './nx.js'
import { readPythonBody } from './python.js'
import { readScriptsBody } from './scripts.js'
import { readTaskBody } from './task.js'
import { readVscodeBody } from './vscode.js'

/**
 * Sources without a reader (cargo, go, cmake, third-party collectors) run what their command line
 * says: the judge reads the command line itself, and nothing more.
 */
export const BODY_READERS: Readonly<Record<string, BodyReader>> = {
  make: readMakeBody,
  scripts: readScriptsBody,
  just: readJustBody,
  deno: readDenoBody,
  task: readTaskBody,
  mise: readMiseBody,
  composer: readComposerBody,
  python: readPythonBody,
  vscode: readVscodeBody,
  nx: readNxBody,
}
