/**
 * SHA-256 on the hashing thread (platform/files/sha256-thread.ts): the same digest node:crypto gives for the same
 * bytes in any chunking, streams interleaved, an abandoned stream forgotten, and a fast feeder held back once
 * MAX_IN_FLIGHT_BYTES wait to be hashed.
 */
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_IN_FLIGHT_BYTES, OffThreadSha256 } from './sha256-thread.ts';

const hex = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** Feeds `chunks` in order, each after the last one's `ready`; resolves with how many `ready`s came later. */
function feed(sha: OffThreadSha256, chunks: Uint8Array[]): Promise<number> {
  return new Promise((resolve, reject) => {
    let deferred = 0;
    const next = (i: number) => {
      if (i === chunks.length) return resolve(deferred);
      let sync = true;
      sha.update(chunks[i]!, (err) => {
        if (err) return reject(err);
        if (!sync) deferred++;
        next(i + 1);
      });
      sync = false;
    };
    next(0);
  });
}

/** `bytes` cut at random points into chunks of 0 to 100 KiB. */
function chunked(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length;) {
    const n = Math.floor(Math.random() * 100 * 1024);
    out.push(bytes.subarray(at, at + n));
    at += n;
  }
  return out;
}

describe('SHA-256 on the hashing thread', () => {
  it('gives the digest of the bytes, whatever the chunking, for streams side by side', async () => {
    const inputs = [
      Buffer.alloc(0),
      Buffer.from('证据'),
      randomBytes(3 * 1024 * 1024 + 17),
      randomBytes(200_000),
    ];
    const results = await Promise.all(
      inputs.map(async (bytes) => {
        const sha = new OffThreadSha256();
        await feed(sha, [Buffer.alloc(0), ...chunked(bytes)]);
        return sha.digest();
      }),
    );
    expect(results).toEqual(inputs.map(hex));
    // the caller's buffers are left as they were (the worker hashed copies)
    expect(hex(inputs[2]!)).toBe(results[2]);
  });

  it('holds a feeder that outruns it, and still hashes every byte', async () => {
    const chunk = randomBytes(256 * 1024);
    const chunks = Array.from({ length: (4 * MAX_IN_FLIGHT_BYTES) / chunk.length }, () => chunk);
    const sha = new OffThreadSha256();
    const deferred = await feed(sha, chunks);
    expect(deferred).toBeGreaterThan(0);
    const whole = createHash('sha256');
    for (const c of chunks) whole.update(c);
    expect(await sha.digest()).toBe(whole.digest('hex'));
  });

  it('forgets a dropped stream; others go on', async () => {
    const dropped = new OffThreadSha256();
    const kept = new OffThreadSha256();
    const bytes = randomBytes(100_000);
    await feed(dropped, [bytes]);
    await feed(kept, [bytes]);
    dropped.drop();
    dropped.drop();
    await expect(dropped.digest()).rejects.toThrow(/dropped/);
    expect(await kept.digest()).toBe(hex(bytes));
    await expect(kept.digest()).rejects.toThrow(/already/);
  });
});
