/**
 * Real-name verification (spec 02 §4–§7) platform integration tests, on SQLite and PostgreSQL: the
 * verification gate; the personal photo and enterprise submissions with their validation; privacy of the
 * images (signed URLs only) and masking; the operator review (login, queue, detail, approve, reject with
 * remark, audit, notifications, AppID/SecurityKey shown once); the face method through the real alipay-sdk
 * against the sandbox gateway, applied once however many pollers ask.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { AccountPaths } from '../../contract/account.ts';
import { ApiCode } from '../../contract/envelope.ts';
import { EvidencePaths } from '../../contract/evidence.ts';
import { type KycQueueData, type KycReviewDetail, KycReviewPaths } from '../../contract/kyc-review.ts';
import { type AuthInfo, type FaceStartData, KycGateMsg, KycMsg, KycPaths } from '../../contract/kyc.ts';
import { type NotificationListData, NotificationPaths } from '../../contract/notification.ts';
import { type AuditListData, type OpsLoginData, OpsMsg, OpsPaths } from '../../contract/ops.ts';
import { idCardCheckChar } from '../../contract/validators.ts';
import { buildPlatform } from '../app.ts';
import { createOperator } from '../ops/service.ts';
import {
  call,
  forEachDialect,
  get,
  login,
  multipart,
  post,
  registerUser,
  testConfig,
  upload,
} from '../../tests/support/platform.ts';
import { kycSecurityKey } from '../db/migrations/0010_kyc_security_key.ts';
import { INTERNAL_FACE_POLL_PATH } from './routes.ts';
import { userOfApiCredentials } from './service.ts';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000d49484452000000010000000108060000001f15c489', 'hex'),
  Buffer.alloc(64),
]);
const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0,
]);

/** A valid 18-digit ID number for a birth date and sequence (check digit computed by GB 11643). */
function idNumber(birth: string, seq: string): string {
  const first17 = `110105${birth}${seq}`;
  return first17 + idCardCheckChar(first17);
}
const ID_A = idNumber('19900307', '123');
const ID_FACE = idNumber('19910515', '456');
const USCC = '91350100M000100Y43';

type Files = { name: string; data: Buffer; filename: string }[];
/** A multipart body with several file parts. */
function multipartMany(fields: Record<string, string>, files: Files) {
  const first = multipart(fields);
  const boundary = /boundary=(.*)$/.exec(first.headers['content-type']!)![1]!;
  const chunks: Buffer[] = [first.payload.subarray(0, first.payload.length - `--${boundary}--\r\n`.length)];
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.name}"; filename="${f.filename}"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      f.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: first.headers };
}

const PERSONAL = {
  userName: '张三',
  idCard: ID_A,
  sex: '0',
  type: '1',
  address: '北京市朝阳区建国路1号',
  consent: '1',
};
const personalFiles = (hand: Buffer = PNG, handName = 'hand.png'): Files => [
  { name: 'authorFront', data: PNG, filename: 'front.png' },
  { name: 'authorBack', data: JPEG, filename: 'back.jpg' },
  { name: 'authorHand', data: hand, filename: handName },
];
const ENTERPRISE = {
  name: '福州测试科技有限公司',
  code: USCC,
  address: '福建省福州市鼓楼区1号',
  legalName: '李四',
  account: '福州测试科技有限公司',
  bank: '中国银行福州分行',
  bankNo: '6222021234567890123',
  mobileReserve: '13912345678',
  contactIdcard: ID_A,
  authorName: '王五',
  authorSex: '男',
  authorBrith: '1985-06-15',
  authorPhone: '13912345679',
  authorIdcard: idNumber('19850615', '456'),
};
const enterpriseFiles: Files = ['license', 'file', 'authorFront', 'authorBack'].map((name) => ({
  name,
  data: PNG,
  filename: `${name}.png`,
}));

forEachDialect('KYC', (h) => {
  let seq = 0;
  async function newUser() {
    const mobile = `1360000${String(seq++).padStart(4, '0')}`;
    await registerUser(h.app, h.dataDir, mobile, 'pass1234', false);
    return { mobile, token: await login(h.app, mobile, 'pass1234') };
  }
  const submit = (path: string, token: string, fields: Record<string, string>, files: Files) =>
    call(h.app, { method: 'POST', url: path, token, ...multipartMany(fields, files) });
  const info = async (token: string, edit = false) =>
    (await post<AuthInfo>(h.app, AccountPaths.authInfo, edit ? { edit: '1' } : {}, token)).data;
  /** What the database holds in `kyc_profiles.security_key` for `userId`. */
  const storedKey = async (userId: number) =>
    (
      await h.app.pdb.db
        .selectFrom('kyc_profiles')
        .select('security_key')
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow()
    ).security_key;
  let opsToken = '';
  async function operator() {
    if (opsToken) return opsToken;
    expect(await createOperator(h.app.pdb.db, 'reviewer', 'reviewer-pass-1', h.config.scryptCost)).toBe(
      'created',
    );
    expect(await createOperator(h.app.pdb.db, 'reviewer', 'reviewer-pass-1', h.config.scryptCost)).toBe(
      'exists',
    );
    const bad = await post(h.app, OpsPaths.login, { username: 'reviewer', password: 'wrong-password' });
    expect([bad.code, bad.msg]).toEqual([400, OpsMsg.loginFailed]);
    const r = await post<OpsLoginData>(h.app, OpsPaths.login, {
      username: 'reviewer',
      password: 'reviewer-pass-1',
    });
    expect(r.code).toBe(200);
    opsToken = r.data.token;
    return opsToken;
  }

  it('gates evidence: an unverified user cannot save any kind, with the message', async () => {
    const u = await newUser();
    const r = await upload(h.app, u.token, Buffer.from('x'), 'x.txt');
    expect([r.code, r.msg]).toEqual([ApiCode.KYC_REQUIRED, KycGateMsg.required]);
    const hash = await post(h.app, EvidencePaths.saveHash, { hash: 'a'.repeat(64) }, u.token);
    expect(hash.code).toBe(ApiCode.KYC_REQUIRED);
  });

  it('personal photo: validation, masked info, private images, operator approval opens the gate', async () => {
    const u = await newUser();
    const other = await newUser();
    const cases: [Record<string, string>, Files, string][] = [
      [{ ...PERSONAL, consent: '' }, personalFiles(), KycMsg.consentRequired],
      [
        { ...PERSONAL, idCard: ID_A.slice(0, 17) + (ID_A.endsWith('1') ? '2' : '1') },
        personalFiles(),
        KycMsg.idCardInvalid,
      ],
      [PERSONAL, personalFiles(JPEG, 'hand.png'), KycMsg.personalImageBadType],
      [
        PERSONAL,
        personalFiles(Buffer.concat([PNG, Buffer.alloc(3145728)]), 'big.png'),
        KycMsg.personalImageTooLarge,
      ],
      [PERSONAL, personalFiles().slice(0, 2), KycMsg.uploadHand],
      [
        { ...PERSONAL, authorHand: 'http://example.com/x.png' },
        personalFiles().slice(0, 2),
        KycMsg.uploadHand,
      ],
    ];
    for (const [fields, files, msg] of cases) {
      const r = await submit(KycPaths.perAuthorize, u.token, fields, files);
      expect([r.code, r.msg]).toEqual([expect.any(Number), msg]);
      expect(r.code).not.toBe(200);
    }
    expect((await info(u.token)).userStatus).toBe('1');

    const ok = await submit(KycPaths.perAuthorize, u.token, PERSONAL, personalFiles());
    expect([ok.code, ok.msg]).toEqual([200, '提交成功']);
    const again = await submit(KycPaths.perAuthorize, u.token, PERSONAL, personalFiles());
    expect(again.code).toBe(400);
    const mine = await info(u.token, true);
    expect(mine).toMatchObject({ userStatus: '2', status: 1, authType: 1, userName: '张三' });
    // under review: masked even when asking for the edit form
    expect(mine.idCard).toBe(`${ID_A.slice(0, 3)}${'*'.repeat(11)}${ID_A.slice(-4)}`);
    expect(JSON.stringify(mine)).not.toContain(ID_A);

    // images: the owner's signed URLs work; nobody gets in without one
    const front = await h.app.inject({ method: 'GET', url: mine.authorFront });
    expect(front.statusCode).toBe(200);
    expect(front.headers['content-type']).toBe('image/png');
    expect(front.rawPayload.equals(PNG)).toBe(true);
    const back = await h.app.inject({ method: 'GET', url: mine.authorBack });
    expect(back.headers['content-type']).toBe('image/jpeg');
    expect((await h.app.inject({ method: 'GET', url: mine.authorFront.split('?')[0]! })).statusCode).toBe(
      403,
    );
    const backId = /image\/(\d+)/.exec(mine.authorBack)![1]!;
    const swapped = mine.authorFront.replace(/image\/\d+/, `image/${backId}`);
    expect((await h.app.inject({ method: 'GET', url: swapped })).statusCode).toBe(403);
    const otherInfo = await info(other.token);
    expect([otherInfo.authorFront, otherInfo.idCard]).toEqual(['', '']);
    const expired = mine.authorFront.replace(/exp=\d+/, 'exp=1000');
    expect((await h.app.inject({ method: 'GET', url: expired })).statusCode).toBe(403);

    // operator review
    const ops = await operator();
    expect((await get(h.app, KycReviewPaths.queue, {}, u.token)).code).toBe(408);
    const queue = await get<KycQueueData>(h.app, KycReviewPaths.queue, { status: '2' }, ops);
    const item = queue.data.list.find((i) => i.mobile === u.mobile)!;
    expect(item).toMatchObject({ status: 1, authType: 1, name: '张三', userStatus: '2' });
    const detail = await get<KycReviewDetail>(h.app, KycReviewPaths.detail, { userId: item.userId }, ops);
    expect(detail.data.images.map((i) => i.field)).toEqual(['authorFront', 'authorBack', 'authorHand']);
    expect(detail.data.details.idCard).toBe(mine.idCard);
    const img = await h.app.inject({ method: 'GET', url: detail.data.images[2]!.url });
    expect(img.statusCode).toBe(200);
    const approve = await post(h.app, KycReviewPaths.approve, { userId: item.userId }, ops);
    expect([approve.code, approve.msg]).toEqual([200, KycMsg.reviewApproved]);
    const twice = await post(h.app, KycReviewPaths.approve, { userId: item.userId }, ops);
    expect([twice.code, twice.msg]).toEqual([400, KycMsg.reviewNotPending]);
    expect(await info(u.token)).toMatchObject({ userStatus: '3', checkRemark: '' });
    const news = await get<NotificationListData>(h.app, NotificationPaths.newsListing, {}, u.token);
    expect(news.data.list[0]!.str).toBe(KycMsg.approvedNews);
    expect((await upload(h.app, u.token, Buffer.from('now allowed'), 'ok.txt')).code).toBe(200);
    const audit = await get<AuditListData>(h.app, OpsPaths.audit, {}, ops);
    expect(audit.data.list[0]).toMatchObject({
      operator: 'reviewer',
      userId: item.userId,
      action: 'approve',
    });
  });

  it('enterprise: reject with remark, editable with full numbers, resubmit unchanged images, API credentials', async () => {
    const u = await newUser();
    const bad = await submit(
      KycPaths.companyAuthorize,
      u.token,
      { ...ENTERPRISE, code: '91350100M000100Y44' },
      enterpriseFiles,
    );
    expect(bad.msg).toBe(KycMsg.creditCodeInvalid);
    const jpegAsPng = enterpriseFiles.map((f) => (f.name === 'license' ? { ...f, data: JPEG } : f));
    expect((await submit(KycPaths.companyAuthorize, u.token, ENTERPRISE, jpegAsPng)).msg).toBe(
      KycMsg.enterpriseImageBadType,
    );
    expect((await submit(KycPaths.companyAuthorize, u.token, ENTERPRISE, enterpriseFiles)).code).toBe(200);
    const ops = await operator();
    const userId = (await get<KycQueueData>(h.app, KycReviewPaths.queue, {}, ops)).data.list.find(
      (i) => i.mobile === u.mobile,
    )!.userId;
    const noRemark = await post(h.app, KycReviewPaths.reject, { userId, remark: ' ' }, ops);
    expect(noRemark.msg).toBe('请填写驳回原因');
    const reject = await post(h.app, KycReviewPaths.reject, { userId, remark: '营业执照不清晰' }, ops);
    expect([reject.code, reject.msg]).toEqual([200, KycMsg.reviewRejected]);
    const failed = await info(u.token, true);
    expect(failed).toMatchObject({
      userStatus: '4',
      status: 2,
      checkRemark: '营业执照不清晰',
      company: ENTERPRISE.name,
    });
    // editable again: the owner's edit form gets the full numbers
    expect([failed.contactIdcard, failed.accountNo]).toEqual([ENTERPRISE.contactIdcard, ENTERPRISE.bankNo]);
    expect((await info(u.token)).accountNo).toBe(`${'*'.repeat(15)}0123`);
    const news = await get<NotificationListData>(h.app, NotificationPaths.newsListing, {}, u.token);
    expect(news.data.list[0]!.str).toBe(KycMsg.rejectedNews('营业执照不清晰'));

    // resubmit: a new licence, the other images unchanged
    const unchanged = {
      ...ENTERPRISE,
      file: 'http-unchanged',
      authorFront: 'http-unchanged',
      authorBack: 'http-unchanged',
    };
    const re = await submit(KycPaths.companyAuthorize, u.token, unchanged, [enterpriseFiles[0]!]);
    expect([re.code, re.msg]).toEqual([200, '提交成功']);
    expect((await info(u.token)).userStatus).toBe('2');
    expect((await post(h.app, KycReviewPaths.approve, { userId }, ops)).code).toBe(200);
    // the shell's refresh (no edit flag) does not consume the one-time reveal
    expect((await info(u.token)).securityKeyShown).toBe(false);
    const first = await info(u.token, true);
    expect(first.appId).toMatch(/^cz[0-9a-f]{16}$/);
    expect(first.securityKeyShown).toBe(true);
    expect(first.securityKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const later = await info(u.token, true);
    expect(later.securityKeyShown).toBe(false);
    expect(later.securityKey).toBe(
      `${first.securityKey.slice(0, 4)}${'*'.repeat(35)}${first.securityKey.slice(-4)}`,
    );
    // at rest: the hash and the mask's hint, never the key (a copy of the database reveals nothing)
    const storedFirst = await storedKey(userId);
    expect(storedFirst).toMatch(/^sha256:[A-Za-z0-9_-]{8}:[0-9a-f]{64}$/);
    expect(storedFirst).not.toContain(first.securityKey);
    expect(await userOfApiCredentials(h.app.pdb.db, first.appId, first.securityKey)).toBe(userId);
    expect(await userOfApiCredentials(h.app.pdb.db, first.appId, later.securityKey)).toBeNull();
    const rotated = await post<{ securityKey: string }>(h.app, '/api/user/resetSecurityKey', {}, u.token);
    expect(rotated.data.securityKey).not.toBe(first.securityKey);
    expect(rotated.data.securityKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const afterRotation = await info(u.token, true);
    expect([afterRotation.securityKeyShown, afterRotation.appId]).toEqual([false, first.appId]);
    expect(afterRotation.securityKey).toBe(
      `${rotated.data.securityKey.slice(0, 4)}${'*'.repeat(35)}${rotated.data.securityKey.slice(-4)}`,
    );
    expect(await storedKey(userId)).not.toContain(rotated.data.securityKey);
    expect(await userOfApiCredentials(h.app.pdb.db, first.appId, rotated.data.securityKey)).toBe(userId);
    expect(await userOfApiCredentials(h.app.pdb.db, first.appId, first.securityKey)).toBeNull();
    const audit = await get<AuditListData>(h.app, OpsPaths.audit, {}, ops);
    expect(audit.data.list.filter((a) => a.userId === userId).map((a) => [a.action, a.remark])).toEqual([
      ['approve', ''],
      ['reject', '营业执照不清晰'],
    ]);
  });

  it('migration 0010 hashes shown clear SecurityKeys and drops unshown ones; the owner keeps using the key', async () => {
    const { db } = h.app.pdb;
    const clearKey = 'Abcd0123456789012345678901234567890123_wxyz';
    const unshownKey = 'Zyxw0123456789012345678901234567890123_dcba';
    const owners: number[] = [];
    for (const [i, [key, shown]] of (
      [
        [clearKey, 1],
        [unshownKey, 0],
      ] as const
    ).entries()) {
      const u = await newUser();
      const user = await db
        .selectFrom('users')
        .select('id')
        .where('mobile', '=', u.mobile)
        .executeTakeFirstOrThrow();
      const userId = Number(user.id);
      owners.push(userId);
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
          app_id: `czmigration000${i}`,
          security_key: key,
          security_key_shown: shown,
        })
        .execute();
    }
    await kycSecurityKey(h.dialect).up(db);
    const [shownOwner, unshownOwner] = owners as [number, number];
    const hashed = await storedKey(shownOwner);
    expect(hashed).toMatch(/^sha256:Abcdwxyz:[0-9a-f]{64}$/);
    expect(await storedKey(unshownOwner)).toBeNull();
    // run again: nothing changes
    await kycSecurityKey(h.dialect).up(db);
    expect(await storedKey(shownOwner)).toBe(hashed);
    expect(await userOfApiCredentials(db, 'czmigration0000', clearKey)).toBe(shownOwner);
    expect(await userOfApiCredentials(db, 'czmigration0000', unshownKey)).toBeNull();
    expect(await userOfApiCredentials(db, 'czmigration0001', unshownKey)).toBeNull();
  });

  /** Opens the certify URL like a browser and presses a button on the sandbox page. */
  async function decideOnSandbox(qrContent: string, decision: 'pass' | 'fail') {
    const res = await fetch(qrContent, { redirect: 'manual' });
    const page = new URL(res.headers.get('location') ?? '', qrContent).toString();
    const pressed = await fetch(page, {
      method: 'POST',
      body: new URLSearchParams({ decision }),
      redirect: 'manual',
    });
    expect(pressed.status).toBe(303);
  }

  it('face: the real SDK against the sandbox; pass applied once by many pollers, fail stops', async () => {
    const u = await newUser();
    const badName = await post(
      h.app,
      KycPaths.aliIdentification,
      { username: 'Zhang', idCard: ID_A, type: '3', address: '北京' },
      u.token,
    );
    expect(badName.msg).toBe(KycMsg.nameChinese);
    const start = await post<FaceStartData>(
      h.app,
      KycPaths.aliIdentification,
      // ID_A is under review on another account by now: one number, one personal account
      { username: '赵六', idCard: ID_FACE, type: '3', address: '北京市东城区1号' },
      u.token,
    );
    expect(start.code).toBe(200);
    const certify_id = start.data.certify_id;
    expect((await post(h.app, KycPaths.aliQuery, { certify_id }, u.token)).code).toBe(ApiCode.PENDING);
    const stranger = await newUser();
    expect((await post(h.app, KycPaths.aliQuery, { certify_id }, stranger.token)).code).toBe(404);

    await decideOnSandbox(start.data.qrContent, 'pass');
    const internal = { 'x-internal-key': h.app.internalKey };
    expect((await call(h.app, { method: 'POST', url: INTERNAL_FACE_POLL_PATH })).status).toBe(403);
    const polls = await Promise.all([
      call<{ passed: number }>(h.app, { method: 'POST', url: INTERNAL_FACE_POLL_PATH, headers: internal }),
      call<{ passed: number }>(h.app, { method: 'POST', url: INTERNAL_FACE_POLL_PATH, headers: internal }),
      post(h.app, KycPaths.aliQuery, { certify_id }, u.token),
    ]);
    const q = await post(h.app, KycPaths.aliQuery, { certify_id }, u.token);
    expect([q.code, q.msg]).toEqual([200, '实名认证成功']);
    expect(polls[0].data.passed + polls[1].data.passed + (polls[2].code === 200 ? 0 : 0)).toBeLessThanOrEqual(
      1,
    );
    expect(await info(u.token)).toMatchObject({ userStatus: '3', status: 1, authType: 3, userName: '赵六' });
    const news = await get<NotificationListData>(h.app, NotificationPaths.newsListing, {}, u.token);
    expect(news.data.list.filter((n) => n.str.includes('人脸认证已通过'))).toHaveLength(1);

    const v = await newUser();
    const s2 = await post<FaceStartData>(
      h.app,
      KycPaths.aliIdentification,
      { username: '钱七', idCard: idNumber('19920101', '789'), type: '3', address: '北京市' },
      v.token,
    );
    await decideOnSandbox(s2.data.qrContent, 'fail');
    const failed = await post(h.app, KycPaths.aliQuery, { certify_id: s2.data.certify_id }, v.token);
    expect(failed.code).toBe(400);
    expect((await info(v.token)).userStatus).toBe('1');
  });
});

describe('KYC logging', () => {
  it('never writes an ID number unmasked to the logs', async () => {
    const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-kyc-log-'));
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    const { default: pino } = await import('pino');
    const app = await buildPlatform(testConfig(dataDir, undefined, { LOG_LEVEL: 'trace' }), {
      loggerInstance: pino({ level: 'trace' }, sink),
    });
    try {
      const mobile = '13500000001';
      await registerUser(app, dataDir, mobile, 'pass1234', false);
      const token = await login(app, mobile, 'pass1234');
      await call(app, {
        method: 'POST',
        url: KycPaths.perAuthorize,
        token,
        ...multipartMany(PERSONAL, personalFiles()),
      });
      await call(app, {
        method: 'POST',
        url: KycPaths.perAuthorize,
        token,
        ...multipartMany({ ...PERSONAL, idCard: ID_A.slice(0, 17) + 'Z' }, personalFiles()),
      });
      await createOperator(app.pdb.db, 'logcheck', 'logcheck-pass-1', { N: 1024, r: 8, p: 1 });
      const ops = (
        await post<OpsLoginData>(app, OpsPaths.login, { username: 'logcheck', password: 'logcheck-pass-1' })
      ).data.token;
      const queue = await get<KycQueueData>(app, KycReviewPaths.queue, {}, ops);
      await get(app, KycReviewPaths.detail, { userId: queue.data.list[0]!.userId }, ops);
      const v = '13500000002';
      await registerUser(app, dataDir, v, 'pass1234', false);
      const vt = await login(app, v, 'pass1234');
      await post(
        app,
        KycPaths.aliIdentification,
        { username: '赵六', idCard: ID_FACE, type: '3', address: '北京市' },
        vt,
      );
    } finally {
      await app.close();
      await fsp.rm(dataDir, { recursive: true, force: true });
    }
    const text = lines.join('');
    expect(lines.length).toBeGreaterThan(10);
    expect(text).toContain('KYC submitted');
    expect(text).not.toContain(ID_A);
    expect(text).not.toContain(ID_A.slice(6, 14)); // not even the birth date part
    expect(text).not.toContain(ID_FACE);
  });
});
