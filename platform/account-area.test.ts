/**
 * Issue 4 platform integration tests, on SQLite and PostgreSQL: ownership of notifications, seals and addresses;
 * the address limit under concurrency; the seal image rules; password change revoking every token; the extraction
 * code change; the region tree against the data package and its cache headers.
 */
import { expect, it } from 'vitest';
import {
  AccountAreaMsg,
  AccountAreaPaths,
  AccountPaths,
  AddressMsg,
  EvidencePaths,
  Msg,
  SIGNATURE_MAX_BYTES,
  SignatureMsg,
  type Address,
  type NotificationListData,
  type RegionNode,
  type SaveEvidenceData,
  type Signature,
  type UserInfo,
} from '../contract/index.ts';
import { loadPackageRegions } from './address/regions.ts';
import { call, forEachDialect, get, login, multipart, post, registerUser, upload } from './test-support.ts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A PNG-signed buffer of exactly `size` bytes (file-type recognises PNG by its first bytes and the IHDR chunk). */
function pngOfSize(size: number): Buffer {
  const ihdr = Buffer.from('0000000d49484452000000010000000108060000001f15c489', 'hex');
  const b = Buffer.alloc(size);
  PNG_SIGNATURE.copy(b, 0);
  ihdr.copy(b, 8);
  return b;
}
const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0,
]);

const ADDRESS = {
  name: '张三',
  province: '浙江省',
  city: '杭州市',
  area: '西湖区',
  address: '文三路 100 号',
  phoneNumber: '13912345678',
  email: 'zs@example.com',
};

forEachDialect('account area', (h) => {
  let seq = 0;
  async function newUser(password = 'pass1234'): Promise<{ mobile: string; token: string }> {
    const mobile = `1370000${String(seq++).padStart(4, '0')}`;
    await registerUser(h.app, h.dataDir, mobile, password);
    return { mobile, token: await login(h.app, mobile, password) };
  }
  function uploadSeal(
    token: string,
    name: string,
    data: Buffer | null,
    isDefault = '0',
    filename = 'seal.png',
  ) {
    const body = multipart(
      { name, isDefault },
      data ? { data, filename, contentType: 'image/png' } : undefined,
    );
    return call<Signature>(h.app, { method: 'POST', url: AccountAreaPaths.signatureUpload, token, ...body });
  }

  it('writes a notification when evidence is saved, counts unread in getAuthInfo, reads and deletes', async () => {
    const a = await newUser();
    for (const i of [1, 2, 3]) {
      const r = await upload<SaveEvidenceData>(h.app, a.token, Buffer.from(`news ${i}`), `n${i}.txt`, {
        title: `通知${i}`,
      });
      expect(r.code).toBe(200);
    }
    const info = await post<UserInfo>(h.app, AccountPaths.authInfo, {}, a.token);
    expect(info.data.newsNum).toBe(3);
    const list = await get<NotificationListData>(h.app, AccountAreaPaths.newsListing, { page: 1 }, a.token);
    expect(list.data.count).toBe(3);
    expect(list.data.unread).toBe(3);
    expect(list.data.list[0]!.str).toContain('通知3');
    expect(list.data.list.every((n) => n.isRead === '0')).toBe(true);
    const [n3, n2, n1] = list.data.list.map((n) => n.newsId);
    expect((await post(h.app, AccountAreaPaths.newsRead, { newsId: String(n3) }, a.token)).code).toBe(200);
    expect((await post<UserInfo>(h.app, AccountPaths.authInfo, {}, a.token)).data.newsNum).toBe(2);
    expect((await post(h.app, AccountAreaPaths.newsDel, { newsId: `${n2},${n1}` }, a.token)).code).toBe(200);
    const after = await get<NotificationListData>(h.app, AccountAreaPaths.newsListing, {}, a.token);
    expect(after.data.list.map((n) => [n.newsId, n.isRead])).toEqual([[n3, '1']]);
    expect(after.data.unread).toBe(0);
  });

  it('pages notifications 10 at a time', async () => {
    const a = await newUser();
    for (let i = 0; i < 12; i++) await upload(h.app, a.token, Buffer.from(`p ${i}`), `p${i}.txt`);
    const p1 = await get<NotificationListData>(h.app, AccountAreaPaths.newsListing, { page: 1 }, a.token);
    const p2 = await get<NotificationListData>(h.app, AccountAreaPaths.newsListing, { page: 2 }, a.token);
    expect(p1.data.count).toBe(12);
    expect(p1.data.list).toHaveLength(10);
    expect(p2.data.list).toHaveLength(2);
    await post(h.app, AccountAreaPaths.newsRead, { newsId: 'all' }, a.token);
    expect((await post<UserInfo>(h.app, AccountPaths.authInfo, {}, a.token)).data.newsNum).toBe(0);
  });

  it("refuses another user's notification, seal and address ids as not found, changing nothing", async () => {
    const a = await newUser();
    const b = await newUser();
    await upload(h.app, a.token, Buffer.from('owned by a'), 'a.txt');
    const news = await get<NotificationListData>(h.app, AccountAreaPaths.newsListing, {}, a.token);
    const newsId = news.data.list[0]!.newsId;
    const seal = await uploadSeal(a.token, 'A的章', pngOfSize(200), '1');
    expect(seal.code).toBe(200);
    const addr = await post<Address>(
      h.app,
      AccountAreaPaths.addAddress,
      { ...ADDRESS, status: '1' },
      a.token,
    );
    expect(addr.code).toBe(200);

    for (const newsIdParam of [String(newsId), `${newsId}`, `999999,${newsId}`]) {
      const read = await post(h.app, AccountAreaPaths.newsRead, { newsId: newsIdParam }, b.token);
      expect([read.code, read.msg]).toEqual([404, AccountAreaMsg.newsNotFound]);
      const del = await post(h.app, AccountAreaPaths.newsDel, { newsId: newsIdParam }, b.token);
      expect([del.code, del.msg]).toEqual([404, AccountAreaMsg.newsNotFound]);
    }
    // b's own "all" touches only b's rows
    await post(h.app, AccountAreaPaths.newsRead, { newsId: 'all' }, b.token);
    const still = await get<NotificationListData>(h.app, AccountAreaPaths.newsListing, {}, a.token);
    expect(still.data.list.find((n) => n.newsId === newsId)?.isRead).toBe('0');

    for (const path of [AccountAreaPaths.signatureSetDefault, AccountAreaPaths.signatureDel]) {
      const r = await post(h.app, path, { id: seal.data.id }, b.token);
      expect([r.code, r.msg]).toEqual([404, AccountAreaMsg.sealNotFound]);
    }
    expect((await post<Signature[]>(h.app, AccountAreaPaths.signatureListing, {}, b.token)).data).toEqual([]);
    const edit = await post(
      h.app,
      AccountAreaPaths.editAddress,
      { ...ADDRESS, id: addr.data.id, name: '李四' },
      b.token,
    );
    expect([edit.code, edit.msg]).toEqual([404, AccountAreaMsg.addressNotFound]);
    const del = await post(h.app, AccountAreaPaths.delAddress, { id: addr.data.id }, b.token);
    expect([del.code, del.msg]).toEqual([404, AccountAreaMsg.addressNotFound]);
    expect((await get<Address[]>(h.app, AccountAreaPaths.addressList, {}, b.token)).data).toEqual([]);

    // a's rows are intact
    const seals = await post<Signature[]>(h.app, AccountAreaPaths.signatureListing, {}, a.token);
    expect(seals.data.map((s) => [s.id, s.is_default])).toEqual([[seal.data.id, '1']]);
    const addrs = await get<Address[]>(h.app, AccountAreaPaths.addressList, {}, a.token);
    expect(addrs.data).toEqual([addr.data]);
    expect(addrs.data[0]!.name).toBe('张三');

    // the seal image is served only through its signed URL
    const img = await h.app.inject({ method: 'GET', url: seal.data.pic_url });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.rawPayload.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    const unsigned = await h.app.inject({ method: 'GET', url: seal.data.pic_url.split('?')[0]! });
    expect(unsigned.statusCode).toBe(403);
    const forged = await h.app.inject({
      method: 'GET',
      url: seal.data.pic_url.replace(/sig=[0-9a-f]/, (m) => (m.endsWith('0') ? 'sig=1' : 'sig=0')),
    });
    expect(forged.statusCode).toBe(403);
  });

  it('ends 10 concurrent address creations of one user with exactly 5 addresses', async () => {
    const a = await newUser();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        post<Address>(
          h.app,
          AccountAreaPaths.addAddress,
          { ...ADDRESS, name: `收件人${i}`, status: '1' },
          a.token,
        ),
      ),
    );
    expect(results.filter((r) => r.code === 200)).toHaveLength(5);
    const refused = results.filter((r) => r.code !== 200);
    expect(refused).toHaveLength(5);
    expect(refused.every((r) => r.msg === AddressMsg.tooMany)).toBe(true);
    const list = await get<Address[]>(h.app, AccountAreaPaths.addressList, {}, a.token);
    expect(list.data).toHaveLength(5);
    expect(list.data.filter((x) => x.status === 1)).toHaveLength(1);
  });

  it('validates addresses: region must be a path of the tree, the shared validators, one default', async () => {
    const a = await newUser();
    const bad = await post(h.app, AccountAreaPaths.addAddress, { ...ADDRESS, area: '不存在区' }, a.token);
    expect([bad.code, bad.msg]).toEqual([400, AddressMsg.regionRequired]);
    const noRegion = await post(h.app, AccountAreaPaths.addAddress, { ...ADDRESS, province: '' }, a.token);
    expect(noRegion.msg).toBe(AddressMsg.regionRequired);
    const hk = await post(
      h.app,
      AccountAreaPaths.addAddress,
      { ...ADDRESS, province: '香港特别行政区', city: '香港特别行政区', area: '湾仔区' },
      a.token,
    );
    expect([hk.code, hk.msg]).toEqual([400, AddressMsg.noShipping]);
    const badMobile = await post(
      h.app,
      AccountAreaPaths.addAddress,
      { ...ADDRESS, phoneNumber: '12345' },
      a.token,
    );
    expect(badMobile.msg).toBe(Msg.mobileInvalid);
    const badMail = await post(h.app, AccountAreaPaths.addAddress, { ...ADDRESS, email: 'x@' }, a.token);
    expect(badMail.msg).toBe('请输入正确的邮箱');
    const bj = await post<Address>(
      h.app,
      AccountAreaPaths.addAddress,
      { ...ADDRESS, province: '北京市', city: '北京市', area: '朝阳区', status: '1' },
      a.token,
    );
    expect(bj.code).toBe(200);
    const second = await post<Address>(
      h.app,
      AccountAreaPaths.addAddress,
      { ...ADDRESS, status: '1' },
      a.token,
    );
    const list = await get<Address[]>(h.app, AccountAreaPaths.addressList, {}, a.token);
    expect(list.data.map((x) => [x.id, x.status])).toEqual([
      [second.data.id, 1],
      [bj.data.id, 0],
    ]);
    const edited = await post<Address>(
      h.app,
      AccountAreaPaths.editAddress,
      { ...ADDRESS, id: bj.data.id, province: '北京市', city: '北京市', area: '海淀区', status: '1' },
      a.token,
    );
    expect([edited.code, edited.data.area, edited.data.status]).toEqual([200, '海淀区', 1]);
    const after = await get<Address[]>(h.app, AccountAreaPaths.addressList, {}, a.token);
    expect(after.data.filter((x) => x.status === 1).map((x) => x.id)).toEqual([bj.data.id]);
    expect((await post(h.app, AccountAreaPaths.delAddress, { id: bj.data.id }, a.token)).code).toBe(200);
    expect((await get<Address[]>(h.app, AccountAreaPaths.addressList, {}, a.token)).data).toHaveLength(1);
  });

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
    expect((await post<Signature[]>(h.app, AccountAreaPaths.signatureListing, {}, a.token)).data).toEqual([]);

    const exact = await uploadSeal(a.token, '满额章', pngOfSize(SIGNATURE_MAX_BYTES), '1');
    expect(exact.code).toBe(200);
    const other = await uploadSeal(a.token, '合同章', pngOfSize(300), '1');
    expect(other.code).toBe(200);
    const defaults = async () =>
      (await post<Signature[]>(h.app, AccountAreaPaths.signatureListing, {}, a.token)).data
        .filter((s) => s.is_default === '1')
        .map((s) => s.id);
    expect(await defaults()).toEqual([other.data.id]);
    await post(h.app, AccountAreaPaths.signatureSetDefault, { id: exact.data.id }, a.token);
    expect(await defaults()).toEqual([exact.data.id]);
    // concurrent set-default calls still leave exactly one default
    await Promise.all([
      post(h.app, AccountAreaPaths.signatureSetDefault, { id: other.data.id }, a.token),
      post(h.app, AccountAreaPaths.signatureSetDefault, { id: exact.data.id }, a.token),
    ]);
    expect(await defaults()).toHaveLength(1);
    const del = await post(h.app, AccountAreaPaths.signatureDel, { id: exact.data.id }, a.token);
    expect(del.code).toBe(200);
    const img = await h.app.inject({ method: 'GET', url: exact.data.pic_url });
    expect(img.statusCode).toBe(404);
  });

  it('changes the password: spec messages, every old token answers 408, the new password logs in', async () => {
    const a = await newUser('oldpass123');
    const second = await login(h.app, a.mobile, 'oldpass123');
    const differ = await post(
      h.app,
      AccountAreaPaths.editPassword,
      { oldPassword: 'oldpass123', password: 'newpass123', confirmPassword: 'newpass124' },
      a.token,
    );
    expect(differ.msg).toBe(Msg.passwordsDiffer);
    const same = await post(
      h.app,
      AccountAreaPaths.editPassword,
      { oldPassword: 'oldpass123', password: 'oldpass123', confirmPassword: 'oldpass123' },
      a.token,
    );
    expect(same.msg).toBe(Msg.newPasswordSameAsOld);
    const rule = await post(
      h.app,
      AccountAreaPaths.editPassword,
      { oldPassword: 'oldpass123', password: 'abcdefgh', confirmPassword: 'abcdefgh' },
      a.token,
    );
    expect(rule.msg).toBe(Msg.passwordRule);
    const wrongOld = await post(
      h.app,
      AccountAreaPaths.editPassword,
      { oldPassword: 'nottheone1', password: 'newpass123', confirmPassword: 'newpass123' },
      a.token,
    );
    expect([wrongOld.code, wrongOld.msg]).toEqual([400, AccountAreaMsg.oldPasswordWrong]);
    const done = await post(
      h.app,
      AccountAreaPaths.editPassword,
      { oldPassword: 'oldpass123', password: 'newpass123', confirmPassword: 'newpass123' },
      a.token,
    );
    expect([done.code, done.msg]).toEqual([200, Msg.passwordChanged]);
    for (const token of [a.token, second]) {
      expect((await post(h.app, AccountPaths.authInfo, {}, token)).code).toBe(408);
    }
    expect((await post(h.app, AccountPaths.login, { mobile: a.mobile, password: 'oldpass123' })).code).toBe(
      400,
    );
    const fresh = await login(h.app, a.mobile, 'newpass123');
    const news = await get<NotificationListData>(h.app, AccountAreaPaths.newsListing, {}, fresh);
    expect(news.data.list[0]!.str).toBe(AccountAreaMsg.passwordChangedNews);
  });

  it('changes the extraction code: the old code stops working at once', async () => {
    const a = await newUser();
    const info = await post<UserInfo>(h.app, AccountPaths.authInfo, {}, a.token);
    const oldCode = info.data.extractCode;
    const saved = await upload<SaveEvidenceData>(h.app, a.token, Buffer.from('code test'), 'c.txt');
    const baoquan = saved.data.baoquan;
    expect((await post(h.app, EvidencePaths.codeDownload, { code: oldCode, baoquan })).code).toBe(200);
    const tooLong = await post(
      h.app,
      AccountAreaPaths.editExtractCode,
      { extractCode: 'x'.repeat(31) },
      a.token,
    );
    expect(tooLong.msg).toBe('提取码不能超过30个字符');
    const special = await post(h.app, AccountAreaPaths.editExtractCode, { extractCode: 'a<b>' }, a.token);
    expect(special.msg).toBe('提取码不能包含特殊字符');
    const r = await post(
      h.app,
      AccountAreaPaths.editExtractCode,
      { extractCode: 'my-new-code-2026' },
      a.token,
    );
    expect([r.code, r.msg]).toEqual([200, Msg.modified]);
    expect((await post(h.app, EvidencePaths.codeDownload, { code: oldCode, baoquan })).msg).toBe(
      Msg.extractCodeWrong,
    );
    expect((await post(h.app, EvidencePaths.codeDownload, { code: 'my-new-code-2026', baoquan })).code).toBe(
      200,
    );
  });

  it('answers the region tree covering every province-level division, with a cache header and ETag', async () => {
    const res = await h.app.inject({ method: 'GET', url: AccountAreaPaths.district });
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const tree = (res.json() as { data: RegionNode[] }).data;
    const pkg = loadPackageRegions();
    expect(tree.map((p) => p.name)).toEqual(pkg.map((p) => p.name));
    expect(tree).toHaveLength(34);
    for (const [i, p] of pkg.entries()) {
      const node = tree[i]!;
      const kids = p.children ?? [];
      const divided = kids.some((c) => c.children?.length);
      if (divided) {
        // every city of the package, each with its areas (or itself when not divided)
        expect(node.child!.map((c) => c.name)).toEqual(kids.map((c) => c.name));
        for (const [j, c] of kids.entries()) {
          const areas = c.children?.length ? c.children.map((x) => x.name) : [c.name];
          expect(node.child![j]!.child!.map((x) => x.name)).toEqual(areas);
        }
      } else {
        // municipality / SAR: one city named like it, holding its districts
        expect(node.child!.map((c) => c.name)).toEqual([p.name]);
        expect(node.child![0]!.child!.map((x) => x.name)).toEqual(
          kids.length ? kids.map((x) => x.name) : [p.name],
        );
      }
    }
    const leaves = tree.flatMap((p) => p.child!.flatMap((c) => c.child!));
    expect(leaves.every((a) => a.child === undefined)).toBe(true);
    expect(leaves.length).toBeGreaterThan(2800);
    const again = await h.app.inject({
      method: 'GET',
      url: AccountAreaPaths.district,
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
  });
});
