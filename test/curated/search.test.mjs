import { test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { loadLibrary, searchLibrary } from '../../dist/src/curated/index.js'

const lib = loadLibrary([new URL('../fixtures/curated/valid', import.meta.url).pathname])
const ids = (q) => searchLibrary(lib, q).map((r) => r.id)

test('no query lists everything in id order', () => {
  assert.deepEqual(ids({}), [...lib.recipes.map((r) => r.id)].sort())
})

test('words: every word must match when some recipe has them all; id, title and tag matches rank above description matches', () => {
  // title match first, then the description-only match ("from the current commit")
  assert.deepEqual(ids({ text: 'commit' }), ['git.undo_last_commit', 'git.create_branch'])
  assert.deepEqual(ids({ text: 'UNDO commit' }), ['git.undo_last_commit'])
  assert.deepEqual(ids({ text: 'kubernetes helm' }), [])
  // common words are ignored; when no recipe has every word, the ones with the most words come back
  assert.deepEqual(ids({ text: 'how to undo the commit' }), ['git.undo_last_commit'])
  assert.deepEqual(ids({ text: 'undo zebra' }), ['git.undo_last_commit'])
  // "disk" is a tag of both; "images" appears only in the prune recipe's description and pitfalls.
  assert.deepEqual(ids({ text: 'disk' }), ['docker.prune_everything', 'files.find_large_files'])
  assert.deepEqual(ids({ text: 'images' }), ['docker.prune_everything'])
  // prefix match: "branc" finds branch (title of one, description of the other)
  assert.deepEqual(ids({ text: 'branc' }), ['git.create_branch', 'git.undo_last_commit'])
  // title/tag match (score 3) ranks above a description-only match (score 1)
  assert.deepEqual(ids({ text: 'file' }), ['files.append_line', 'files.find_large_files'])
})

test('filters: category, every tag, one or several risks', () => {
  assert.deepEqual(ids({ category: 'git' }), ['git.create_branch', 'git.undo_last_commit'])
  assert.deepEqual(ids({ tags: ['git', 'undo'] }), ['git.undo_last_commit'])
  assert.deepEqual(ids({ tags: ['git', 'nope'] }), [])
  assert.deepEqual(ids({ risk: 'destructive' }), ['docker.prune_everything'])
  assert.deepEqual(ids({ risk: ['read_only', 'low'] }), ['files.find_large_files', 'git.create_branch', 'network.check_port'])
  assert.deepEqual(ids({ text: 'port', risk: 'read_only', category: 'network' }), ['network.check_port'])
})
