#!/usr/bin/env bash
# What `npm test` runs: the production build (skipped with SKIP_BUILD=1, as .ci/run does after its own build), then
# Vitest (unit + integration; platform suites run on SQLite and PostgreSQL) and Playwright (e2e against the build,
# JavaScript on and off). Both runners always run; the script fails if either fails, and ends with one summary line
# "N passed, N failed" counted from both runners' JSON reports, so CI can count tests.
set -uo pipefail
cd "$(dirname "$0")/.."
# The pinned Node.js 24 (node_modules/.bin/node, from `npm ci`) first, as `npm test` does, also when run as
# `bash scripts/test.sh`; every runner below and the summary use it.
export PATH="$PWD/node_modules/.bin:$PATH"
echo "== Node.js $(node -p 'process.version + " (" + process.execPath + ")"')"

results="$(mktemp -d)"
trap 'rm -rf "$results"' EXIT

# What the tests need from the system (Chromium and its headless shell, a CJK font, poppler, ffmpeg, …), installed
# when missing and we may, or named with the command that installs them (scripts/test-setup.sh); then PostgreSQL and
# Redis, used where they answer and started where they do not (scripts/test-services.ts), until the tests end.
bash scripts/test-setup.sh || { echo "0 passed, 1 failed"; exit 1; }
node scripts/test-services.ts >"$results/services.log" 2>&1 &
services_pid=$!
trap 'kill "$services_pid" 2>/dev/null; wait "$services_pid" 2>/dev/null; rm -rf "$results"' EXIT
for _ in $(seq 1 600); do
  grep -qx ready "$results/services.log" 2>/dev/null && break
  kill -0 "$services_pid" 2>/dev/null || break
  sleep 0.2
done
cat "$results/services.log"
if ! grep -qx ready "$results/services.log"; then
  echo "0 passed, 1 failed"
  exit 1
fi

if [[ "${SKIP_BUILD:-0}" != "1" ]]; then
  echo "== build (the e2e tests run the production build; SKIP_BUILD=1 skips this)"
  npm run build || { echo "0 passed, 1 failed"; exit 1; }
fi

echo "== vitest"
vitest_status=0
# Its console output is also kept: an unhandled error fails the run without failing a test or a file, and is only
# there.
npx vitest run --reporter=default --reporter=json --outputFile.json="$results/vitest.json" 2>&1 |
  tee "$results/vitest.log"
vitest_status=${PIPESTATUS[0]}

echo "== playwright"
playwright_status=0
PLAYWRIGHT_JSON_OUTPUT_FILE="$results/playwright.json" npx playwright test --reporter=list,json || playwright_status=$?

# Counts from the JSON reports. A runner that failed without reporting a failed test (a crash, an error outside
# any test, a missing report) counts as one failure so that the summary never looks green when it is not.
node - "$results" "$vitest_status" "$playwright_status" <<'JS'
const fs = require('node:fs');
const path = require('node:path');
const [dir, vitestStatus, playwrightStatus] = process.argv.slice(2);
const read = (name) => {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
  } catch {
    return null;
  }
};
const runners = [];
const v = read('vitest.json');
runners.push({ name: 'vitest', status: Number(vitestStatus), passed: v?.numPassedTests ?? 0, failed: v?.numFailedTests ?? 0 });
const p = read('playwright.json');
const s = p?.stats ?? {};
runners.push({
  name: 'playwright',
  status: Number(playwrightStatus),
  passed: (s.expected ?? 0) + (s.flaky ?? 0),
  failed: s.unexpected ?? 0,
});
// The failed tests by name with their first error line, printed last so that a CI excerpt (its tail) names them.
const failures = [];
/** `text` without its terminal colour codes. */
const plain = (text) => String(text).replace(/\u001b\[[0-9;]*m/g, '');
for (const file of v?.testResults ?? []) {
  // A file can fail with no failed test: an error while importing it or in a beforeAll/afterAll hook (its tests are
  // then skipped, or already passed). Vitest's report gives that error only as the file's message.
  if (file.status === 'failed' && file.message) {
    const why = String(file.message).split('\n')[0].slice(0, 300);
    failures.push(`vitest ${path.relative(process.cwd(), file.name)} (the file, outside its tests): ${why}`);
  }
  for (const t of file.assertionResults ?? []) {
    if (t.status === 'failed') {
      const why = String(t.failureMessages?.[0] ?? '').split('\n')[0].slice(0, 300);
      failures.push(`vitest ${path.relative(process.cwd(), file.name)} > ${t.fullName}: ${why}`);
    }
  }
}
const walk = (suite, trail) => {
  for (const spec of suite.specs ?? []) {
    for (const t of spec.tests ?? []) {
      if (t.status !== 'unexpected') continue;
      const err = (t.results ?? []).map((r) => r.error?.message).find(Boolean) ?? '';
      const why = plain(err).split('\n')[0].slice(0, 300);
      failures.push(`playwright [${t.projectName}] ${[...trail, spec.title].join(' > ')}: ${why}`);
    }
  }
  for (const child of suite.suites ?? []) walk(child, [...trail, child.title]);
};
for (const suite of p?.suites ?? []) walk(suite, [suite.title]);
// Vitest's "Unhandled Errors" block, which names no test in its report: its first lines, without colours.
const log = (() => {
  try {
    return plain(fs.readFileSync(path.join(dir, 'vitest.log'), 'utf8'));
  } catch {
    return '';
  }
})();
// Looked for only when Vitest failed, by its block's header line (a test's own output may say "Unhandled Error").
const unhandled = vitestStatus === '0' ? -1 : log.search(/⎯+ Unhandled Errors? ⎯+/);
if (unhandled >= 0) {
  const lines = log.slice(unhandled).split('\n').filter((l) => l.trim() && !/^[⎯\s]+$/.test(l));
  failures.push(`vitest unhandled: ${lines.slice(1, 6).join(' | ').slice(0, 600)}`);
}
for (const line of failures) process.stdout.write(`FAILED ${line}\n`);
let passed = 0;
let failed = 0;
for (const r of runners) {
  if (r.status !== 0 && r.failed === 0) r.failed = 1;
  process.stdout.write(`${r.name}: ${r.passed} passed, ${r.failed} failed (exit ${r.status})\n`);
  passed += r.passed;
  failed += r.failed;
}
process.stdout.write(`${passed} passed, ${failed} failed\n`);
JS

if [[ $vitest_status -ne 0 || $playwright_status -ne 0 ]]; then
  exit 1
fi
