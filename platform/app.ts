/**
 * The platform: the upstream /api of the spec with real persistence (ARCHITECTURE "Three parts"). `buildPlatform`
 * assembles a Fastify app from plugins — envelope, services, auth, then the areas, then every area's operator routes
 * from one list (`OPS_AREA_ROUTES`) — runs the migrations, and seeds the demo account. It does not listen: main.ts
 * does, or a test injects.
 */
import { metricsPlugin } from './core/metrics.ts';
import { jobsPlugin, type JobsPluginOptions } from './jobs/plugin.ts';
import { registerRequestTracing } from '../lib/tracing.ts';
import multipart from '@fastify/multipart';
import { embeddedTrustProxy } from './core/trust-proxy.ts';
import { sql } from 'kysely';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyServerOptions,
} from 'fastify';
import { API_BODY_LIMIT_BYTES, ApiCode, fail, ok } from '../contract/envelope.ts';
import { Msg } from '../contract/messages.ts';
import { authPlugin } from './account/auth.ts';
import { accountRoutes } from './account/routes.ts';
import { settingsRoutes } from './account/settings-routes.ts';
import { addressRoutes } from './address/routes.ts';
import { billingRoutes } from './billing/routes.ts';
import type { FaceCertifier } from './kyc/alipay-face.ts';
import { faceServicePlugin } from './kyc/face.ts';
import { invoiceRoutes } from './invoice/routes.ts';
import { billingOpsRoutes } from './billing/ops-routes.ts';
import { invoiceOpsRoutes } from './invoice/ops-routes.ts';
import { notaryRoutes } from './notary/routes.ts';
import { notaryOpsRoutes } from './notary/ops-routes.ts';
import { promoOpsRoutes } from './promo/ops-routes.ts';
import { promoRoutes } from './promo/routes.ts';
import { kycOpsRoutes } from './kyc/ops-routes.ts';
import { kycRoutes } from './kyc/routes.ts';
import { operatorAuthPlugin } from './ops/auth.ts';
import { opsRoutes } from './ops/routes.ts';
import { notificationRoutes } from './notification/routes.ts';
import { signatureRoutes } from './signature/routes.ts';
import type { SmsProvider } from './account/sms.ts';
import { DEMO_MOBILE, seedDemoAccount } from './account/users.ts';
import type { PlatformConfig } from './config.ts';
import { envelopePlugin } from './core/envelope.ts';
import { redactingChildLoggerFactory } from '../lib/log-redact.ts';
import { AccessLogController, type AccessLogMode } from '../lib/access-log.ts';
import { utf8BodiesPlugin } from './core/utf8-bodies.ts';
import { requestIdOf } from '../lib/request-id.ts';
import { evidenceDownloadRoutes } from './evidence/download-routes.ts';
import { evidenceRoutes } from './evidence/routes.ts';
import { evidenceShareRoutes } from './evidence/share-routes.ts';
import { homeRoutes } from './home/routes.ts';
import { signingRoutes } from './signing/routes.ts';
import { ledgerRoutes } from './ledger/routes.ts';
import type { FileStorage } from './files/storage.ts';
import { servicesPlugin } from './services.ts';
import { testHookRoutes } from './test-hooks.ts';
import { verifyRoutes } from './verify/routes.ts';
import { captureRoutes } from './capture/routes.ts';
import { renderRoutes } from './renders/routes.ts';
import { openApiRoutes } from './open-api/routes.ts';
import { musicRoutes } from './music/routes.ts';
import { envelopeFrameworkError } from '../lib/framework-errors.ts';

/**
 * Health route the gateway's readiness probe asks for: `{code: 200, data: {db: 'ok'}}` when the database answers,
 * HTTP 503 with an envelope otherwise.
 */
export const HEALTH_PATH = '/api/healthz';

/**
 * The operator console's routes of every area (`/api/ops/<area>/…`, decision 060): each area keeps them in
 * `platform/<area>/ops-routes.ts` (rules in `ops-service.ts`), adds its queue to `app.opsQueues` and checks the
 * queue's role on every call (`requireRole`, platform/ops/auth.ts). They are registered from this list only, in this
 * order (the console home lists the queues in it), never from an area's own `routes.ts`. A new area with an operator
 * queue adds one line here. The console's own calls (login, home, audit log) are platform/ops/routes.ts.
 */
const OPS_AREA_ROUTES: readonly FastifyPluginAsync[] = [
  kycOpsRoutes,
  billingOpsRoutes,
  invoiceOpsRoutes,
  notaryOpsRoutes,
  promoOpsRoutes,
];

/** Options of {@link buildPlatform}. */
export interface BuildPlatformOptions {
  /** Fastify logger options (default `{ level: config.logLevel }`), or false for none. */
  logger?: FastifyServerOptions['logger'];
  /** A ready pino logger to use instead (e.g. the gateway's child logger); wins over `logger`. */
  loggerInstance?: FastifyBaseLogger;
  /** A real SMS provider; default: the sandbox outbox of `${dataDir}/outbox/sms.log`. */
  sms?: SmsProvider;
  /**
   * Another file store (e.g. S3-compatible) for every bucket: evidence, KYC images, seals; default: directories under
   * `${dataDir}` (files/storage.ts).
   */
  storage?: FileStorage;
  /** Another face certifier; default: Alipay when configured, else the loopback sandbox (platform/kyc/face.ts). */
  face?: FaceCertifier;
  /** Which answers get an access line; default `config.accessLog` (the embedded platform: `errors`). */
  accessLog?: AccessLogMode;
  /** Job queue timings (tests shorten pg-boss's); whether jobs run at all is PLATFORM_JOBS. */
  jobs?: JobsPluginOptions;
  /**
   * Embedded behind the gateway of the same process (platform/loopback.ts): the connection's peer is always the
   * gateway, trusted whatever its address (platform/core/trust-proxy.ts); default false (TRUST_PROXY alone).
   */
  embedded?: boolean;
}

/**
 * Builds the platform app for `config` and waits until it is ready (migrated, demo seeded).
 * @returns the Fastify instance; `close()` it to close the database
 * @throws when the database cannot be opened or migrated, or the data directory is not writable
 */
export async function buildPlatform(
  config: PlatformConfig,
  opts: BuildPlatformOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    ...(opts.loggerInstance
      ? { loggerInstance: opts.loggerInstance }
      : { logger: opts.logger ?? { level: config.logLevel } }),
    trustProxy: opts.embedded ? embeddedTrustProxy(config.trustProxy) : config.trustProxy,
    // JSON/form bodies are small; files come as multipart streams, which bodyLimit does not cover.
    bodyLimit: API_BODY_LIMIT_BYTES,
    // Uploads of up to MAX_UPLOAD_BYTES take long on slow links: no whole-request timeout.
    requestTimeout: 0,
    logController: new AccessLogController(opts.accessLog ?? config.accessLog), // one line per request
    genReqId: requestIdOf, // the gateway's id of the request, in both parts' log lines
    frameworkErrors: envelopeFrameworkError, // an undecodable path: 请求参数错误, not Fastify's English JSON
  });
  app.setChildLoggerFactory(redactingChildLoggerFactory); // no signed or token-bearing URL in the logs
  try {
    await registerRequestTracing(app); // request spans when OTEL_* asks for traces (core/tracing.ts)
    await app.register(envelopePlugin, { maxUploadBytes: config.maxUploadBytes });
    await app.register(utf8BodiesPlugin);
    await app.register(multipart, { limits: { fileSize: config.maxUploadBytes } });
    await app.register(servicesPlugin, { config, sms: opts.sms, storage: opts.storage });
    await app.register(metricsPlugin); // Prometheus metrics for the gateway's /metrics (core/metrics.ts)
    await app.register(authPlugin);
    await app.register(operatorAuthPlugin);
    await app.register(faceServicePlugin, { face: opts.face });
    app.get(HEALTH_PATH, async (_request, reply) => {
      try {
        await sql`select 1`.execute(app.pdb.db);
        return ok({ db: 'ok' as const });
      } catch (err) {
        app.log.error({ err }, 'health check failed');
        return reply.code(503).send(fail(ApiCode.SERVER_ERROR, Msg.serverError));
      }
    });
    await app.register(accountRoutes);
    await app.register(settingsRoutes);
    await app.register(notificationRoutes);
    await app.register(signatureRoutes);
    await app.register(addressRoutes);
    await app.register(kycRoutes);
    await app.register(opsRoutes);
    await app.register(evidenceRoutes);
    await app.register(evidenceDownloadRoutes);
    await app.register(ledgerRoutes);
    await app.register(verifyRoutes);
    await app.register(captureRoutes);
    await app.register(renderRoutes); // the background worker's leased certificate renders (decision 064)
    await app.register(openApiRoutes);
    await app.register(musicRoutes);
    await app.register(billingRoutes);
    await app.register(invoiceRoutes);
    await app.register(notaryRoutes);
    await app.register(promoRoutes);
    await app.register(evidenceShareRoutes);
    await app.register(homeRoutes);
    await app.register(signingRoutes);
    // Every area's operator routes, and only here (decision 060): after the areas' own plugins, whose services
    // they use; each adds its console queue in this order and guards every call with requireRole.
    for (const areaOpsRoutes of OPS_AREA_ROUTES) await app.register(areaOpsRoutes);
    await app.register(jobsPlugin, opts.jobs ?? {}); // recurring jobs on the queue (jobs/plugin.ts)
    if (config.testHooks) {
      await app.register(testHookRoutes);
      app.log.warn('TEST HOOKS ENABLED: /api/__test/* answers captcha codes and expires tokens');
    }
    await app.ready();
    if (config.seedDemo) {
      const r = await seedDemoAccount(app.pdb.db, config.demoPassword, config.scryptCost);
      // The password is never logged: it is the documented default or DEMO_PASSWORD (docs/decisions/025).
      app.log.info(
        { mobile: DEMO_MOBILE, created: r === 'created' },
        `demo account ${r === 'created' ? 'created' : 'present'}: mobile ${DEMO_MOBILE}; its initial password is DEMO_PASSWORD when set, else the default documented in the README`,
      );
    }
    return app;
  } catch (err) {
    await app.close().catch(() => undefined);
    throw err;
  }
}
