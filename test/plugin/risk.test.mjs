import { test } from 'node:test'
import assert from 'node:assert/strict'
import { classifyCommandRisk } from '../../dist/src/plugin/risk.js'

// Command lines as they appear in public projects' Makefiles and package.json scripts.
const DESTRUCTIVE = [
  ['twine upload dist/*', /publishes a package/],
  ['python -m twine upload dist/*', /publishes a package/],
  ['python setup.py egg_info --egg-base /tmp sdist upload -r pypi', /publishes a package/],
  ['npm publish --access public', /publishes a package/],
  ['pnpm -r publish --no-git-checks', /publishes a package/],
  ['changeset publish', /publishes packages/],
  ['npx semantic-release', /publishes a release/],
  ['cargo publish --allow-dirty', /publishes a crate/],
  ['docker push ghcr.io/acme/app:latest', /pushes an image/],
  ['gh-pages -d build', /publishes a site/],
  ['firebase deploy --only hosting', /deploys/],
  ['vercel --prod', /deploys/],
  ['kubectl apply -f k8s/', /changes a cluster/],
  ['terraform destroy -auto-approve', /changes infrastructure/],
  ['aws s3 sync build/ s3://my-bucket --delete', /deletes cloud storage/],
  ['docker system prune -af', /removes containers, images or volumes/],
  ['docker compose down -v', /removes volumes/],
  ['git push --force origin HEAD:gh-pages', /force-pushes/],
  ['git push origin --delete gh-pages', /deletes or overwrites a remote branch/],
  ['git clean -fdx', /deletes untracked files/],
  ['git reset --hard origin/main', /discards uncommitted changes/],
  ['psql -c "DROP DATABASE app_test"', /drops or deletes data/],
  ['dropdb app_dev', /drops a database/],
  ['npx prisma migrate reset --force', /resets a database/],
  ['bin/rails db:drop db:create', /drops a database/],
  ['rm -rf ~/.cache/app', /deletes ~\/.cache\/app \(not build output\)/],
  ['rm -rf src/generated', /deletes src\/generated/],
  ['rm -rf $(OUT_DIR)', /not build output/],
  ['find . -name "*.orig" -delete', /deletes the files find matches/],
  ['sh -c "rm -rf docs"', /deletes docs/],
  ['make deploy', /the task "deploy" deploys/],
  ['npm run release', /the task "release" publishes a release/],
  ['yarn deploy:prod', /the task "deploy:prod" deploys/],
  ['just publish 1.2.0', /the task "publish" publishes/],
  ['./scripts/deploy.sh staging', /the script \.\/scripts\/deploy\.sh deploys/],
]

const HARMLESS = [
  'make build', 'make test', 'npm test', 'npm run build', 'yarn install --frozen-lockfile', 'pnpm -r build',
  'cargo build --release', 'cargo test --workspace', 'go test ./...', 'python -m build', 'python3 setup.py sdist bdist_wheel',
  'tsc -p . && node --test', 'eslint . --fix', 'prettier --write .', 'jest --coverage', 'docker build -t app .',
  'git push origin main', 'git status', 'kubectl get pods', 'terraform plan', 'npm run build:release',
  // cleaning build output is not destructive (see risk.ts)
  'rm -rf dist', 'rimraf dist', 'rm -rf build/ dist/ *.egg-info/', 'rm -rf ./build', 'rm -rf ./*.egg-info',
  'rm -rf node_modules', 'rm -f *.o', 'rm -rf coverage .nyc_output', 'rm -rf target', 'make clean',
  'rm -rf dist && tsc', 'shx rm -rf lib-cov',
]

test('destructive commands are caught, each with a reason', () => {
  for (const [command, reason] of DESTRUCTIVE) {
    const risk = classifyCommandRisk(command)
    assert.equal(risk.destructive, true, `${command} should be destructive`)
    assert.match(risk.reason, reason, command)
  }
})

test('build, test, read-only and build-output cleaning commands do not ask', () => {
  for (const command of HARMLESS) {
    assert.deepEqual(classifyCommandRisk(command), { destructive: false }, command)
  }
})

test('a publish behind a flag, a wrapper or a chain is still found', () => {
  assert.equal(classifyCommandRisk('npm run build && npm publish').destructive, true)
  assert.equal(classifyCommandRisk('NODE_ENV=production npx vercel --prod').destructive, true)
  assert.equal(classifyCommandRisk('cross-env CI=1 semantic-release').destructive, true)
  assert.equal(classifyCommandRisk('bash -c "git push -f"').destructive, true)
})

test('rm targets outside the workspace or above it are destructive even when named like build output', () => {
  for (const command of ['rm -rf /dist', 'rm -rf ../dist', 'rm -rf dist/../src', 'rm -rf *', 'rm -rf .', 'rm -rf $HOME/build']) {
    assert.equal(classifyCommandRisk(command).destructive, true, command)
  }
})

test('text that merely mentions a word is not a command', () => {
  assert.equal(classifyCommandRisk('echo "run make deploy later"').destructive, false)
  assert.equal(classifyCommandRisk('grep -r publish src').destructive, false)
  assert.equal(classifyCommandRisk('make build # then deploy').destructive, false)
})

test('a package script is judged by its body too: `npm run ship` runs `npm publish`', async () => {
  const { classifyRecipeRisk } = await import('../../dist/src/plugin/risk.js')
  const ship = { source: 'scripts', description: 'npm run build && npm publish --access public' }
  assert.match(classifyRecipeRisk(ship, 'npm run ship').reason, /^runs `npm run build && npm publish --access public`, which publishes a package/)
  assert.equal(classifyRecipeRisk({ source: 'scripts', description: 'vite build' }, 'npm run build').destructive, false)
  // a Makefile's description is prose, not the body: only the command line counts
  assert.equal(classifyRecipeRisk({ source: 'make', description: 'npm publish wrapper docs' }, 'make docs').destructive, false)
})
