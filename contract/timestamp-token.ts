/**
 * RFC 3161 time-stamp tokens for the ledger's checkpoints (decision 035), on pkijs/asn1js (the
 * maintained ASN.1/CMS library the platform already signs PDFs with): the request a Time-Stamp Authority is sent
 * (`TimeStampReq`: SHA-256 message imprint, a nonce, certReq), the parsing of its reply (`TimeStampResp`), and the
 * verification of a stored token (the `TimeStampToken`, a CMS SignedData over a `TSTInfo`): the imprint is the
 * SHA-256 of the data, the CMS signature verifies with the signer certificate in the token, and, given trust anchors,
 * that certificate chains to one of them (checked at the token's time) and is a time-stamping certificate.
 *
 * Runs wherever WebCrypto does (Node's `globalThis.crypto`, a browser): the offline verifier uses it too. Functions
 * that check never throw on bad input; they answer a reason.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { pemBlocks } from './bytes.ts';

const SHA256 = '2.16.840.1.101.3.4.2.1';
const TST_INFO = '1.2.840.113549.1.9.16.1.4';
const TIME_STAMPING_EKU = '1.3.6.1.5.5.7.3.8';
const EXT_KEY_USAGE = '2.5.29.37';

pkijs.setEngine('webcrypto', new pkijs.CryptoEngine({ name: 'webcrypto', crypto: globalThis.crypto }));

const bytes = (b: ArrayBuffer | ArrayBufferView): Uint8Array<ArrayBuffer> =>
  b instanceof ArrayBuffer
    ? new Uint8Array(b)
    : new Uint8Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer);

async function sha256(data: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', data));
}

const equal = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The nonce bytes as a positive INTEGER in minimal DER: the first byte 0x40–0x7f (high bit clear, and never a leading
 * 0x00 before a byte below 0x80, which OpenSSL refuses as "illegal padding").
 */
function nonceInteger(nonce: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(nonce, (b, i) => (i === 0 ? (b & 0x7f) | 0x40 : b));
}

/**
 * A DER TimeStampReq (RFC 3161 §2.4.1) for `data`: version 1, SHA-256 imprint, `nonce` (random bytes), certReq true
 * (the TSA includes its certificate, so a token verifies on its own given a trust anchor).
 */
export async function timestampRequest(
  data: Uint8Array<ArrayBuffer>,
  nonce: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array<ArrayBuffer>> {
  const req = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: SHA256 }),
      hashedMessage: new asn1js.OctetString({ valueHex: (await sha256(data)).buffer }),
    }),
    nonce: new asn1js.Integer({ valueHex: nonceInteger(nonce).buffer }),
    certReq: true,
  });
  return bytes(req.toSchema().toBER(false));
}

/** A token checked by {@link checkTimestampToken}: when it says the data existed, and who said it. */
export interface TimestampFacts {
  /** The TSA's time (TSTInfo genTime). */
  genTime: Date;
  /** The signer certificate's subject common name (or the whole subject), for people to read. */
  tsa: string;
  /** The TSA policy OID. */
  policy: string;
}

export type TimestampCheck = ({ ok: true } & TimestampFacts) | { ok: false; reason: string };

/**
 * The token of a TSA's DER reply to {@link timestampRequest}, checked against `data` and `nonce` (and `trusted`, see
 * {@link checkTimestampToken}). @returns the token's DER and its facts, or why the reply is unusable
 */
export async function readTimestampReply(
  reply: Uint8Array<ArrayBuffer>,
  data: Uint8Array<ArrayBuffer>,
  nonce: Uint8Array<ArrayBuffer>,
  trusted: readonly Uint8Array<ArrayBuffer>[],
): Promise<({ ok: true; token: Uint8Array<ArrayBuffer> } & TimestampFacts) | { ok: false; reason: string }> {
  let resp: pkijs.TimeStampResp;
  try {
    resp = new pkijs.TimeStampResp({ schema: asn1js.fromBER(reply).result });
  } catch {
    return { ok: false, reason: 'the reply is not a TimeStampResp' };
  }
  // granted (0) or grantedWithMods (1)
  if (resp.status.status > 1 || !resp.timeStampToken) {
    return { ok: false, reason: `the TSA refused (status ${resp.status.status})` };
  }
  const token = bytes(resp.timeStampToken.toSchema().toBER(false));
  const tst = tstInfoOf(token);
  const sent = nonceInteger(nonce);
  const got = tst?.nonce ? new Uint8Array(tst.nonce.valueBlock.valueHexView) : null;
  // DER drops leading zero bytes of an INTEGER
  const strip = (a: Uint8Array) => a.subarray(a.findIndex((x) => x !== 0));
  if (!got || !equal(strip(got), strip(sent)))
    return { ok: false, reason: 'the reply does not answer our nonce' };
  const check = await checkTimestampToken(token, data, trusted);
  return check.ok ? { ...check, token } : check;
}

function tstInfoOf(token: Uint8Array<ArrayBuffer>): pkijs.TSTInfo | null {
  try {
    const info = new pkijs.ContentInfo({ schema: asn1js.fromBER(token).result });
    const signed = new pkijs.SignedData({ schema: info.content });
    if (signed.encapContentInfo.eContentType !== TST_INFO || !signed.encapContentInfo.eContent) return null;
    return new pkijs.TSTInfo({
      schema: asn1js.fromBER(signed.encapContentInfo.eContent.valueBlock.valueHexView).result,
    });
  } catch {
    return null;
  }
}

/**
 * Checks a TimeStampToken (DER ContentInfo) over `data`: its TSTInfo's imprint is SHA-256(`data`), its CMS
 * signature verifies with its signer's certificate, that certificate has the critical time-stamping extended key
 * usage, and — when `trusted` (DER certificates) is not empty — it chains to one of them at the token's time.
 */
export async function checkTimestampToken(
  token: Uint8Array<ArrayBuffer>,
  data: Uint8Array<ArrayBuffer>,
  trusted: readonly Uint8Array<ArrayBuffer>[],
): Promise<TimestampCheck> {
  const tst = tstInfoOf(token);
  if (!tst) return { ok: false, reason: 'not a time-stamp token' };
  if (tst.messageImprint.hashAlgorithm.algorithmId !== SHA256)
    return { ok: false, reason: 'the imprint is not SHA-256' };
  const imprint = new Uint8Array(tst.messageImprint.hashedMessage.valueBlock.valueHexView);
  if (!equal(imprint, await sha256(data)))
    return { ok: false, reason: 'the token is over other data (imprint)' };
  let signed: pkijs.SignedData;
  try {
    signed = new pkijs.SignedData({
      schema: new pkijs.ContentInfo({ schema: asn1js.fromBER(token).result }).content,
    });
  } catch {
    return { ok: false, reason: 'not a time-stamp token' };
  }
  const certs = (signed.certificates ?? []).filter(
    (c): c is pkijs.Certificate => c instanceof pkijs.Certificate,
  );
  const anchors = trusted.map((der) => new pkijs.Certificate({ schema: asn1js.fromBER(der).result }));
  let result: pkijs.SignedDataVerifyResult;
  try {
    result = await signed.verify({
      signer: 0,
      // for a TSTInfo, pkijs also checks the imprint against the data
      data: data.buffer,
      trustedCerts: anchors,
      checkChain: anchors.length > 0,
      checkDate: tst.genTime,
      extendedMode: true,
    });
  } catch (err) {
    const message = (err as { message?: string }).message ?? '';
    if (/signer's certificate|certificate paths/i.test(message)) {
      return { ok: false, reason: `the TSA's certificate does not chain to a trusted one (${message})` };
    }
    return { ok: false, reason: `the token's signature does not verify${message ? ` (${message})` : ''}` };
  }
  if (!result.signatureVerified) return { ok: false, reason: "the token's signature does not verify" };
  if (anchors.length > 0 && !result.signerCertificateVerified) {
    return { ok: false, reason: "the TSA's certificate does not chain to a trusted one" };
  }
  const signer = result.signerCertificate ?? certs[0];
  if (!signer) return { ok: false, reason: 'the token carries no TSA certificate' };
  const eku = signer.extensions?.find((x) => x.extnID === EXT_KEY_USAGE);
  const usages = (eku?.parsedValue as pkijs.ExtKeyUsage | undefined)?.keyPurposes ?? [];
  if (!eku?.critical || !usages.includes(TIME_STAMPING_EKU)) {
    return { ok: false, reason: "the signer's certificate is not a time-stamping certificate" };
  }
  const cn = signer.subject.typesAndValues.find((t) => t.type === '2.5.4.3');
  return {
    ok: true,
    genTime: tst.genTime,
    tsa: cn ? String(cn.value.valueBlock.value) : 'unknown',
    policy: tst.policy,
  };
}

/** DER certificates of every `CERTIFICATE` block of a PEM text. @throws Error when a block is not base64 */
export function certificatesOfPem(pem: string): Uint8Array<ArrayBuffer>[] {
  return pemBlocks(pem, 'CERTIFICATE');
}
