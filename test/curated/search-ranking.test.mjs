// The ranking on the shipped library: what people type, and the recipe that must come first. Each
// query is a real way to ask; a change of weights, tags or titles that moves one of them fails here.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { loadLibrary, searchLibrary, SHIPPED_RECIPES_DIR } from '../../dist/src/curated/index.js'

const library = loadLibrary([SHIPPED_RECIPES_DIR])

const EXPECTED_FIRST = [
  ["undo commit", "git.undo_last_commit"],
  ["undo last commit", "git.undo_last_commit"],
  ["revert pushed commit", "git.revert_pushed_commit"],
  ["fix last commit message", "git.amend_last_commit"],
  ["amend commit", "git.amend_last_commit"],
  ["delete untracked files", "git.clean_untracked_files"],
  ["restore deleted file", "git.restore_deleted_file"],
  ["recover dropped stash", "git.recover_dropped_stash"],
  ["rename branch", "git.rename_branch"],
  ["unstage files", "git.unstage_files"],
  ["which commit added this string", "git.find_commit_introducing_string"],
  ["kill process on port", "network.kill_process_on_port"],
  ["port already in use", "network.find_process_on_port"],
  ["what is listening on port 3000", "network.find_process_on_port"],
  ["is port open", "network.check_port_open"],
  ["certificate expiry", "network.check_tls_certificate_expiry"],
  ["tls cert expires", "network.check_tls_certificate_expiry"],
  ["resume download", "network.download_with_resume"],
  ["http headers", "network.show_http_response_headers"],
  ["dns lookup", "network.test_dns_resolution"],
  ["slow http request timing", "network.trace_http_timing"],
  ["listening sockets", "network.show_listening_sockets"],
  ["largest files", "files.list_largest_files"],
  ["biggest directories", "files.find_large_directories"],
  ["duplicate files", "files.find_duplicate_files"],
  ["delete empty directories", "files.delete_empty_directories"],
  ["rename many files", "files.bulk_rename_files"],
  ["fix permissions", "files.fix_permissions"],
  ["recently changed files", "files.find_recently_changed_files"],
  ["tar backup directory", "files.backup_directory_tar"],
  ["restore tar", "files.restore_tar_backup"],
  ["docker disk space", "docker.free_disk_space"],
  ["remove dangling images", "docker.remove_dangling_images"],
  ["remove stopped containers", "docker.remove_stopped_containers"],
  ["container logs", "docker.show_container_logs"],
  ["shell into container", "docker.open_shell_in_container"],
  ["copy file out of container", "docker.copy_files_from_container"],
  ["container environment variables", "docker.inspect_container_env"],
  ["prune build cache", "docker.prune_build_cache"],
  ["backup postgres", "db.backup_postgres_database"],
  ["restore postgres dump", "db.restore_postgres_database"],
  ["replication lag", "db.check_replication_lag"],
  ["read only user", "db.create_readonly_user"],
  ["export table csv", "db.export_table_to_csv"],
  ["long running queries", "db.find_long_running_queries"],
  ["slow queries", "db.find_slow_queries"],
  ["kill idle connections", "db.kill_idle_connections"],
  ["database size", "db.list_database_sizes"],
  ["connection count", "db.show_connection_counts"],
  ["vacuum", "db.vacuum_table"],
  ["npm audit vulnerabilities", "node.audit_vulnerable_packages"],
  ["clear npm cache", "node.clear_npm_cache"],
  ["why is package installed", "node.explain_why_package_installed"],
  ["biggest node_modules packages", "node.find_largest_dependencies"],
  ["unused dependencies", "node.find_unused_dependencies"],
  ["outdated packages", "node.list_outdated_packages"],
  ["reinstall node_modules", "node.reinstall_node_modules"],
  ["run script in every workspace", "node.run_script_in_all_workspaces"],
  ["switch node version nvm", "node.switch_node_version"],
  ["revrt comit", "git.revert_pushed_commit"],
]

test(`${EXPECTED_FIRST.length} queries rank the recipe they ask for first`, () => {
  assert.ok(EXPECTED_FIRST.length >= 30)
  const misses = []
  for (const [query, expected] of EXPECTED_FIRST) {
    const found = searchLibrary(library, { text: query }).map((r) => r.id)
    if (found[0] !== expected) misses.push(`${query}: got ${found.slice(0, 3).join(', ') || 'nothing'}, expected ${expected}`)
  }
  assert.deepEqual(misses, [])
})

test('undo commit: the undo recipe outranks the revert one, in the CLI\'s and the tool\'s search alike', () => {
  const found = searchLibrary(library, { text: 'undo commit' }).map((r) => r.id)
  assert.equal(found[0], 'git.undo_last_commit')
  assert.ok(found.indexOf('git.revert_pushed_commit') > 0, found.join(', '))
})

test('filters apply before ranking, and a query no recipe has every word of falls back to the most words', () => {
  assert.deepEqual(searchLibrary(library, { text: 'port', category: 'db' }).map((r) => r.id).includes('network.kill_process_on_port'), false)
  const fallback = searchLibrary(library, { text: 'kill port zzzqqq' }).map((r) => r.id)
  assert.equal(fallback[0], 'network.kill_process_on_port')
})
