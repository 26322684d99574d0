/**
 * Helpers of the account-area platform suites (notifications, seals, addresses, settings; spec 01 §2.5–§2.7,
 * spec 02 "Addresses"): fresh numbered users (and verified enterprises with open-API keys), PNG bodies of an exact
 * size, and the seal upload call.
 */
import { type Signature, SignaturePaths } from '../../contract/signature.ts';
import { KycPaths } from '../../contract/kyc.ts';
import { call, login, multipart, post, registerUser, type PlatformHarness } from './platform.ts';

/** A delivery address body (Zhejiang). */
export const ADDRESS = {
  name: '张三',
  province: '浙江省',
  city: '杭州市',
  area: '西湖区',
  address: '文三路 100 号',
  phoneNumber: '13912345678',
  email: 'zs@example.com',
};

/** The 8 bytes every PNG starts with. */
export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG-signed buffer of exactly `size` bytes (file-type recognises PNG by its first bytes and the IHDR chunk). */
export function pngOfSize(size: number): Buffer {
  const ihdr = Buffer.from('0000000d49484452000000010000000108060000001f15c489', 'hex');
  const b = Buffer.alloc(size);
  PNG_SIGNATURE.copy(b, 0);
  ihdr.copy(b, 8);
  return b;
}

/**
 * `newUser(password = 'pass1234')` for one suite: registers a fresh verified user (mobiles `1370000` + a 4-digit
 * sequence number, unique within the suite's database) and resolves with its mobile and a login token.
 */
export function userFactory(h: PlatformHarness) {
  let seq = 0;
  return async function newUser(password = 'pass1234'): Promise<{ mobile: string; token: string }> {
    const mobile = `1370000${String(seq++).padStart(4, '0')}`;
    await registerUser(h.app, h.dataDir, mobile, password);
    return { mobile, token: await login(h.app, mobile, password) };
  };
}

/**
 * `newEnterprise(appId)` for one suite: a fresh user made a verified enterprise with `appId` directly in the database
 * (as approval leaves it, decision 011), whose SecurityKey is then issued by the real rotation call (so it is sealed
 * for the open API, decision 038). @returns the user, its id, AppID and the key (shown only by that answer)
 */
export function enterpriseFactory(h: PlatformHarness) {
  const newUser = userFactory(h);
  return async function newEnterprise(appId: string) {
    const u = await newUser();
    const { db } = h.app.pdb;
    const row = await db
      .selectFrom('users')
      .select('id')
      .where('mobile', '=', u.mobile)
      .executeTakeFirstOrThrow();
    const userId = Number(row.id);
    await db
      .updateTable('users')
      .set({ user_status: '3', account_type: 2 })
      .where('id', '=', userId)
      .execute();
    await db
      .insertInto('kyc_profiles')
      .values({
        user_id: userId,
        kind: 'enterprise',
        auth_type: 0,
        fields_json: '{}',
        submitted_at: 1,
        app_id: appId,
      })
      .execute();
    const rotated = await post<{ securityKey: string }>(h.app, KycPaths.rotateSecurityKey, {}, u.token);
    if (rotated.code !== 200) throw new Error(`resetSecurityKey failed: ${rotated.msg}`);
    return { ...u, userId, appId, securityKey: rotated.data.securityKey };
  };
}

/**
 * `uploadSeal(token, name, data, isDefault = '0', filename = 'seal.png')` for one suite: the multipart seal upload
 * (`data` null sends no file part) → the envelope with the saved `Signature`.
 */
export function sealUploader(h: PlatformHarness) {
  return function uploadSeal(
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
    return call<Signature>(h.app, { method: 'POST', url: SignaturePaths.signatureUpload, token, ...body });
  };
}
