/**
 * OpenTelemetry traces across gateway → platform → database (docs/decisions/044-traces.md).
 *
 * Off unless the standard `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set and neither
 * `OTEL_SDK_DISABLED=true` nor `OTEL_TRACES_EXPORTER=none` says otherwise (read with the process's configuration,
 * lib/config-shared.ts, and handed in as a {@link TracingConfig}); off, nothing is wrapped and the API calls
 * left in the code are no-ops. On, each thread that serves requests has its own provider (the embedded platform's
 * worker thread has its own globals): spans go in batches (`OTEL_BSP_SCHEDULE_DELAY` ms) to the collector as OTLP
 * over HTTP/JSON; W3C `traceparent` carries the trace from the gateway's request to the platform's; Fastify's own
 * instrumentation (@fastify/otel) makes the request spans; every SQL statement gets a client span
 * ({@link tracedDialect}) with its parameterised text — never its values.
 *
 * Personal data stays out: the request span's `url.path` is the path without its query (signed URLs, extraction
 * codes), and no header, body or bound value is recorded.
 *
 * The SDK, its exporter and @fastify/otel are loaded only when traces are on: ~6 MB of heap in each thread that
 * would otherwise carry them (docs/decisions/056); the API's no-op calls stay.
 */
import { context, propagation, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import type FastifyOtelInstrumentation from '@fastify/otel';
import type { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { FastifyInstance } from 'fastify';
import type { DatabaseConnection, Dialect, Driver, QueryResult } from 'kysely';

/** The running tracing of this thread. */
interface Tracing {
  provider: NodeTracerProvider;
  tracer: Tracer;
  fastify: FastifyOtelInstrumentation;
}

let current: Tracing | null = null;

/** Longest SQL text kept on a span (characters). */
const MAX_QUERY_TEXT = 2000;

/**
 * Where this thread's spans go (lib/config-shared.ts `tracingOf` reads it from the OTEL_* variables): the
 * OTLP/HTTP traces URL, and the milliseconds between batches (the SDK's default when absent).
 */
export interface TracingConfig {
  url: string;
  scheduleDelayMs?: number;
}

/**
 * Starts tracing in this thread per `tracing` (null: off), as service `serviceName` (`cunzheng-gateway`,
 * `cunzheng-platform`). A second call in the same thread keeps the first.
 * @returns a function that flushes and stops it (idempotent), or null when traces are off
 */
export async function startTracing(
  tracing: TracingConfig | null,
  serviceName: string,
): Promise<(() => Promise<void>) | null> {
  if (!tracing) return null;
  const { url } = tracing;
  if (current) return () => Promise.resolve();
  const [
    { default: FastifyOtel },
    { OTLPTraceExporter },
    { resourceFromAttributes },
    { BatchSpanProcessor, NodeTracerProvider },
    { ATTR_SERVICE_NAME, ATTR_URL_PATH },
  ] = await Promise.all([
    import('@fastify/otel'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/semantic-conventions'),
  ]);
  if (current) return () => Promise.resolve();
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName }),
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url }), {
        ...(tracing.scheduleDelayMs ? { scheduledDelayMillis: tracing.scheduleDelayMs } : {}),
      }),
    ],
  });
  provider.register(); // the global provider, W3C trace-context propagation, AsyncLocalStorage context
  const fastify = new FastifyOtel({
    // a span per request and per handler; one per lifecycle hook would multiply the volume by ten
    instrumentHooks: false,
    requestHook: (span, request) => span.setAttribute(ATTR_URL_PATH, request.url.split('?')[0]!),
  });
  fastify.setTracerProvider(provider);
  const started: Tracing = { provider, tracer: provider.getTracer('cunzheng'), fastify };
  current = started;
  let stopping: Promise<void> | null = null;
  return () =>
    (stopping ??= (async () => {
      await started.provider.shutdown();
      if (current === started) current = null;
      trace.disable();
      context.disable();
      propagation.disable();
    })());
}

/** Registers request spans on `app` when this thread traces; call before any route. */
export async function registerRequestTracing(app: FastifyInstance): Promise<void> {
  if (current) await app.register(current.fastify.plugin());
}

/** The W3C trace-context headers of the active span, added to `headers` (nothing when traces are off). */
export function injectTraceContext(headers: Record<string, string | string[] | undefined>): void {
  propagation.inject(context.active(), headers);
}

/** A span around one statement, child of the active one. */
async function traced<T>(
  tracer: Tracer,
  system: string,
  sqlText: string,
  run: () => Promise<QueryResult<T>>,
): Promise<QueryResult<T>> {
  const operation = /^\s*(\w+)/.exec(sqlText)?.[1]?.toUpperCase() ?? 'QUERY';
  const span = tracer.startSpan(operation, {
    kind: SpanKind.CLIENT,
    attributes: {
      'db.system.name': system,
      'db.operation.name': operation,
      'db.query.text': sqlText.slice(0, MAX_QUERY_TEXT),
    },
  });
  try {
    return await context.with(trace.setSpan(context.active(), span), run);
  } catch (err) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.name : 'error' });
    throw err;
  } finally {
    span.end();
  }
}

/** `target` with its methods bound to it (private fields stay reachable) and `override` in front. */
function wrap<T extends object>(target: T, override: Partial<T>): T {
  return new Proxy(target, {
    get(t, prop) {
      if (prop in override) return override[prop as keyof T];
      const v: unknown = Reflect.get(t, prop, t);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
    },
  });
}

/**
 * `dialect` with a client span per statement (`db.system.name` `sqlite` or `postgresql`) when this thread traces;
 * else `dialect` itself.
 */
export function tracedDialect(dialect: Dialect, system: 'sqlite' | 'postgresql'): Dialect {
  const tracing = current;
  if (!tracing) return dialect;
  const connection = (c: DatabaseConnection) =>
    wrap(c, {
      executeQuery: (q) => traced(tracing.tracer, system, q.sql, () => c.executeQuery(q)),
    } as Partial<DatabaseConnection>);
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver: () => {
      const driver = dialect.createDriver();
      return wrap(driver, {
        acquireConnection: async () => connection(await driver.acquireConnection()),
      } as Partial<Driver>);
    },
  };
}
