/**
 * Sandbox Alipay open-platform gateway (docs/decisions/010-kyc-foundations.md): the embedded default's stand-in for
 * openapi.alipay.com, on loopback.
 * It speaks OpenAPI 2.0 as `alipay-sdk` does — RSA2 (SHA256withRSA) request signatures verified against the app's
 * public key, responses `{"<method>_response":{…},"sign":"…"}` signed over the exact JSON text of the inner object
 * with the sandbox's own private key — for alipay.user.certify.open.initialize / certify / query, and serves the
 * certification page where a tester presses 通过 or 不通过 (plain forms, POST then 303 redirect, no JavaScript).
 * Keys live in `${dataDir}/alipay-sandbox/keys.json` (alipay-sandbox-keys.ts, with the signatures); certifications
 * in `${dataDir}/alipay-sandbox/certifications.json` (alipay-sandbox-store.ts); the page is alipay-sandbox-pages.ts;
 * the protocol details are alipay-sandbox-protocol.ts, the standalone server alipay-sandbox-server.ts.
 */
import { createHash, createPrivateKey, createPublicKey, randomBytes } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { maskIdNumber } from '../../contract/kyc.ts';
import { isValidIdCard } from '../../contract/validators.ts';
import { FACE_METHODS } from './alipay-face.ts';
import {
  requestSignContent,
  rsa2Verify,
  signedResponseBody,
  type AlipaySandboxKeys,
} from './alipay-sandbox-keys.ts';
import { esc } from '../core/sandbox-page.ts';
import { CERTIFY_ID_RE, registerCertifyPages, sendPage } from './alipay-sandbox-pages.ts';
import type { CertificationStore, SandboxCertification } from './alipay-sandbox-store.ts';
import {
  type AlipayAnswer,
  failure,
  parseTimestamp,
  objectParam,
  str,
  maskName,
  FACE_BIZ_CODES,
} from './alipay-sandbox-protocol.ts';

/** Certification state file. */
export const SANDBOX_STATE_FILE = 'certifications.json';
/** Path of the OpenAPI 2.0 gateway inside the sandbox (like openapi.alipay.com/gateway.do). */
export const SANDBOX_GATEWAY_PATH = '/gateway.do';

// ---------------------------------------------------------------------------------------------------------------
// Plugin
// ---------------------------------------------------------------------------------------------------------------

/** Options of {@link alipaySandboxPlugin}. */
export interface AlipaySandboxPluginOptions {
  keys: AlipaySandboxKeys;
  store: CertificationStore;
  /** Largest accepted difference between a request's timestamp and the sandbox clock, ms (default 15 minutes). */
  maxClockSkewMs?: number;
  /** The clock, ms since the epoch (tests). */
  now?: () => number;
  /** More OpenAPI methods on the same gateway, by name (the billing area's trade methods). */
  methods?: Readonly<Record<string, AlipaySandboxMethod>>;
}

/**
 * An extra gateway method: `handle` gets the verified parameters and answers the business fields (sent signed) or,
 * for a `page` method (opened by the browser), answers the browser itself; requests failing the common checks are
 * answered before it runs.
 */
export interface AlipaySandboxMethod {
  page?: boolean;
  handle(params: Record<string, string>, reply: FastifyReply): Promise<AlipayAnswer | FastifyReply>;
}

/**
 * The sandbox's routes, mountable under any prefix (every link and redirect it emits is relative):
 * - `POST|GET /gateway.do`: OpenAPI 2.0. initialize and query answer signed JSON; certify (a page method, opened
 *   by the browser from the URL `alipay-sdk`'s `pageExecute` builds) checks the signature and 303-redirects to
 *   the certification page, or shows an error page.
 * - `GET /certify/:certifyId`: the page — the masked name and ID number, and the 通过 / 不通过 forms; after the
 *   decision, the result and a link back to merchant_config.return_url.
 * - `POST /certify/:certifyId` (`decision=pass|fail`): records the decision once, then 303 to the page.
 * Request failures answer as Alipay does (HTTP 200, signed, code 40001/40002/40004 with sub_code):
 * isv.missing-method, isv.invalid-method, isv.missing-app-id, isv.invalid-app-id, isv.missing-signature,
 * isv.missing-signature-type, isv.invalid-signature-type, isv.invalid-signature, isv.missing-timestamp,
 * isv.invalid-timestamp, isv.invalid-charset, isv.invalid-parameter (duplicate or malformed parameter), and the
 * business codes INVALID_PARAMETER, OUTER_ORDER_NO_DUPLICATE, CERTIFY_ID_NOT_EXIST (ours: Alipay's are not public).
 */
export const alipaySandboxPlugin: FastifyPluginAsync<AlipaySandboxPluginOptions> = async (app, opts) => {
  const { keys, store } = opts;
  const now = opts.now ?? Date.now;
  const maxSkew = opts.maxClockSkewMs ?? 15 * 60_000;
  const appPublicKey = createPublicKey(keys.appPublicKey);
  const alipayPrivateKey = createPrivateKey(keys.alipayPrivateKey);

  if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) {
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 256 * 1024 },
      (_request, body, done) => {
        const out: Record<string, string | string[]> = {};
        for (const [k, v] of new URLSearchParams(body as string)) {
          const prev = out[k];
          out[k] = prev === undefined ? v : ([] as string[]).concat(prev, v);
        }
        done(null, out);
      },
    );
  }

  /** Query and form body as one flat map; null when a name repeats (a signature would be ambiguous). */
  function collectParams(request: FastifyRequest): Record<string, string> | null {
    const params: Record<string, string> = {};
    const query = new URL(request.raw.url ?? '/', 'http://sandbox.invalid').searchParams;
    const add = (k: string, v: unknown): boolean => {
      if (typeof v !== 'string' || k in params) return false;
      params[k] = v;
      return true;
    };
    for (const [k, v] of query) if (!add(k, v)) return null;
    const body = request.body;
    if (body !== undefined && body !== null) {
      if (typeof body !== 'object') return null;
      for (const [k, v] of Object.entries(body as Record<string, unknown>)) if (!add(k, v)) return null;
    }
    return params;
  }

  /** The common checks of every gateway call: method, app, signature type, timestamp, charset, signature. */
  function checkRequest(params: Record<string, string>): AlipayAnswer | null {
    if (!params.app_id) return failure('missing', 'isv.missing-app-id', '缺少AppID参数');
    if (params.app_id !== keys.appId) return failure('invalid', 'isv.invalid-app-id', '无效的AppID参数');
    if (!params.sign_type) return failure('missing', 'isv.missing-signature-type', '缺少签名类型参数');
    if (params.sign_type !== 'RSA2')
      return failure('invalid', 'isv.invalid-signature-type', '无效的签名类型');
    if (!params.sign) return failure('missing', 'isv.missing-signature', '缺少签名参数');
    if (!params.timestamp) return failure('missing', 'isv.missing-timestamp', '缺少时间戳参数');
    const t = parseTimestamp(params.timestamp);
    if (Number.isNaN(t) || Math.abs(now() - t) > maxSkew) {
      return failure('invalid', 'isv.invalid-timestamp', '非法的时间戳参数');
    }
    if (params.charset && params.charset.toLowerCase() !== 'utf-8') {
      return failure('invalid', 'isv.invalid-charset', '字符集错误');
    }
    const content = requestSignContent(params);
    if (!rsa2Verify(content, params.sign, appPublicKey)) {
      return failure(
        'invalid',
        'isv.invalid-signature',
        `验签出错，建议检查签名字符串或签名私钥与应用公钥是否匹配，网关生成的验签字符串为：${content.replace(/biz_content=[^&]*/, 'biz_content=…')}`,
      );
    }
    return null;
  }

  function bizContent(params: Record<string, string>): Record<string, unknown> | null {
    return params.biz_content ? objectParam(params.biz_content) : null;
  }

  async function initialize(params: Record<string, string>): Promise<AlipayAnswer> {
    const biz = bizContent(params);
    if (!biz) return failure('invalid', 'isv.invalid-parameter', 'biz_content 不是JSON对象');
    const outerOrderNo = str(biz.outer_order_no);
    const bizCode = str(biz.biz_code);
    const identity = objectParam(biz.identity_param);
    const merchant = objectParam(biz.merchant_config);
    const certName = str(identity?.cert_name);
    const certNo = str(identity?.cert_no).toUpperCase();
    const returnUrl = str(merchant?.return_url);
    const bad = (subMsg: string) => failure('business', 'INVALID_PARAMETER', subMsg);
    if (!/^[A-Za-z0-9]{1,32}$/.test(outerOrderNo)) return bad('outer_order_no 须为1-32位字母或数字');
    if (!FACE_BIZ_CODES.has(bizCode)) return bad('biz_code 无效');
    if (!identity || identity.identity_type !== 'CERT_INFO')
      return bad('identity_param.identity_type 须为 CERT_INFO');
    if (identity.cert_type !== 'IDENTITY_CARD') return bad('沙箱仅支持 cert_type IDENTITY_CARD');
    if (!certName) return bad('identity_param.cert_name 不能为空');
    if (!isValidIdCard(certNo)) return bad('identity_param.cert_no 不是有效的身份证号码');
    if (!/^https?:\/\//.test(returnUrl)) return bad('merchant_config.return_url 须为 http(s) 地址');
    const identityDigest = createHash('sha256')
      .update(JSON.stringify(['IDENTITY_CARD', certName, certNo]))
      .digest('hex');
    const existing = store.findByOrder(keys.appId, outerOrderNo);
    if (existing) {
      if (existing.identityDigest !== identityDigest) {
        return failure('business', 'OUTER_ORDER_NO_DUPLICATE', 'outer_order_no 已用于其他认证');
      }
      return { code: '10000', msg: 'Success', certify_id: existing.certifyId };
    }
    const certification: SandboxCertification = {
      certifyId: randomBytes(16).toString('hex'),
      appId: keys.appId,
      outerOrderNo,
      bizCode,
      identityDigest,
      maskedName: maskName(certName),
      maskedCertNo: maskIdNumber(certNo),
      returnUrl,
      state: 'INIT',
      createdAt: now(),
    };
    await store.add(certification);
    return { code: '10000', msg: 'Success', certify_id: certification.certifyId };
  }

  function lookup(params: Record<string, string>): SandboxCertification | AlipayAnswer {
    const certifyId = str(bizContent(params)?.certify_id);
    const c = CERTIFY_ID_RE.test(certifyId) ? store.get(certifyId) : undefined;
    if (!c || c.appId !== keys.appId) return failure('business', 'CERTIFY_ID_NOT_EXIST', 'certify_id 不存在');
    return c;
  }

  function query(params: Record<string, string>): AlipayAnswer {
    const c = lookup(params);
    if (!('certifyId' in c)) return c;
    if (c.state === 'PASSED') return { code: '10000', msg: 'Success', passed: 'T' };
    if (c.state === 'FAILED')
      return { code: '10000', msg: 'Success', passed: 'F', fail_reason: 'SANDBOX_FAILED' };
    return { code: '10000', msg: 'Success', passed: 'F' };
  }

  function sendSigned(reply: FastifyReply, method: string | undefined, answer: AlipayAnswer) {
    const key = method ? `${method.replaceAll('.', '_')}_response` : 'error_response';
    return reply
      .code(200)
      .type('application/json; charset=utf-8')
      .send(signedResponseBody(key, answer, alipayPrivateKey));
  }

  const gateway = async (request: FastifyRequest, reply: FastifyReply) => {
    const params = collectParams(request);
    if (!params)
      return sendSigned(reply, undefined, failure('invalid', 'isv.invalid-parameter', '参数重复或格式错误'));
    const method = params.method;
    if (!method)
      return sendSigned(reply, undefined, failure('missing', 'isv.missing-method', '缺少方法名参数'));
    const known = Object.values(FACE_METHODS) as string[];
    const extra = opts.methods?.[method];
    if (!known.includes(method) && !extra) {
      return sendSigned(reply, method, failure('invalid', 'isv.invalid-method', '不存在的方法名'));
    }
    const rejected = checkRequest(params);
    if (extra && !(rejected && extra.page)) {
      const answer = rejected ?? (await extra.handle(params, reply));
      return reply.sent ? reply : sendSigned(reply, method, answer as AlipayAnswer);
    }
    if (method === FACE_METHODS.certify || extra) {
      // A page method: the browser comes here, so errors are pages, success a redirect to the certification page.
      if (rejected)
        return sendPage(
          reply,
          400,
          '请求无效',
          `<p>${esc(rejected.sub_code ?? '')}：${esc(rejected.sub_msg ?? '')}</p>`,
        );
      const c = lookup(params);
      if (!('certifyId' in c))
        return sendPage(reply, 404, '认证不存在', '<p>certify_id 不存在或已过期。</p>');
      return reply.code(303).header('location', `certify/${c.certifyId}`).send();
    }
    if (rejected) return sendSigned(reply, method, rejected);
    const answer = method === FACE_METHODS.initialize ? await initialize(params) : query(params);
    return sendSigned(reply, method, answer);
  };
  app.post(SANDBOX_GATEWAY_PATH, gateway);
  app.get(SANDBOX_GATEWAY_PATH, gateway);
  registerCertifyPages(app, store, now);
};
