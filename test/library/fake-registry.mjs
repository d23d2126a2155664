// A small npm registry on 127.0.0.1 for the node recipe tests: serves packuments and tarballs for
// the packages given, and answers npm audit's bulk advisory endpoint from a fixed list, so
// npm install, ci, outdated and audit run for real without any other network.
import { createServer } from 'node:http'
import { once } from 'node:events'
import { createHash } from 'node:crypto'
import { mkdir, writeFile, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { sh } from './harness.mjs'

/**
 * packages: [{name, version, dependencies?}]; advisories: {name: [{id, title, severity, vulnerable_versions}]}.
 * Resolves with {url, requests, close}.
 */
export async function startRegistry(workDir, packages, advisories = {}) {
  const tarballs = new Map()
  for (const pkg of packages) {
    const src = join(workDir, 'pkg-src', `${pkg.name}-${pkg.version}`, 'package')
    await mkdir(src, { recursive: true })
    await writeFile(join(src, 'package.json'), JSON.stringify({ name: pkg.name, version: pkg.version, main: 'index.js', dependencies: pkg.dependencies ?? {} }))
    await writeFile(join(src, 'index.js'), `module.exports = ${JSON.stringify(`${pkg.name}@${pkg.version}`)}\n`)
    const file = join(workDir, 'pkg-src', `${pkg.name}-${pkg.version}.tgz`)
    const r = await sh(`tar -czf ${JSON.stringify(file)} -C ${JSON.stringify(join(src, '..'))} package`)
    if (r.code !== 0) throw new Error(`packing ${pkg.name}: ${r.stderr}`)
    tarballs.set(`${pkg.name}-${pkg.version}.tgz`, await readFile(file))
  }
  const requests = []
  const server = createServer(async (req, res) => {
    requests.push(`${req.method} ${req.url}`)
    const base = `http://127.0.0.1:${server.address().port}`
    if (req.method === 'POST' && req.url.startsWith('/-/npm/v1/security/advisories/bulk')) {
      const chunks = []
      for await (const c of req) chunks.push(c)
      // npm may gzip the body; the answer does not depend on it, only on the fixed advisories.
      const out = {}
      for (const [name, list] of Object.entries(advisories)) {
        out[name] = list.map((a) => ({ url: `https://example.invalid/advisories/${a.id}`, cwe: [], cvss: { score: 0, vectorString: null }, ...a }))
      }
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out))
    }
    const tarball = /^\/[^/]+\/-\/([^/]+\.tgz)$/.exec(req.url)
    if (tarball && tarballs.has(tarball[1])) return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(tarballs.get(tarball[1]))
    const name = decodeURIComponent(req.url.slice(1))
    const versions = packages.filter((p) => p.name === name)
    if (versions.length === 0) return res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}')
    const doc = { name, 'dist-tags': { latest: versions.at(-1).version }, versions: {} }
    for (const p of versions) {
      const data = tarballs.get(`${p.name}-${p.version}.tgz`)
      doc.versions[p.version] = {
        name, version: p.version, dependencies: p.dependencies ?? {},
        dist: {
          tarball: `${base}/${name}/-/${p.name}-${p.version}.tgz`,
          shasum: createHash('sha1').update(data).digest('hex'),
          integrity: `sha512-${createHash('sha512').update(data).digest('base64')}`,
        },
      }
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc))
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    requests,
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(r) }),
  }
}
