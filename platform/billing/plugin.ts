/**
 * The billing services (docs/decisions/018-billing.md, 058-providers-own-notifications.md): `app.billing` — the
 * provider registry with the Alipay page pay and WeChat Pay Native providers, real when their settings are present
 * (`ALIPAY_*`, `WECHATPAY_*`), else the loopback sandboxes started here (the Alipay gateway with its cashier,
 * alipay-cashier.ts; the WeChat Pay sandbox of decision 017), closed with the app. Tests reach the sandboxes' hooks
 * through `app.billing.sandboxes`; a provider registered at run time goes into `app.billing.providers`.
 *
 * Test only: with TEST_HOOKS on, SANDBOX_RESUME_DELAY_MS (`config.testResumeDelayMs`, platform/config-core.ts)
 * replaces both sandboxes' delay before re-sending the notifications a restart resumes (default 5000 ms), so restart
 * tests need not wait 5 s per restart.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type NotaryOrderRow, type OrderListData, type OrderListQuery } from '../../contract/billing.ts';
import { ApiCode } from '../../contract/envelope.ts';
import { ApiError } from '../core/errors.ts';
import { AlipayPay } from './alipay-pay.ts';
import { startAlipayCashier, type AlipayCashier } from './alipay-cashier.ts';
import { ProviderRegistry, type PaymentProvider } from './providers.ts';
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
  /**
   * The providers by name and pay type: Alipay (2) and WeChat Pay (3) at start; another provider registers here at
   * run time and its notifications, reconciliation and cancels then work unchanged (decision 058).
   */
  providers: ProviderRegistry;
  /** The provider of a pay_type (2 Alipay, 3 WeChat, or a registered one). @throws ApiError 400 for another */
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
    const providers = new ProviderRegistry();
    providers.register(alipay);
    providers.register(wechat);
    app.decorate('billing', {
      alipay,
      wechat,
      sandboxes: { alipay: cashier, wechat: wechatSandbox },
      providers,
      provider(payType: number): PaymentProvider {
        const found = providers.ofPayType(payType);
        if (found) return found;
        throw new ApiError(ApiCode.BAD_REQUEST, `pay_type ${payType} has no provider`);
      },
      notaryOrders: null,
    } satisfies BillingServices);
  },
  { name: 'cunzheng-billing-services', dependencies: ['cunzheng-services'] },
);
