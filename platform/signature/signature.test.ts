/**
 * Signature seals on the platform, on SQLite and PostgreSQL (spec 01 §2.7, §5, §9): the image rules (PNG by its
 * bytes, at most 10 MB, the spec's messages) and exactly one default seal, even under concurrent calls.
 */
import { expect, it } from 'vitest';
import {
  type Signature,
  SIGNATURE_MAX_BYTES,
  SignatureMsg,
  SignaturePaths,
} from '../../contract/signature.ts';
import { pngOfSize, sealUploader, userFactory } from '../../tests/support/account.ts';
import { forEachDialect, post } from '../../tests/support/platform.ts';

const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0,
]);

forEachDialect('signature seals', (h) => {
  const newUser = userFactory(h);
  const uploadSeal = sealUploader(h);

  it('refuses a 10 MB + 1 byte PNG and a JPEG renamed .png with the spec messages; keeps one default seal', async () => {
    const a = await newUser();
    const big = await uploadSeal(a.token, '大章', pngOfSize(SIGNATURE_MAX_BYTES + 1));
    expect([big.code, big.msg]).toEqual([413, SignatureMsg.tooLarge]);
    const jpeg = await uploadSeal(a.token, '假章', JPEG, '0', 'fake.png');
    expect([jpeg.code, jpeg.msg]).toEqual([400, SignatureMsg.pngOnly]);
    const noName = await uploadSeal(a.token, '', pngOfSize(100));
    expect(noName.msg).toBe(SignatureMsg.nameRequired);
    const noFile = await uploadSeal(a.token, '无图', null);
    expect(noFile.msg).toBe(SignatureMsg.imageRequired);
    expect((await post<Signature[]>(h.app, SignaturePaths.signatureListing, {}, a.token)).data).toEqual([]);

    const exact = await uploadSeal(a.token, '满额章', pngOfSize(SIGNATURE_MAX_BYTES), '1');
    expect(exact.code).toBe(200);
    const other = await uploadSeal(a.token, '合同章', pngOfSize(300), '1');
    expect(other.code).toBe(200);
    const defaults = async () =>
      (await post<Signature[]>(h.app, SignaturePaths.signatureListing, {}, a.token)).data
        .filter((s) => s.is_default === '1')
        .map((s) => s.id);
    expect(await defaults()).toEqual([other.data.id]);
    await post(h.app, SignaturePaths.signatureSetDefault, { id: exact.data.id }, a.token);
    expect(await defaults()).toEqual([exact.data.id]);
    // concurrent set-default calls still leave exactly one default
    await Promise.all([
      post(h.app, SignaturePaths.signatureSetDefault, { id: other.data.id }, a.token),
      post(h.app, SignaturePaths.signatureSetDefault, { id: exact.data.id }, a.token),
    ]);
    expect(await defaults()).toHaveLength(1);
    const del = await post(h.app, SignaturePaths.signatureDel, { id: exact.data.id }, a.token);
    expect(del.code).toBe(200);
    const img = await h.app.inject({ method: 'GET', url: exact.data.pic_url });
    expect(img.statusCode).toBe(404);
  });
});
