/**
 * Public verification and the ledger (spec 01 §2.1, §7; decisions 005, 006), JS on and off: the verification pages
 * find evidence by number and by file, and say clearly when nothing matches; the chain hash opens the ledger
 * explorer; the owner's package verifies offline.
 */
import { execFileSync } from 'node:child_process';
import { expect, test } from '../support/e2e-fixtures.ts';
import { DEMO, logoutViaMenu, makeFile, preserveFile } from '../support/e2e.ts';
import { openCheckpoint, parseVerifierKey } from '../../contract/signed-note.ts';
import type { ProofBundle } from '../../contract/ledger.ts';
import { TileReader, verifyCheckpointNote, verifyInclusionProof } from '../support/tiles-client.ts';

test('verification by number and by file, with clear answers when nothing matches', async ({
  page,
  loginAs,
}, info) => {
  await loginAs(DEMO, '/newAccessCard');
  const { file, sha256 } = makeFile(`verify-${info.project.name}.bin`, 120_000);
  const title = `核验样本-${info.project.name}`;
  const baoquan = await preserveFile(page, title, file);
  await logoutViaMenu(page);

  await page.goto('/queryAuthentication/safekeeping');
  await page.getByLabel('保全编号').fill(baoquan);
  await page.getByRole('button', { name: '查验' }).click();
  await expect(page.getByTestId('verify-result')).toContainText(sha256);
  await expect(page.getByTestId('verify-result')).toContainText(title);
  await page.getByLabel('保全编号').fill('BQ20260101NOSUCHNUMBER0000000');
  await page.getByRole('button', { name: '查验' }).click();
  await expect(page.getByTestId('verify-none')).toBeVisible();

  await page.goto('/queryAuthentication/certificate');
  await page.getByLabel('选择文件').setInputFiles(file);
  if (info.project.name === 'js-on')
    await expect(page.getByLabel('或粘贴 SHA-256 哈希值')).toHaveValue(sha256);
  await page.getByRole('button', { name: '核验' }).click();
  await expect(page.getByTestId('verify-result').first()).toContainText(baoquan);
  await expect(page.getByRole('status').filter({ hasText: '未被修改' })).toBeVisible();

  const other = makeFile(`verify-other-${info.project.name}.bin`, 1000);
  await page.getByLabel('选择文件').setInputFiles(other.file);
  await page.getByRole('button', { name: '核验' }).click();
  await expect(page.getByTestId('verify-none')).toContainText('未找到与该文件一致的保全记录');

  await page.goto('/queryAuthentication/keepSingle');
  await page.getByLabel('保全编号').fill(baoquan);
  await page.getByLabel('或粘贴 SHA-256 哈希值').fill(sha256);
  await page.getByRole('button', { name: '核对' }).click();
  await expect(page.getByTestId('verify-match')).toBeVisible();

  await page.goto('/English/safekeeping');
  await page.getByLabel('Preservation No.').fill(baoquan);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByTestId('verify-result')).toContainText(sha256);
});

test('the chain hash opens the ledger explorer with an inclusion proof and a signed tree head', async ({
  page,
  loginAs,
}, info) => {
  await loginAs(DEMO, '/newAccessCard');
  const { file } = makeFile(`tx-${info.project.name}.bin`, 2000);
  const baoquan = await preserveFile(page, `账本-${info.project.name}`, file);
  const chain = (await page.getByTestId('chainhash').textContent())!.trim();
  await page.getByTestId('chainhash').click();
  // the certificate's link carries its number, which shows the record
  await expect(page).toHaveURL(new RegExp(`/chain/tx/${chain}\\?baoquan=${baoquan}$`));
  await expect(page.getByTestId('leaf-hash')).toHaveText(chain);
  await expect(page.getByText('签名树头')).toBeVisible();
  await expect(page.locator('pre.code-block').first()).toContainText(`"baoquan":"${baoquan}"`);

  // the leaf hash alone (as anyone reads it from the public tiles) shows the proof, not the record
  await page.goto(`/chain/tx/${chain}`);
  await expect(page.getByText('签名树头')).toBeVisible();
  await expect(page.getByText(baoquan)).toHaveCount(0);
  await page.getByLabel('保全编号').fill(`${baoquan}X`);
  await page.getByRole('button', { name: '显示记录原文' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '保全编号与该记录不符' })).toBeVisible();
  await expect(page.getByText(baoquan, { exact: false })).toHaveCount(0);
  await page.getByLabel('保全编号').fill(baoquan);
  await page.getByRole('button', { name: '显示记录原文' }).click();
  await expect(page.locator('pre.code-block').first()).toContainText(`"baoquan":"${baoquan}"`);
});

test('the owner downloads the evidence package and npm run verify accepts it', async ({
  page,
  loginAs,
}, info) => {
  await loginAs(DEMO, '/newAccessCard');
  const { file } = makeFile(`pkg-${info.project.name}.bin`, 70_000);
  await preserveFile(page, `证据包-${info.project.name}`, file);
  await expect(page.getByTestId('mobile-qr')).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: '下载证据' }).click();
  const saved = info.outputPath('package.zip');
  await (await download).saveAs(saved);
  const out = execFileSync('node', ['--import', 'tsx', 'platform/ledger/verify-cli.ts', saved], {
    encoding: 'utf8',
  });
  expect(out).toMatch(/✓/);
  expect(out).not.toMatch(/✗/);
});

test('the ledger consistency check accepts an earlier tree head and rejects a wrong root', async ({
  page,
  request,
}) => {
  const earlier = (await (await request.get('/api/ledger/sth')).json()) as {
    data: { treeSize: number; rootHash: string };
  };
  await page.goto('/queryAuthentication/mutualEvidence');
  await page.getByLabel('账本规模').fill(String(earlier.data.treeSize));
  await page.getByLabel('树根哈希').fill(earlier.data.rootHash);
  await page.getByRole('button', { name: '核对' }).click();
  await expect(page.getByTestId('consistency-ok')).toContainText(`前 ${earlier.data.treeSize} 条记录`);
  await page.getByLabel('账本规模').fill(String(earlier.data.treeSize));
  await page.getByLabel('树根哈希').fill('0'.repeat(64));
  await page.getByRole('button', { name: '核对' }).click();
  await expect(page.getByTestId('verify-none')).toContainText('不一致');
});

test('the checkpoint and its note verifier key are published as plain text a C2SP client can open', async ({
  request,
}) => {
  const vkey = await request.get('/.well-known/cunzheng-ledger.vkey');
  expect(vkey.headers()['content-type']).toMatch(/^text\/plain/);
  const verifier = parseVerifierKey(await vkey.text());
  expect(verifier).not.toBeNull();
  const note = await request.get('/checkpoint');
  expect(note.headers()['cache-control']).toBe('no-cache');
  const opened = openCheckpoint(await note.text(), verifier!.name, [verifier!]);
  expect(opened).toMatchObject({ ok: true });
  const sth = (await (await request.get('/api/ledger/sth')).json()) as { data: { treeSize: number } };
  expect(opened.ok && opened.checkpoint.treeSize).toBeLessThanOrEqual(sth.data.treeSize);
});

test('a tiles client proves a preserved file from /ledger/checkpoint and /ledger/tile alone, as its package does', async ({
  page,
  request,
  loginAs,
}, info) => {
  await loginAs(DEMO, '/newAccessCard');
  const { file } = makeFile(`tiles-${info.project.name}.bin`, 5000);
  const baoquan = await preserveFile(page, `瓦片核验-${info.project.name}`, file);
  const bundle = (
    (await (await request.get(`/api/ledger/proof?baoquan=${baoquan}`)).json()) as { data: ProofBundle }
  ).data;

  const vkey = await (await request.get('/.well-known/cunzheng-ledger.vkey')).text();
  const note = await request.get('/ledger/checkpoint');
  expect(note.headers()['content-type']).toMatch(/^text\/plain/);
  const checkpoint = verifyCheckpointNote(await note.text(), vkey);
  expect(checkpoint.size).toBeGreaterThan(bundle.leafIndex);
  const fetchTile = async (path: string) => {
    const res = await request.get(`/ledger/tile/${path}`);
    if (res.status() === 404) return null;
    expect(res.headers()['content-type']).toBe('application/octet-stream');
    expect(res.headers()['cache-control']).toContain('immutable');
    return res.body();
  };
  const leaf = Buffer.from(bundle.leafHash, 'hex');
  const now = new TileReader(checkpoint.size, fetchTile);
  expect((await now.subtree(0, bundle.leafIndex)).equals(leaf)).toBe(true);
  expect(
    verifyInclusionProof(
      leaf,
      bundle.leafIndex,
      checkpoint.size,
      await now.inclusionProof(bundle.leafIndex),
      checkpoint.root,
    ),
  ).toBe(true);
  // the package's proof and tree head are what the tiles give for the package's tree size
  const then = new TileReader(bundle.sth.treeSize, fetchTile);
  expect((await then.mth(0, bundle.sth.treeSize)).toString('hex')).toBe(bundle.sth.rootHash);
  expect((await then.inclusionProof(bundle.leafIndex)).map((p) => p.toString('hex'))).toEqual(
    bundle.inclusionProof,
  );
  expect((await request.get('/ledger/tile/0/0')).status()).toBe(404);
});
