// The files recipes, run for real on trees built in temporary directories.
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdir, writeFile, readFile, readdir, stat, chmod, utimes, access } from 'node:fs/promises'
import { join } from 'node:path'
import { render, runRecipe, runUndo, sh, tempDir, assertBashSyntax } from './harness.mjs'

const exists = (p) => access(p).then(() => true, () => false)

/** Writes {relativePath: content} under dir, creating parents. */
async function tree(dir, files) {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true })
    await writeFile(join(dir, path), content)
  }
}

describe('files recipes', { concurrency: true }, () => {
  test('files.list_largest_files lists the biggest files first', async (t) => {
    const dir = await tempDir(t)
    await tree(dir, { 'data/big.bin': Buffer.alloc(300_000), 'data/mid.bin': Buffer.alloc(20_000), 'small.txt': 'x', 'deep/er/medium.log': Buffer.alloc(50_000) })
    const r = render('files.list_largest_files', { path: dir, count: 2 })
    assertBashSyntax(r)
    const { out, verified } = await runRecipe(r)
    const lines = out.trim().split('\n')
    assert.equal(lines.length, 2)
    assert.match(lines[0], /^293KiB\s+.*\/data\/big\.bin$/)
    assert.match(lines[1], /^49KiB\s+.*\/deep\/er\/medium\.log$/)
    assert.equal(verified, '', 'no file over 100 MB')
  })

  test('files.find_large_directories totals each subdirectory, largest first', async (t) => {
    const dir = await tempDir(t)
    await tree(dir, { 'a/x.bin': Buffer.alloc(400_000), 'b/y.bin': Buffer.alloc(40_000), 'b/c/z.bin': Buffer.alloc(900_000) })
    const r = render('files.find_large_directories', { path: dir })
    assertBashSyntax(r)
    const { steps, verified } = await runRecipe(r)
    const names = steps[0].stdout.trim().split('\n').map((l) => l.split('\t')[1])
    assert.deepEqual(names, [dir, join(dir, 'b'), join(dir, 'a')])
    assert.match(steps[1].stdout, /Filesystem/)
    assert.match(verified.trim(), new RegExp(`^[0-9.]+[KM]\\s+${dir}$`))
  })

  test('files.find_recently_changed_files lists only files changed in the window', async (t) => {
    const dir = await tempDir(t)
    await tree(dir, { 'new.txt': 'n', 'sub/new2.txt': 'n', 'old.txt': 'o', '.git/HEAD': 'h' })
    const old = new Date(Date.now() - 3 * 3600_000)
    await utimes(join(dir, 'old.txt'), old, old)
    const r = render('files.find_recently_changed_files', { path: dir, minutes: 30 })
    assertBashSyntax(r)
    const { out, verified } = await runRecipe(r)
    const listed = out.trim().split('\n').map((l) => l.split('  ')[1]).sort()
    assert.deepEqual(listed, [join(dir, 'new.txt'), join(dir, 'sub/new2.txt')])
    assert.equal(verified.trim(), '2')
  })

  test('files.delete_empty_directories deletes nested empty directories; undo recreates them', async (t) => {
    const dir = await tempDir(t)
    const work = join(dir, 'work')
    await tree(work, { 'keep/file.txt': 'x' })
    for (const d of ['empty', 'nest/a/b', 'keep/empty-too', '.git/refs/tags']) await mkdir(join(work, d), { recursive: true })
    const list = join(dir, 'empty.txt')
    const r = render('files.delete_empty_directories', { path: work, list_file: list })
    assertBashSyntax(r)
    const { verified } = await runRecipe(r)
    assert.equal(verified.trim(), '0')
    assert.deepEqual((await readdir(work)).sort(), ['.git', 'keep'])
    assert.deepEqual(await readdir(join(work, 'keep')), ['file.txt'])
    assert.equal(await exists(join(work, '.git/refs/tags')), true, '.git is never touched')
    await runUndo(r)
    for (const d of ['empty', 'nest/a/b', 'keep/empty-too']) assert.ok((await stat(join(work, d))).isDirectory(), d)
  })

  test('files.backup_directory_tar writes an archive that matches the directory', async (t) => {
    const dir = await tempDir(t)
    await tree(dir, { 'site/index.html': '<h1>hi</h1>', 'site/img/logo.svg': '<svg/>' })
    await chmod(join(dir, 'site/index.html'), 0o600)
    const r = render('files.backup_directory_tar', { source: 'site', archive: 'backups/site.tar.gz' })
    assertBashSyntax(r)
    await mkdir(join(dir, 'backups'))
    const { steps, verified } = await runRecipe(r, { cwd: dir })
    assert.equal(steps[2].stdout, '', 'tar --diff finds no difference')
    assert.match(verified, /^-rw------- .* site\/index\.html$/m)
    assert.match(verified, /site\/img\/logo\.svg$/m)
    assert.equal(r.undo.possible, false, 'deleting the archive is left to the user')
    // The archive really restores: unpack it elsewhere and compare.
    assert.equal((await sh('mkdir check && tar -xzf backups/site.tar.gz -C check && diff -r site check/site', { cwd: dir })).code, 0)
  })

  test('files.restore_tar_backup restores the files and refuses to overwrite', async (t) => {
    const dir = await tempDir(t)
    await tree(dir, { 'site/index.html': 'original', 'site/img/logo.svg': '<svg/>' })
    assert.equal((await sh('tar -czf site.tar.gz site', { cwd: dir })).code, 0)
    const r = render('files.restore_tar_backup', { archive: 'site.tar.gz', destination: 'restored' })
    assertBashSyntax(r)
    assert.equal(r.undo.possible, false)
    const { steps, verified } = await runRecipe(r, { cwd: dir })
    assert.equal(steps[3].stdout, '', 'tar --diff finds no difference')
    assert.equal(verified, '', 'no archived entry is missing')
    assert.equal((await sh('diff -r site restored/site', { cwd: dir })).code, 0)
    assert.equal(await readFile(join(dir, 'restored/site/index.html'), 'utf8'), 'original')
    // A second restore over an edited file must fail and keep the edit.
    await writeFile(join(dir, 'restored/site/index.html'), 'edited')
    const again = await sh(r.commands[2].command, { cwd: dir })
    assert.notEqual(again.code, 0)
    assert.equal(await readFile(join(dir, 'restored/site/index.html'), 'utf8'), 'edited')
    // The verification notices a file missing from the destination.
    await sh('rm restored/site/img/logo.svg', { cwd: dir })
    assert.equal((await sh(r.verification[0].command, { cwd: dir })).stdout, 'missing site/img/logo.svg\n')
  })

  test('files.bulk_rename_files renames by replacing text, never overwriting; undo renames back', async (t) => {
    const dir = await tempDir(t)
    await tree(dir, { 'photos/a.jpeg': 'a', 'photos/b c.jpeg': 'b', 'photos/d.jpg': 'taken', 'photos/d.jpeg': 'd', 'photos/notes.txt': 'n' })
    const r = render('files.bulk_rename_files', { path: 'photos', from: '.jpeg', to: '.jpg' })
    assertBashSyntax(r)
    const { steps, verified } = await runRecipe(r, { cwd: dir })
    assert.match(steps[0].stdout, /^photos\/b c\.jpeg -> photos\/b c\.jpg$/m)
    assert.deepEqual(verified.trim().split('\n'), ['a.jpg', 'b c.jpg', 'd.jpeg', 'd.jpg', 'notes.txt'])
    assert.equal(await readFile(join(dir, 'photos/d.jpg'), 'utf8'), 'taken', 'the existing d.jpg was not overwritten')
    await runUndo(r, { cwd: dir })
    assert.deepEqual((await readdir(join(dir, 'photos'))).sort(), ['a.jpeg', 'b c.jpeg', 'd.jpeg', 'd.jpg', 'notes.txt'])
    assert.equal(await readFile(join(dir, 'photos/b c.jpeg'), 'utf8'), 'b')
  })

  test('files.find_duplicate_files groups files with identical content', async (t) => {
    const dir = await tempDir(t)
    await tree(dir, { 'a.txt': 'same', 'sub/copy of a.txt': 'same', 'b.txt': 'other', 'c.txt': 'third', 'd/c2.txt': 'third', 'empty1': '', 'empty2': '' })
    const r = render('files.find_duplicate_files', { path: '.' })
    assertBashSyntax(r)
    const { out, verified } = await runRecipe(r, { cwd: dir })
    const groups = out.trim().split('\n\n').map((g) => g.split('\n').map((l) => l.slice(66)).sort())
    assert.deepEqual(groups.sort(), [['./a.txt', './sub/copy of a.txt'], ['./c.txt', './d/c2.txt']])
    assert.equal(verified.trim(), '2')
    // The macOS variant (shasum and awk instead of GNU uniq -w) uses tools this machine has too: same groups.
    const mac = render('files.find_duplicate_files', { path: '.' }, 'macos')
    const { out: macOut } = await runRecipe(mac, { cwd: dir })
    assert.deepEqual(macOut.trim().split('\n\n').map((g) => g.split('\n').map((l) => l.slice(66)).sort()).sort(), groups.sort())
  })

  test('files.fix_permissions sets 755/644 and the undo restores the saved modes', async (t) => {
    const dir = await tempDir(t)
    await tree(dir, { 'app/run.sh': '#!/bin/sh', 'app/conf/key.pem': 'k', 'app/readme': 'r' })
    await chmod(join(dir, 'app/run.sh'), 0o775)
    await chmod(join(dir, 'app/conf/key.pem'), 0o600)
    await chmod(join(dir, 'app/conf'), 0o700)
    const r = render('files.fix_permissions', { path: 'app', modes_file: 'modes.txt' })
    assertBashSyntax(r)
    const { verified } = await runRecipe(r, { cwd: dir })
    const mode = async (p) => ((await stat(join(dir, p))).mode & 0o777).toString(8)
    assert.deepEqual(await Promise.all(['app/run.sh', 'app/conf/key.pem', 'app/conf', 'app'].map(mode)), ['644', '644', '755', '755'])
    assert.match(verified, /^-rw-r--r-- .* run\.sh$/m)
    await runUndo(r, { cwd: dir })
    assert.deepEqual(await Promise.all(['app/run.sh', 'app/conf/key.pem', 'app/conf'].map(mode)), ['775', '600', '700'])
  })
})
