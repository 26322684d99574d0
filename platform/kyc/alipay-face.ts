/**
 * Alipay face certification (spec 02 §4 face flow) through `alipay-sdk`: a thin typed wrapper over the three
 * OpenAPI 2.0 methods alipay.user.certify.open.initialize / certify / query. It talks to the real Alipay gateway or to
 * our sandbox gateway (./alipay-sandbox.ts) alike; only the config differs. Every response's RSA2 signature is
 * verified by the SDK against `alipayPublicKey` (the SDK skips that unless asked: we always ask).
 */
import { randomBytes } from 'node:crypto';
import { AlipayRequestError, AlipaySdk, type AlipaySdkConfig } from 'alipay-sdk';
import { clientProxy, proxyDispatcher, type ProxyEnv } from '../../lib/outbound-proxy.ts';

/** The three OpenAPI methods of Alipay's identity certification (开放认证). */
export const FACE_METHODS = {
  initialize: 'alipay.user.certify.open.initialize',
  certify: 'alipay.user.certify.open.certify',
  query: 'alipay.user.certify.open.query',
} as const;

/** Alipay's production gateway (OpenAPI 2.0): ALIPAY_GATEWAY's default, declared with the variable. */
export { ALIPAY_GATEWAY } from '../config-payments.ts';

/** What the SDK client needs; the sandbox produces one with `sandboxClientConfig`. */
export interface AlipayClientConfig {
  /** The application's AppID on the open platform. */
  appId: string;
  /** The application's RSA private key: PEM, or the bare base64 body the Alipay console shows. */
  privateKey: string;
  /** 'PKCS8' for "PRIVATE KEY", 'PKCS1' for "RSA PRIVATE KEY" (the SDK's default). */
  keyType: 'PKCS1' | 'PKCS8';
  /** Alipay's (or the sandbox's) RSA public key, SPKI PEM or bare base64: every response is verified with it. */
  alipayPublicKey: string;
  /** The OpenAPI 2.0 gateway URL, e.g. {@link ALIPAY_GATEWAY} or the sandbox's `/gateway.do`. */
  gateway: string;
  /** Request timeout, milliseconds (default 5000). */
  timeoutMs?: number;
  /** Outbound proxy (core/outbound-proxy.ts): the process's, set by platform/config.ts; absent or null: none. */
  proxy?: ProxyEnv | null;
}

/** alipay-sdk's `proxyAgent` (an undici dispatcher for its urllib) for `config.proxy`, or nothing. */
export function alipayProxyOption(config: Pick<AlipayClientConfig, 'proxy'>) {
  const proxy = clientProxy(config.proxy);
  // urllib's own undici declares the type; any undici dispatcher serves it
  return proxy ? { proxyAgent: proxyDispatcher(proxy) as unknown as AlipaySdkConfig['proxyAgent'] } : {};
}

/** Certification scene (biz_code): FACE is the multi-factor face certification that the face method uses. */
export type FaceBizCode = 'FACE' | 'CERT_PHOTO' | 'CERT_PHOTO_FACE' | 'SMART_FACE';

/**
 * Why a call failed:
 * - 'transport': no HTTP answer, or a non-200 status (network, timeout, gateway down) — retry later;
 * - 'signature': the response's signature does not verify against `alipayPublicKey` (tampered in transit, or the
 *   wrong key configured) — never trust the content;
 * - 'response': the answer is not the method's JSON (malformed, unsigned, missing `<method>_response`);
 * - 'rejected': a verified answer with code ≠ 10000; `code`/`subCode`/`subMsg` carry Alipay's reason
 *   (e.g. 40002 isv.invalid-signature when our request signature is wrong).
 */
export type AlipayFaceErrorKind = 'transport' | 'signature' | 'response' | 'rejected';

/** The error every method of {@link AlipayFace} throws. Messages never contain the name or ID number. */
export class AlipayFaceError extends Error {
  override readonly name = 'AlipayFaceError';
  readonly kind: AlipayFaceErrorKind;
  readonly details: { method: string; code?: string; subCode?: string; subMsg?: string } & ErrorOptions;
  constructor(
    kind: AlipayFaceErrorKind,
    message: string,
    details: { method: string; code?: string; subCode?: string; subMsg?: string } & ErrorOptions,
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.kind = kind;
    this.details = details;
  }
  /** Alipay's response code when the gateway answered (e.g. '40004'). */
  get code(): string | undefined {
    return this.details.code;
  }
  /** Alipay's sub_code when the gateway answered (e.g. 'isv.invalid-signature'). */
  get subCode(): string | undefined {
    return this.details.subCode;
  }
}

/** Input of {@link AlipayFace.initialize}. `certName`/`certNo` are personal information: never log them. */
export interface FaceInitializeInput {
  /** Our unique request number, 1–32 letters or digits ({@link newOuterOrderNo}); reusing it is idempotent. */
  outerOrderNo: string;
  /** The real name to certify. */
  certName: string;
  /** The resident ID card number (身份证) to certify. */
  certNo: string;
  /** Where the Alipay page sends the user back after the certification (default: the constructor's). */
  returnUrl?: string;
}

/**
 * Result of {@link AlipayFace.query}. Alipay answers passed 'T' (passed) or 'F' ("not passed, or not yet
 * certified"); a failed certification may carry fail_reason. So:
 * - `passed: true` — 'T', final;
 * - `passed: false` — 'F' with a fail_reason, final;
 * - `passed: null` — 'F' without a reason: still open (the sandbox says exactly this before the tester decides);
 *   a poller keeps asking until its own deadline.
 */
export interface FaceQueryResult {
  passed: boolean | null;
  /** Alipay's raw `passed` value. */
  rawPassed: string;
  failReason?: string;
}

/** The face-certification operations the KYC area uses; {@link AlipayFace} implements them with `alipay-sdk`. */
export interface FaceCertifier {
  initialize(input: FaceInitializeInput): Promise<{ certifyId: string }>;
  certifyUrl(certifyId: string): string;
  query(certifyId: string): Promise<FaceQueryResult>;
}

const OUTER_ORDER_NO_RE = /^[A-Za-z0-9]{1,32}$/;
const CERTIFY_ID_RE = /^[A-Za-z0-9]{1,64}$/;

/** A fresh outer_order_no: 'CZ' + 30 hex digits (120 random bits), 32 characters as Alipay allows. */
export function newOuterOrderNo(): string {
  return `CZ${randomBytes(15).toString('hex')}`;
}

/** Alipay face certification over `alipay-sdk` (see the module comment). */
export class AlipayFace implements FaceCertifier {
  private readonly sdk: AlipaySdk;
  private readonly returnUrl: string;
  private readonly bizCode: FaceBizCode;

  /**
   * @param config the client config (AppID, keys, gateway)
   * @param options `returnUrl`: default merchant_config.return_url (required by Alipay); `bizCode` default 'FACE'
   * @throws TypeError when `alipayPublicKey` is empty (the SDK would then silently skip response verification)
   */
  constructor(config: AlipayClientConfig, options: { returnUrl: string; bizCode?: FaceBizCode }) {
    if (!config.alipayPublicKey.trim()) throw new TypeError('alipayPublicKey is required');
    this.sdk = new AlipaySdk({
      appId: config.appId,
      // The SDK re-wraps the key and only strips header lines when the text has no trailing newline.
      privateKey: config.privateKey.trim(),
      keyType: config.keyType,
      alipayPublicKey: config.alipayPublicKey.trim(),
      gateway: config.gateway,
      signType: 'RSA2',
      camelcase: true,
      timeout: config.timeoutMs ?? 5000,
      ...alipayProxyOption(config),
    });
    this.returnUrl = options.returnUrl;
    this.bizCode = options.bizCode ?? 'FACE';
  }

  /**
   * alipay.user.certify.open.initialize: opens a certification of `certName`/`certNo` (resident ID card).
   * @returns the certify_id, the handle of every later step
   * @throws AlipayFaceError ('rejected' with Alipay's sub_code for bad arguments, and the others of
   *   {@link AlipayFaceErrorKind}); TypeError when `outerOrderNo` is not 1–32 letters or digits
   */
  async initialize(input: FaceInitializeInput): Promise<{ certifyId: string }> {
    if (!OUTER_ORDER_NO_RE.test(input.outerOrderNo))
      throw new TypeError('outerOrderNo: 1-32 letters or digits');
    const data = await this.exec(FACE_METHODS.initialize, {
      outer_order_no: input.outerOrderNo,
      biz_code: this.bizCode,
      identity_param: {
        identity_type: 'CERT_INFO',
        cert_type: 'IDENTITY_CARD',
        cert_name: input.certName,
        cert_no: input.certNo,
      },
      merchant_config: { return_url: input.returnUrl ?? this.returnUrl },
    });
    const certifyId = data.certifyId;
    if (typeof certifyId !== 'string' || !CERTIFY_ID_RE.test(certifyId)) {
      throw new AlipayFaceError('response', 'initialize answered without a usable certify_id', {
        method: FACE_METHODS.initialize,
      });
    }
    return { certifyId };
  }

  /**
   * alipay.user.certify.open.certify: the signed gateway URL (GET) that opens the certification page — the QR
   * code's content on /personage-face-kyc. Computed locally, no request. The URL carries a timestamp that the
   * gateway checks, so build it when rendering the page rather than storing it.
   * @throws TypeError when `certifyId` is not 1–64 letters or digits
   */
  certifyUrl(certifyId: string): string {
    if (!CERTIFY_ID_RE.test(certifyId)) throw new TypeError('certifyId: 1-64 letters or digits');
    return this.sdk.pageExecute(FACE_METHODS.certify, 'GET', { bizContent: { certify_id: certifyId } });
  }

  /**
   * alipay.user.certify.open.query: the certification's state, see {@link FaceQueryResult}.
   * @throws AlipayFaceError ('rejected' e.g. for an unknown certify_id, and the others of {@link AlipayFaceErrorKind});
   *   TypeError when `certifyId` is not 1–64 letters or digits
   */
  async query(certifyId: string): Promise<FaceQueryResult> {
    if (!CERTIFY_ID_RE.test(certifyId)) throw new TypeError('certifyId: 1-64 letters or digits');
    const data = await this.exec(FACE_METHODS.query, { certify_id: certifyId });
    const rawPassed = data.passed;
    if (rawPassed !== 'T' && rawPassed !== 'F') {
      throw new AlipayFaceError('response', 'query answered without passed T/F', {
        method: FACE_METHODS.query,
      });
    }
    const failReason =
      typeof data.failReason === 'string' && data.failReason !== '' ? data.failReason : undefined;
    if (rawPassed === 'T') return { passed: true, rawPassed };
    return failReason ? { passed: false, rawPassed, failReason } : { passed: null, rawPassed };
  }

  /** Runs one signed call with response verification; returns the camel-cased `<method>_response` on code 10000. */
  private async exec(method: string, bizContent: Record<string, unknown>): Promise<Record<string, unknown>> {
    let result: Record<string, unknown>;
    try {
      result = await this.sdk.exec(method, { bizContent }, { validateSign: true });
    } catch (err) {
      throw classify(method, err);
    }
    const code = typeof result.code === 'string' ? result.code : undefined;
    if (code !== '10000') {
      const subCode = typeof result.subCode === 'string' ? result.subCode : undefined;
      const subMsg = typeof result.subMsg === 'string' ? result.subMsg : undefined;
      throw new AlipayFaceError('rejected', `${method} rejected: ${code ?? '?'} ${subCode ?? ''}`.trim(), {
        method,
        ...(code ? { code } : {}),
        ...(subCode ? { subCode } : {}),
        ...(subMsg ? { subMsg } : {}),
      });
    }
    return result;
  }
}

/** Maps what `AlipaySdk.exec` throws to an {@link AlipayFaceError} (the SDK's messages are its only marker). */
function classify(method: string, err: unknown): AlipayFaceError {
  if (err instanceof AlipayRequestError) {
    if (err.message.startsWith('验签失败')) {
      return new AlipayFaceError('signature', `${method}: response signature does not verify`, {
        method,
        cause: err,
      });
    }
    if (err.message.startsWith('HttpClient Request error') || err.message.startsWith('HTTP 请求错误')) {
      return new AlipayFaceError('transport', `${method}: gateway unreachable or HTTP error`, {
        method,
        cause: err,
      });
    }
    return new AlipayFaceError('response', `${method}: malformed response`, { method, cause: err });
  }
  // e.g. a response without "sign": node:crypto throws on the missing signature.
  return new AlipayFaceError('response', `${method}: unusable response`, { method, cause: err });
}
