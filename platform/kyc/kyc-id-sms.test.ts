/**
 * One national ID number verifies one personal account, and the KYC result SMS (docs/decisions/025-secrets-sms.md;
 * spec 02 §9), on SQLite and PostgreSQL: a number under review or verified on one account is refused on another
 * (photo and face, in its 18- and 15-digit spellings, and between concurrent submissions: exactly one wins); a
 * rejection frees it; approve and reject each send the result SMS to the user's mobile (sandbox outbox).
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { KycReviewPaths } from '../../contract/kyc-review.ts';
import { type FaceStartData, KycMsg, KycPaths } from '../../contract/kyc.ts';
import { type OpsLoginData, OpsPaths } from '../../contract/ops.ts';
import { Msg } from '../../contract/messages.ts';
import { idCardCheckChar } from '../../contract/validators.ts';
import { createOperator } from '../ops/service.ts';
import { call, forEachDialect, login, multipart, post, registerUser } from '../../tests/support/platform.ts';
import { normaliseIdNumber } from './id-number.ts';

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000d49484452000000010000000108060000001f15c489', 'hex'),
  Buffer.alloc(64),
]);

/** An 18-character ID number born in 19`yymmdd` with sequence `seq`, and its legacy 15-digit spelling. */
function idPair(yymmdd: string, seq: string): { id18: string; id15: string } {
  const first17 = `11010519${yymmdd}${seq}`;
  return { id18: first17 + idCardCheckChar(first17), id15: `110105${yymmdd}${seq}` };
}

/** The personal photo submission of `idCard` as a multipart body. */
function personal(idCard: string) {
  const fields = {
    userName: '张三',
    idCard,
    sex: '0',
    type: '1',
    address: '北京市朝阳区建国路1号',
    consent: '1',
  };
  const first = multipart(fields);
  const boundary = /boundary=(.*)$/.exec(first.headers['content-type']!)![1]!;
  const chunks = [first.payload.subarray(0, first.payload.length - `--${boundary}--\r\n`.length)];
  for (const name of ['authorFront', 'authorBack', 'authorHand']) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${name}.png"\r\n` +
          'Content-Type: image/png\r\n\r\n',
      ),
      PNG,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: first.headers };
}

it('normalises ID numbers: upper-case X, 15 digits widened to 18', () => {
  const { id18, id15 } = idPair('800101', '002');
  expect(normaliseIdNumber(id15)).toBe(id18);
  expect(normaliseIdNumber(` ${id18.toLowerCase()} `)).toBe(id18);
});

forEachDialect('KYC one ID per account, result SMS', (h) => {
  let seq = 0;
  async function newUser() {
    const mobile = `1370000${String(seq++).padStart(4, '0')}`;
    await registerUser(h.app, h.dataDir, mobile, 'pass1234', false);
    return { mobile, token: await login(h.app, mobile, 'pass1234') };
  }
  const submit = (token: string, idCard: string) =>
    call(h.app, { method: 'POST', url: KycPaths.perAuthorize, token, ...personal(idCard) });
  const userId = async (mobile: string) =>
    Number(
      (
        await h.app.pdb.db
          .selectFrom('users')
          .select('id')
          .where('mobile', '=', mobile)
          .executeTakeFirstOrThrow()
      ).id,
    );
  let opsToken = '';
  async function operator() {
    if (!opsToken) {
      await createOperator(h.app.pdb.db, 'idrev', 'idrev-pass-1', h.config.scryptCost);
      opsToken = (
        await post<OpsLoginData>(h.app, OpsPaths.login, { username: 'idrev', password: 'idrev-pass-1' })
      ).data.token;
    }
    return opsToken;
  }
  /** The outbox lines of `mobile` without a code (the notices). */
  async function notices(mobile: string) {
    const text = await fsp.readFile(path.join(h.dataDir, 'outbox', 'sms.log'), 'utf8');
    return text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { mobile: string; purpose: string; text?: string; code?: string })
      .filter((l) => l.mobile === mobile && !l.code);
  }

  it('refuses a number live on another account (photo, face, 15-digit spelling) until it is rejected', async () => {
    const { id18, id15 } = idPair('800101', '002');
    const a = await newUser();
    const b = await newUser();
    expect((await submit(a.token, id18)).code).toBe(200);

    const again = await submit(b.token, id18);
    expect([again.code, again.msg]).toEqual([400, KycMsg.idCardTaken]);
    expect((await submit(b.token, id15)).msg).toBe(KycMsg.idCardTaken);
    const face = await post(
      h.app,
      KycPaths.aliIdentification,
      { username: '李四', idCard: id18, type: '3', address: '北京市东城区1号' },
      b.token,
    );
    expect([face.code, face.msg]).toEqual([400, KycMsg.idCardTaken]);
    // nothing of b's refused submissions was kept
    const bId = await userId(b.mobile);
    expect(
      await h.app.pdb.db.selectFrom('kyc_images').select('id').where('user_id', '=', bId).execute(),
    ).toEqual([]);
    // the number is stored only in the profile's fields: the index holds an HMAC
    const rows = await h.app.pdb.db.selectFrom('kyc_profiles').select(['id_key', 'fields_json']).execute();
    const keyed = rows.filter((r) => r.id_key);
    expect(keyed).toHaveLength(1);
    expect(keyed[0]!.id_key).toMatch(/^[0-9a-f]{64}$/);
    expect(keyed[0]!.id_key).not.toContain(id18.slice(6, 14));

    // rejecting a frees the number and sends a its result SMS
    const ops = await operator();
    const reject = await post(
      h.app,
      KycReviewPaths.reject,
      { userId: await userId(a.mobile), remark: '照片模糊' },
      ops,
    );
    expect(reject.code).toBe(200);
    expect(await notices(a.mobile)).toEqual([
      expect.objectContaining({ purpose: 'kycRejected', text: KycMsg.rejectedSms }),
    ]);
    expect((await submit(b.token, id15)).code).toBe(200);
    // now a, rejected, cannot take it back while b's is under review
    expect((await submit(a.token, id18)).msg).toBe(KycMsg.idCardTaken);
    // approving b sends b the approval SMS, and the number stays b's
    expect((await post(h.app, KycReviewPaths.approve, { userId: bId }, ops)).code).toBe(200);
    expect(await notices(b.mobile)).toEqual([
      expect.objectContaining({ purpose: 'kycApproved', text: KycMsg.approvedSms }),
    ]);
    expect((await submit(a.token, id18)).msg).toBe(KycMsg.idCardTaken);
  });

  it('lets exactly one of concurrent submissions of one number win', async () => {
    const { id18 } = idPair('850505', '113');
    const users = await Promise.all([newUser(), newUser(), newUser(), newUser()]);
    const answers = await Promise.all(users.map((u) => submit(u.token, id18)));
    expect(answers.filter((r) => r.code === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.code !== 200).map((r) => r.msg)).toEqual([
      KycMsg.idCardTaken,
      KycMsg.idCardTaken,
      KycMsg.idCardTaken,
    ]);
    const losers = users.filter((_, i) => answers[i]!.code !== 200);
    // the unique index itself refuses a second live profile with the key, whatever the service checks first
    const [winnerKey] = await h.app.pdb.db
      .selectFrom('kyc_profiles')
      .select('id_key')
      .where('id_key', 'is not', null)
      .where('user_id', 'in', await Promise.all(users.map((u) => userId(u.mobile))))
      .execute();
    await expect(
      h.app.pdb.db
        .insertInto('kyc_profiles')
        .values({
          user_id: await userId(losers[0]!.mobile),
          kind: 'personal',
          auth_type: 1,
          fields_json: '{}',
          submitted_at: 0,
          id_key: winnerKey!.id_key,
        })
        .execute(),
    ).rejects.toThrow(/id_key|unique/i);
    for (const u of losers) {
      const id = await userId(u.mobile);
      const row = await h.app.pdb.db
        .selectFrom('users')
        .select('user_status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.user_status).toBe('1');
    }
  });

  it('a face that passes after the number went live elsewhere is refused, and the account stays unverified', async () => {
    const { id18 } = idPair('870707', '335');
    const a = await newUser();
    const b = await newUser();
    const start = await post<FaceStartData>(
      h.app,
      KycPaths.aliIdentification,
      { username: '赵六', idCard: id18, type: '3', address: '北京市东城区1号' },
      a.token,
    );
    expect(start.code).toBe(200);
    // a's face is not live yet: b's photo submission of the number wins
    expect((await submit(b.token, id18)).code).toBe(200);
    const res = await fetch(start.data.qrContent, { redirect: 'manual' });
    const page = new URL(res.headers.get('location') ?? '', start.data.qrContent).toString();
    const pressed = await fetch(page, {
      method: 'POST',
      body: new URLSearchParams({ decision: 'pass' }),
      redirect: 'manual',
    });
    expect(pressed.status).toBe(303);
    const q = await post(h.app, KycPaths.aliQuery, { certify_id: start.data.certify_id }, a.token);
    expect([q.code, q.msg]).toEqual([400, KycMsg.idCardTaken]);
    const row = await h.app.pdb.db
      .selectFrom('users')
      .select('user_status')
      .where('mobile', '=', a.mobile)
      .executeTakeFirstOrThrow();
    expect(row.user_status).toBe('1');
  });

  it('a resubmission by the same account keeps its own number', async () => {
    const { id18 } = idPair('900909', '224');
    const u = await newUser();
    expect((await submit(u.token, id18)).code).toBe(200);
    const ops = await operator();
    await post(h.app, KycReviewPaths.reject, { userId: await userId(u.mobile), remark: '请重新上传' }, ops);
    const again = await submit(u.token, id18);
    expect([again.code, again.msg]).toEqual([200, Msg.submitted]);
  });
});
