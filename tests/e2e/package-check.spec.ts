/**
 * /verify (issue 17 point 5, its upload path; decision 035), JS on and off: the evidence package of a file just
 * preserved is accepted step by step; a package with a flipped byte of the original, a wrong proof node, a tree head
 * signed by a foreign key, or a stale checkpoint (an earlier tree's, put in the newer head) is refused, naming the
 * step that failed.
 */
import { generateKeyPairSync, createHash, createPublicKey, sign } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { ZipArchive } from 'archiver';
import { sthSigningInput, type ProofBundle, type SignedTreeHead } from '../../contract/ledger.ts';
import { expect, test } from '../support/e2e-fixtures.ts';
import { DEMO, makeFile, preserveFile } from '../support/e2e.ts';

/** Writes a package ZIP (proof.json and evidence/<name>) and returns its path. */
async function writePackage(bundle: ProofBundle, original: Buffer, name: string): Promise<string> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cz-pkg-')), `${name}.zip`);
  const zip = new ZipArchive({ zlib: { level: 6 } });
  const done = new Promise<void>((resolve, reject) => {
    const out = fs.createWriteStream(file);
    out.on('close', resolve);
    zip.on('error', reject);
    zip.pipe(out);
  });
  zip.append(`${JSON.stringify(bundle, null, 2)}\n`, { name: 'proof.json' });
  zip.append(original, { name: `evidence/${bundle.fileName}` });
  await zip.finalize();
  await done;
  return file;
}

async function check(page: Page, file: string) {
  await page.goto('/verify');
  await page.getByLabel('证据包（ZIP，不超过100MB）').setInputFiles(file);
  await page.getByRole('button', { name: '核验' }).click();
  return page.getByTestId('package-summary');
}

test('/verify accepts a genuine package and names the failing step of a tampered one', async ({
  page,
  request,
  loginAs,
}, info) => {
  const earlier = ((await (await request.get('/api/ledger/sth')).json()) as { data: SignedTreeHead }).data;
  await loginAs(DEMO, '/newAccessCard');
  const { file } = makeFile(`pkg-${info.project.name}.bin`, 3000);
  const baoquan = await preserveFile(page, `包核验-${info.project.name}`, file);
  const bundle = (
    (await (await request.get(`/api/ledger/proof?baoquan=${baoquan}`)).json()) as { data: ProofBundle }
  ).data;
  const original = fs.readFileSync(file);

  const summary = await check(page, await writePackage(bundle, original, 'genuine'));
  await expect(summary).toContainText(`核验通过：证据 ${baoquan}`);
  await expect(page.getByTestId('package-step').first()).toContainText('证据包结构：通过');
  await expect(page.getByTestId('trusted-key')).toHaveText(bundle.publicKey.keyId);

  const flipped = Buffer.from(original);
  flipped[100]! ^= 0x01;
  await expect(await check(page, await writePackage(bundle, flipped, 'flipped'))).toContainText(
    '第 2 步（原始文件）失败',
  );

  const bentProof = {
    ...bundle,
    inclusionProof: [createHash('sha256').update('x').digest('hex'), ...bundle.inclusionProof.slice(1)],
  };
  await expect(await check(page, await writePackage(bentProof, original, 'proof'))).toContainText(
    '第 4 步（包含证明）失败',
  );

  // a head re-signed by a key of our own making, with that key in the package: not the published key
  const foreignKey = generateKeyPairSync('ed25519').privateKey;
  const pem = createPublicKey(foreignKey).export({ type: 'spki', format: 'pem' }) as string;
  const raw = createPublicKey(foreignKey).export({ format: 'jwk' }).x!;
  const foreign = {
    ...bundle,
    sth: {
      ...bundle.sth,
      keyId: createHash('sha256').update(Buffer.from(raw, 'base64url')).digest('hex'),
      signature: sign(null, Buffer.from(sthSigningInput(bundle.sth)), foreignKey).toString('base64'),
    },
    publicKey: {
      ...bundle.publicKey,
      pem,
      keyId: createHash('sha256').update(Buffer.from(raw, 'base64url')).digest('hex'),
    },
  };
  await expect(await check(page, await writePackage(foreign, original, 'foreign'))).toContainText(
    '第 5 步（树头签名）失败',
  );

  // the newer head with the checkpoint of an earlier, smaller tree
  expect(earlier.checkpoint).toBeTruthy();
  const stale = { ...bundle, sth: { ...bundle.sth, checkpoint: earlier.checkpoint! } };
  await expect(await check(page, await writePackage(stale, original, 'stale'))).toContainText(
    '第 5 步（树头签名）失败',
  );

  // not a package at all
  await page.goto('/verify');
  await page.getByLabel('证据包（ZIP，不超过100MB）').setInputFiles(file);
  await page.getByRole('button', { name: '核验' }).click();
  await expect(page.getByTestId('package-error')).toContainText('无法读取该文件');
});
