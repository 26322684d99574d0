/**
 * The signed documents and the notarial certificate through the platform, on SQLite and PostgreSQL (decision 034):
 * PDFs signed as the gateway signs them (PAdES by the platform's own document signer) are
 * stored by step 2 and the office's issue, come back byte for byte through the signed links, and poppler's pdfsig
 * (a verifier we did not write) reports each signature valid over the whole document; the same PDF changed by one
 * byte after signing fails verification, and the public check says a changed certificate is not the issued one.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Address, AddressPaths } from '../../contract/address.ts';
import type { SaveEvidenceData } from '../../contract/evidence.ts';
import {
  NOTARY_DOCUMENTS,
  type NotarialCheckData,
  type NotaryDownData,
  type NotaryOrderCreated,
  NotaryPaths,
} from '../../contract/notary.ts';
import { NotaryOpsPaths, type NotaryOpsDetail } from '../../contract/notary-office.ts';
import { signPdf, type CmsSource } from './pades.ts';
import { ADDRESS, userFactory } from '../../tests/support/account.ts';
import { creditPoints } from '../../tests/support/billing.ts';
import { operatorToken } from '../../tests/support/invoice.ts';
import { hasPdfsig, pdfsig } from '../../tests/support/pdfsig.ts';
import { call, forEachDialect, get, multipart, post, upload } from '../../tests/support/platform.ts';

/** A one-page PDF with `text`, as pdf-lib writes it. */
async function pdfOf(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  page.drawText(text, { x: 50, y: 780, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

describe.skipIf(!hasPdfsig)('signed notarisation documents', () => {
  forEachDialect('signed notarisation documents', (h) => {
    const newUser = userFactory(h);
    let cms: CmsSource;
    const dir = mkdtempSync(path.join(tmpdir(), 'cz-notary-signed-'));
    const sign = async (text: string) =>
      signPdf(await pdfOf(text), cms, {
        name: '合作公证机构',
        reason: text,
        location: 'CN',
        contactInfo: '',
      });
    const saveTo = (name: string, bytes: Buffer) => {
      const file = path.join(dir, `${h.dialect}-${name}`);
      writeFileSync(file, bytes);
      return file;
    };
    beforeAll(async () => {
      const signer = await h.app.documentSigner();
      cms = { cmsFor: (digest) => signer.signDigest(digest) };
    });

    it('stores, returns and verifies the four documents and the certificate; one changed byte fails', async () => {
      const u = await newUser();
      const ids: number[] = [];
      for (let i = 0; i < 2; i++)
        ids.push((await upload<SaveEvidenceData>(h.app, u.token, randomBytes(40), `s${i}.txt`)).data.id);
      const order = (
        await post<NotaryOrderCreated>(h.app, NotaryPaths.createOrder, { type: 1, ids }, u.token)
      ).data;
      const address = await post<Address>(h.app, AddressPaths.addAddress, ADDRESS, u.token);
      await post(
        h.app,
        NotaryPaths.saveApplication,
        { orderId: order.id, purpose: '诉讼', usePlace: '上海', copies: 1, addressId: address.data.id },
        u.token,
      );

      const docs = await Promise.all(NOTARY_DOCUMENTS.map((d) => sign(`document ${d.type}`)));
      const boundary = `----cz${randomBytes(8).toString('hex')}`;
      const parts: Buffer[] = [
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="orderId"\r\n\r\n${order.id}\r\n`),
      ];
      docs.forEach((d, i) =>
        parts.push(
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="doc${i + 1}"; filename="d.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
          ),
          d,
          Buffer.from('\r\n'),
        ),
      );
      parts.push(Buffer.from(`--${boundary}--\r\n`));
      const stored = await h.app.inject({
        method: 'POST',
        url: NotaryPaths.submitDocuments,
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'x-internal-key': h.app.internalKey,
          authorization: `Bearer ${u.token}`,
        },
        payload: Buffer.concat(parts),
      });
      expect(stored.statusCode).toBe(200);

      for (const d of NOTARY_DOCUMENTS) {
        const link = await get<NotaryDownData>(
          h.app,
          NotaryPaths.downDoc,
          { orderId: order.id, type: d.type },
          u.token,
        );
        const bytes = (await h.app.inject({ method: 'GET', url: link.data.downUrl })).rawPayload;
        expect(bytes.equals(docs[d.type - 1]!)).toBe(true);
        const report = pdfsig(saveTo(`doc${d.type}.pdf`, bytes));
        expect(report).toContain('Signature Validation: Signature is Valid.');
        expect(report).toContain('Total document signed');
        // one byte changed inside the signed range (the page's text stream): the signature no longer holds
        const tampered = Buffer.from(bytes);
        const at = tampered.indexOf(Buffer.from('document'));
        tampered[at] = tampered[at]! ^ 0x01;
        expect(pdfsig(saveTo(`doc${d.type}-tampered.pdf`, tampered))).not.toContain('Signature is Valid.');
      }

      // authorise, pay, accept, issue the signed certificate
      const code = (await get<{ extractCode: string }>(h.app, '/api/user/getAuthInfo', {}, u.token)).data
        .extractCode;
      await post(h.app, NotaryPaths.deCode, { orderId: order.id, code }, u.token);
      await creditPoints(h.app, u.mobile, order.money);
      expect((await post(h.app, NotaryPaths.pay, { orderId: order.id, payType: 1 }, u.token)).code).toBe(200);
      const operator = await operatorToken(h, `office-${h.dialect}`, 'notary');
      await post(h.app, NotaryOpsPaths.accept, { id: order.id }, operator);
      const office = await h.app.notarySigner();
      const certificate = await signPdf(
        await pdfOf('notarial certificate'),
        { cmsFor: (digest) => office.signDigest(digest) },
        { name: office.signerName, reason: '公证书', location: 'CN', contactInfo: '' },
      );
      const issued = await call(h.app, {
        method: 'POST',
        url: NotaryOpsPaths.issue,
        token: operator,
        ...multipart(
          { id: String(order.id) },
          { data: certificate, filename: 'c.pdf', field: 'certificate' },
        ),
      });
      expect(issued.code).toBe(200);
      const link = await get<NotaryDownData>(
        h.app,
        NotaryPaths.downDoc,
        { orderId: order.id, type: 5 },
        u.token,
      );
      const back = (await h.app.inject({ method: 'GET', url: link.data.downUrl })).rawPayload;
      const report = pdfsig(saveTo('certificate.pdf', back));
      expect(report).toContain('Signature Validation: Signature is Valid.');
      // signed by the notary office's own certificate, not the platform's
      expect(report).toContain(`Signer Certificate Common Name: ${office.signerName}`);
      expect(office.signerName).toBe('合作公证机构');
      expect(office.fingerprint).not.toBe((await h.app.documentSigner()).fingerprint);
      const number = (await get<NotaryOpsDetail>(h.app, NotaryOpsPaths.detail, { id: order.id }, operator))
        .data.order.certificateNo!;
      const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
      const genuine = await get<NotarialCheckData>(h.app, NotaryPaths.notarialCheck, {
        number,
        hash: sha(back),
      });
      expect(genuine.data.hashMatches).toBe(true);
      const changed = Buffer.from(back);
      changed[changed.length - 10] = changed[changed.length - 10]! ^ 0x01;
      const forged = await get<NotarialCheckData>(h.app, NotaryPaths.notarialCheck, {
        number,
        hash: sha(changed),
      });
      expect(forged.data.hashMatches).toBe(false);
    });
  });
});
