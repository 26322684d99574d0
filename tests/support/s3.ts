/**
 * A local S3-compatible server for the object-storage tests (decision 040): s3rver (tests only) on a loopback
 * port with a temp directory and one bucket, and the S3StorageConfig that reaches it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3StorageConfig } from '../../platform/files/s3-storage.ts';

/** A started s3rver with `bucket`, and how to stop it. */
export async function startS3(
  bucket = 'cunzheng-test',
): Promise<{ config: S3StorageConfig; env(prefix: string): Record<string, string>; stop(): Promise<void> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cz-s3-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: dir,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    /** The platform's environment for this store under `prefix` (STORAGE_URL and S3_*, platform/config-storage.ts). */
    env: (prefix: string) => ({
      STORAGE_URL: `s3://${bucket}/${prefix}`,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: '1',
      S3_SSE: 'none',
    }),
    config: {
      bucket,
      prefix: 'cz/',
      endpoint,
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
      sse: null,
    },
    async stop() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
