/**
 * The billing services (docs/decisions/018-billing.md): `app.billing` — the Alipay page pay and WeChat Pay Native
 * providers, real when their settings are present (`ALIPAY_*`, `WECHATPAY_*`), else the loopback sandboxes started
 * here (the Alipay gateway with its cashier, alipay-cashier.ts; the WeChat Pay sandbox of decision 017), closed
 * with the app. Tests reach the sandboxes' hooks through `app.billing.sandboxes`.
 *
 * Test only: with TEST_HOOKS on, SANDBOX_RESUME_DELAY_MS (`config.testResumeDelayMs`, platform/config-core.ts)
 * replaces both sandboxes' delay before re-sending the notifications a restart resumes (default 5000 ms), so restart
 * tests need not wait 5 s per restart.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  PayType,
  type NotaryOrderRow,
  type OrderListData,
  type OrderListQuery,
} from '../../contract/billing.ts';
import { ApiCode } from '../../contract/envelope.ts';
import { ApiError } from '../core/errors.ts';
import { AlipayPay } from './alipay-pay.ts';
import { startAlipayCashier, type AlipayCashier } from './alipay-cashier.ts';
import type { PaymentProvider } from './providers.ts';
import { WechatPayProvider } from './wechat-pay.ts';
import { WechatPayV3Client, type WechatPayConfig } from './wechatpay/client.ts';
import type { AlipayClientConfig } from '../kyc/alipay-face.ts';
import { startWechatPaySandbox, type WechatPaySandbox } from './wechatpay/sandbox.ts';

/** Where tab 3 (公证出证) of the orders list gets its rows: set by the notarisation area when it exists. */
export interface NotaryOrderSource {
  list(userId: number, query: OrderListQuery): Promise<OrderListData<NotaryOrderRow>>;
}

/** What `app.billing` holds. */
export interface BillingServices {
  alipay: AlipayPay;
  wechat: WechatPayProvider;
  /** The loopback sandboxes, null when the real provider is configured. */
  sandboxes: { alipay: AlipayCashier | null; wechat: WechatPaySandbox | null };
  /** The provider of pay_type 2 or 3. @throws ApiError 400 for another pay_type */
  provider(payType: number): PaymentProvider;
  notaryOrders: NotaryOrderSource | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    billing: BillingServices;
  }
}

/** Registers `app.billing` (needs the services plugin). */
export const billingServicesPlugin = fp(
  async (app: FastifyInstance) => {
    const { config } = app;
    const log = app.log.child({ module: 'payment-sandbox' }, { level: 'warn' });
    const resumeDelayMs = config.testResumeDelayMs;
    let cashier: AlipayCashier | null = null;
    let alipayConfig: AlipayClientConfig | null = config.alipay;
    let sellerId = config.billing.alipaySellerId;
    if (!alipayConfig) {
      cashier = await startAlipayCashier({ dataDir: config.dataDir, logger: log, resumeDelayMs });
      app.addHook('onClose', () => cashier!.close());
      alipayConfig = cashier.clientConfig();
      sellerId = cashier.sellerId;
      app.log.info({ url: cashier.url }, 'Alipay sandbox gateway (page pay) listening');
    }
    let wechatConfig: WechatPayConfig | null = config.wechatpay;
    let wechatSandbox: WechatPaySandbox | null = null;
    if (!wechatConfig) {
      wechatSandbox = await startWechatPaySandbox({
        dataDir: config.dataDir,
        testHooks: config.testHooks,
        logger: log,
        resumeDelayMs,
      });
      app.addHook('onClose', () => wechatSandbox!.close());
      wechatConfig = wechatSandbox.clientConfig();
      app.log.info({ url: wechatSandbox.url }, 'WeChat Pay sandbox listening');
    }
    const alipay = new AlipayPay(alipayConfig, { notifyUrl: config.billing.alipayNotifyUrl, sellerId });
    const wechat = new WechatPayProvider(
      new WechatPayV3Client(wechatConfig),
      wechatConfig,
      config.billing.wechatNotifyUrl,
    );
    app.decorate('billing', {
      alipay,
      wechat,
      sandboxes: { alipay: cashier, wechat: wechatSandbox },
      provider(payType: number): PaymentProvider {
        if (payType === PayType.alipay) return alipay;
        if (payType === PayType.wechat) return wechat;
        throw new ApiError(ApiCode.BAD_REQUEST, `pay_type ${payType} has no provider`);
      },
      notaryOrders: null,
    } satisfies BillingServices);
  },
  { name: 'cunzheng-billing-services', dependencies: ['cunzheng-services'] },
);
