/**
 * server/pages/compression-guard.ts: answers @fastify/compress would send raw under a `Content-Encoding` reach the client
 * decodable, whatever their first bytes, as a string, a Buffer or a stream; other answers are still compressed.
 */
import { Readable } from 'node:stream';
import { brotliDecompressSync } from 'node:zlib';
import compress from '@fastify/compress';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { guardCompressionSniff, looksCompressed } from './compression-guard.ts';

/** Bytes whose first two form a valid zlib header (0x78 0x9c, RFC 1950), then text long enough to be compressed. */
const ZLIB_LOOKING = Buffer.concat([Buffer.from([0x78, 0x9c]), Buffer.from('a'.repeat(4000))]);
/** Text that starts like a zlib header too: '8' (0x38) then '0' (0x30), (0x38 × 256 + 0x30) mod 31 = 0. */
const TEXT_LOOKING = `80${'日志行 '.repeat(800)}`;
const PLAIN_TEXT = `hello ${'日志行 '.repeat(800)}`;

let app: FastifyInstance | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

/** A scope like the gateway's UI scope: compression, then the guard. `guard: false` shows the plugin alone. */
async function server(guard = true): Promise<FastifyInstance> {
  const f = Fastify();
  await f.register(compress, {
    globalCompression: true,
    globalDecompression: false,
    encodings: ['br', 'gzip'],
  });
  if (guard) f.addHook('onSend', guardCompressionSniff);
  const send = (type: string, body: () => unknown) => (_req: unknown, reply: FastifyReply) =>
    reply.type(type).send(body());
  f.get(
    '/buffer',
    send('text/plain; charset=utf-8', () => ZLIB_LOOKING),
  );
  f.get(
    '/string',
    send('text/plain; charset=utf-8', () => TEXT_LOOKING),
  );
  f.get(
    '/plain',
    send('text/plain; charset=utf-8', () => PLAIN_TEXT),
  );
  // a stream whose first chunk is one byte: the guard must look past it, as the plugin does
  f.get(
    '/stream',
    send('text/plain; charset=utf-8', () =>
      Readable.from([ZLIB_LOOKING.subarray(0, 1), ZLIB_LOOKING.subarray(1)]),
    ),
  );
  f.get(
    '/stream-plain',
    send('text/plain; charset=utf-8', () => Readable.from([Buffer.from(PLAIN_TEXT)])),
  );
  f.get(
    '/tiny-stream',
    send('text/plain; charset=utf-8', () => Readable.from([Buffer.from([0x78])])),
  );
  f.get(
    '/tile',
    send('application/octet-stream', () => Readable.from([Buffer.from(PLAIN_TEXT)])),
  );
  app = f;
  return f;
}

/** The body as the client decodes it by its Content-Encoding (br or none). */
async function fetchDecoded(
  f: FastifyInstance,
  url: string,
): Promise<{ encoding: string | undefined; body: Buffer }> {
  const res = await f.inject({ url, headers: { 'accept-encoding': 'br' } });
  expect(res.statusCode).toBe(200);
  const encoding = res.headers['content-encoding'] as string | undefined;
  return { encoding, body: encoding === 'br' ? brotliDecompressSync(res.rawPayload) : res.rawPayload };
}

describe('looksCompressed', () => {
  it('matches gzip magic and zlib headers as @fastify/compress does, and nothing shorter than a header', () => {
    expect(looksCompressed(Buffer.from([0x1f, 0x8b, 0x08, 0]))).toBe(true);
    for (const flg of [0x01, 0x5e, 0x9c, 0xda]) expect(looksCompressed(Buffer.from([0x78, flg]))).toBe(true);
    expect(looksCompressed(Buffer.from('80'))).toBe(true);
    expect(looksCompressed(Buffer.from('<!DOCTYPE html>'))).toBe(false);
    expect(looksCompressed(Buffer.from('{"code":200}'))).toBe(false);
    expect(looksCompressed(Buffer.from([0x78]))).toBe(false);
    // a high CINFO bit is not a zlib header
    expect(looksCompressed(Buffer.from([0xf8, 0x00]))).toBe(false);
  });
});

describe('guardCompressionSniff', () => {
  it('is needed: without it, the plugin labels raw zlib-looking bytes as br', async () => {
    const f = await server(false);
    const res = await f.inject({ url: '/buffer', headers: { 'accept-encoding': 'br' } });
    expect(res.headers['content-encoding']).toBe('br');
    expect(() => brotliDecompressSync(res.rawPayload)).toThrow();
  });

  it('sends zlib-looking strings, Buffers and streams as they are, without Content-Encoding', async () => {
    const f = await server();
    for (const [url, expected] of [
      ['/buffer', ZLIB_LOOKING],
      ['/string', Buffer.from(TEXT_LOOKING)],
      ['/stream', ZLIB_LOOKING],
      ['/tiny-stream', Buffer.from([0x78])],
    ] as const) {
      const { encoding, body } = await fetchDecoded(f, url);
      expect(encoding, url).toBeUndefined();
      expect(body.equals(expected), url).toBe(true);
    }
  });

  it('leaves octet-stream answers uncompressed and every other answer compressed', async () => {
    const f = await server();
    const tile = await fetchDecoded(f, '/tile');
    expect(tile.encoding).toBeUndefined();
    expect(tile.body.toString()).toBe(PLAIN_TEXT);
    for (const url of ['/plain', '/stream-plain']) {
      const { encoding, body } = await fetchDecoded(f, url);
      expect(encoding, url).toBe('br');
      expect(body.toString(), url).toBe(PLAIN_TEXT);
    }
  });
});
