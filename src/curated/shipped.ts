/**
 * Where the package's own recipe library is, in a module of its own: the skills catalog checks it
 * at a session's start without loading the library's reader (YAML and the rules).
 */
import { fileURLToPath } from 'node:url'

/** The package's own `recipes/` folder; this module runs from `dist/src/curated/`. */
export const SHIPPED_RECIPES_DIR = fileURLToPath(new URL('../../../recipes', import.meta.url))
