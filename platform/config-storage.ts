/**
 * Where the platform keeps files (docs/decisions/016-files-and-services.md): STORAGE_URL unset or `file://` — the
 * local directories under DATA_DIR (files/storage.ts); `s3://bucket/prefix` — an S3-compatible store
 * (files/s3-storage.ts) reached with S3_ENDPOINT (unset: AWS), S3_REGION, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY
 * (or `_FILE`; unset: the SDK's default chain), S3_FORCE_PATH_STYLE (1 for MinIO-style endpoints) and S3_SSE
 * (server-side encryption asked for on every object: AES256 by default, `aws:kms`, or `none`). Composed into
 * platform/config.ts.
 */
import { z } from 'zod';
import {
  envGroup,
  envVar,
  parseEnvironment,
  type EnvValues,
  type Environment,
} from '../lib/config-schema.ts';
import { flag, oneOf, text, url } from '../lib/config-types.ts';
import type { S3StorageConfig } from './files/s3-storage.ts';

export type { S3StorageConfig } from './files/s3-storage.ts';

/** STORAGE_URL parsed: the bucket and key prefix of an S3 store, or null for the local directories. */
const storageUrl = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const s = v?.trim();
    if (!s || s.startsWith('file://')) return null;
    const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(s);
    if (!m) {
      ctx.addIssue({ code: 'custom', message: 'must be file://… or s3://bucket/prefix' });
      return z.NEVER;
    }
    const prefix = (m[2] ?? '').replace(/^\/+|\/+$/g, '');
    return { bucket: m[1]!, prefix: prefix ? `${prefix}/` : '' };
  });

/** STORAGE_URL and S3_*. */
export const StorageVars = envGroup({
  id: 'storage',
  title: 'File storage',
  summary:
    'Every file (evidence, KYC images, seals, invoices, signed documents) in the DATA_DIR directories, or in an S3-compatible store (OSS, COS, MinIO, AWS).',
  vars: {
    STORAGE_URL: envVar(storageUrl, {
      description:
        's3://bucket/prefix keeps every file in an S3-compatible store; file://… or unset: DATA_DIR',
      defaultText: 'DATA_DIR directories',
    }),
    S3_ENDPOINT: envVar(url(), { description: "the store's endpoint", defaultText: 'AWS' }),
    S3_REGION: envVar(text({ default: 'us-east-1' }), { description: "the store's region" }),
    S3_ACCESS_KEY_ID: envVar(text(), {
      description: 'access key id, with S3_SECRET_ACCESS_KEY',
      secret: true,
      defaultText: "the SDK's default chain",
    }),
    S3_SECRET_ACCESS_KEY: envVar(text(), {
      description: 'secret access key, with S3_ACCESS_KEY_ID',
      secret: true,
      defaultText: "the SDK's default chain",
    }),
    S3_FORCE_PATH_STYLE: envVar(flag(false), { description: '1 for MinIO-style (path) addressing' }),
    S3_SSE: envVar(oneOf(['AES256', 'aws:kms', 'none'], { default: 'AES256' }), {
      description: 'server-side encryption asked for on every object; none for stores without it',
    }),
  },
  checks: [
    {
      vars: ['STORAGE_URL', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'],
      problems: (v) =>
        v.STORAGE_URL && (v.S3_ACCESS_KEY_ID === undefined) !== (v.S3_SECRET_ACCESS_KEY === undefined)
          ? ['S3_ACCESS_KEY_ID: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY together']
          : [],
    },
  ],
});

/** The S3 store of the parsed storage variables, or null for the local directories. */
export function storageOf(e: EnvValues<typeof StorageVars.vars>): S3StorageConfig | null {
  if (!e.STORAGE_URL) return null;
  return {
    ...e.STORAGE_URL,
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION,
    accessKeyId: e.S3_ACCESS_KEY_ID,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
    sse: e.S3_SSE === 'none' ? null : e.S3_SSE,
  };
}

/**
 * The S3 store `env` names, or null for the local directories (the storage variables alone; a test's own env).
 * @throws ConfigError on a STORAGE_URL that is neither `file://…` nor `s3://bucket[/prefix]`, or a bad S3_* value
 */
export function storageConfig(env: Environment): S3StorageConfig | null {
  return storageOf(parseEnvironment([StorageVars], env).values);
}
