/**
 * The `--patch` overlay that loads this package's bundle into dsh in place, without packaging:
 * every row of the package's own cordis.patch.yml, with each `dsh-command-scout/<export>` name
 * turned into the absolute path of the file that export points to. Generated from the patch layer
 * itself, so a row added there is in the overlay too. Comments and config are kept (yaml's
 * document API edits the tree without losing them).
 */
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isMap, isScalar, parseDocument, visit } from 'yaml'

/** The package this module belongs to (two levels above dist/src/). */
export const PACKAGE_ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)))

export class OverlayError extends Error {
  override name = 'OverlayError'
}

interface PackageJson {
  name: string
  exports?: Record<string, string | { default?: string }>
  dsh?: { bundle?: { patch?: string } }
}

/** The overlay's YAML text for the package at `root`. */
export function bundleOverlay(root: string = PACKAGE_ROOT): string {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageJson
  const patchFile = pkg.dsh?.bundle?.patch
  if (!patchFile) throw new OverlayError(`${join(root, 'package.json')} declares no dsh.bundle.patch`)
  const patchPath = resolve(root, patchFile)
  const doc = parseDocument(readFileSync(patchPath, 'utf8'))
  if (doc.errors.length) throw new OverlayError(`${patchPath}: ${doc.errors[0]!.message}`)
  const missing: string[] = []
  visit(doc, {
    Map(_, map) {
      if (!isMap(map)) return
      const name = map.get('name', true)
      if (!isScalar(name) || typeof name.value !== 'string') return
      const file = exportFile(pkg, name.value)
      if (file === undefined) return
      const absolute = resolve(root, file)
      if (!existsSync(absolute)) missing.push(absolute)
      name.value = absolute
    },
  })
  if (missing.length) throw new OverlayError(`the overlay names files that are not built yet (${missing[0]}${missing.length > 1 ? ` and ${missing.length - 1} more` : ''}); run \`npm run build\` in ${root}`)
  // The layer's own header describes the packaged bundle; this file says what it is instead.
  if (doc.contents) doc.contents.commentBefore = null
  doc.commentBefore = [
    ` The ${pkg.name} bundle loaded in place from ${root}, for \`dsh --patch <this file>\`.`,
    ` Generated from ${patchFile} by \`command-scout dsh overlay\`; regenerate it after moving the checkout.`,
    ' Each entry file makes the package\'s @deepseek-ai/* imports resolve to the running harness\'s copies.',
  ].join('\n')
  return doc.toString({ lineWidth: 0 })
}

/** The file a `<package>/<subpath>` specifier resolves to through `exports`, or undefined for another package's row. */
function exportFile(pkg: PackageJson, specifier: string): string | undefined {
  if (!specifier.startsWith(`${pkg.name}/`) && specifier !== pkg.name) return undefined
  const key = specifier === pkg.name ? '.' : `./${specifier.slice(pkg.name.length + 1)}`
  const target = pkg.exports?.[key]
  const file = typeof target === 'string' ? target : target?.default
  if (!file) throw new OverlayError(`cordis.patch.yml names ${specifier}, which package.json does not export`)
  return file
}
