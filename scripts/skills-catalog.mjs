// Writes dist/src/skills/catalog.json: the shipped library's skills (one per category) and the
// fingerprint of recipes/ they were made from (src/skills/catalog.ts), so that the dsh skills row
// lists them without reading the library at a session's start. Runs after tsc (npm run build).
import { SHIPPED_RECIPES_DIR } from '../dist/src/curated/shipped.js'
import { loadLibrary } from '../dist/src/curated/load.js'
import { CATALOG_FILE, libraryFingerprint } from '../dist/src/skills/catalog.js'
import { recipeSkills } from '../dist/src/skills/write.js'
import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { replaceIfChanged } from './replace-if-changed.mjs'

const fingerprint = libraryFingerprint(SHIPPED_RECIPES_DIR)
if (fingerprint === undefined) {
  // No library to list (a checkout without recipes/): no catalog, and the skills row reads the folder itself.
  rmSync(fileURLToPath(CATALOG_FILE), { force: true })
  console.warn(`command-scout: ${SHIPPED_RECIPES_DIR} can't be read whole, so the skills catalog is not made`)
} else {
  const skills = recipeSkills(loadLibrary([SHIPPED_RECIPES_DIR]))
  replaceIfChanged(fileURLToPath(CATALOG_FILE), `${JSON.stringify({ fingerprint, skills })}\n`)
}
