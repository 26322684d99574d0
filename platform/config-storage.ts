/**
 * Where the platform keeps files (decision 040): STORAGE_URL unset or `file://` — the local directories under
 * DATA_DIR (files/storage.ts); `s3://bucket/prefix` — an S3-compatible store (files/s3-storage.ts) reached with
 * S3_ENDPOINT (unset: AWS), S3_REGION (default us-east-1), S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (or `_FILE`;
 * unset: the SDK's default chain), S3_FORCE_PATH_STYLE (1 for MinIO-style endpoints) and S3_SSE (server-side
 * encryption asked for on every object: AES256 by default, `aws:kms`, or `none`).
 */
import { z } from 'zod';
import { ConfigError } from './config-error.ts';
import type { S3StorageConfig } from './files/s3-storage.ts';

export type { S3StorageConfig } from './files/s3-storage.ts';

const Schema = z.object({
  STORAGE_URL: z.string().trim().optional(),
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().trim().optional(),
  S3_SECRET_ACCESS_KEY: z.string().trim().optional(),
  S3_FORCE_PATH_STYLE: z.enum(['0', '1', 'true', 'false']).optional(),
  S3_SSE: z.enum(['AES256', 'aws:kms', 'none']).default('AES256'),
});

/**
 * The S3 store of `env`, or null for the local directories.
 * @throws ConfigError on a STORAGE_URL that is neither `file://…` nor `s3://bucket[/prefix]`, or a bad S3_* value
 */
export function storageConfig(env: Record<string, string | undefined>): S3StorageConfig | null {
  const blank = (v: string | undefined) => (v?.trim() ? v : undefined);
  const parsed = Schema.safeParse(
    Object.fromEntries(Object.keys(Schema.shape).map((k) => [k, blank(env[k])])),
  );
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid storage configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (!e.STORAGE_URL || e.STORAGE_URL.startsWith('file://')) return null;
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(e.STORAGE_URL);
  if (!m)
    throw new ConfigError(
      'Invalid storage configuration: STORAGE_URL must be file://… or s3://bucket/prefix',
    );
  const prefix = (m[2] ?? '').replace(/^\/+|\/+$/g, '');
  if ((e.S3_ACCESS_KEY_ID === undefined) !== (e.S3_SECRET_ACCESS_KEY === undefined)) {
    throw new ConfigError(
      'Invalid storage configuration: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY together',
    );
  }
  return {
    bucket: m[1]!,
    prefix: prefix ? `${prefix}/` : '',
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION,
    accessKeyId: e.S3_ACCESS_KEY_ID,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY,
    forcePathStyle: e.S3_FORCE_PATH_STYLE === '1' || e.S3_FORCE_PATH_STYLE === 'true',
    sse: e.S3_SSE === 'none' ? null : e.S3_SSE,
  };
}
