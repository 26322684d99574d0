/**
 * Tencent Cloud SMS through its official SDK (`tencentcloud-sdk-nodejs-sms`, API SendSms 2021-01-11; requests signed
 * by the SDK with TC3-HMAC-SHA256), behind the {@link SmsProvider} interface (docs/decisions/025-secrets-sms.md).
 * Codes use the template TENCENT_SMS_TEMPLATE_CODE with one variable (the code); the KYC result notices use their
 * own templates without variables. The secret key, the code and the full mobile are never logged or put in an error.
 *
 * TENCENT_SMS_ENDPOINT moves the SDK to another host; a `*.localhost` host (RFC 6761: always loopback) is resolved to
 * 127.0.0.1 here, so a test points the real SDK at the loopback sandbox (sms-tencent-sandbox.ts) under the host name
 * `sms.localhost` and the SDK signs for the service `sms` as it does in production.
 */
import http from 'node:http';
import type { LookupFunction } from 'node:net';
import { sms } from 'tencentcloud-sdk-nodejs-sms';
import type { TencentSmsConfig } from '../config.ts';
import { clientProxy, proxyAgents } from '../../lib/outbound-proxy.ts';
import { SmsSendError, type SmsMessage, type SmsProvider } from './sms.ts';

const SmsClient = sms.v20210111.Client;
type Client = InstanceType<typeof SmsClient>;

/** Seconds the SDK waits for an answer. */
export const TENCENT_SMS_TIMEOUT_SECONDS = 10;

/** Resolves every name to 127.0.0.1 (used only for `*.localhost` endpoints, which are loopback by RFC 6761). */
const loopbackLookup: LookupFunction = (_hostname, options, callback) => {
  if (typeof options === 'object' && options.all) {
    (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
      { address: '127.0.0.1', family: 4 },
    ]);
  } else callback(null, '127.0.0.1', 4);
};

/** Sends SMS with Tencent Cloud's SDK. */
export class TencentSmsProvider implements SmsProvider {
  private readonly client: Client;
  private readonly config: TencentSmsConfig;

  constructor(config: TencentSmsConfig) {
    this.config = config;
    const url = new URL(config.endpoint);
    const loopback = url.hostname === 'localhost' || url.hostname.endsWith('.localhost');
    // the SDK reads only a lower-case http_proxy, for every scheme and host; the agent decides instead (it wins)
    const proxy = loopback ? null : clientProxy(config.proxy);
    const agents = proxy ? proxyAgents(proxy) : null;
    this.client = new SmsClient({
      credential: { secretId: config.secretId, secretKey: config.secretKey },
      region: config.region,
      profile: {
        signMethod: 'TC3-HMAC-SHA256',
        httpProfile: {
          endpoint: url.host,
          protocol: `${url.protocol}//`,
          reqMethod: 'POST',
          reqTimeout: TENCENT_SMS_TIMEOUT_SECONDS,
          ...(loopback ? { agent: new http.Agent({ lookup: loopbackLookup }) } : {}),
          ...(agents
            ? { agent: (url.protocol === 'https:' ? agents.httpsAgent : agents.httpAgent) as http.Agent }
            : {}),
        },
      },
    });
  }

  /**
   * Sends one SMS to `+86<mobile>`.
   * @throws SmsSendError with Tencent's error code: an API error (e.g. AuthFailure.SignatureFailure), a per-number
   *   status other than `Ok` (e.g. LimitExceeded.PhoneNumberDailyLimit), or `Transport` when the call failed
   */
  async send(mobile: string, message: SmsMessage): Promise<void> {
    const t = this.config.templates;
    const templateId =
      message.kind === 'code' ? t.code : message.kind === 'kycApproved' ? t.kycApproved : t.kycRejected;
    let answer: Awaited<ReturnType<Client['SendSms']>>;
    try {
      answer = await this.client.SendSms({
        PhoneNumberSet: [`+86${mobile}`],
        SmsSdkAppId: this.config.sdkAppId,
        SignName: this.config.signName,
        TemplateId: templateId,
        TemplateParamSet: message.kind === 'code' ? [message.code] : [],
      });
    } catch (err) {
      const e = err as { code?: string; message?: string; requestId?: string };
      throw new SmsSendError(
        e.code || 'Transport',
        `Tencent SMS SendSms failed: ${e.code || 'transport error'}${e.requestId ? ` (request ${e.requestId})` : ''}`,
      );
    }
    const status = answer.SendStatusSet?.[0];
    if (status?.Code !== 'Ok') {
      const code = status?.Code ?? 'NoStatus';
      throw new SmsSendError(
        code,
        `Tencent SMS refused the message: ${code} (request ${answer.RequestId ?? '?'})`,
      );
    }
  }
}
