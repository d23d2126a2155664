// The servers the serve benchmark loads, in a process of their own (so the load generator does not
// share their event loop): the recipe server, and a bare node:http handler answering a fixed JSON
// body of the render answer's size. Prints {"recipes": url, "bare": url} and serves until killed.
import { createServer } from 'node:http'
import { startServer } from '../dist/src/serve/server.js'
import { loadLibrary, renderRecipe, SHIPPED_RECIPES_DIR } from '../dist/src/curated/index.js'

const recipes = await startServer({ version: 'bench' })
const body = JSON.stringify(renderRecipe(loadLibrary([SHIPPED_RECIPES_DIR]), 'network.find_process_on_port', { platform: 'linux', params: { port: '5432' } }))
const bare = createServer((req, res) => {
  req.resume()
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) })
    res.end(body)
  })
})
await new Promise((resolve) => bare.listen(0, '127.0.0.1', resolve))
process.stdout.write(`${JSON.stringify({ recipes: recipes.url, bare: `http://127.0.0.1:${bare.address().port}/` })}\n`)
