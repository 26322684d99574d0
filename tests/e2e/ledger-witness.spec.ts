/**
 * The ledger's witness in the operator console (decision 035), JS on and off: each e2e server's
 * checkpoints are cosigned by a local witness of its own (playwright.config.ts); an admin sees it at /ops/ledger as
 * 已联署. Then history is rewritten in the server's database (a stored subtree hash that the next tree's root is
 * read from): the next checkpoint does not extend the one the witness cosigned, the witness refuses it, and the console
 * says so (拒绝联署, an alert, the event). The hash is put back afterwards, and the witness cosigns the genuine tree
 * again.
 */
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/e2e-fixtures.ts';
import { createOperator, dataDir } from '../support/e2e.ts';
import { login, uploadEvidence } from '../support/pdf-whole.ts';

/** Reloads /ops/ledger until the witness row shows `status`. */
async function witnessShows(page: Page, status: string) {
  await expect(async () => {
    await page.goto('/ops/ledger');
    await expect(page.getByTestId('witness-row')).toContainText(status, { timeout: 500 });
  }).toPass({ timeout: 30_000 });
}

test('an admin sees the witness cosign the ledger, and refuse a rewritten history', async ({
  page,
  opsLoginAs,
  baseURL,
}) => {
  const token = await login(baseURL!);
  const save = () =>
    uploadEvidence(baseURL!, token, {
      title: '见证样本',
      fileName: 'w.bin',
      bytes: new Uint8Array(randomBytes(64)),
    });
  const size = async () =>
    ((await (await fetch(`${baseURL}/api/ledger/sth`)).json()) as { data: { treeSize: number } }).data
      .treeSize;
  await save();
  await opsLoginAs(createOperator('admin'), page);
  await witnessShows(page, '已联署');
  await expect(page.getByRole('link', { name: '账本见证' })).toBeVisible();

  // the next size's root must read a subtree stored before it: not a power of two
  if (Number.isInteger(Math.log2((await size()) + 1))) {
    await save();
    await expect(async () => {
      await page.goto('/ops/ledger');
      await expect(page.getByTestId('witness-row')).toContainText(String(await size()), { timeout: 500 });
    }).toPass({ timeout: 30_000 });
  }
  const next = (await size()) + 1;
  const level = Math.floor(Math.log2(next));
  const db = new Database(path.join(dataDir(), 'cunzheng.sqlite'));
  db.pragma('busy_timeout = 5000');
  const node = db.prepare('select hash from ledger_nodes where level = ? and idx = 0').get(level) as {
    hash: string;
  };
  try {
    db.prepare('update ledger_nodes set hash = ? where level = ? and idx = 0').run('ab'.repeat(32), level);
    await save();
    await witnessShows(page, '拒绝联署');
    await expect(page.getByTestId('witness-alert')).toContainText('账本历史可能已被改写');
    await expect(page.getByTestId('witness-row')).toContainText('HTTP 422');
    await expect(page.getByTestId('witness-event').first()).toContainText('拒绝联署');
    await expect(page.getByTestId('witness-event').first()).toContainText(String(next));
  } finally {
    db.prepare('update ledger_nodes set hash = ? where level = ? and idx = 0').run(node.hash, level);
    db.close();
  }
  // the genuine tree goes on being cosigned
  await save();
  await witnessShows(page, '已联署');
});
