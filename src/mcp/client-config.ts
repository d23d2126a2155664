/**
 * What an MCP client needs to start this server from a clone (the package is not on npm): the
 * node executable and this checkout's `bin/command-scout`, both by absolute path, then `mcp` and
 * its options, `--root` always among them (the server serves its working directory by default, and
 * a client starts it wherever the client runs). One form per client:
 *
 * - `claude`: a `claude mcp add` command line (Claude Code): options before the name, the server's
 *   command after `--`, each word quoted for the shell it is pasted into;
 * - `cursor`: `.cursor/mcp.json` (or `~/.cursor/mcp.json`), `{ "mcpServers": { name: { command, args } } }`;
 * - `vscode`: `.vscode/mcp.json`, whose schema differs: `{ "servers": { name: { "type": "stdio", command, args } } }`;
 * - `generic`: the `mcpServers` entry most other clients take (Claude Desktop, Windsurf, ...).
 */
import { fileURLToPath } from 'node:url'
import { quotePowerShell, shellWord } from '../base/quote.js'

export const MCP_CLIENTS = ['claude', 'cursor', 'vscode', 'generic'] as const
export type McpClient = (typeof MCP_CLIENTS)[number]

/** The name the server is registered under in every client's configuration. */
export const CONFIG_SERVER_NAME = 'command-scout'

/** This checkout's launcher (dist/src/mcp/ is three folders below the package root). */
export const LAUNCHER_PATH = fileURLToPath(new URL('../../../bin/command-scout', import.meta.url))

export interface ServerCommand {
  /** Absolute path of the executable (node). */
  command: string
  /** The launcher's absolute path, `mcp`, then the server's options. */
  args: string[]
}

/** The command that starts this server for `root` (absolute), with the other server options given (already absolute where they are paths). */
export function serverCommand(root: string, options: readonly string[] = [], node = process.execPath, launcher = LAUNCHER_PATH): ServerCommand {
  return { command: node, args: [launcher, 'mcp', '--root', root, ...options] }
}

export function isMcpClient(name: string): name is McpClient {
  return (MCP_CLIENTS as readonly string[]).includes(name)
}

/** The configuration text for `client`: JSON for the editors and the generic form, a command line for Claude Code. */
export function clientConfig(client: McpClient, server: ServerCommand, platform: NodeJS.Platform = process.platform): string {
  const entry = { command: server.command, args: server.args }
  switch (client) {
    case 'claude': {
      const quote = platform === 'win32' ? quotePowerShell : shellWord
      return `${['claude', 'mcp', 'add', '--transport', 'stdio', CONFIG_SERVER_NAME, '--', server.command, ...server.args].map(quote).join(' ')}\n`
    }
    case 'vscode':
      return `${JSON.stringify({ servers: { [CONFIG_SERVER_NAME]: { type: 'stdio', ...entry } } }, null, 2)}\n`
    case 'cursor':
    case 'generic':
      return `${JSON.stringify({ mcpServers: { [CONFIG_SERVER_NAME]: entry } }, null, 2)}\n`
  }
}

/** Where the printed configuration goes (for stderr: stdout holds only the configuration, to redirect into a file). */
export function configPlacement(client: McpClient): string {
  switch (client) {
    case 'claude':
      return 'Run this line in a shell (in the repository, for the default local scope; add --scope user before the name for every project).'
    case 'cursor':
      return 'Put this in .cursor/mcp.json in the repository (or ~/.cursor/mcp.json for every project); in a file that has other servers, add the "command-scout" entry to its "mcpServers".'
    case 'vscode':
      return 'Put this in .vscode/mcp.json in the repository; in a file that has other servers, add the "command-scout" entry to its "servers".'
    case 'generic':
      return 'Add the "command-scout" entry to your client\'s "mcpServers" (Claude Desktop: claude_desktop_config.json; most clients take this form).'
  }
}
