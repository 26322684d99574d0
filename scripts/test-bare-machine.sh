#!/usr/bin/env bash
# npm run test:bare-machine: the README's two steps for the tests, `npm ci` then `npm test`, on a bare Debian machine
# (decision 053). The machine is a container of the local Node 24 base (../shared/tools/container-base.sh, built when
# missing: Debian bookworm minbase, Node 24 and npm, nothing else — no PostgreSQL, no Redis, no Chromium, no fonts,
# no compilers), run as root with a network namespace of its own (podman's bridge: the npm registry and Debian's
# mirrors are reached, this machine's PostgreSQL and Redis on 127.0.0.1 are not). It gets a fresh clone of HEAD and
# runs, with nothing done by hand:
#   npm ci --no-audit --no-fund && npm test
# (or the command given as arguments, e.g. `npm run test:bare-machine -- 'npm ci && npx vitest run server/config/server.test.ts'`).
# Prints the transcript as it goes, then its first and last lines and the time taken; exits with the command's
# status. Not part of .ci/run: a cold run takes about as long as CI itself.
set -euo pipefail
cd "$(dirname "$0")/.."
tools=$(cd .. && pwd)/shared/tools
PM="$tools/podman.sh"
BASE=${BARE_BASE_IMAGE:-localhost/node:24-bookworm-slim}
command_line=${*:-npm ci --no-audit --no-fund && npm test}

work=$(mktemp -d)
name="cunzheng-bare-$$"
cleanup() {
  "$PM" rm -f -t 0 "$name" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

if ! "$PM" image exists "$BASE"; then
  echo "== building $BASE (../shared/tools/container-base.sh)"
  bash "$tools/container-base.sh"
fi
git clone --quiet --no-hardlinks "$PWD" "$work/src"
echo "== $(git -C "$work/src" log -1 --format='%h %s') in a bare container of $BASE"
echo "== $command_line"
started=$SECONDS
status=0
"$PM" run --name "$name" --network bridge -v "$work/src:/work/cunzheng" -w /work/cunzheng "$BASE" \
  bash -c "$command_line" </dev/null 2>&1 | tee "$work/transcript.log" || status=${PIPESTATUS[0]}
elapsed=$((SECONDS - started))
echo
echo "== transcript: first lines"
head -n 5 "$work/transcript.log"
echo "== transcript: last lines"
tail -n 12 "$work/transcript.log"
echo "== exit status $status after ${elapsed}s ($((elapsed / 60)) min $((elapsed % 60)) s)"
exit "$status"
