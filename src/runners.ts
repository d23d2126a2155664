/** The runners recipes name, and how a person installs each one. */
export const INSTALL_HINTS: Readonly<Record<string, string>> = {
  make: 'install GNU make (apt-get install make)',
  just: 'install just (npm i -g rust-just, or cargo install just)',
  deno: 'install deno (npm i -g deno)',
  cargo: 'install Rust with rustup',
  task: 'install go-task (https://taskfile.dev/installation)',
  pnpm: 'install pnpm (npm i -g pnpm, or corepack enable)',
  yarn: 'install yarn (npm i -g yarn, or corepack enable)',
  bun: 'install bun (npm i -g bun)',
  npm: 'install Node.js with npm',
}
