// Every shipped recipe's texts agree with themselves: the risk line and the undo part say the same
// about undoing; after rendering, no text a person or model reads still names a parameter instead
// of its value; a platform without steps shows nothing of another platform's commands.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { loadLibrary, renderRecipe, SHIPPED_RECIPES_DIR, stepsFor, supportedPlatforms } from '../../dist/src/curated/index.js'
import { renderText, showText } from '../../dist/src/curated/view.js'

const library = loadLibrary([SHIPPED_RECIPES_DIR])
const PLATFORMS = ['linux', 'macos', 'windows']

/** Candidate values for a patterned string parameter; the first its pattern accepts is used. */
const CANDIDATES = ['sample', 'sample.dump', 'sample.csv', '/tmp/sample', '0644', '12h', 'abc1234', 'x1', '8443', 'feature-x', 'a.txt', 'app_db', '7', 'v1', 'example.com', 'https://example.com/f.tgz', './dir', 'HEAD~1', 'sample.tar.gz', 'public.users', 'lodash', 'build', '20']

/** A value per parameter that differs from its default, so a leftover default can't pass for a substitution. */
function sampleParams(recipe) {
  const params = {}
  for (const p of recipe.parameters) {
    if (p.type === 'number') params[p.name] = p.default === 7 ? 8 : 7
    else if (p.type === 'boolean') params[p.name] = !(p.default ?? false)
    else if (p.type === 'enum') params[p.name] = p.values.find((v) => v !== p.default) ?? p.values[0]
    else {
      const fits = (v) => v !== p.default && (!p.pattern || new RegExp(p.pattern, 'u').test(v))
      const value = CANDIDATES.find(fits)
      assert.ok(value, `${recipe.id}: add a sample value matching ${p.name}'s pattern ${p.pattern} to CANDIDATES`)
      params[p.name] = value
    }
  }
  return params
}

test('the library has the 56 recipes this test speaks for', () => {
  assert.equal(library.recipes.length, 56)
  assert.deepEqual(library.issues.filter((i) => i.severity === 'error'), [])
})

test('risk line and undo never disagree, in show and in render, on every platform', () => {
  for (const r of library.recipes) {
    for (const platform of supportedPlatforms(r)) {
      for (const text of [showText(r, platform), renderText(renderRecipe(library, r.id, { platform, params: sampleParams(r) }), r.title, platform)]) {
        const riskLine = text.split('\n').find((l) => l.startsWith('risk: '))
        assert.ok(riskLine, `${r.id}: no risk line`)
        const undoLine = text.split('\n').find((l) => /^(# )?Undo/.test(l))
        assert.ok(undoLine, `${r.id}: no undo line`)
        if (r.undo.possible) {
          assert.doesNotMatch(riskLine, /can't be undone/, r.id)
          assert.doesNotMatch(undoLine, /not possible|nothing to undo/, r.id)
        } else {
          assert.doesNotMatch(riskLine, /undo below|undo documented|reversible/, `${r.id}: ${riskLine} / ${undoLine}`)
          assert.match(undoLine, r.risk === 'read_only' ? /nothing to undo/ : /not possible/, r.id)
        }
        if (r.risk === 'read_only') assert.doesNotMatch(undoLine, /not possible/, `${r.id} changes nothing, so undo is not "not possible"`)
      }
    }
  }
})

test('after rendering, every text names the values, never the parameters', () => {
  let checked = 0
  for (const r of library.recipes) {
    const names = r.parameters.map((p) => p.name)
    if (names.length === 0) continue
    const params = sampleParams(r)
    const leftover = new RegExp(`\\{\\{\\s*(${names.join('|')})\\s*\\}\\}|<(${names.join('|')})>`)
    for (const platform of supportedPlatforms(r)) {
      const rendered = renderRecipe(library, r.id, { platform, params })
      const texts = [
        ...rendered.commands.flatMap((c) => [c.command, c.purpose]),
        ...rendered.verification.flatMap((v) => [v.command, v.expect]),
        ...rendered.undo.commands,
        rendered.undo.note ?? '',
        renderText(rendered, r.title, platform),
      ]
      for (const text of texts) assert.doesNotMatch(text, leftover, `${r.id} (${platform}): ${text}`)
      checked++
    }
  }
  assert.ok(checked > 40, `only ${checked} renders checked`)
  // The case that was wrong: the expectation follows the port the command was rendered with.
  const kill = renderRecipe(library, 'network.kill_process_on_port', { platform: 'linux', params: { port: '8080' } })
  assert.equal(kill.verification[0].expect, 'port 8080 is free')
  assert.match(kill.verification[0].command, /8080/)
})

test('a platform without steps shows nothing of another platform\'s', () => {
  let checked = 0
  for (const r of library.recipes) {
    for (const platform of PLATFORMS) {
      if (stepsFor(r, platform)) continue
      const text = showText(r, platform)
      assert.match(text, new RegExp(`Steps: none for ${platform}; this recipe supports`), r.id)
      const commands = [...Object.values(r.platforms).flatMap((e) => (e.steps ?? []).map((s) => s.run)), ...r.verification.map((v) => v.run), ...(r.undo.steps ?? []).map((s) => s.run)]
      for (const c of commands) assert.ok(!text.includes(c), `${r.id} on ${platform} shows ${c}`)
      assert.doesNotMatch(text, /^\s*\$ |Verify:|Pitfalls:/m, `${r.id} on ${platform}`)
      checked++
    }
  }
  assert.ok(checked >= 30, `only ${checked} step-less platforms checked`)
})
