/**
 * The document signer (decision 029) through the platform's routes: the internal CMS call refuses callers without
 * the internal key and malformed digests (in Chinese), signs a digest as a detached CMS that PKI.js verifies against
 * the content, with the PAdES signed attributes; the public chain is the operator's signer issued by the local root;
 * a configured bundle whose certificate does not match its key stops the start.
 */
import { createHash, generateKeyPairSync, X509Certificate } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as pkijs from 'pkijs';
import { describe, expect, it } from 'vitest';
import {
  type CmsSignData,
  type SigningCertificatesData,
  SigningMsg,
  SigningPaths,
} from '../../contract/signing.ts';
import { buildPlatform } from '../app.ts';
import { call, forEachDialect, get, testConfig } from '../../tests/support/platform.ts';
import { DOCUMENT_SIGNING_FILE } from './document-signer.ts';
import { generateLocalBundle } from './local-bundle.ts';

const content = Buffer.from('%PDF-1.4 the signed byte range of a certificate');
const digest = createHash('sha256').update(content).digest('hex');

forEachDialect(
  'document signing',
  (h) => {
    it('refuses a caller without the internal key, and a malformed digest', async () => {
      const none = await call(h.app, { method: 'POST', url: SigningPaths.cms, payload: { digest } });
      expect(none.status).toBe(403);
      const wrong = await call(h.app, {
        method: 'POST',
        url: SigningPaths.cms,
        payload: { digest },
        headers: { 'x-internal-key': 'x'.repeat(64) },
      });
      expect(wrong.status).toBe(403);
      const bad = await call(h.app, {
        method: 'POST',
        url: SigningPaths.cms,
        payload: { digest: 'abc' },
        headers: { 'x-internal-key': h.app.internalKey },
      });
      expect(bad.code).toBe(400); // the envelope convention: HTTP 200, the meaning in `code`
      expect(bad.msg).toBe(SigningMsg.badDigest);
    });

    it('signs a digest as a detached CMS that verifies against the content, with the PAdES attributes', async () => {
      const res = await call<CmsSignData>(h.app, {
        method: 'POST',
        url: SigningPaths.cms,
        payload: { digest },
        headers: { 'x-internal-key': h.app.internalKey },
      });
      expect(res.code).toBe(200);
      expect(res.data.signer).toBe('某某数据科技有限公司');
      const info = pkijs.ContentInfo.fromBER(Buffer.from(res.data.cms, 'base64'));
      expect(info.contentType).toBe(pkijs.id_ContentType_SignedData);
      const signed = new pkijs.SignedData({ schema: info.content });
      expect(signed.encapContentInfo.eContent).toBeUndefined(); // detached
      expect(signed.certificates).toHaveLength(2);
      // The chain goes into the CMS as the very bytes the bundle holds (signer first), not a re-encoding.
      const chain = await get<SigningCertificatesData>(h.app, SigningPaths.certificates);
      const chainDer = (
        chain.data.pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []
      ).map((pem) => Buffer.from(pem.replace(/-----[A-Z ]+-----|\s/g, ''), 'base64'));
      expect(chainDer).toHaveLength(2);
      expect(
        signed.certificates!.map((c) => Buffer.from((c as pkijs.Certificate).toSchema().toBER(false))),
      ).toEqual(chainDer);
      const attrs = signed.signerInfos[0]!.signedAttrs!.attributes.map((a) => a.type);
      expect(attrs).toEqual([
        '1.2.840.113549.1.9.3', // content-type
        '1.2.840.113549.1.9.4', // message-digest
        '1.2.840.113549.1.9.16.2.47', // signing-certificate-v2
      ]);
      expect(attrs).not.toContain('1.2.840.113549.1.9.5'); // no signing-time (PAdES: /M in the PDF)
      expect(
        await signed.verify({ signer: 0, data: new Uint8Array(content).buffer, checkChain: false }),
      ).toBe(true);
      await expect(
        signed.verify({
          signer: 0,
          data: new TextEncoder().encode('other content').buffer,
          checkChain: false,
        }),
      ).rejects.toThrow(/Message digest doesn't match/);
    });

    it('publishes the chain: the operator signer, issued by the local root, valid for years', async () => {
      const res = await get<SigningCertificatesData>(h.app, SigningPaths.certificates);
      expect(res.code).toBe(200);
      const pems = res.data.pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
      expect(pems).toHaveLength(2);
      const [leaf, root] = pems.map((p) => new X509Certificate(p));
      expect(leaf!.subject).toContain('CN=某某数据科技有限公司');
      expect(leaf!.checkIssued(root!)).toBe(true);
      expect(leaf!.verify(root!.publicKey)).toBe(true);
      expect(root!.ca).toBe(true);
      expect(leaf!.ca).toBe(false);
      expect(res.data.fingerprint).toBe(leaf!.fingerprint256.replace(/:/g, ''));
      expect(new Date(res.data.notAfter).getTime() - Date.now()).toBeGreaterThan(9 * 365 * 86_400_000);
      // generated once, kept owner-only under DATA_DIR/keys
      const stat = await fsp.stat(path.join(h.dataDir, 'keys', DOCUMENT_SIGNING_FILE));
      expect(stat.mode & 0o077).toBe(0);
    });
  },
  { PLATFORM_OPERATOR: '某某数据科技有限公司' },
);

describe('a configured signing bundle', () => {
  it('is used as given, and one whose certificate does not belong to its key stops the start', async () => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-signing-'));
    try {
      const bundle = await generateLocalBundle('外部CA签发');
      const good = path.join(dir, 'good.pem');
      await fsp.writeFile(good, bundle);
      const app = await buildPlatform(testConfig(dir, undefined, { DOCUMENT_SIGNING_PEM_FILE: good }), {
        logger: false,
      });
      try {
        const res = await get<SigningCertificatesData>(app, SigningPaths.certificates);
        expect(res.data.signer).toBe('外部CA签发');
      } finally {
        await app.close();
      }
      const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString();
      const bad = path.join(dir, 'bad.pem');
      await fsp.writeFile(bad, otherKey + bundle.slice(bundle.indexOf('-----BEGIN CERTIFICATE-----')));
      await expect(
        buildPlatform(testConfig(dir, undefined, { DOCUMENT_SIGNING_PEM_FILE: bad }), { logger: false }),
      ).rejects.toThrow(/does not belong to the private key/);
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });
});
