// The gate's judge on command lines of its own (what dsh's bash gets): the shell parser seen
// through every construct and wrapper, the rule table, and build output as the repository says it
// (.gitignore, well-known output directories, never a path git tracks). Each case could fail.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, writeFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { execFileSync } from 'node:child_process'
import { tempDir } from '../support/temp.mjs'

const { judgeCommand, callWords, commandWithWords, ArgsError } = await import('../../dist/src/book/risk/index.js')

function repo(t) {
  const root = tempDir(t, 'cs-gate-judge-')
  const files = { 'src/main.c': 'int main;', 'bin/run': '#!/bin/sh\n', 'README.md': '# x', 'package.json': '{}', '.gitignore': 'lib/\n*.gen\n/generated\ndist/\n',
    'scripts/clean.sh': '#!/bin/sh\nrm -rf src\n', 'scripts/tidy.sh': '#!/bin/sh\nrm -rf dist coverage\n', 'dist/x.js': '', 'generated/a.txt': '' }
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  execFileSync('git', ['init', '-q'], { cwd: root })
  execFileSync('git', ['add', '-A'], { cwd: root })
  return root
}

const ASKS = [
  'rm -rf src', 'rm -rf bin', 'rm -rf *', 'rm -rf .', 'rm -rf ..', 'rm -rf /', 'rm -rf ~/x', 'rm -rf $DIR', 'rm -rf "$(pwd)"', 'rm README.md',
  'sudo -u root rm -rf src', 'doas rm -rf src', 'timeout 5 rm -rf src', 'timeout -s KILL 5 rm -rf src', 'nice -n 5 rm -rf src', 'ionice -c3 rm -rf src',
  'stdbuf -oL rm -rf src', 'env X=1 rm -rf src', 'env -S "rm -rf src"', 'nohup rm -rf src &', 'command rm -rf src', 'builtin eval "rm -rf src"', 'exec rm -rf src',
  'echo src | xargs rm -rf', 'find . -name "*.c" -delete', 'find src -execdir rm {} \\;', 'find . -type f -exec rm -f {} +', 'busybox rm -rf src', 'parallel rm ::: src',
  'eval "rm -rf src"', 'sh -c "rm -rf src"', "bash -lc 'rm -rf src'", 'true && rm -rf src', 'rm -rf src || true', 'if true; then rm -rf src; fi', '{ rm -rf src; }',
  '(rm -rf src)', 'for f in a; do rm -rf src; done', 'case a in a) rm -rf src;; esac', 'f() { rm -rf src; }; f', 'echo `rm -rf src`', 'echo $(rm -rf src)',
  'cat <(rm -rf src)', 'echo hi\nrm -rf src', "python3 -c \"import shutil; shutil.rmtree('src')\"", "node -e \"require('fs').rmSync('src',{recursive:true})\"",
  "perl -e 'unlink \"README.md\"'", "ruby -e 'FileUtils.rm_rf(\"src\")'", "php -r 'unlink(\"package.json\");'", "python -c \"import os; os.system('rm -rf src')\"",
  '> README.md', ': > src/main.c', 'echo x > README.md', 'truncate -s0 README.md', 'sed -i s/a/b/ README.md', 'mv src /tmp', 'ln -sf /dev/null README.md',
  'cp /dev/null README.md', 'chmod -R 000 src', 'chmod -R a-w src', 'rsync -a --delete a/ b/', 'dd if=/dev/zero of=README.md', 'shred README.md', 'unlink README.md',
  'git clean -fdx', 'git reset --hard', 'git checkout -- .', 'git restore .', 'git push --force', 'git push -f origin main', 'git push origin --delete x', 'git push origin :x',
  'git push origin +main', 'git branch -D x', 'git tag -d v1', 'git update-ref -d refs/heads/x', 'git worktree remove --force w', 'git stash drop', 'git stash clear',
  'git filter-branch --all', 'git rm -r src', 'git push', 'npm install -g x', 'git -C . reset --hard HEAD', 'npm publish', 'pnpm publish -r', 'yarn npm publish', 'npm unpublish x', 'cargo publish',
  'twine upload dist/*', 'python -m twine upload dist/*', 'gh release create v1', 'gh release delete v1', 'gh repo delete o/r --yes', 'kubectl apply -f k.yml',
  'kubectl -n x delete pod y', 'helm upgrade x y', 'helm uninstall x', 'terraform apply', 'terraform -chdir=infra destroy', 'pulumi up', 'pulumi destroy', 'vercel --prod',
  'fly deploy', 'serverless deploy', 'aws s3 rm s3://b --recursive', 'gsutil rm gs://b/x', 'docker system prune -af', 'docker volume rm v', 'docker rm -f c',
  'docker compose down -v', 'dropdb app', 'psql -c "DROP TABLE users"', 'mysql -e "TRUNCATE TABLE t"', 'redis-cli FLUSHALL', 'php artisan migrate:fresh', 'php artisan db:wipe',
  'python manage.py flush --no-input', 'rails db:drop', 'bin/rails db:reset', 'npx prisma migrate reset', 'supabase db reset', './scripts/clean.sh', 'bash scripts/clean.sh', 'sh ./scripts/clean.sh',
  'bash <<EOF\nrm -rf src\nEOF', 'echo "rm -rf src" | sh', 'psql <<EOF\nDROP TABLE x;\nEOF', "python3 - <<'EOF'\nimport shutil; shutil.rmtree('src')\nEOF",
]
const FREE = [
  'rm -rf dist', 'rm -rf dist build coverage', 'rm -rf ./dist/', 'rm -rf node_modules/.cache', 'rm -rf lib', 'rm -f *.o', 'rm -rf *.egg-info', 'rm -rf dist/*', 'rm -rf generated',
  'rm -f out.gen', 'rm -rf /tmp/cs-scratch', 'find . -name "*.pyc" -delete', 'find . -name __pycache__ -exec rm -rf {} +', 'tsc -p . && vite build', 'cargo test', 'npm test',
  'eslint . --fix', 'prettier --write .', 'go test ./...', 'make -j4', 'echo hi > out.gen', 'echo hi > new-file.txt', 'node build.js > dist/out.js', 'cp README.md dist/',
  'chmod +x bin/run', 'git status', 'git diff --stat', 'git checkout -b feature', 'git restore --staged .', 'git push --dry-run', 'git tag v1', 'npm publish --dry-run', 'cargo publish --dry-run',
  'docker compose down', 'docker build -t x .', 'kubectl get pods', 'terraform plan', 'command -v rm', './scripts/tidy.sh', 'bash scripts/tidy.sh', 'python -c "print(1)"',
  "node -e \"require('fs').rmSync('dist',{recursive:true,force:true})\"", 'cat README.md | grep x', 'echo "rm -rf src"', 'printf "%s" "git reset --hard"',
  'cat <<EOF > out.gen\nrm -rf src\nEOF', 'echo hi | bash', 'git log | head -5',
]

test(`every one of ${ASKS.length} destructive lines asks, with a reason that names the command`, (t) => {
  const root = repo(t)
  const missed = []
  for (const line of ASKS) {
    const v = judgeCommand(line, { root })
    if (!v.destructive) missed.push(line)
    else assert.match(v.reason, /^`[^`]+` \S/, `reason for ${line}: ${v.reason}`)
  }
  assert.deepEqual(missed, [])
  assert.ok(existsSync(join(root, 'src/main.c')), 'judging ran nothing')
})

test(`none of ${FREE.length} everyday lines asks`, (t) => {
  const root = repo(t)
  const asked = FREE.map((line) => [line, judgeCommand(line, { root })]).filter(([, v]) => v.destructive).map(([line, v]) => `${line}: ${v.reason}`)
  assert.deepEqual(asked, [])
})

test('a refusal says which path, and why it is not build output', (t) => {
  const root = repo(t)
  assert.match(judgeCommand('rm -rf src', { root }).reason, /`rm -rf src` deletes `src`, which git tracks/)
  assert.match(judgeCommand('git clean -fdx', { root }).reason, /deletes every untracked file/)
  writeFileSync(join(root, 'notes.txt'), 'mine')
  assert.match(judgeCommand('rm notes.txt', { root }).reason, /not build output \(no \.gitignore ignores it\)/)
  assert.match(judgeCommand('./scripts/clean.sh', { root }).reason, /scripts\/clean\.sh/)
})

test('a tracked file inside a well-known output directory is still protected', (t) => {
  const root = repo(t)
  mkdirSync(join(root, 'build'))
  writeFileSync(join(root, 'build/config.cmake'), 'x')
  execFileSync('git', ['add', 'build/config.cmake'], { cwd: root })
  assert.equal(judgeCommand('rm -rf build', { root }).destructive, true)
  assert.equal(judgeCommand('rm -rf dist', { root }).destructive, false)
})

test('a cd earlier in the line moves where paths resolve', (t) => {
  const root = repo(t)
  assert.equal(judgeCommand('cd src && rm -rf *', { root }).destructive, true)
  assert.equal(judgeCommand('cd dist && rm -rf *', { root }).destructive, false)
  assert.equal(judgeCommand('rm -rf main.c', { root, cwd: join(root, 'src') }).destructive, true)
})

test('a script file that links out of the repository is not read', (t) => {
  const root = repo(t)
  const outside = tempDir(t, 'cs-gate-outside-')
  writeFileSync(join(outside, 'evil.sh'), 'rm -rf dist\n')
  execFileSync('ln', ['-s', join(outside, 'evil.sh'), join(root, 'scripts/linked.sh')])
  // Not read: judged by its command line only, which deletes nothing.
  assert.equal(judgeCommand('./scripts/linked.sh', { root }).destructive, false)
})

test('args: words pass, shell text is refused with the reason', () => {
  assert.deepEqual(callWords(['--watch', 'a b']), ['--watch', 'a b'])
  assert.deepEqual(callWords('--watch "a b" VAR=1'), ['--watch', 'a b', 'VAR=1'])
  assert.deepEqual(callWords(undefined), [])
  for (const [text, why] of [['; rm -rf src', /operator/], ['\nrm -rf src', /line break/], ['$(rm -rf src)', /substitution/], ['`rm -rf src`', /substitution/],
    ['&& rm -rf src', /operator/], ['| sh', /operator/], ['> README.md', /redirection/], ['{ rm x; }', /./], ['"$HOME"', /expansion/]]) {
    assert.throws(() => callWords(text), (e) => e instanceof ArgsError && why.test(e.message) && /as a list/.test(e.message), text)
  }
  assert.throws(() => callWords([1]), ArgsError)
  assert.equal(commandWithWords({ command: 'npm run x', argsSeparator: '--' }, ['a b', "it's", '--flag']), "npm run x -- 'a b' 'it'\\''s' --flag")
})
