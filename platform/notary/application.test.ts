/**
 * Step 1 of a notarisation order on the platform, on SQLite and PostgreSQL (decision 034, applicationForm): the
 * applicant is the user's verified identity (masked in answers); saving copies it and the chosen address into the
 * order and moves it to step 2, once; the rules' messages; another user's order or address is not found; a closed
 * order cannot be filled.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { type Address, AddressMsg, AddressPaths } from '../../contract/address.ts';
import { ApiCode } from '../../contract/envelope.ts';
import type { SaveEvidenceData } from '../../contract/evidence.ts';
import {
  MAX_COPIES,
  NOTARY_TYPES,
  type NotaryApplicationData,
  type NotaryDetailData,
  NotaryMsg,
  type NotaryOrderCreated,
  NotaryPaths,
  NotaryStep,
} from '../../contract/notary.ts';
import { ADDRESS, userFactory } from '../../tests/support/account.ts';
import { forEachDialect, get, post, upload } from '../../tests/support/platform.ts';

forEachDialect('notary application (step 1)', (h) => {
  const newUser = userFactory(h);
  let a: { token: string };
  let b: { token: string };
  let evidenceA: number;
  let addressA: number;
  let addressB: number;
  const type = NOTARY_TYPES[0]!.type;
  beforeAll(async () => {
    a = await newUser();
    b = await newUser();
    const saved = await upload<SaveEvidenceData>(h.app, a.token, randomBytes(32), 'a.txt');
    evidenceA = saved.data.id;
    addressA = (await post<Address>(h.app, AddressPaths.addAddress, ADDRESS, a.token)).data.id;
    addressB = (await post<Address>(h.app, AddressPaths.addAddress, { ...ADDRESS, name: '李四' }, b.token))
      .data.id;
    // a's verified identity as the KYC submission holds it (the photo submission's field names)
    const user = await h.app.pdb.db
      .selectFrom('users')
      .select('id')
      .where(
        'mobile',
        '=',
        (await get<{ mobile: string }>(h.app, '/api/user/getAuthInfo', {}, a.token)).data.mobile,
      )
      .executeTakeFirstOrThrow();
    await h.app.pdb.db
      .insertInto('kyc_profiles')
      .values({
        user_id: user.id,
        kind: 'personal',
        auth_type: 1,
        fields_json: JSON.stringify({ userName: '王小明', idCard: '110101199003070038' }),
        submitted_at: 1_700_000_000,
      } as never)
      .execute();
  });
  const newOrder = async () =>
    (await post<NotaryOrderCreated>(h.app, NotaryPaths.createOrder, { type, ids: [evidenceA] }, a.token))
      .data;
  const form = (orderId: number, extra: Record<string, unknown> = {}) => ({
    orderId,
    purpose: '证明网页内容',
    usePlace: '杭州市西湖区人民法院',
    copies: 2,
    addressId: addressA,
    remark: '',
    ...extra,
  });

  it('shows the applicant masked, saves once, copies the address, and moves the order to step 2', async () => {
    const order = await newOrder();
    const before = await get<NotaryApplicationData>(
      h.app,
      NotaryPaths.application,
      { orderId: order.id },
      a.token,
    );
    expect(before.data).toMatchObject({
      applicant: { kind: 'personal', name: '王小明', idNumber: '110***********0038' },
      form: null,
      editable: true,
      step: NotaryStep.applicationForm,
    });
    const saved = await post(h.app, NotaryPaths.saveApplication, form(order.id), a.token);
    expect([saved.code, saved.msg]).toEqual([200, NotaryMsg.applicationSaved]);
    // the address changes afterwards; the application keeps it as it was
    await post(h.app, AddressPaths.editAddress, { ...ADDRESS, id: addressA, name: '赵六' }, a.token);
    const after = await get<NotaryApplicationData>(
      h.app,
      NotaryPaths.application,
      { orderId: order.id },
      a.token,
    );
    expect(after.data).toMatchObject({
      form: { purpose: '证明网页内容', copies: 2, recipient: '张三', region: '浙江省 杭州市 西湖区' },
      editable: false,
      step: NotaryStep.signature,
    });
    const detail = await get<NotaryDetailData>(h.app, NotaryPaths.detail, { orderId: order.id }, a.token);
    expect(detail.data.info.step).toBe(NotaryStep.signature);
    const again = await post(h.app, NotaryPaths.saveApplication, form(order.id), a.token);
    expect([again.code, again.msg]).toEqual([ApiCode.BAD_REQUEST, NotaryMsg.applicationLocked]);
  });

  it('answers the rules with their messages and saves nothing', async () => {
    const order = await newOrder();
    const save = (extra: Record<string, unknown>) =>
      post(h.app, NotaryPaths.saveApplication, form(order.id, extra), a.token);
    expect((await save({ purpose: '' })).msg).toBe('公证用途不能为空');
    expect((await save({ copies: MAX_COPIES + 1 })).msg).toBe(NotaryMsg.copiesRange);
    expect((await save({ copies: 0 })).msg).toBe(NotaryMsg.copiesRange);
    expect((await save({ addressId: '' })).msg).toBe(NotaryMsg.addressRequired);
    const theirs = await save({ addressId: addressB });
    expect([theirs.code, theirs.msg]).toEqual([ApiCode.NOT_FOUND, AddressMsg.addressNotFound]);
    const state = await get<NotaryApplicationData>(
      h.app,
      NotaryPaths.application,
      { orderId: order.id },
      a.token,
    );
    expect([state.data.form, state.data.step]).toEqual([null, NotaryStep.applicationForm]);
  });

  it("refuses another user's order and a closed one", async () => {
    const order = await newOrder();
    const other = await post(
      h.app,
      NotaryPaths.saveApplication,
      { ...form(order.id), addressId: addressB },
      b.token,
    );
    expect([other.code, other.msg]).toEqual([ApiCode.NOT_FOUND, NotaryMsg.orderNotFound]);
    const peek = await get(h.app, NotaryPaths.application, { orderId: order.id }, b.token);
    expect(peek.code).toBe(ApiCode.NOT_FOUND);
    await post(h.app, NotaryPaths.stop, { orderId: order.id }, a.token);
    const closed = await post(h.app, NotaryPaths.saveApplication, form(order.id), a.token);
    expect([closed.code, closed.msg]).toEqual([ApiCode.BAD_REQUEST, NotaryMsg.orderClosed]);
    const state = await get<NotaryApplicationData>(
      h.app,
      NotaryPaths.application,
      { orderId: order.id },
      a.token,
    );
    expect(state.data.editable).toBe(false);
  });
});
