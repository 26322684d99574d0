/**
 * What a web capture records of a page's traffic (decision 037): every HTTP exchange into the WARC, with the address
 * the egress proxy pinned for its host, and the TLS connection and certificate the browser saw (CDP securityDetails).
 */
import type { HTTPResponse, Page } from 'puppeteer-core';
import type { EgressProxy } from './egress-proxy.ts';
import type { Exchange, WarcWriter } from './wacz.ts';

/** The TLS connection a page was loaded over. Dates ISO 8601. */
export interface TlsFacts {
  protocol: string;
  subject: string;
  issuer: string;
  validFrom: string;
  validTo: string;
  subjectAlternativeNames: string[];
}

/** The exchanges of a page, collected as responses arrive, and the bodies still being read. */
export function recordExchanges(
  page: Page,
  proxy: EgressProxy,
  warc: WarcWriter,
  now: () => Date,
): () => Promise<void> {
  const pending: Promise<void>[] = [];
  page.on('response', (res: HTTPResponse) => {
    const req = res.request();
    const status = res.status();
    const task = (async () => {
      const redirect = status >= 300 && status < 400;
      const body = redirect ? null : await res.buffer().catch(() => null);
      const exchange: Exchange = {
        url: res.url(),
        method: req.method(),
        requestHeaders: req.headers(),
        requestBody: req.postData() ? new TextEncoder().encode(req.postData()) : null,
        status,
        statusText: res.statusText(),
        responseHeaders: res.headers(),
        body: body ? new Uint8Array(body) : null,
        ipAddress: proxy.addressOf(res.url()),
        date: now(),
      };
      await warc.exchange(exchange);
    })();
    pending.push(task.catch(() => undefined));
  });
  return async () => {
    await Promise.all(pending);
  };
}

/** The TLS facts of a response, or null for plain HTTP. */
export function tlsOf(res: HTTPResponse): TlsFacts | null {
  const s = res.securityDetails();
  if (!s) return null;
  const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
  return {
    protocol: s.protocol(),
    subject: s.subjectName(),
    issuer: s.issuer(),
    validFrom: iso(s.validFrom()),
    validTo: iso(s.validTo()),
    subjectAlternativeNames: s.subjectAlternativeNames(),
  };
}
