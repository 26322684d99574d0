/**
 * The `/api` proxy's answers (server/proxy/answer.ts): small ones read whole and sent as one buffer, large or
 * chunked ones streamed — either way the platform's status, headers and bytes — and an upstream that dies in the
 * middle of a small answer gives the 502 envelope instead of a cut-off body.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Msg } from '../../contract/messages.ts';
import { BUFFERED_ANSWER_MAX_BYTES } from './answer.ts';
import { gatewayOver, type GatewayOverUpstream } from '../../tests/support/server.ts';

/** `n` bytes of a repeating pattern. */
function pattern(n: number): Buffer {
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i++) out[i] = (i * 31 + 7) & 0xff;
  return out;
}

const SMALL = Buffer.from(JSON.stringify({ code: 200, msg: '成功', data: { text: '证据'.repeat(50) } }));
const LARGE = pattern(BUFFERED_ANSWER_MAX_BYTES * 3 + 5);
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('the /api proxy relays the platform answers', () => {
  let proxied: GatewayOverUpstream;
  let base: string;

  beforeAll(async () => {
    proxied = await gatewayOver((req, res) => {
      req.resume();
      req.on('end', () => {
        switch (req.url) {
          case '/api/small':
            res.writeHead(201, {
              'content-type': 'application/json; charset=utf-8',
              'content-length': SMALL.length,
              'x-platform': 'kept',
            });
            return void res.end(SMALL);
          case '/api/large':
            res.writeHead(200, {
              'content-type': 'application/octet-stream',
              'content-length': LARGE.length,
            });
            return void res.end(LARGE);
          case '/api/chunked':
            // No Content-Length: streamed as it comes.
            res.writeHead(200, { 'content-type': 'application/json' });
            res.write(SMALL.subarray(0, 10));
            return void setTimeout(() => res.end(SMALL.subarray(10)), 20);
          case '/api/cut':
            // Declares 100 bytes, sends 10, then the connection dies.
            res.writeHead(200, { 'content-type': 'application/json', 'content-length': 100 });
            res.write('{"code":20');
            return void setTimeout(() => res.socket?.destroy(), 20);
          default:
            res.writeHead(404, { 'content-type': 'application/json', 'content-length': 2 });
            res.end('{}');
        }
      });
    });
    base = proxied.base;
  });

  afterAll(async () => {
    await proxied?.close();
  });

  it('passes a small answer on whole: its status, its headers and its exact bytes', async () => {
    const res = await fetch(`${base}/api/small`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-platform')).toBe('kept');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('content-length')).toBe(String(SMALL.length));
    expect(Buffer.from(await res.arrayBuffer()).equals(SMALL)).toBe(true);
  });

  it('streams an answer larger than the buffered limit, byte for byte', async () => {
    const res = await fetch(`${base}/api/large`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(LARGE.length));
    expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(sha256(LARGE));
  });

  it('streams an answer without a declared length', async () => {
    const res = await fetch(`${base}/api/chunked`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(SMALL)).toBe(true);
  });

  it('answers HEAD with the headers only', async () => {
    const res = await fetch(`${base}/api/small`, { method: 'HEAD' });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-platform')).toBe('kept');
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it('gives the 502 envelope when the platform dies in the middle of a small answer', async () => {
    const res = await fetch(`${base}/api/cut`);
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ code: 502, msg: Msg.connectionFailed, data: null });
    // The gateway goes on answering.
    const again = await fetch(`${base}/api/small`);
    expect(again.status).toBe(201);
    expect(Buffer.from(await again.arrayBuffer()).equals(SMALL)).toBe(true);
  });
});
