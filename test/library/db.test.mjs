// The db recipes, run for real against a throwaway PostgreSQL cluster (postgres-cluster.mjs) started
// for this file and stopped at its end; each test works in its own database, so they run concurrently.
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { render, runRecipe, runUndo, sh, tempDir, assertBashSyntax, waitFor } from './harness.mjs'
import { startCluster, clusterUnavailable } from './postgres-cluster.mjs'

const unavailable = clusterUnavailable()
let cluster
let dbCount = 0

before(async () => {
  if (!unavailable) cluster = await startCluster()
})
after(async () => {
  await cluster?.stop()
})

async function psql(sql, { database = 'postgres', env = cluster.env } = {}) {
  const r = await sh('psql -X -At -v ON_ERROR_STOP=1 -d "$DB"', { env: { ...env, DB: database }, input: sql })
  assert.equal(r.code, 0, `psql: ${r.stderr}`)
  return r.stdout.trim()
}

/** A fresh database with public.orders (100 rows). */
async function shop(t) {
  const name = `shop_${++dbCount}`
  await psql(`CREATE DATABASE ${name}`)
  await psql(`CREATE TABLE orders (id int PRIMARY KEY, item text, qty int);
    INSERT INTO orders SELECT g, 'item ' || g, g % 7 FROM generate_series(1, 100) g;`, { database: name })
  t.after(() => psql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {}))
  return name
}

/** A psql client that stays connected (idle) until killed; resolves once the server lists it. */
async function idleClient(t, database, marker) {
  const child = spawn('psql', ['-X', '-q', '-d', database], { env: { ...process.env, ...cluster.env, PGAPPNAME: marker }, stdio: ['pipe', 'ignore', 'ignore'] })
  t.after(() => child.kill('SIGKILL'))
  child.stdin.write('SELECT 1;\n')
  await waitFor(async () => (await psql(`SELECT count(*) FROM pg_stat_activity WHERE application_name = '${marker}' AND state = 'idle'`)) === '1', 10_000, `${marker} to be idle`)
  return child
}

const opts = () => ({ env: cluster.env })

describe('db recipes', { concurrency: true, skip: unavailable }, () => {
  test('db.backup_postgres_database writes a dump that restores into a new database', async (t) => {
    const db = await shop(t)
    const dir = await tempDir(t)
    const file = join(dir, 'shop.dump')
    const r = render('db.backup_postgres_database', { database: db, file })
    assertBashSyntax(r)
    const { steps, verified } = await runRecipe(r, opts())
    assert.match(steps[0].stdout, /\d+ kB/)
    assert.match(steps[2].stdout, /TABLE DATA public orders/)
    assert.equal(verified.trim(), '1')
    const copy = `${db}_copy`
    await psql(`CREATE DATABASE ${copy}`)
    t.after(() => psql(`DROP DATABASE IF EXISTS ${copy} WITH (FORCE)`))
    assert.equal((await sh(`pg_restore -d ${copy} '${file}'`, opts())).code, 0)
    assert.equal(await psql('SELECT count(*), sum(qty) FROM orders', { database: copy }), await psql('SELECT count(*), sum(qty) FROM orders', { database: db }))
  })

  test('db.restore_postgres_database puts back deleted rows and a dropped table', async (t) => {
    const db = await shop(t)
    const dir = await tempDir(t)
    const file = join(dir, 'before.dump')
    assert.equal((await sh(`pg_dump -Fc -f '${file}' ${db}`, opts())).code, 0)
    await psql('DELETE FROM orders WHERE id > 10; CREATE TABLE extra (x int); ', { database: db })
    const r = render('db.restore_postgres_database', { database: db, file })
    assert.equal(r.requires_confirmation, true)
    assertBashSyntax(r)
    const { verified } = await runRecipe(r, opts())
    assert.match(verified, /\borders\b/)
    assert.equal(await psql('SELECT count(*) FROM orders', { database: db }), '100')
    assert.equal(await psql("SELECT count(*) FROM pg_tables WHERE tablename = 'extra'", { database: db }), '1', 'objects not in the dump are left alone')
  })

  test('db.list_database_sizes lists databases and the largest tables', async (t) => {
    const db = await shop(t)
    await psql("CREATE TABLE big AS SELECT g AS id, repeat('x', 500) AS pad FROM generate_series(1, 5000) g; ANALYZE big; ANALYZE orders;", { database: db })
    const r = render('db.list_database_sizes', { database: db, limit: 1 })
    assertBashSyntax(r)
    const { steps, verified } = await runRecipe(r, opts())
    assert.match(steps[0].stdout, new RegExp(`^ ${db}\\s+\\|\\s+\\d+ [kM]B$`, 'm'))
    assert.match(steps[0].stdout, /^ postgres\s+\|/m)
    assert.match(steps[1].stdout, /^ public\.big\s+\|\s+\d+ [kM]B\s+\|\s+\d+ [kM]B\s+\|\s+\d+$/m)
    assert.match(steps[1].stdout, /\(1 row\)/)
    assert.match(verified.trim(), /^\d+ [kM]B$/)
  })

  test('db.kill_idle_connections ends idle sessions and spares a running query', async (t) => {
    const db = await shop(t)
    await idleClient(t, db, 'scout_idle_a')
    await idleClient(t, db, 'scout_idle_b')
    const busy = spawn('psql', ['-X', '-d', db, '-c', 'SELECT pg_sleep(30)'], { env: { ...process.env, ...cluster.env, PGAPPNAME: 'scout_busy' }, stdio: 'ignore' })
    t.after(() => busy.kill('SIGKILL'))
    await waitFor(async () => (await psql("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'scout_busy' AND state = 'active'")) === '1', 10_000, 'the busy query')
    const r = render('db.kill_idle_connections', { database: db, idle_minutes: 0 })
    assertBashSyntax(r)
    const { steps, verified } = await runRecipe(r, opts())
    assert.match(steps[0].stdout, /scout_idle_a/)
    assert.match(steps[1].stdout, /scout_idle_b\s+\|\s+t$/m)
    assert.equal(verified.trim(), '0')
    await waitFor(async () => (await psql("SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'scout_idle_%'")) === '0', 10_000, 'the idle sessions to end')
    assert.equal(await psql("SELECT state FROM pg_stat_activity WHERE application_name = 'scout_busy'"), 'active')
    // The default (10 minutes) leaves a fresh idle session alone.
    await idleClient(t, db, 'scout_idle_c')
    const gentle = render('db.kill_idle_connections', { database: db })
    await sh(gentle.commands[1].command, opts())
    assert.equal(await psql("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'scout_idle_c'"), '1')
  })

  test('db.find_slow_queries puts the slowest statement of the database first', async (t) => {
    const db = await shop(t)
    await psql('SELECT pg_sleep(0.2); SELECT pg_sleep(0.2); SELECT count(*) FROM orders; SELECT max(id) FROM orders;', { database: db })
    const r = render('db.find_slow_queries', { database: db, limit: 3 })
    assertBashSyntax(r)
    const { steps, verified } = await runRecipe(r, opts())
    assert.match(steps[0].stdout, /pg_stat_statements/)
    const rows = steps[2].stdout.split('\n').filter((l) => /^\s*[\d.]+\s+\|/.test(l))
    assert.equal(rows.length, 3)
    assert.match(rows[0], /^\s*[\d.]+\s+\|\s+2\s+\|.*SELECT pg_sleep\(\$1\)/)
    assert.ok(Number(rows[0].split('|')[0]) >= 190, 'mean time of two 0.2 s sleeps')
    assert.ok(Number(verified.trim()) >= 3)
  })

  test('db.find_long_running_queries lists a running query and the session it blocks', async (t) => {
    const db = await shop(t)
    const holder = spawn('psql', ['-X', '-d', db], { env: { ...process.env, ...cluster.env, PGAPPNAME: 'scout_holder' }, stdio: ['pipe', 'ignore', 'ignore'] })
    t.after(() => holder.kill('SIGKILL'))
    holder.stdin.write('BEGIN; LOCK TABLE orders IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(30);\n')
    await waitFor(async () => (await psql("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'scout_holder' AND query LIKE '%pg_sleep%'")) === '1', 10_000, 'the holder to take the lock')
    const waiter = spawn('psql', ['-X', '-d', db, '-c', 'SELECT count(*) FROM orders'], { env: { ...process.env, ...cluster.env, PGAPPNAME: 'scout_waiter' }, stdio: 'ignore' })
    t.after(() => waiter.kill('SIGKILL'))
    await waitFor(async () => (await psql("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'scout_waiter' AND wait_event_type = 'Lock'")) === '1', 10_000, 'the waiter to block')
    await new Promise((res) => setTimeout(res, 1100))
    const holderPid = await psql("SELECT pid FROM pg_stat_activity WHERE application_name = 'scout_holder'")
    const r = render('db.find_long_running_queries', { database: db, seconds: 1 })
    assertBashSyntax(r)
    const { steps, verified } = await runRecipe(r, opts())
    assert.match(steps[0].stdout, /SELECT pg_sleep\(30\);/)
    assert.match(steps[1].stdout, new RegExp(`\\|\\s+\\{${holderPid}\\}\\s+\\|.*SELECT count\\(\\*\\) FROM orders`))
    assert.ok(Number(verified.trim()) >= 2, 'the holder and the waiter both run longer than 1 s')
  })

  test('db.vacuum_table clears dead rows and records the vacuum', async (t) => {
    const db = await shop(t)
    await psql('ALTER TABLE orders SET (autovacuum_enabled = false); DELETE FROM orders WHERE id % 2 = 0;', { database: db })
    const dead = async () => psql("SELECT n_dead_tup, last_vacuum IS NOT NULL FROM pg_stat_user_tables WHERE relname = 'orders'", { database: db })
    await waitFor(async () => (await dead()) === '50|f', 10_000, 'the dead rows to show in the statistics')
    const r = render('db.vacuum_table', { database: db, table: 'public.orders' })
    assertBashSyntax(r)
    const { steps, verified } = await runRecipe(r, opts())
    assert.match(steps[0].stdout, /orders\s+\|\s+50\s+\|\s+50\s+\|/)
    assert.match(steps[1].stderr, /vacuuming "[^"]*public\.orders"/)
    assert.match(verified, /orders\s+\|\s+0\s+\|\s+\d{4}-/)
    assert.equal(await dead(), '0|t')
  })

  test('db.export_table_to_csv writes every row with a header', async (t) => {
    const db = await shop(t)
    await psql("INSERT INTO orders VALUES (101, 'comma, \"quoted\"', 1)", { database: db })
    const dir = await tempDir(t)
    const file = join(dir, 'orders.csv')
    const r = render('db.export_table_to_csv', { database: db, table: 'orders', file })
    assertBashSyntax(r)
    const { steps, verified } = await runRecipe(r, opts())
    assert.match(steps[0].stdout, /^\s+101$/m)
    assert.equal(steps[2].stdout.trim(), `102 ${file}`)
    assert.deepEqual(verified.trim().split('\n'), ['id,item,qty', '1,item 1,1', '2,item 2,2'])
    const csv = await readFile(file, 'utf8')
    assert.match(csv, /^101,"comma, ""quoted""",1$/m)
  })

  test('db.create_readonly_user can read, cannot write, sees new tables; undo removes the role', async (t) => {
    const db = await shop(t)
    const role = `reader_${dbCount}`
    const r = render('db.create_readonly_user', { database: db, role })
    assertBashSyntax(r)
    const { steps, verified } = await runRecipe(r, opts())
    assert.match(steps[0].stdout, /\(0 rows\)/)
    assert.match(verified, /public\s+\|\s+orders\s+\|\s+SELECT/)
    assert.doesNotMatch(verified, /INSERT|UPDATE|DELETE/)
    const asRole = { env: { ...cluster.env, PGUSER: role }, database: db }
    assert.equal(await psql('SELECT count(*) FROM orders', asRole), '100')
    const write = await sh(`psql -X -d ${db} -c "DELETE FROM orders"`, { env: { ...cluster.env, PGUSER: role } })
    assert.notEqual(write.code, 0)
    assert.match(write.stderr, /permission denied for table orders/)
    await psql('CREATE TABLE later (x int); INSERT INTO later VALUES (7)', { database: db })
    assert.equal(await psql('SELECT x FROM later', asRole), '7', 'default privileges cover tables created afterwards')
    await runUndo(r, opts())
    assert.equal(await psql(`SELECT count(*) FROM pg_roles WHERE rolname = '${role}'`), '0')
  })

  test('db.show_connection_counts counts sessions by database and state', async (t) => {
    const db = await shop(t)
    for (const n of [1, 2, 3]) await idleClient(t, db, `scout_count_${n}`)
    const r = render('db.show_connection_counts', { database: db })
    assertBashSyntax(r)
    const { steps, verified } = await runRecipe(r, opts())
    assert.match(steps[0].stdout, new RegExp(`^ ${db}\\s+\\|\\s+postgres\\s+\\|\\s+idle\\s+\\|\\s+3$`, 'm'))
    assert.match(steps[1].stdout, /^\s+\d+\s+\|\s+97$/m)
    assert.ok(Number(verified.trim()) >= 4)
  })

  test('db.check_replication_lag sees a real streaming standby from both sides', async (t) => {
    const standbyEnv = await cluster.startStandby()
    await psql('CREATE TABLE IF NOT EXISTS repl_probe (x int); INSERT INTO repl_probe VALUES (1)')
    await waitFor(async () => (await sh('psql -X -At -c "SELECT count(*) FROM repl_probe"', { env: standbyEnv })).stdout.trim() === '1', 20_000, 'the standby to replay')
    const r = render('db.check_replication_lag', {})
    assertBashSyntax(r)
    await waitFor(async () => (await psql("SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'")) === '1', 20_000, 'streaming')
    const primary = await runRecipe(r, opts())
    assert.match(primary.steps[0].stdout, /^ f$/m)
    assert.match(primary.steps[1].stdout, /^ scout_standby\s+\|\s+127\.0\.0\.1\s+\|\s+streaming\s+\|\s+async\s+\|/m)
    assert.equal(primary.verified.trim(), '1')
    const standby = await runRecipe(r, { env: standbyEnv })
    assert.match(standby.steps[0].stdout, /^ t$/m)
    assert.match(standby.steps[2].stdout, /^\s+[\d:.]+\s+\|\s+[0-9A-F]+\/[0-9A-F]+\s+\|\s+[0-9A-F]+\/[0-9A-F]+$/m)
    assert.equal(standby.verified.trim(), '0')
  })
})
