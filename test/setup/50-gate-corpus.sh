# The destructive gate's everyday corpus: the published packages test/setup/gate-corpus/packages.txt
# pins (npm tarballs with `npm pack`, PyPI sdists with `pip download`), of which only the manifests
# and scripts are kept, installed once under .cache/gate-corpus (test/setup/gate-corpus/README.md).
# Skipped while the cache's stamp matches the list. Sourced by scripts/test.sh. An install that
# fails is reported, leaves its reason in .cache/gate-corpus/failed.txt, and the corpus test skips
# with it; the rest of the suite still runs.
if ! node test/setup/gate-corpus/fetch.mjs --check; then
  node test/setup/gate-corpus/fetch.mjs \
    || echo "test/setup/50-gate-corpus.sh: the gate corpus did not install (.cache/gate-corpus/failed.txt); its test skips" >&2
fi
