/**
 * A loopback stand-in for Tencent Cloud SMS's API (`SendSms`, version 2021-01-11) that checks requests the way the
 * real one does, so tests exercise the real SDK's signing (docs/decisions/025-secrets-sms.md): the TC3-HMAC-SHA256
 * `Authorization` header is recomputed with node:crypto from the canonical request (method, path, query, the signed
 * `content-type` and `host` headers, SHA-256 of the body) and the secret key of the named SecretId; the credential
 * scope must be today's date (UTC) of `X-TC-Timestamp`, service `sms`; the timestamp within 5 minutes. Answers are
 * the API's JSON shapes: `{Response:{Error:{Code,Message},RequestId}}` for call errors (AuthFailure.SecretIdNotFound,
 * AuthFailure.SignatureFailure, AuthFailure.SignatureExpire, InvalidAction, UnauthorizedOperation.SmsSdkAppIdVerifyFail,
 * FailedOperation.SignatureIncorrectOrUnapproved, FailedOperation.TemplateIncorrectOrUnapproved,
 * FailedOperation.TemplateParamSetNotMatchApprovedTemplate, InvalidParameterValue.*), else a `SendStatusSet` with
 * one status per number (`Ok`, InvalidParameterValue.IncorrectPhoneNumber, or LimitExceeded.PhoneNumberDailyLimit
 * for numbers listed in `dailyLimited`). Accepted messages are kept in `sent`. Listens on 127.0.0.1; reach it as
 * `http://sms.localhost:<port>` so the SDK signs for the service `sms`.
 */
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** An approved template of the sandbox: its id and how many variables it takes. */
export interface SandboxTemplate {
  id: string;
  params: number;
}

/** Options of {@link startTencentSmsSandbox}. */
export interface TencentSmsSandboxOptions {
  /** The accepted API key pairs, SecretId → SecretKey. */
  keys: Record<string, string>;
  sdkAppId: string;
  signName: string;
  templates: SandboxTemplate[];
  /** Numbers (E.164) that get LimitExceeded.PhoneNumberDailyLimit. */
  dailyLimited?: string[];
}

/** One accepted message. */
export interface SandboxSms {
  phoneNumber: string;
  templateId: string;
  params: string[];
  signName: string;
}

/** A running sandbox. */
export interface TencentSmsSandbox {
  /** `http://sms.localhost:<port>`, for TENCENT_SMS_ENDPOINT. */
  endpoint: string;
  port: number;
  sent: SandboxSms[];
  /** Every call's outcome code in order (`Ok` or the error code). */
  outcomes: string[];
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 64 * 1024;
const MAX_SKEW_SECONDS = 300;

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** Thrown inside the handler to answer an API error. */
class ApiFault extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/** The date (UTC, YYYY-MM-DD) of unix seconds `ts`. */
function utcDate(ts: number): string {
  return new Date(ts * 1000).toISOString().slice(0, 10);
}

/**
 * Verifies the TC3-HMAC-SHA256 signature of a request.
 * @throws ApiFault with the code the real API answers
 */
function verifySignature(
  req: http.IncomingMessage,
  body: Buffer,
  keys: Record<string, string>,
  nowSeconds: number,
): void {
  const auth = req.headers.authorization ?? '';
  const m =
    /^TC3-HMAC-SHA256 Credential=([^/\s]+)\/(\d{4}-\d{2}-\d{2})\/([a-z0-9]+)\/tc3_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!m) throw new ApiFault('AuthFailure.InvalidAuthorization', 'Authorization header is malformed.');
  const [, secretId, date, service, signedHeaders, signature] = m as unknown as string[];
  const secretKey = keys[secretId!];
  if (!secretKey) throw new ApiFault('AuthFailure.SecretIdNotFound', 'The SecretId is not found.');
  const timestamp = Number(req.headers['x-tc-timestamp']);
  if (!Number.isSafeInteger(timestamp) || Math.abs(nowSeconds - timestamp) > MAX_SKEW_SECONDS)
    throw new ApiFault('AuthFailure.SignatureExpire', 'Signature expired.');
  if (date !== utcDate(timestamp) || service !== 'sms')
    throw new ApiFault('AuthFailure.SignatureFailure', 'The credential scope does not match.');
  const names = signedHeaders!.split(';');
  if (!names.includes('content-type') || !names.includes('host'))
    throw new ApiFault('AuthFailure.SignatureFailure', 'content-type and host must be signed.');
  const headerValue = (name: string) => {
    const v = req.headers[name];
    const s = (Array.isArray(v) ? v.join(',') : (v ?? '')).trim();
    // The SDK signs the host name without the port (the real endpoint is on 443).
    return name === 'host' ? s.replace(/:\d+$/, '').toLowerCase() : s;
  };
  const url = new URL(req.url ?? '/', 'http://sandbox');
  const canonical = [
    req.method ?? 'POST',
    url.pathname,
    url.search.slice(1),
    names.map((n) => `${n}:${headerValue(n)}\n`).join(''),
    signedHeaders,
    sha256Hex(body),
  ].join('\n');
  const scope = `${date}/${service}/tc3_request`;
  const stringToSign = `TC3-HMAC-SHA256\n${timestamp}\n${scope}\n${sha256Hex(canonical)}`;
  const kSigning = hmac(hmac(hmac(`TC3${secretKey}`, date!), service!), 'tc3_request');
  const expected = createHmac('sha256', kSigning).update(stringToSign).digest();
  if (!timingSafeEqual(expected, Buffer.from(signature!, 'hex')))
    throw new ApiFault('AuthFailure.SignatureFailure', 'The provided credentials could not be validated.');
}

/** Checks a SendSms body and answers its SendStatusSet. @throws ApiFault */
function sendSms(body: unknown, opts: TencentSmsSandboxOptions, sent: SandboxSms[]) {
  const b = (body ?? {}) as Record<string, unknown>;
  const phones = b.PhoneNumberSet;
  if (!Array.isArray(phones) || phones.length === 0 || phones.length > 200)
    throw new ApiFault(
      'InvalidParameterValue.IncorrectPhoneNumber',
      'PhoneNumberSet is missing or too long.',
    );
  if (b.SmsSdkAppId !== opts.sdkAppId)
    throw new ApiFault('UnauthorizedOperation.SmsSdkAppIdVerifyFail', 'SmsSdkAppId verify fail.');
  if (b.SignName !== opts.signName)
    throw new ApiFault(
      'FailedOperation.SignatureIncorrectOrUnapproved',
      'Signature is incorrect or unapproved.',
    );
  const template = opts.templates.find((t) => t.id === b.TemplateId);
  if (!template)
    throw new ApiFault(
      'FailedOperation.TemplateIncorrectOrUnapproved',
      'Template is incorrect or unapproved.',
    );
  const params = b.TemplateParamSet ?? [];
  if (
    !Array.isArray(params) ||
    params.length !== template.params ||
    params.some((p) => typeof p !== 'string')
  )
    throw new ApiFault(
      'FailedOperation.TemplateParamSetNotMatchApprovedTemplate',
      'TemplateParamSet does not match the approved template.',
    );
  return phones.map((phone: unknown) => {
    const number = String(phone);
    const base = { SerialNo: randomUUID(), PhoneNumber: number, SessionContext: '', IsoCode: 'CN' };
    if (!/^\+861\d{10}$/.test(number))
      return {
        ...base,
        Fee: 0,
        Code: 'InvalidParameterValue.IncorrectPhoneNumber',
        Message: 'invalid number',
      };
    if (opts.dailyLimited?.includes(number))
      return { ...base, Fee: 0, Code: 'LimitExceeded.PhoneNumberDailyLimit', Message: 'daily limit' };
    sent.push({
      phoneNumber: number,
      templateId: template.id,
      params: params as string[],
      signName: opts.signName,
    });
    return { ...base, Fee: 1, Code: 'Ok', Message: 'send success' };
  });
}

/**
 * Starts the sandbox on 127.0.0.1 (a free port).
 * @returns the running sandbox; `close()` it
 */
export async function startTencentSmsSandbox(opts: TencentSmsSandboxOptions): Promise<TencentSmsSandbox> {
  const sent: SandboxSms[] = [];
  const outcomes: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) req.destroy();
      else chunks.push(c);
    });
    req.on('end', () => {
      const requestId = randomUUID();
      const answer = (response: Record<string, unknown>) => {
        res.writeHead(200, { 'content-type': 'application/json', 'x-tc-traceid': requestId });
        res.end(JSON.stringify({ Response: { ...response, RequestId: requestId } }));
      };
      const body = Buffer.concat(chunks);
      try {
        if (req.method !== 'POST') throw new ApiFault('UnsupportedOperation', 'Only POST is supported here.');
        verifySignature(req, body, opts.keys, Math.floor(Date.now() / 1000));
        if (req.headers['x-tc-action'] !== 'SendSms' || req.headers['x-tc-version'] !== '2021-01-11')
          throw new ApiFault('InvalidAction', 'The action or version is not supported.');
        let parsed: unknown;
        try {
          parsed = JSON.parse(body.toString('utf8'));
        } catch {
          throw new ApiFault('InvalidParameter', 'The body is not JSON.');
        }
        const set = sendSms(parsed, opts, sent);
        outcomes.push(...set.map((s) => s.Code));
        answer({ SendStatusSet: set });
      } catch (err) {
        const fault = err instanceof ApiFault ? err : new ApiFault('InternalError', 'internal error');
        outcomes.push(fault.code);
        answer({ Error: { Code: fault.code, Message: fault.message } });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    endpoint: `http://sms.localhost:${port}`,
    port,
    sent,
    outcomes,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
