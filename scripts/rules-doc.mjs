// Prints docs/recipe-rules.md from the validator's rule table (src/curated/schema.ts RULES).
// Regenerate with: node scripts/rules-doc.mjs > docs/recipe-rules.md (a test checks it is current).
import { RULES } from '../dist/src/curated/index.js'

export function rulesDoc() {
  const lines = [
    '# Recipe validation rules',
    '',
    'Every rule `command-scout recipes validate` (and `npm run recipes:validate`) checks, with its stable code.',
    'Generated from `RULES` in `src/curated/schema.ts` by `node scripts/rules-doc.mjs`.',
    '',
    '| code | what must hold |',
    '|---|---|',
    ...Object.entries(RULES).map(([code, text]) => `| \`${code}\` | ${String(text).replace(/\|/g, '\\|')} |`),
    '',
  ]
  return lines.join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(rulesDoc())
