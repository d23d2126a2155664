// A module of this package that a host script outside it imports (test/plugin/host-peers.test.mjs):
// it resolves a harness package through resolveHostPeers, as the rows' loader does, then once more
// on its own, after the call has returned.
import { resolveHostPeers } from '../../dist/src/dsh/host-peers.js'

const name = process.argv[2]
const [redirected] = resolveHostPeers([name], (specifier) => import.meta.resolve(specifier))
const after = import.meta.resolve(name)
process.stdout.write(JSON.stringify({ redirected, after }))
