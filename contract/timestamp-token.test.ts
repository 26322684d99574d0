/**
 * RFC 3161 tokens against a local TSA (OpenSSL's `ts -reply`): a request for some data is answered with a token that
 * our check accepts (imprint, signature, time-stamping certificate chaining to the TSA's CA) and that `openssl ts
 * -verify` accepts too; other data, another CA, a changed byte or a reply to another nonce are refused.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalTsa, type LocalTsa } from '../tests/support/local-tsa.ts';
import {
  certificatesOfPem,
  checkTimestampToken,
  readTimestampReply,
  timestampRequest,
} from './timestamp-token.ts';

const u8 = (b: Buffer) =>
  new Uint8Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer);

describe('RFC 3161 time-stamp tokens', () => {
  let tsa: LocalTsa;
  beforeAll(async () => {
    tsa = await startLocalTsa();
  });
  afterAll(async () => {
    await tsa.close();
  });

  const ask = async (data: Uint8Array<ArrayBuffer>, nonce: Uint8Array<ArrayBuffer>) => {
    const res = await fetch(tsa.url, {
      method: 'POST',
      headers: { 'content-type': 'application/timestamp-query' },
      body: await timestampRequest(data, nonce),
    });
    expect(res.headers.get('content-type')).toBe('application/timestamp-reply');
    return new Uint8Array(await res.arrayBuffer());
  };

  it('a token of the local TSA verifies here and with openssl ts -verify; other data, CA or bytes do not', async () => {
    const data = u8(Buffer.from('example.com/ledger\n5\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n'));
    const nonce = u8(randomBytes(16));
    const trusted = certificatesOfPem(tsa.caPem);
    const before = Date.now();
    const reply = await readTimestampReply(await ask(data, nonce), data, nonce, trusted);
    expect(reply).toMatchObject({ ok: true, tsa: 'Cunzheng Test TSA', policy: '1.2.3.4.1' });
    if (!reply.ok) return;
    expect(Math.abs(reply.genTime.getTime() - before)).toBeLessThan(60_000);

    const dataFile = path.join(tsa.dir, 'data.txt');
    const tokenFile = path.join(tsa.dir, 'token.der');
    fs.writeFileSync(dataFile, data);
    fs.writeFileSync(tokenFile, reply.token);
    const verify = () =>
      execFileSync(
        'openssl',
        ['ts', '-verify', '-data', dataFile, '-in', tokenFile, '-token_in', '-CAfile', tsa.caFile],
        {
          stdio: 'pipe',
        },
      ).toString();
    expect(verify()).toContain('Verification: OK');

    const other = u8(Buffer.from('another checkpoint\n'));
    expect(await checkTimestampToken(reply.token, other, trusted)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('imprint'),
    });
    fs.writeFileSync(dataFile, other);
    expect(verify).toThrow();

    const foreign = await startLocalTsa();
    try {
      expect(await checkTimestampToken(reply.token, data, certificatesOfPem(foreign.caPem))).toMatchObject({
        ok: false,
        reason: expect.stringContaining('chain'),
      });
    } finally {
      await foreign.close();
    }
    const bent = new Uint8Array(reply.token);
    bent[bent.length - 5]! ^= 0x01;
    expect((await checkTimestampToken(bent, data, trusted)).ok).toBe(false);
    expect(
      await readTimestampReply(await ask(data, nonce), data, u8(randomBytes(16)), trusted),
    ).toMatchObject({
      ok: false,
      reason: expect.stringContaining('nonce'),
    });
  });

  it('a nonce starting with zero bytes is still a minimal DER INTEGER the TSA accepts', async () => {
    const data = u8(Buffer.from('zero nonce\n'));
    const nonce = u8(Buffer.alloc(16));
    const req = path.join(tsa.dir, 'zero.tsq');
    fs.writeFileSync(req, await timestampRequest(data, nonce));
    expect(
      execFileSync('openssl', ['ts', '-query', '-in', req, '-text'], { stdio: 'pipe' }).toString(),
    ).toContain('Nonce');
    expect(
      (await readTimestampReply(await ask(data, nonce), data, nonce, certificatesOfPem(tsa.caPem))).ok,
    ).toBe(true);
  });
});
