#!/usr/bin/env bash
# npm run test:container (decision 041): the container image, built and run here with podman.
#  1. A base like the official node:24-bookworm-slim: the local stand-in (../shared/tools/container-base.sh, built when
#     missing) without its npm_config_nodedir, its NODE_EXTRA_CA_CERTS and its system CA bundle
#     (tests/container/official-like.Containerfile). The image builds on it reaching only the npm registry and
#     Debian's mirrors (all this machine reaches); a TLS-inspecting gateway's root goes in as the build secret `ca`
#     (CONTAINER_BUILD_CA, default the machine's local CAs) and must be in no layer of the image.
#  2. The image is at most CONTAINER_MAX_BYTES (1 GB) and runs as `node`.
#  3. Containers run read-only as non-root (--read-only --tmpfs /tmp -v VOLUME:/data --user node, host network, a
#     free port): the default start seeds no demo account, SIGTERM stops it with exit code 0 in time; the same volume
#     with SEED_DEMO=1 serves the preserve flow (tests/container/preserve-flow.spec.ts, Playwright, JS off);
#     a one-off container checks Chromium's CJK font and the screencast → ffmpeg path of process capture
#     (tests/container/media-check.ts); a second container of the image against a fresh PostgreSQL database serves
#     the same flow. Every container, volume and database it made is removed on exit.
# Not part of .ci/run (a cold build takes ~10 minutes). CONTAINER_NO_CACHE=1 rebuilds every layer.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
tools=$(cd .. && pwd)/shared/tools
PM="$tools/podman.sh"
IMAGE=localhost/cunzheng:container-test
BASE=localhost/cunzheng-test-base:official-like
MAX_BYTES=${CONTAINER_MAX_BYTES:-1000000000}
SHUTDOWN_MS=5000
PGHOST=${PGHOST:-127.0.0.1}
run=$$-$RANDOM
work=$(mktemp -d)
containers=()
volumes=()
db=''
started=$SECONDS

step() { printf '\n== %s (%ss)\n' "$*" "$((SECONDS - started))"; }
fail() {
  printf 'FAIL: %s\n' "$*" >&2
  exit 1
}
cleanup() {
  local c v
  for c in "${containers[@]}"; do "$PM" rm -f -t 0 "$c" >/dev/null 2>&1 || true; done
  for v in "${volumes[@]}"; do "$PM" volume rm -f "$v" >/dev/null 2>&1 || true; done
  if [[ -n $db ]]; then dropdb -h "$PGHOST" -U postgres --if-exists "$db" || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

free_port() {
  node -e "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

# start NAME VOLUME PORT [podman run options…]: a detached container of the image, read-only and non-root
start() {
  local name=$1 vol=$2 port=$3
  shift 3
  containers+=("$name")
  # (podman's complaint that it cannot hand the HEALTHCHECK to systemd goes to run.log; `healthcheck run` works)
  "$PM" run -d --name "$name" --read-only --tmpfs /tmp --user node --network host -v "$vol:/data" \
    -e PORT="$port" -e HOST=127.0.0.1 -e LOG_LEVEL=warn -e SHUTDOWN_TIMEOUT_MS="$SHUTDOWN_MS" "$@" "$IMAGE" \
    >/dev/null 2>>"$work/run.log" || {
    cat "$work/run.log" >&2
    fail "$name did not start"
  }
  local deadline=$((SECONDS + 120))
  until curl -fs -o /dev/null "http://127.0.0.1:$port/healthz" 2>/dev/null; do
    if [[ $("$PM" inspect --format '{{.State.Running}}' "$name") != true ]]; then
      "$PM" logs "$name" >&2 || true
      fail "$name exited before it was healthy"
    fi
    ((SECONDS < deadline)) || fail "$name not healthy after 120 s"
    sleep 1
  done
  echo "$name healthy on :$port after $((SECONDS - deadline + 120)) s"
}

# stop NAME: SIGTERM through tini; exit code 0 within SHUTDOWN_TIMEOUT_MS (plus a second for the runtime)
stop() {
  local name=$1 t0 code ms
  t0=$(date +%s%N)
  "$PM" kill --signal TERM "$name" >/dev/null
  code=$("$PM" wait "$name")
  ms=$((($(date +%s%N) - t0) / 1000000))
  echo "$name stopped by SIGTERM: exit $code after $ms ms"
  [[ $code == 0 ]] || {
    "$PM" logs --tail 30 "$name" >&2
    fail "$name exited with $code on SIGTERM"
  }
  ((ms <= SHUTDOWN_MS + 1000)) || fail "$name took $ms ms to stop (SHUTDOWN_TIMEOUT_MS=$SHUTDOWN_MS)"
  # nothing tried to write outside /data and /tmp
  if "$PM" logs "$name" 2>&1 | grep -E 'EROFS|read-only file system'; then fail "$name wrote outside /data and /tmp"; fi
}

# flow LABEL PORT: the preserve flow in Playwright against the container on PORT
flow() {
  CONTAINER_LABEL=$1 CONTAINER_BASE_URL="http://127.0.0.1:$2" playwright test -c tests/container/playwright.config.ts
}

step "base images"
"$tools/container-base.sh"
"$PM" build -q --network none --unsetenv npm_config_nodedir --unsetenv NODE_EXTRA_CA_CERTS -t "$BASE" \
  -f tests/container/official-like.Containerfile tests/container >/dev/null

step "image build"
# The gateway's root: CONTAINER_BUILD_CA, else the CAs added to this machine (Debian's
# /usr/local/share/ca-certificates), else NODE_EXTRA_CA_CERTS; none is fine where TLS is not inspected.
ca=${CONTAINER_BUILD_CA:-}
if [[ -z $ca ]]; then
  local_cas=(/usr/local/share/ca-certificates/*.crt)
  if [[ -e ${local_cas[0]} ]]; then
    cat "${local_cas[@]}" >"$work/ca.pem"
    ca=$work/ca.pem
  else
    ca=${NODE_EXTRA_CA_CERTS:-}
  fi
fi
secret=()
if [[ -n $ca && -s $ca ]]; then secret=(--secret "id=ca,src=$ca"); else ca=''; fi
t0=$SECONDS
"$PM" build --network host --format docker --jobs 2 ${CONTAINER_NO_CACHE:+--no-cache} \
  --build-arg NODE_IMAGE="$BASE" "${secret[@]}" -t "$IMAGE" . >"$work/build.log" 2>&1 || {
  tail -40 "$work/build.log" >&2
  fail "the image did not build"
}
build_s=$((SECONDS - t0))
size=$("$PM" image inspect --format '{{.Size}}' "$IMAGE")
user=$("$PM" image inspect --format '{{.Config.User}}' "$IMAGE")
echo "built $IMAGE in $build_s s: $size bytes ($((size / 1000000)) MB), user $user"
((size <= MAX_BYTES)) || fail "the image is $size bytes, over $MAX_BYTES"
[[ $user == node ]] || fail "the image runs as '$user', not node"

if [[ -n $ca ]]; then
  step "the build secret is in no layer"
  # the certificates of the secret that Node does not ship (the gateway's own roots): a line of each is a marker
  node --import tsx tests/container/ca-markers.ts "$ca" >"$work/markers"
  "$PM" image inspect --format '{{.Config.Env}}' "$IMAGE" | grep -q '/run/secrets' && fail "an ENV names the secret"
  if [[ -s $work/markers ]]; then
    # every layer the Dockerfile added (the stand-in base's own layers hold this machine's CA bundle)
    "$PM" save -q --format docker-archive -o "$work/image.tar" "$IMAGE"
    base_layers=$("$PM" image inspect --format '{{json .RootFS.Layers}}' "$BASE")
    scanned=0
    for layer in $(tar -xOf "$work/image.tar" manifest.json | node -e '
      let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s)[0].Layers.join("\n")))'); do
      [[ $base_layers == *"${layer%.tar}"* ]] && continue
      scanned=$((scanned + 1))
      if tar -xOf "$work/image.tar" "$layer" | grep -a -q -F -f "$work/markers"; then
        fail "layer $layer holds the build secret"
      fi
    done
    rm -f "$work/image.tar"
    ((scanned > 0)) || fail "no layer of the image's own to scan"
    echo "$(wc -l <"$work/markers") certificate(s) of the secret found in none of the image's $scanned own layers"
  else
    echo "the secret holds only roots Node ships: nothing to look for"
  fi
fi

step "SQLite: the default start seeds no demo account, and SIGTERM stops it"
vol=cz-container-data-$run
volumes+=("$vol")
"$PM" volume create "$vol" >/dev/null
port=$(free_port)
start "cz-container-default-$run" "$vol" "$port"
"$PM" healthcheck run "cz-container-default-$run" >/dev/null || fail "the image's HEALTHCHECK failed"
login=$(curl -fsS -X POST --data-urlencode mobile=13800138000 --data-urlencode password=demo1234 \
  "http://127.0.0.1:$port/api/login")
node -e "const b=JSON.parse(process.argv[1]); if (b.code === 200) process.exit(1)" "$login" ||
  fail "the demo account logs in without SEED_DEMO"
echo "demo login refused: $login"
stop "cz-container-default-$run"

step "SQLite: SEED_DEMO=1 on the same volume serves the preserve flow"
port=$(free_port)
start "cz-container-sqlite-$run" "$vol" "$port" -e SEED_DEMO=1
flow sqlite "$port"
stop "cz-container-sqlite-$run"
"$PM" run --rm --read-only --network none --no-healthcheck --user node -v "$vol:/data" --entrypoint ls "$IMAGE" -a /data |
  grep -q '^cunzheng.sqlite$' || fail "no SQLite file in the volume"

step "Chromium's CJK font and the screencast → ffmpeg path of process capture"
"$PM" run --rm --read-only --tmpfs /tmp --user node --network none --no-healthcheck \
  -v "$PWD/tests/container/media-check.ts:/app/tests/container/media-check.ts:ro" \
  --entrypoint node "$IMAGE" --import tsx tests/container/media-check.ts

step "PostgreSQL: a second container of the image on a fresh database"
db=cz_container_${run//-/_}
createdb -h "$PGHOST" -U postgres "$db"
vol2=cz-container-pg-$run
volumes+=("$vol2")
"$PM" volume create "$vol2" >/dev/null
port=$(free_port)
start "cz-container-pg-$run" "$vol2" "$port" -e SEED_DEMO=1 \
  -e DATABASE_URL="postgres://postgres@$PGHOST:5432/$db"
flow postgresql "$port"
tables=$(psql -h "$PGHOST" -U postgres -d "$db" -tAc \
  "select count(*) from information_schema.tables where table_schema = 'public'")
((tables > 0)) || fail "no tables in $db"
echo "$db has $tables tables"
stop "cz-container-pg-$run"
"$PM" run --rm --read-only --network none --no-healthcheck --user node -v "$vol2:/data" --entrypoint ls "$IMAGE" -a /data |
  grep -q '^cunzheng.sqlite$' && fail "the PostgreSQL container wrote a SQLite file"

step "done: image $((size / 1000000)) MB, built in $build_s s"
echo "1 passed, 0 failed"
