/**
 * Traces (decision 044): with OTEL_EXPORTER_OTLP_ENDPOINT set, one upload through the gateway's `/api` proxy
 * gives one trace in the collector — the gateway's request span (service cunzheng-gateway), the platform's request
 * span as its child (cunzheng-platform, in the embedded platform's worker thread, reached through W3C traceparent)
 * and the platform's SQL statements as client spans below that — and a page's upstream call joins its page's trace.
 * No span carries a query string or a bound value; without the variable nothing is exported.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvidencePaths, type SaveEvidenceData } from '../../contract/evidence.ts';
import { DEMO_MOBILE, DEMO_PASSWORD, startWhole, type Envelope, type Whole } from '../support/integration.ts';
import { eventually, startCollector, type Span } from '../support/otlp-collector.ts';

describe.sequential('OpenTelemetry traces across gateway, platform and database', () => {
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let whole: Whole;
  beforeAll(async () => {
    collector = await startCollector();
    whole = await startWhole({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      // the platform in its own thread, with its own provider: the trace must cross the loopback hop
      EMBEDDED_PLATFORM: 'worker',
    });
  });
  afterAll(async () => {
    await whole?.stop();
    await collector?.close();
  });

  it('one upload: gateway request → platform request → SQL statements, in one trace', async () => {
    const login = await fetch(`${whole.base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ mobile: DEMO_MOBILE, password: DEMO_PASSWORD }),
    });
    const { token } = ((await login.json()) as Envelope<{ token: string }>).data;
    const form = new FormData();
    form.set('title', '追踪');
    form.set('file', new Blob([new Uint8Array(randomBytes(4096))]), 'traced.bin');
    const res = await fetch(`${whole.base}${EvidencePaths.save}?trace=1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const saved = (await res.json()) as Envelope<SaveEvidenceData>;
    expect(saved.code, saved.msg).toBe(200);

    const trace = await eventually(() => {
      const gw = collector.spans.find(
        (s) => s.service === 'cunzheng-gateway' && s.attributes['url.path'] === EvidencePaths.save,
      );
      if (!gw) return undefined;
      const all = collector.spans.filter((s) => s.traceId === gw.traceId);
      const insert = all.find(
        (s) =>
          s.service === 'cunzheng-platform' &&
          /^insert into "evidences"/i.test(String(s.attributes['db.query.text'])),
      );
      // the request span ends after its answer, so it may come in a later export batch than the insert
      const request = all.find(
        (s) => s.service === 'cunzheng-platform' && s.attributes['url.path'] === EvidencePaths.save,
      );
      return insert && request ? { gw, all, request } : undefined;
    });
    const byId = new Map(trace.all.map((s) => [s.spanId, s]));
    const platformRequest = trace.request;
    // the platform's request continues a gateway span of the same trace
    expect(byId.get(platformRequest!.parentSpanId)?.service).toBe('cunzheng-gateway');
    // every SQL span descends from the platform's request span
    const sqlSpans = trace.all.filter((s) => s.attributes['db.system.name'] === 'sqlite');
    expect(sqlSpans.length).toBeGreaterThan(2);
    for (const s of sqlSpans) {
      let up: Span | undefined = s;
      while (up && up.spanId !== platformRequest!.spanId) up = byId.get(up.parentSpanId);
      expect(up, `${s.name} under the platform request`).toBeDefined();
    }
    // no query string, no bound value, no token anywhere
    const text = JSON.stringify(collector.spans);
    expect(text).not.toContain('trace=1');
    expect(text).not.toContain(token);
    expect(text).not.toContain(saved.data.baoquan);
  });

  it('a page and its upstream calls share a trace', async () => {
    const before = collector.spans.length;
    // the ledger explorer's page asks the platform for the entry (an unknown hash: a 404 page, still one call)
    const pagePath = `/chain/tx/${'0'.repeat(64)}`;
    const page = await fetch(`${whole.base}${pagePath}`);
    await page.text();
    const joined = await eventually(() => {
      const fresh = collector.spans.slice(before);
      const gw = fresh.find((s) => s.service === 'cunzheng-gateway' && s.attributes['url.path'] === pagePath);
      const pf = gw && fresh.find((s) => s.service === 'cunzheng-platform' && s.traceId === gw.traceId);
      return pf ? { gw, pf } : undefined;
    });
    expect(joined.pf.traceId).toBe(joined.gw.traceId);
  });
});
