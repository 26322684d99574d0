import { describe, expect, it } from 'vitest';
import { checkKycImage, isUnchangedImage, KYC_IMAGE_RULES } from './kyc-images.ts';
import {
  EnterpriseSubmitBody,
  isKycEditable,
  KycMsg,
  maskBankNumber,
  maskIdNumber,
  PersonalFaceSubmitBody,
  PersonalPhotoSubmitBody,
  sexCode,
  USER_STATUS_MEANING,
  userStatusSchema,
} from './kyc.ts';
import { Msg } from './messages.ts';
import {
  bankNo,
  birthDate,
  creditCode,
  creditCodeCheckChar,
  idCard,
  idCardCheckChar,
  isChineseName,
  isValidBirthDate,
  isValidCreditCode,
  isValidIdCard,
  parseIdCard,
  personNameField,
  shortChineseNameField,
} from './validators.ts';

/** A fixed "now" (2024-06-01 12:00 China time) so birth-date limits do not move. */
const NOW = Date.UTC(2024, 5, 1, 4, 0, 0);

// Reference implementations written independently of kyc.ts, straight from the standards' formulas.
/** GB 11643-1999: Wi = 2^(17-i) mod 11 (i = 0..16 from the left), check = (12 - Σ mod 11) mod 11, 10 = X. */
function refIdCheck(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * (2 ** (17 - i) % 11);
  const c = (12 - (sum % 11)) % 11;
  return c === 10 ? 'X' : String(c);
}
/** GB 32100-2015: Wi = 3^i mod 31, check = 31 - Σ mod 31 (31 → 0), over the 31-character alphabet. */
const REF_USCC = '0123456789ABCDEFGHJKLMNPQRTUWXY';
function refUsccCheck(first17: string): string {
  let sum = 0;
  let w = 1;
  for (const ch of first17) {
    sum += REF_USCC.indexOf(ch) * w;
    w = (w * 3) % 31;
  }
  return REF_USCC[(31 - (sum % 31)) % 31]!;
}

function issues(result: { success: boolean; error?: { issues: { message: string }[] } }): string[] {
  return result.success ? [] : (result.error?.issues.map((i) => i.message) ?? []);
}

describe('ID number (GB 11643-1999)', () => {
  it('accepts the public sample 11010519491231002X, whose check character is X', () => {
    // Σ aᵢWᵢ of 11010519491231002 is 167; 167 mod 11 = 2 → X.
    expect(refIdCheck('11010519491231002')).toBe('X');
    expect(idCardCheckChar('11010519491231002')).toBe('X');
    expect(isValidIdCard('11010519491231002X', NOW)).toBe(true);
    expect(isValidIdCard('11010519491231002x', NOW)).toBe(true);
    expect(parseIdCard('11010519491231002x', NOW)).toEqual({
      normalized: '11010519491231002X',
      birthDate: '1949-12-31',
      sex: '1', // sequence 002: even → female
      region: '110105',
    });
  });

  it('agrees with the reference formula and rejects every other check character', () => {
    const bodies = ['44030619900307123', '32010219851111001', '51010720000229567', '65010219791231998'];
    for (const body of bodies) {
      const good = refIdCheck(body);
      expect(idCardCheckChar(body)).toBe(good);
      expect(isValidIdCard(body + good, NOW)).toBe(true);
      for (const other of '0123456789X') {
        if (other !== good) expect(isValidIdCard(body + other, NOW)).toBe(false);
      }
    }
  });

  it('reads sex from the sequence digit', () => {
    const male = '44030619900307123';
    expect(parseIdCard(male + refIdCheck(male), NOW)?.sex).toBe('0');
  });

  it('requires a real birth date between 1900-01-01 and today', () => {
    const make = (region: string, ymd: string, seq = '123') =>
      region + ymd + seq + refIdCheck(region + ymd + seq);
    expect(isValidIdCard(make('440306', '20000229'), NOW)).toBe(true); // leap day of a leap year
    expect(isValidIdCard(make('440306', '19000229'), NOW)).toBe(false); // 1900 is not a leap year
    expect(isValidIdCard(make('440306', '19991301'), NOW)).toBe(false); // month 13
    expect(isValidIdCard(make('440306', '19990431'), NOW)).toBe(false); // 31 April
    expect(isValidIdCard(make('440306', '18991231'), NOW)).toBe(false); // before 1900
    expect(isValidIdCard(make('440306', '20240601'), NOW)).toBe(true); // today
    expect(isValidIdCard(make('440306', '20240602'), NOW)).toBe(false); // tomorrow
  });

  it('requires a known province code', () => {
    const body = '99030619900307123';
    expect(isValidIdCard(body + refIdCheck(body), NOW)).toBe(false);
    const hk = '81000019900307123';
    expect(isValidIdCard(hk + refIdCheck(hk), NOW)).toBe(true);
  });

  it('accepts the 15-digit legacy form with a real 19YYMMDD birth date', () => {
    expect(parseIdCard('110105491231002', NOW)).toMatchObject({ birthDate: '1949-12-31', sex: '1' });
    expect(isValidIdCard('110105490230002', NOW)).toBe(false); // 30 February
    expect(isValidIdCard('11010549123100', NOW)).toBe(false); // 14 digits
    expect(isValidIdCard('11010549123100X', NOW)).toBe(false); // no X in the legacy form
  });

  it('rejects wrong lengths and characters', () => {
    for (const bad of [
      '',
      '1101051949123100',
      '11010519491231002XX',
      '1101051949123100-X',
      '１１０１０５１９４９１２３１００２Ｘ',
    ]) {
      expect(isValidIdCard(bad, NOW)).toBe(false);
    }
    expect(() => idCardCheckChar('1234')).toThrow(TypeError);
  });

  it('the zod field normalises, and uses the spec messages', () => {
    expect(idCard.safeParse(' 11010519491231002x ')).toEqual({ success: true, data: '11010519491231002X' });
    expect(issues(idCard.safeParse(''))).toEqual([KycMsg.idCardRequired]);
    expect(issues(idCard.safeParse('11010519491231002'))).toEqual([KycMsg.idCardInvalid]);
    expect(issues(idCard.safeParse('110105194912310021'))).toEqual([KycMsg.idCardInvalid]);
  });
});

describe('unified social credit code (GB 32100-2015)', () => {
  it('accepts the public sample 91350100M000100Y43', () => {
    // Σ CᵢWᵢ = 1640; 1640 mod 31 = 28; 31 - 28 = 3.
    expect(refUsccCheck('91350100M000100Y4')).toBe('3');
    expect(creditCodeCheckChar('91350100M000100Y4')).toBe('3');
    expect(isValidCreditCode('91350100M000100Y43')).toBe(true);
    expect(isValidCreditCode('91350100m000100y43')).toBe(true);
  });

  it('agrees with the reference formula on other bodies and rejects other check characters', () => {
    for (const body of ['91110108MA01ABCD1', '12100000400000624', '5144030007654321K', 'Y1440300MA5FXXX0P']) {
      const good = refUsccCheck(body);
      expect(creditCodeCheckChar(body)).toBe(good);
      expect(isValidCreditCode(body + good)).toBe(true);
      for (const other of REF_USCC) if (other !== good) expect(isValidCreditCode(body + other)).toBe(false);
    }
  });

  it('covers a check value of 31 written as 0', () => {
    // Find a body whose sum is ≡ 0 mod 31 by adjusting the last character, then check it ends in '0'.
    const prefix = '9144030071526726';
    const body = [...REF_USCC].map((c) => prefix + c).find((b) => refUsccCheck(b) === '0');
    expect(body).toBeDefined();
    expect(isValidCreditCode(`${body}0`)).toBe(true);
  });

  it('rejects letters outside the alphabet, non-digit division codes and wrong lengths', () => {
    const withI = '91350100MI00100Y4';
    expect(() => creditCodeCheckChar(withI)).toThrow(TypeError);
    expect(isValidCreditCode(`${withI}0`)).toBe(false);
    const letterInDivision = '913501A0M000100Y4';
    expect(isValidCreditCode(letterInDivision + refUsccCheck(letterInDivision))).toBe(false);
    expect(isValidCreditCode('91350100M000100Y4')).toBe(false);
    expect(isValidCreditCode('91350100M000100Y433')).toBe(false);
  });

  it('the zod field uses the messages', () => {
    expect(creditCode.safeParse('91350100m000100y43')).toEqual({ success: true, data: '91350100M000100Y43' });
    expect(issues(creditCode.safeParse(' '))).toEqual([Msg.required('统一社会信用代码')]);
    expect(issues(creditCode.safeParse('91350100M000100Y44'))).toEqual([KycMsg.creditCodeInvalid]);
  });
});

describe('names, bank number, birth date, sex, userStatus', () => {
  it('Chinese personal name: Han characters, optional middle dots, 2–16 characters', () => {
    const field = personNameField('姓名');
    expect(field.safeParse('张三').success).toBe(true);
    expect(field.safeParse('买买提·艾力').success).toBe(true);
    expect(field.safeParse('𠮷野家').success).toBe(true); // Extension B character counts as one
    expect(field.safeParse('欧阳'.repeat(8)).success).toBe(true); // 16
    expect(issues(field.safeParse('欧阳'.repeat(8) + '娜'))).toEqual([KycMsg.nameChinese]); // 17
    expect(issues(field.safeParse('张'))).toEqual([KycMsg.nameChinese]);
    expect(issues(field.safeParse('Zhang San'))).toEqual([KycMsg.nameChinese]);
    expect(issues(field.safeParse('张3'))).toEqual([KycMsg.nameChinese]);
    expect(issues(field.safeParse('·艾力'))).toEqual([KycMsg.nameChinese]);
    expect(issues(field.safeParse('艾力··买'))).toEqual([KycMsg.nameChinese]);
    expect(issues(field.safeParse(''))).toEqual([Msg.required('姓名')]);
    expect(isChineseName('张三丰', 2, 2)).toBe(false);
  });

  it('shared Chinese name: 2–6 characters', () => {
    const field = shortChineseNameField('联系人');
    expect(field.safeParse('诸葛孔明').success).toBe(true);
    expect(issues(field.safeParse('诸葛孔明先生在'))).toEqual([KycMsg.shortNameChinese]);
  });

  it('bank number: 8–25 digits, blanks removed', () => {
    expect(bankNo.safeParse('6222 0212 3456 7890 123')).toEqual({
      success: true,
      data: '6222021234567890123',
    });
    expect(bankNo.safeParse('12345678').success).toBe(true);
    expect(bankNo.safeParse('1'.repeat(25)).success).toBe(true);
    expect(issues(bankNo.safeParse('1234567'))).toEqual([KycMsg.bankNoInvalid]);
    expect(issues(bankNo.safeParse('1'.repeat(26)))).toEqual([KycMsg.bankNoInvalid]);
    expect(issues(bankNo.safeParse('6222-0212-3456'))).toEqual([KycMsg.bankNoInvalid]);
    expect(issues(bankNo.safeParse(''))).toEqual([Msg.required('银行账号')]);
  });

  it('birth date: YYYY-MM-DD, real, 1900-01-01 to today', () => {
    expect(isValidBirthDate('1988-02-29', NOW)).toBe(true);
    expect(isValidBirthDate('1989-02-29', NOW)).toBe(false);
    expect(isValidBirthDate('1988-2-9', NOW)).toBe(false);
    expect(isValidBirthDate('19880209', NOW)).toBe(false);
    expect(isValidBirthDate('1899-12-31', NOW)).toBe(false);
    expect(isValidBirthDate('2024-06-01', NOW)).toBe(true);
    expect(isValidBirthDate('2024-06-02', NOW)).toBe(false);
    expect(birthDate.safeParse('1990-03-07').success).toBe(true);
    expect(issues(birthDate.safeParse('1990-02-30'))).toEqual([KycMsg.birthDateInvalid]);
    expect(issues(birthDate.safeParse(''))).toEqual([Msg.required('出生日期')]);
  });

  it('sex code: 0 male, 1 female, required', () => {
    expect(sexCode.safeParse('0').success).toBe(true);
    expect(sexCode.safeParse('1').success).toBe(true);
    expect(issues(sexCode.safeParse('2'))).toEqual([KycMsg.sexRequired]);
    expect(issues(sexCode.safeParse(''))).toEqual([KycMsg.sexRequired]);
  });

  it('userStatus 1–4 and editability', () => {
    expect(userStatusSchema.options).toEqual(['1', '2', '3', '4']);
    expect(userStatusSchema.safeParse('5').success).toBe(false);
    expect(Object.keys(USER_STATUS_MEANING)).toEqual(['1', '2', '3', '4']);
    expect(['1', '2', '3', '4'].map(isKycEditable)).toEqual([true, false, false, true]);
  });
});

describe('masking', () => {
  it('ID numbers keep the first 3 and last 4 characters and their length', () => {
    expect(maskIdNumber('11010519491231002X')).toBe('110***********002X');
    expect(maskIdNumber('110105491231002')).toBe('110********1002');
    expect(maskIdNumber(' 110105 19491231002X ')).toBe('110***********002X');
    expect(maskIdNumber('1234567')).toBe('*******');
    expect(maskIdNumber('')).toBe('');
    // the birth date and sequence never survive
    expect(maskIdNumber('11010519491231002X')).not.toContain('1949');
  });

  it('bank numbers keep only the last 4 digits', () => {
    expect(maskBankNumber('6222021234567890123')).toBe('***************0123');
    expect(maskBankNumber('6222 0212 3456 7890 123')).toBe('***************0123');
    expect(maskBankNumber('1234')).toBe('****');
    expect(maskBankNumber('')).toBe('');
  });
});

// Minimal files whose leading bytes identify their type.
const JPEG = Uint8Array.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00,
]);
const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
  0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89, 0x00, 0x00, 0x00,
  0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
]);
const GIF = new TextEncoder().encode('GIF89a\x01\x00\x01\x00\x00\x00\x00;');
const PDF = new TextEncoder().encode('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
const BMP = Uint8Array.from([
  0x42, 0x4d, 0x3a, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0, 0x28, 0, 0, 0, 1, 0, 0, 0, 1, 0,
]);

const upload = (head: Uint8Array, fileName?: string, size = head.byteLength) => ({
  head,
  size,
  ...(fileName ? { fileName } : {}),
});

describe('images (spec 02 §5): magic bytes, size, http = unchanged', () => {
  it('the rules are the spec limits in bytes', () => {
    expect(KYC_IMAGE_RULES.personal.maxBytes).toBe(3145728);
    expect(KYC_IMAGE_RULES.enterprise.maxBytes).toBe(20971520);
  });

  it('accepts jpg/jpeg/png/gif for personal and png/jpg/jpeg for enterprise, by their bytes', async () => {
    expect(await checkKycImage('personal', upload(JPEG, 'front.jpg'))).toMatchObject({
      ok: true,
      mime: 'image/jpeg',
    });
    expect(await checkKycImage('personal', upload(JPEG, 'FRONT.JPEG'))).toMatchObject({ ok: true });
    expect(await checkKycImage('personal', upload(PNG, 'a.png'))).toMatchObject({
      ok: true,
      mime: 'image/png',
    });
    expect(await checkKycImage('personal', upload(GIF, 'a.gif'))).toMatchObject({
      ok: true,
      mime: 'image/gif',
    });
    expect(await checkKycImage('enterprise', upload(PNG, 'licence.png'))).toMatchObject({ ok: true });
    expect(await checkKycImage('enterprise', upload(JPEG))).toMatchObject({ ok: true, unchanged: false });
  });

  it('refuses a GIF for enterprise, and non-images whatever their name', async () => {
    expect(await checkKycImage('enterprise', upload(GIF, 'a.gif'))).toEqual({
      ok: false,
      reason: 'bad-type',
      message: KycMsg.enterpriseImageBadType,
    });
    expect(await checkKycImage('personal', upload(PDF, 'scan.jpg'))).toMatchObject({
      reason: 'bad-type',
      message: KycMsg.personalImageBadType,
    });
    expect(await checkKycImage('personal', upload(BMP, 'a.jpg'))).toMatchObject({ reason: 'bad-type' });
    expect(await checkKycImage('personal', upload(new Uint8Array(64).fill(7), 'x.png'))).toMatchObject({
      reason: 'bad-type',
    });
  });

  it('refuses a JPEG renamed .png, and a PNG named .txt', async () => {
    expect(await checkKycImage('personal', upload(JPEG, 'photo.png'))).toMatchObject({
      ok: false,
      reason: 'bad-type',
    });
    expect(await checkKycImage('enterprise', upload(JPEG, 'photo.png'))).toMatchObject({
      reason: 'bad-type',
    });
    expect(await checkKycImage('personal', upload(PNG, 'photo.txt'))).toMatchObject({ reason: 'bad-type' });
    expect(await checkKycImage('personal', upload(PNG, 'photo'))).toMatchObject({ reason: 'bad-type' });
  });

  it('refuses 3145729 bytes for personal (3145728 passes) and 20 MB + 1 for enterprise', async () => {
    expect(await checkKycImage('personal', upload(JPEG, 'a.jpg', 3145728))).toMatchObject({ ok: true });
    expect(await checkKycImage('personal', upload(JPEG, 'a.jpg', 3145729))).toEqual({
      ok: false,
      reason: 'too-large',
      message: KycMsg.personalImageTooLarge,
    });
    expect(await checkKycImage('enterprise', upload(JPEG, 'a.jpg', 3145729))).toMatchObject({ ok: true });
    expect(await checkKycImage('enterprise', upload(JPEG, 'a.jpg', 20 * 1024 * 1024 + 1))).toMatchObject({
      reason: 'too-large',
      message: KycMsg.enterpriseImageTooLarge,
    });
  });

  it('reads a Blob/File: its size, name and first bytes', async () => {
    const big = new Uint8Array(3145729);
    big.set(JPEG);
    expect(await checkKycImage('personal', new File([big], 'big.jpg'))).toMatchObject({
      reason: 'too-large',
    });
    expect(await checkKycImage('personal', new File([big.subarray(0, 3145728)], 'ok.jpg'))).toMatchObject({
      ok: true,
      size: 3145728,
    });
    expect(await checkKycImage('personal', new File([JPEG], 'renamed.png'))).toMatchObject({
      reason: 'bad-type',
    });
    expect(await checkKycImage('personal', new Blob([PNG]))).toMatchObject({ ok: true });
    expect(await checkKycImage('personal', new File([], ''))).toMatchObject({ ok: false, reason: 'missing' });
  });

  it('an http value means unchanged; other strings and nothing are missing', async () => {
    expect(isUnchangedImage('https://example.test/img/1.png')).toBe(true);
    expect(isUnchangedImage('/img/1.png')).toBe(false);
    expect(await checkKycImage('personal', 'http://127.0.0.1/kyc/front.jpg?sig=1')).toEqual({
      ok: true,
      unchanged: true,
    });
    expect(await checkKycImage('personal', '')).toMatchObject({ ok: false, reason: 'missing' });
    expect(await checkKycImage('personal', 'data:image/png;base64,iVBOR')).toMatchObject({
      reason: 'missing',
    });
    expect(await checkKycImage('personal', undefined)).toMatchObject({ reason: 'missing' });
  });
});

describe('submit payload schemas', () => {
  const authorIdcard = '11010519491231002X';
  const enterprise = {
    name: '示例科技有限公司',
    code: '91350100M000100Y43',
    address: '福建省福州市鼓楼区示例路1号',
    legalName: '张三',
    license: upload(PNG, 'licence.png'),
    account: '示例科技有限公司',
    bank: '中国工商银行福州分行',
    bankNo: '6222 0212 3456 7890 123',
    mobileReserve: '13800138000',
    contactIdcard: '110105491231002',
    authorName: '李四',
    authorSex: '女',
    authorBrith: '1949-12-31',
    authorPhone: '13900139000',
    authorIdcard,
    file: 'https://cunzheng.test/kyc/poa.png?exp=1&sig=x',
    authorFront: upload(JPEG, 'front.jpg'),
    authorBack: upload(JPEG, 'back.jpeg'),
  };

  it('enterprise: a complete form parses and normalises', async () => {
    const r = await EnterpriseSubmitBody.safeParseAsync(enterprise);
    expect(issues(r)).toEqual([]);
    expect(r.data).toMatchObject({ bankNo: '6222021234567890123', file: enterprise.file });
  });

  it('enterprise: every field is required with a message naming it as the form labels it', async () => {
    const r = await EnterpriseSubmitBody.safeParseAsync({});
    expect(r.success).toBe(false);
    const byPath = Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
    expect(Object.keys(byPath).sort()).toEqual(Object.keys(enterprise).sort());
    expect(byPath).toEqual({
      name: Msg.required('企业名称'),
      code: Msg.required('统一社会信用代码'),
      address: Msg.required('企业地址'),
      legalName: Msg.required('法定代表人姓名'),
      license: Msg.required('营业执照'),
      account: Msg.required('开户名称'),
      bank: Msg.required('开户银行'),
      bankNo: Msg.required('银行账号'),
      mobileReserve: KycMsg.mobileReserveRequired,
      contactIdcard: '联系人身份证号不能为空',
      authorName: Msg.required('经办人姓名'),
      authorSex: KycMsg.sexRequired,
      authorBrith: Msg.required('出生日期'),
      authorPhone: '经办人手机号不能为空',
      authorIdcard: Msg.required('经办人身份证号'),
      file: Msg.required('授权委托书'),
      authorFront: Msg.required('经办人身份证正面照片'),
      authorBack: Msg.required('经办人身份证反面照片'),
    });
  });

  it('enterprise: a blank contact ID number or agent phone names that field (spec 02 §5 "{field} cannot be empty")', async () => {
    for (const blank of ['', '   ', undefined]) {
      const r = await EnterpriseSubmitBody.safeParseAsync({
        ...enterprise,
        contactIdcard: blank,
        authorPhone: blank,
      });
      expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
        ['contactIdcard', '联系人身份证号不能为空'],
        ['authorPhone', '经办人手机号不能为空'],
      ]);
    }
  });

  it('enterprise: wrong values get the rule messages, a GIF and a renamed JPEG are refused', async () => {
    const r = await EnterpriseSubmitBody.safeParseAsync({
      ...enterprise,
      code: '91350100M000100Y44',
      bankNo: '123',
      mobileReserve: '12800138000',
      authorIdcard: '11010519491231002Y',
      license: upload(GIF, 'l.gif'),
      authorFront: upload(JPEG, 'f.png'),
    });
    const byPath = Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
    expect(byPath).toEqual({
      code: KycMsg.creditCodeInvalid,
      bankNo: KycMsg.bankNoInvalid,
      mobileReserve: Msg.mobileInvalid,
      authorIdcard: KycMsg.idCardInvalid,
      license: KycMsg.enterpriseImageBadType,
      authorFront: KycMsg.enterpriseImageBadType,
    });
  });

  it('enterprise: the birth date must match the agent ID number', async () => {
    const r = await EnterpriseSubmitBody.safeParseAsync({ ...enterprise, authorBrith: '1950-01-01' });
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['authorBrith', KycMsg.birthDateMismatch],
    ]);
  });

  const personal = {
    userName: '王五',
    idCard: '11010519491231002x',
    sex: '1',
    type: '1',
    address: '北京市朝阳区示例街道1号',
    authorFront: upload(JPEG, 'front.jpg'),
    authorBack: 'http://127.0.0.1:3000/api/kyc/image/2?exp=1&sig=a',
    authorHand: new File([GIF], 'hand.gif'),
  };

  it('personal photo: a complete payload parses (http image = unchanged)', async () => {
    const r = await PersonalPhotoSubmitBody.safeParseAsync(personal);
    expect(issues(r)).toEqual([]);
    expect(r.data?.idCard).toBe('11010519491231002X');
  });

  it('personal photo: messages for missing and wrong fields', async () => {
    const missing = await PersonalPhotoSubmitBody.safeParseAsync({ type: '' });
    const byPath = Object.fromEntries(
      (missing.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]),
    );
    expect(byPath).toEqual({
      userName: Msg.required('姓名'),
      idCard: KycMsg.idCardRequired,
      sex: KycMsg.sexRequired,
      type: KycMsg.methodRequired,
      address: KycMsg.addressRequired,
      authorFront: KycMsg.uploadFront,
      authorBack: KycMsg.uploadBack,
      authorHand: KycMsg.uploadHand,
    });
    const big = await PersonalPhotoSubmitBody.safeParseAsync({
      ...personal,
      userName: 'Wang Wu',
      type: '3',
      authorFront: upload(JPEG, 'f.jpg', 3145729),
    });
    expect(issues(big).sort()).toEqual(
      [KycMsg.nameChinese, KycMsg.methodRequired, KycMsg.personalImageTooLarge].sort(),
    );
  });

  it('personal photo: the image check is asynchronous, a sync parse refuses to run it', () => {
    expect(() => PersonalPhotoSubmitBody.safeParse(personal)).toThrow();
  });

  it('personal face: username (lower case), idCard, type 3, address', () => {
    const ok = PersonalFaceSubmitBody.safeParse({
      username: '王五',
      idCard: '110105491231002',
      type: '3',
      address: '北京市',
    });
    expect(ok.success).toBe(true);
    const bad = PersonalFaceSubmitBody.safeParse({
      userName: '王五',
      idCard: '1',
      type: '1',
      address: '<b>',
    });
    expect(issues(bad)).toEqual([
      Msg.required('姓名'),
      KycMsg.idCardInvalid,
      KycMsg.methodRequired,
      Msg.specialChars('身份证地址'),
    ]);
  });
});
