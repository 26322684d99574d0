/**
 * The `/api` proxy's request bodies (server/proxy/body.ts): a small body with a declared length is read whole by the
 * gateway and forwarded as its exact bytes and Content-Type (reply-from would re-encode JSON it found as an object);
 * a larger or chunked body is streamed to the platform as it arrives. A proxied call writes one access line, no more
 * (decision 032).
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUFFERED_BODY_MAX_BYTES } from './body.ts';
import { gatewayOver, type GatewayOverUpstream } from '../../tests/support/server.ts';

/** What the upstream saw of one request. */
interface Seen {
  method: string;
  contentType: string | null;
  contentLength: string | null;
  transferEncoding: string | null;
  sha256: string;
  text: string;
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Sends `parts` as one request body, waiting `pauseMs` between parts; resolves with the gateway's answer. */
function send(
  url: string,
  headers: Record<string, string>,
  parts: Buffer[],
  pauseMs: number,
  onPause?: () => void,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent: false, headers });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    const next = (i: number) => {
      if (i === parts.length) return void req.end();
      req.write(parts[i]);
      if (i === parts.length - 1) return next(i + 1);
      setTimeout(() => {
        onPause?.();
        next(i + 1);
      }, pauseMs);
    };
    next(0);
  });
}

describe('the /api proxy forwards request bodies', () => {
  let proxied: GatewayOverUpstream;
  let base: string;
  /** Requests the upstream has started to receive (its request event), by path. */
  const arrived = new Set<string>();
  /** The gateway's log lines. */
  const lines: { reqId?: string; msg?: string; url?: string }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const l of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });

  beforeAll(async () => {
    proxied = await gatewayOver(
      (req, res) => {
        arrived.add(req.url ?? '');
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const body = Buffer.concat(chunks);
          const seen: Seen = {
            method: req.method ?? '',
            contentType: req.headers['content-type'] ?? null,
            contentLength: req.headers['content-length'] ?? null,
            transferEncoding: req.headers['transfer-encoding'] ?? null,
            sha256: sha256(body),
            text: body.length <= 4096 ? body.toString('utf8') : '',
          };
          const answer = Buffer.from(JSON.stringify(seen));
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length });
          res.end(answer);
        });
      },
      { loggerInstance: pino(sink) },
    );
    base = proxied.base;
  });

  afterAll(async () => {
    await proxied?.close();
  });

  it('reads a small JSON body whole and forwards its exact bytes, type and length', async () => {
    // Spacing and key order that JSON.stringify would not keep: the platform (and an open-API signature) sees these.
    const json = Buffer.from('{ "title" : "证据 一",\n  "b":1 ,"a":[ 2 ] }');
    const headers = {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(json.length),
    };
    let arrivedDuringPause: boolean | undefined;
    const res = await send(
      `${base}/api/small-json`,
      headers,
      [json.subarray(0, 10), json.subarray(10)],
      150,
      () => {
        arrivedDuringPause = arrived.has('/api/small-json');
      },
    );
    expect(res.status).toBe(200);
    // Read whole: the platform hears nothing until the client has sent the last byte.
    expect(arrivedDuringPause).toBe(false);
    const seen = JSON.parse(res.body) as Seen;
    expect(seen).toMatchObject({
      method: 'POST',
      contentType: 'application/json; charset=utf-8',
      contentLength: String(json.length),
      transferEncoding: null,
      text: json.toString('utf8'),
    });
  });

  it('forwards a form body and an empty JSON body as they are', async () => {
    const form = Buffer.from('mobile=13800000000&name=%E5%BC%A0%E4%B8%89');
    const formRes = await send(
      `${base}/api/form`,
      { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(form.length) },
      [form],
      0,
    );
    expect(JSON.parse(formRes.body)).toMatchObject({
      contentType: 'application/x-www-form-urlencoded',
      text: form.toString('utf8'),
    });
    const empty = await send(
      `${base}/api/empty`,
      { 'content-type': 'application/json', 'content-length': '0' },
      [Buffer.alloc(0)],
      0,
    );
    expect(JSON.parse(empty.body)).toMatchObject({ contentLength: '0', text: '' });
  });

  it('streams a body over the limit to the platform as it arrives, byte for byte', async () => {
    const big = Buffer.alloc(BUFFERED_BODY_MAX_BYTES + 1, 0x5a);
    let arrivedDuringPause: boolean | undefined;
    const res = await send(
      `${base}/api/big`,
      { 'content-type': 'application/octet-stream', 'content-length': String(big.length) },
      [big.subarray(0, 1000), big.subarray(1000)],
      150,
      () => {
        arrivedDuringPause = arrived.has('/api/big');
      },
    );
    expect(arrivedDuringPause).toBe(true);
    expect(JSON.parse(res.body)).toMatchObject({ contentLength: String(big.length), sha256: sha256(big) });
  });

  it('streams a chunked body (no declared length)', async () => {
    const body = Buffer.from('{"chunked":true}');
    let arrivedDuringPause: boolean | undefined;
    const res = await send(
      `${base}/api/chunked`,
      { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      [body.subarray(0, 5), body.subarray(5)],
      150,
      () => {
        arrivedDuringPause = arrived.has('/api/chunked');
      },
    );
    expect(arrivedDuringPause).toBe(true);
    expect(JSON.parse(res.body)).toMatchObject({ text: body.toString('utf8') });
  });

  it('logs one line for a proxied call', async () => {
    const body = Buffer.from('{}');
    const res = await send(
      `${base}/api/logged?code=secret-extraction-code`,
      { 'content-type': 'application/json', 'content-length': String(body.length) },
      [body],
      0,
    );
    expect(res.status).toBe(200);
    await new Promise((resolve) => setImmediate(resolve));
    const call = lines.filter((l) => l.url?.startsWith('/api/logged'));
    expect(call).toHaveLength(1);
    expect(lines.filter((l) => l.reqId === call[0]!.reqId)).toHaveLength(1);
  });
});
