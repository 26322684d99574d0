/**
 * /verify (decisions 035, 036): the evidence package of a file just preserved is accepted step by
 * step; a package with a flipped byte of the original, a wrong proof node, a tree head signed by a foreign key, or a
 * stale checkpoint (an earlier tree's, put in the newer head) is refused, naming the step that failed; a file that is
 * no ZIP cannot be read. With JavaScript the page checks in the browser and uploads nothing; without it the upload
 * path gives the same verdicts. The saved offline verifier (`cunzheng-verify.html`, downloaded from the page), opened
 * from disk in a browser with the network cut off, gives them too and requests nothing.
 */
import { generateKeyPairSync, createHash, createPublicKey, sign } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
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

/** A package to check and what the verdict must say. */
interface Case {
  name: string;
  file: string;
  /** Text of the summary, or of the error for a file that is not a package. */
  says: string;
}

/**
 * Preserves a file as the demo user and builds its genuine package and the tampered ones.
 * @returns the cases, the genuine one first
 */
async function packageCases(page: Page, request: APIRequestContext, tag: string): Promise<Case[]> {
  const earlier = ((await (await request.get('/api/ledger/sth')).json()) as { data: SignedTreeHead }).data;
  const { file } = makeFile(`pkg-${tag}.bin`, 3000);
  const baoquan = await preserveFile(page, `包核验-${tag}`, file);
  const bundle = (
    (await (await request.get(`/api/ledger/proof?baoquan=${baoquan}`)).json()) as { data: ProofBundle }
  ).data;
  const original = fs.readFileSync(file);

  const flipped = Buffer.from(original);
  flipped[100]! ^= 0x01;
  const bentProof = {
    ...bundle,
    inclusionProof: [createHash('sha256').update('x').digest('hex'), ...bundle.inclusionProof.slice(1)],
  };
  // a head re-signed by a key of our own making, with that key in the package: not the published key
  const foreignKey = generateKeyPairSync('ed25519').privateKey;
  const pem = createPublicKey(foreignKey).export({ type: 'spki', format: 'pem' }) as string;
  const raw = createPublicKey(foreignKey).export({ format: 'jwk' }).x!;
  const foreignId = createHash('sha256').update(Buffer.from(raw, 'base64url')).digest('hex');
  const foreign = {
    ...bundle,
    sth: {
      ...bundle.sth,
      keyId: foreignId,
      signature: sign(null, Buffer.from(sthSigningInput(bundle.sth)), foreignKey).toString('base64'),
    },
    publicKey: { ...bundle.publicKey, pem, keyId: foreignId },
  };
  // the newer head with the checkpoint of an earlier, smaller tree
  expect(earlier.checkpoint).toBeTruthy();
  const stale = { ...bundle, sth: { ...bundle.sth, checkpoint: earlier.checkpoint! } };
  return [
    {
      name: 'genuine',
      file: await writePackage(bundle, original, 'genuine'),
      says: `核验通过：证据 ${baoquan}`,
    },
    {
      name: 'flipped',
      file: await writePackage(bundle, flipped, 'flipped'),
      says: '第 2 步（原始文件）失败',
    },
    {
      name: 'proof',
      file: await writePackage(bentProof, original, 'proof'),
      says: '第 4 步（包含证明）失败',
    },
    {
      name: 'foreign',
      file: await writePackage(foreign, original, 'foreign'),
      says: '第 5 步（树头签名）失败',
    },
    { name: 'stale', file: await writePackage(stale, original, 'stale'), says: '第 5 步（树头签名）失败' },
    { name: 'not a zip', file, says: '无法读取该文件' },
  ];
}

/** axe-core's WCAG 2.1 A/AA and best-practice violations on `page` as it is now. */
async function axeViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return result.violations.map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ') ?? ''} — ${v.help}`);
}

/** The element the verdict on `c` is read from. */
const verdictOf = (page: Page, c: Case) =>
  page.getByTestId(c.name === 'not a zip' ? 'package-error' : 'package-summary');

test('/verify accepts a genuine package and names the failing step of a tampered one', async ({
  page,
  request,
  loginAs,
}, info) => {
  const js = info.project.name === 'js-on';
  await loginAs(DEMO, '/newAccessCard');
  const cases = await packageCases(page, request, info.project.name);
  const uploads: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/verify') uploads.push(r.url());
  });
  for (const c of cases) {
    await page.goto('/verify');
    await page.getByLabel('证据包（ZIP，不超过100MB）').setInputFiles(c.file);
    await page.getByRole('button', { name: '核验' }).click();
    await expect(verdictOf(page, c), c.name).toContainText(c.says);
    if (c.name === 'not a zip') continue;
    // with JavaScript the browser checked it and nothing was uploaded; without, the gateway checked the upload
    await expect(page.getByTestId('package-verdict')).toHaveAttribute(
      'data-where',
      js ? 'browser' : 'server',
    );
    if (c.name === 'genuine') {
      await expect(page.getByTestId('package-step').first()).toContainText('证据包结构：通过');
      const key = ((await (await request.get('/api/ledger/publicKey')).json()) as { data: { keyId: string } })
        .data;
      await expect(page.getByTestId('trusted-key')).toHaveText(key.keyId);
    }
    // axe runs as a script in the page; the verdict's markup is the same component either way
    if (js && c.name === 'flipped') expect(await axeViolations(page)).toEqual([]);
  }
  expect(uploads).toHaveLength(js ? 0 : cases.length);
});

test('the saved offline verifier, opened from disk with the network cut off, gives the same verdicts', async ({
  page,
  request,
  browser,
  loginAs,
}, info) => {
  test.skip(
    info.project.name !== 'js-on',
    'the saved file is a script; the js-off project has the upload path',
  );
  await loginAs(DEMO, '/newAccessCard');
  const cases = await packageCases(page, request, `offline-${info.project.name}`);

  await page.goto('/verify');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('offline-link').click(),
  ]);
  expect(download.suggestedFilename()).toBe('cunzheng-verify.html');
  const saved = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cz-offline-')), 'cunzheng-verify.html');
  await download.saveAs(saved);

  const offline = await browser.newContext({ offline: true, javaScriptEnabled: true });
  try {
    const tab = await offline.newPage();
    const outside: string[] = [];
    tab.on('request', (r) => {
      if (!r.url().startsWith('file:')) outside.push(r.url());
    });
    const errors: string[] = [];
    tab.on('pageerror', (e) => errors.push(e.message));
    tab.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await tab.goto(pathToFileURL(saved).href);
    const key = ((await (await request.get('/api/ledger/publicKey')).json()) as { data: { keyId: string } })
      .data;
    await expect(tab.getByTestId('trusted-key')).toHaveText(key.keyId);
    for (const c of cases) {
      await tab.evaluate(() => {
        document.getElementById('cz-result')!.textContent = '';
      });
      await tab.getByLabel('证据包（ZIP 文件，可拖放到此处）').setInputFiles(c.file);
      await expect(verdictOf(tab, c), c.name).toContainText(c.says);
      if (c.name !== 'not a zip') await expect(tab.getByTestId('package-step')).toHaveCount(7);
    }
    expect(await axeViolations(tab)).toEqual([]);
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
  } finally {
    await offline.close();
  }
});
