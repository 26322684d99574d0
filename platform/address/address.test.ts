/**
 * Delivery addresses on the platform, on SQLite and PostgreSQL (spec 02 "Addresses" §2, §5, §7): at most 5 under
 * concurrency, the region must be a path of the tree, one default; the region tree against the data package with
 * its cache headers (decision 009). Also the ownership rule of the whole account area (spec 01 §6): another user's
 * notification, seal and address ids answer 404 and change nothing.
 */
import { expect, it } from 'vitest';
import { type Address, AddressMsg, AddressPaths, type RegionNode } from '../../contract/address.ts';
import { Msg } from '../../contract/messages.ts';
import {
  type NotificationListData,
  NotificationMsg,
  NotificationPaths,
} from '../../contract/notification.ts';
import { type Signature, SignatureMsg, SignaturePaths } from '../../contract/signature.ts';
import { loadPackageRegions } from './regions.ts';
import { ADDRESS, PNG_SIGNATURE, pngOfSize, sealUploader, userFactory } from '../../tests/support/account.ts';
import { forEachDialect, get, post, upload } from '../../tests/support/platform.ts';

forEachDialect('addresses', (h) => {
  const newUser = userFactory(h);
  const uploadSeal = sealUploader(h);

  it("refuses another user's notification, seal and address ids as not found, changing nothing", async () => {
    const a = await newUser();
    const b = await newUser();
    await upload(h.app, a.token, Buffer.from('owned by a'), 'a.txt');
    const news = await get<NotificationListData>(h.app, NotificationPaths.newsListing, {}, a.token);
    const newsId = news.data.list[0]!.newsId;
    const seal = await uploadSeal(a.token, 'A的章', pngOfSize(200), '1');
    expect(seal.code).toBe(200);
    const addr = await post<Address>(h.app, AddressPaths.addAddress, { ...ADDRESS, status: '1' }, a.token);
    expect(addr.code).toBe(200);

    for (const newsIdParam of [String(newsId), `${newsId}`, `999999,${newsId}`]) {
      const read = await post(h.app, NotificationPaths.newsRead, { newsId: newsIdParam }, b.token);
      expect([read.code, read.msg]).toEqual([404, NotificationMsg.newsNotFound]);
      const del = await post(h.app, NotificationPaths.newsDel, { newsId: newsIdParam }, b.token);
      expect([del.code, del.msg]).toEqual([404, NotificationMsg.newsNotFound]);
    }
    // b's own "all" touches only b's rows
    await post(h.app, NotificationPaths.newsRead, { newsId: 'all' }, b.token);
    const still = await get<NotificationListData>(h.app, NotificationPaths.newsListing, {}, a.token);
    expect(still.data.list.find((n) => n.newsId === newsId)?.isRead).toBe('0');

    for (const path of [SignaturePaths.signatureSetDefault, SignaturePaths.signatureDel]) {
      const r = await post(h.app, path, { id: seal.data.id }, b.token);
      expect([r.code, r.msg]).toEqual([404, SignatureMsg.sealNotFound]);
    }
    expect((await post<Signature[]>(h.app, SignaturePaths.signatureListing, {}, b.token)).data).toEqual([]);
    const edit = await post(
      h.app,
      AddressPaths.editAddress,
      { ...ADDRESS, id: addr.data.id, name: '李四' },
      b.token,
    );
    expect([edit.code, edit.msg]).toEqual([404, AddressMsg.addressNotFound]);
    const del = await post(h.app, AddressPaths.delAddress, { id: addr.data.id }, b.token);
    expect([del.code, del.msg]).toEqual([404, AddressMsg.addressNotFound]);
    expect((await get<Address[]>(h.app, AddressPaths.addressList, {}, b.token)).data).toEqual([]);

    // a's rows are intact
    const seals = await post<Signature[]>(h.app, SignaturePaths.signatureListing, {}, a.token);
    expect(seals.data.map((s) => [s.id, s.is_default])).toEqual([[seal.data.id, '1']]);
    const addrs = await get<Address[]>(h.app, AddressPaths.addressList, {}, a.token);
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
          AddressPaths.addAddress,
          { ...ADDRESS, name: `收件人${i}`, status: '1' },
          a.token,
        ),
      ),
    );
    expect(results.filter((r) => r.code === 200)).toHaveLength(5);
    const refused = results.filter((r) => r.code !== 200);
    expect(refused).toHaveLength(5);
    expect(refused.every((r) => r.msg === AddressMsg.tooMany)).toBe(true);
    const list = await get<Address[]>(h.app, AddressPaths.addressList, {}, a.token);
    expect(list.data).toHaveLength(5);
    expect(list.data.filter((x) => x.status === 1)).toHaveLength(1);
  });

  it('validates addresses: region must be a path of the tree, the shared validators, one default', async () => {
    const a = await newUser();
    const bad = await post(h.app, AddressPaths.addAddress, { ...ADDRESS, area: '不存在区' }, a.token);
    expect([bad.code, bad.msg]).toEqual([400, AddressMsg.regionRequired]);
    const noRegion = await post(h.app, AddressPaths.addAddress, { ...ADDRESS, province: '' }, a.token);
    expect(noRegion.msg).toBe(AddressMsg.regionRequired);
    const hk = await post(
      h.app,
      AddressPaths.addAddress,
      { ...ADDRESS, province: '香港特别行政区', city: '香港特别行政区', area: '湾仔区' },
      a.token,
    );
    expect([hk.code, hk.msg]).toEqual([400, AddressMsg.noShipping]);
    const badMobile = await post(
      h.app,
      AddressPaths.addAddress,
      { ...ADDRESS, phoneNumber: '12345' },
      a.token,
    );
    expect(badMobile.msg).toBe(Msg.mobileInvalid);
    const badMail = await post(h.app, AddressPaths.addAddress, { ...ADDRESS, email: 'x@' }, a.token);
    expect(badMail.msg).toBe('请输入正确的邮箱');
    const bj = await post<Address>(
      h.app,
      AddressPaths.addAddress,
      { ...ADDRESS, province: '北京市', city: '北京市', area: '朝阳区', status: '1' },
      a.token,
    );
    expect(bj.code).toBe(200);
    const second = await post<Address>(h.app, AddressPaths.addAddress, { ...ADDRESS, status: '1' }, a.token);
    const list = await get<Address[]>(h.app, AddressPaths.addressList, {}, a.token);
    expect(list.data.map((x) => [x.id, x.status])).toEqual([
      [second.data.id, 1],
      [bj.data.id, 0],
    ]);
    const edited = await post<Address>(
      h.app,
      AddressPaths.editAddress,
      { ...ADDRESS, id: bj.data.id, province: '北京市', city: '北京市', area: '海淀区', status: '1' },
      a.token,
    );
    expect([edited.code, edited.data.area, edited.data.status]).toEqual([200, '海淀区', 1]);
    const after = await get<Address[]>(h.app, AddressPaths.addressList, {}, a.token);
    expect(after.data.filter((x) => x.status === 1).map((x) => x.id)).toEqual([bj.data.id]);
    expect((await post(h.app, AddressPaths.delAddress, { id: bj.data.id }, a.token)).code).toBe(200);
    expect((await get<Address[]>(h.app, AddressPaths.addressList, {}, a.token)).data).toHaveLength(1);
  });

  it('answers the region tree covering every province-level division, with a cache header and ETag', async () => {
    const res = await h.app.inject({ method: 'GET', url: AddressPaths.district });
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
      url: AddressPaths.district,
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
  });
});
