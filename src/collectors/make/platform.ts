/**
 * The output of the few shell commands that only tell what platform they run on (`uname -s`,
 * `uname -m`, `go env GOOS`): known here without running anything, for the machine the scan runs
 * on, so that a makefile's platform conditions are decided as the real make would decide them
 * (`ifeq ($(uname_S),Linux)`, `ifeq ($(shell go env GOOS),windows)`). Any other command, and any
 * command with more to it than these shapes, stays unknown.
 */
import { arch, platform } from 'node:process'

const UNAME_S: Readonly<Record<string, string>> = {
  linux: 'Linux', darwin: 'Darwin', freebsd: 'FreeBSD', openbsd: 'OpenBSD', netbsd: 'NetBSD', sunos: 'SunOS', aix: 'AIX',
}
const UNAME_M: Readonly<Record<string, string>> = {
  x64: 'x86_64', arm64: platform === 'darwin' ? 'arm64' : 'aarch64', ia32: 'i686', arm: 'armv7l', ppc64: 'ppc64le', s390x: 's390x', riscv64: 'riscv64',
}
const GOOS: Readonly<Record<string, string>> = {
  linux: 'linux', darwin: 'darwin', win32: 'windows', freebsd: 'freebsd', openbsd: 'openbsd', netbsd: 'netbsd', sunos: 'solaris', aix: 'aix',
}
const GOARCH: Readonly<Record<string, string>> = {
  x64: 'amd64', arm64: 'arm64', ia32: '386', arm: 'arm', ppc64: 'ppc64le', s390x: 's390x', riscv64: 'riscv64',
}

/** What the command prints (without its newline), when it only tells the platform; undefined otherwise. */
export function platformOutput(command: string): string | undefined {
  let text = command.trim()
  // `sh -c 'uname -s 2>/dev/null || echo not'`: the quoted command inside.
  const wrapped = /^(?:\/bin\/)?(?:sh|bash) -c (['"])(.*)\1$/.exec(text)
  if (wrapped) text = wrapped[2]!.trim()
  let lower = false
  const tr = /\s*\|\s*tr\s+(?:'\[:upper:\]'\s+'\[:lower:\]'|"\[:upper:\]"\s+"\[:lower:\]"|\[:upper:\]\s+\[:lower:\]|'A-Z'\s+'a-z'|A-Z\s+a-z)\s*$/.exec(text)
  if (tr) (text = text.slice(0, tr.index).trim(), lower = true)
  text = text.replace(/\s*2>\s*\/dev\/null/g, '').replace(/\s*\|\|\s*echo\s+\S+\s*$/, '').trim()
  const answer = answerOf(text)
  return answer === undefined ? undefined : lower ? answer.toLowerCase() : answer
}

function answerOf(text: string): string | undefined {
  switch (text) {
    case 'uname':
    case 'uname -s':
      return platform === 'win32' ? undefined : UNAME_S[platform]
    case 'uname -m':
    case 'uname -p':
      return platform === 'win32' ? undefined : UNAME_M[arch]
    case 'uname -o':
      return platform === 'linux' ? 'GNU/Linux' : platform === 'darwin' ? 'Darwin' : undefined
    case 'go env GOOS':
    case 'go env GOHOSTOS':
      return GOOS[platform]
    case 'go env GOARCH':
    case 'go env GOHOSTARCH':
      return GOARCH[arch]
    default:
      return undefined
  }
}
