// The prompts' answer for a repository with no command names every format a collector reads, from
// the collector table: a collector added to the table is named there without another edit.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from '../support/temp.mjs'
import { COLLECTOR_TABLE } from '../../dist/src/base/collector-table.js'
import { discover } from '../../dist/src/book/discover.js'
import { getPrompt } from '../../dist/src/mcp/prompts.js'
import { loadLibrary, SHIPPED_RECIPES_DIR } from '../../dist/src/curated/index.js'

test('a repository with no command: the prompt lists every collector\'s format, the last after "or"', (t) => {
  const root = tempDir(t, 'cs-prompt-formats-')
  writeFileSync(join(root, 'README.md'), '# nothing to run\n')
  const { book } = discover(root, {})
  assert.equal(book.entries().length, 0, 'the repository declares no command')
  const ctx = {
    root, book, plan: [], allowRecipeRun: false, platform: 'linux',
    library: () => loadLibrary([SHIPPED_RECIPES_DIR]),
    curated: { search: 'curated_recipe_search', render: 'curated_recipe_render', run: 'curated_recipe_run' },
  }
  const formats = COLLECTOR_TABLE.map((row) => row.format)
  assert.ok(formats.length > 1)
  for (const name of ['build_test_lint', 'before_commit']) {
    const body = getPrompt(ctx, name).messages.map((m) => m.content.text).join('\n')
    const list = /found no commands in [^:]*: no (.*?)\. If that is not/.exec(body)
    assert.ok(list, body)
    assert.equal(list[1], `${formats.slice(0, -1).join(', ')} or ${formats.at(-1)}`, name)
  }
})
