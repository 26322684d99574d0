/**
 * A minimal OpenTelemetry collector for tests: receives OTLP/HTTP JSON trace exports (what
 * @opentelemetry/exporter-trace-otlp-http sends) and keeps every span, flattened with its service name.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One exported span, flattened from OTLP/JSON. */
export interface Span {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  attributes: Record<string, string | number | boolean>;
}

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean };
type OtlpJson = {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: AnyValue }[] };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        attributes?: { key: string; value: AnyValue }[];
      }[];
    }[];
  }[];
};

const valueOf = (v: AnyValue) =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : v.boolValue!);
const attrs = (list: { key: string; value: AnyValue }[] = []) =>
  Object.fromEntries(list.map((a) => [a.key, valueOf(a.value)]));

/** Starts the receiver on a free loopback port; `url` is what OTEL_EXPORTER_OTLP_ENDPOINT takes. */
export async function startCollector() {
  const spans: Span[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpJson;
      for (const rs of body.resourceSpans ?? []) {
        const service = String(attrs(rs.resource?.attributes)['service.name']);
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? []) {
            spans.push({
              service,
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId ?? '',
              name: s.name,
              attributes: attrs(s.attributes),
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Waits until `check` holds for the collected spans (batches arrive every OTEL_BSP_SCHEDULE_DELAY ms). */
export async function eventually<T>(check: () => T | undefined, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const r = check();
    if (r !== undefined) return r;
    if (Date.now() > until) throw new Error('spans did not arrive');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
