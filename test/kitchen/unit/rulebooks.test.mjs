import { test } from 'node:test'
import assert from 'node:assert/strict'
import { normalizeKitchenConfig } from '../../../dist/src/kitchen/store/index.js'
import { rulebookFor, missingRulebooks, rulebookText } from '../../../dist/src/kitchen/derive/index.js'

const cfg = (rulebook) => normalizeKitchenConfig({ rulebook }).config

test('the chef gets the default; a cook its project rulebook or else the default', () => {
  const c = cfg({ default: 'pstack', projects: { api: 'none', web: 'superpowers' } })
  assert.equal(rulebookFor(c, { kind: 'chef' }), 'pstack')
  assert.equal(rulebookFor(c, { kind: 'cook', project: 'api' }), 'none')
  assert.equal(rulebookFor(c, { kind: 'cook', project: 'web' }), 'superpowers')
  assert.equal(rulebookFor(c, { kind: 'cook', project: 'docs' }), 'pstack')
})

test('a project named constructor gets the default, not an inherited property', () => {
  const c = cfg('pstack')
  assert.equal(rulebookFor(c, { kind: 'cook', project: 'constructor' }), 'pstack')
  assert.equal(rulebookFor(c, { kind: 'cook', project: '__proto__' }), 'pstack')
  const none = cfg(undefined)
  assert.equal(rulebookFor(none, { kind: 'cook', project: 'constructor' }), undefined)
  assert.equal(rulebookFor(none, { kind: 'cook', project: 'toString' }), undefined)
})

test('nothing selected is unset for every role', () => {
  const c = cfg(undefined)
  assert.equal(rulebookFor(c, { kind: 'chef' }), undefined)
  assert.equal(rulebookFor(c, { kind: 'cook', project: 'api' }), undefined)
  assert.equal(rulebookText(c), undefined)
})

test('a selected rulebook that is not installed is one error line naming the installed ones; none is never missing', () => {
  const c = cfg({ default: 'pstack', projects: { api: 'none', web: 'superpowers' } })
  assert.deepEqual(missingRulebooks(c, ['pstack']), [
    'config selects the rulebook "superpowers", but no installed package provides it. Installed rulebooks: pstack.',
  ])
  assert.deepEqual(missingRulebooks(c, []).length, 2)
  assert.deepEqual(missingRulebooks(c, ['pstack', 'superpowers']), [])
})

test('the board line names the selection', () => {
  assert.equal(rulebookText(cfg({ default: 'pstack', projects: { web: 'superpowers', api: 'none' } })), 'Rulebook: pstack. Per project: api none, web superpowers.')
  assert.equal(rulebookText(cfg('none')), 'Rulebook: none.')
  assert.equal(rulebookText(cfg({ projects: { api: 'pstack' } })), 'Rulebook: no selection. Per project: api pstack.')
})
