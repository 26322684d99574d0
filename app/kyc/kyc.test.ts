/** Where the verification links lead (top bar, menu, gate) and the "keep the stored image" convention of the forms. */
import { describe, expect, it } from 'vitest';
import { authInfoMenuHref, tipHref, verifyHref } from './kyc-links.ts';
import { EnterpriseClientForm, PersonalPhotoClientForm } from './kyc-forms.ts';
import { UNCHANGED_IMAGE, withKeptImages } from './kyc-text.ts';

const who = (userStatus: '1' | '2' | '3' | '4', status: 0 | 1 | 2, authType: 0 | 1 | 3 = 0) => ({
  userStatus,
  status,
  authType,
});

describe('verification links', () => {
  it('sends an account without a type to /no-type, otherwise to the form of its type', () => {
    expect(verifyHref(who('1', 0))).toBe('/no-type');
    expect(verifyHref(who('4', 2))).toBe('/organization-kyc');
    expect(verifyHref(who('4', 1, 1))).toBe('/personage-kyc');
    expect(verifyHref(who('1', 1, 3))).toBe('/personage-kyc?method=face');
  });
  it('links the "under review" tip to the info page of the type', () => {
    expect(tipHref(who('2', 2))).toBe('/kyc-info');
    expect(tipHref(who('2', 1, 1))).toBe('/person-info');
    expect(tipHref(who('4', 2))).toBe('/organization-kyc');
  });
  it('adds 认证信息 to the menu when verified, or /no-type without a type', () => {
    expect(authInfoMenuHref(who('3', 2))).toBe('/kyc-info');
    expect(authInfoMenuHref(who('3', 1, 3))).toBe('/person-info');
    expect(authInfoMenuHref(who('1', 0))).toBe('/no-type');
    expect(authInfoMenuHref(who('2', 1, 1))).toBeNull();
  });
});

describe('withKeptImages', () => {
  const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'a.png', { type: 'image/png' });
  const none = new File([], '', { type: 'application/octet-stream' });
  it('turns an empty file input with its keep flag into the unchanged value, and drops the flags', () => {
    const form = new FormData();
    form.set('authorFront', none);
    form.set('authorFront__keep', '1');
    form.set('authorBack', png);
    form.set('authorBack__keep', '1');
    form.set('authorHand', none);
    const out = withKeptImages(form, ['authorFront', 'authorBack', 'authorHand']);
    expect(out.get('authorFront')).toBe(UNCHANGED_IMAGE);
    expect(out.get('authorBack')).toBeInstanceOf(File);
    expect((out.get('authorHand') as File).size).toBe(0);
    expect([...out.keys()].some((k) => k.endsWith('__keep'))).toBe(false);
  });
  it('lets the client schema accept a kept image and refuse a missing or oversized one', () => {
    const base = {
      userName: '张三',
      idCard: '11010519491231002X',
      sex: '1',
      type: '1',
      address: '北京市',
      consent: '1',
      authorFront: UNCHANGED_IMAGE,
      authorBack: png,
    };
    const big = new File([new Uint8Array(3 * 1024 * 1024 + 1)], 'big.png');
    const r = PersonalPhotoClientForm.safeParse({ ...base, authorHand: big });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.message)).toEqual(['上传图片不能超过3M']);
    const missing = PersonalPhotoClientForm.safeParse({ ...base, authorHand: undefined });
    expect(missing.error?.issues.map((i) => i.message)).toEqual(['请上传手持身份证照片']);
    expect(PersonalPhotoClientForm.safeParse({ ...base, authorHand: png }).success).toBe(true);
  });
});

describe('enterprise client form', () => {
  it('names each empty field as the form labels it (spec 02 §5 "{field} cannot be empty")', () => {
    const r = EnterpriseClientForm.safeParse({});
    const byPath = Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
    expect(byPath).toMatchObject({
      contactIdcard: '联系人身份证号不能为空',
      authorPhone: '经办人手机号不能为空',
      authorFront: '经办人身份证正面照片不能为空',
      authorBack: '经办人身份证反面照片不能为空',
    });
  });
});
