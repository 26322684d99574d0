#!/usr/bin/env bash
# CI duration side by side (the goal: `.ci/run` on a fresh clone is no slower than before): clones two commits of
# this repository into fresh directories and times `.ci/run` on each, on the same machine, one after the other,
# alternating which goes first over ROUNDS rounds (default 1). Prints per run: commit, seconds, tests passed/failed
# (from the "N passed, N failed" summary line of `npm test`), and at the end the median seconds of each commit.
#
# Usage: bash bench/ci-duration.sh <before-commit> [after-commit, default HEAD]
# The clones live in a temporary directory removed at exit; their logs are kept in $CI_DURATION_LOGS (default
# /tmp/ci-duration-logs) for reading afterwards. Like CI, runs as root (apt-get may be called when Chromium or
# poppler-utils are missing; that install is then counted in the first run only, so run once beforehand to compare).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
before="$(git -C "$repo" rev-parse --short "${1:?usage: ci-duration.sh <before-commit> [after-commit]}")"
after="$(git -C "$repo" rev-parse --short "${2:-HEAD}")"
rounds="${ROUNDS:-1}"
logs="${CI_DURATION_LOGS:-/tmp/ci-duration-logs}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$logs"

declare -A times
run() {
  local commit="$1" round="$2"
  local dir="$work/$commit-$round"
  git clone -q "$repo" "$dir"
  git -C "$dir" checkout -q "$commit"
  local log="$logs/$commit-$round.log"
  local start=$SECONDS status=0
  (cd "$dir" && bash .ci/run) >"$log" 2>&1 </dev/null || status=$?
  local took=$((SECONDS - start))
  local summary
  summary="$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1 || true)"
  printf '%-10s round %d: %4d s  exit %d  %s\n' "$commit" "$round" "$took" "$status" "${summary:-no summary}"
  times[$commit]+="$took "
  rm -rf "$dir"
}

for round in $(seq 1 "$rounds"); do
  if ((round % 2)); then
    run "$before" "$round"
    run "$after" "$round"
  else
    run "$after" "$round"
    run "$before" "$round"
  fi
done

median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
echo "median: before $before $(echo "${times[$before]}" | median) s, after $after $(echo "${times[$after]}" | median) s"
