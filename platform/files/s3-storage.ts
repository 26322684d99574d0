/**
 * Object storage in any S3-compatible store (decision 040: Alibaba OSS, Tencent COS, MinIO, AWS) with the
 * official AWS SDK v3, behind the same FileStorage interface as the local directories (files/storage.ts): every
 * bucket of the platform (evidence, KYC images, seals, invoices, signed documents) is a prefix of one private S3
 * bucket, `${prefix}${bucket}/${key}`.
 *
 * - put: a multipart upload streamed while hashed (@aws-sdk/lib-storage, 8 MiB parts, never the whole file in
 *   memory); a failed stream aborts the multipart upload, so no object is left. Server-side encryption (SSE) is asked
 *   for on every object unless disabled.
 * - get: streamed, with an HTTP Range for byte ranges (the capture artefacts read ZIP entries in place).
 * - Configured by STORAGE_URL `s3://bucket/prefix` with S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID,
 *   S3_SECRET_ACCESS_KEY (or `_FILE`), S3_FORCE_PATH_STYLE, S3_SSE (platform/config.ts).
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { PassThrough, pipeline, type Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
  type ServerSideEncryption,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  BUCKETS,
  checkedKey,
  HashingCounter,
  type BucketName,
  type FileBucket,
  type FileStorage,
  type StoredObject,
} from './storage.ts';

/** Where and how to reach the store. */
export interface S3StorageConfig {
  bucket: string;
  /** Key prefix inside the bucket ('' or ending in '/'). */
  prefix: string;
  endpoint: string | undefined;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
  /** Server-side encryption asked for on every object ('AES256', 'aws:kms'), or null for none. */
  sse: ServerSideEncryption | null;
}

/** Bytes of one multipart part (S3's minimum is 5 MiB). */
const PART_BYTES = 8 * 1024 * 1024;

/** One platform bucket as a prefix of the S3 bucket. */
class S3Bucket implements FileBucket {
  private readonly client: S3Client;
  private readonly config: S3StorageConfig;
  private readonly dir: string;
  constructor(client: S3Client, config: S3StorageConfig, dir: string) {
    this.client = client;
    this.config = config;
    this.dir = dir;
  }

  /** The object key of `key`. @throws on a key outside the `xx/NAME` shape */
  private objectKey(key: string): string {
    return `${this.config.prefix}${this.dir}/${checkedKey(key)}`;
  }

  async put(key: string, source: Readable): Promise<StoredObject> {
    const counter = new HashingCounter();
    // the SDK reads a Body's `size` as its length: hand it a plain stream behind the counter (whose `size` grows)
    const body = new PassThrough();
    pipeline(source, counter, body, () => undefined); // an error of any stage destroys `body`, failing the upload
    const upload = new Upload({
      client: this.client,
      partSize: PART_BYTES,
      queueSize: 2,
      leavePartsOnError: false, // a failed upload is aborted: no object, no orphan parts
      params: {
        Bucket: this.config.bucket,
        Key: this.objectKey(key),
        Body: body,
        ...(this.config.sse ? { ServerSideEncryption: this.config.sse } : {}),
      },
    });
    await upload.done();
    return counter.result();
  }

  async putFile(tempPath: string, key: string): Promise<void> {
    await this.put(key, fs.createReadStream(tempPath));
    await fsp.rm(tempPath, { force: true });
  }

  get(key: string, range?: { start: number; end: number }): Readable {
    const out = new PassThrough();
    this.client
      .send(
        new GetObjectCommand({
          Bucket: this.config.bucket,
          Key: this.objectKey(key),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      )
      .then(
        (res) => {
          const body = res.Body as Readable;
          body.once('error', (err) => out.destroy(err));
          body.pipe(out);
        },
        (err: unknown) => out.destroy(err as Error),
      );
    return out;
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) }));
  }

  async size(key: string): Promise<number | null> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) }),
      );
      return head.ContentLength ?? null;
    } catch (err) {
      const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 404) return null;
      throw err;
    }
  }
}

/** Every platform bucket in one S3 bucket (see the module comment). */
export class S3FileStorage implements FileStorage {
  private readonly client: S3Client;
  private readonly buckets = new Map<BucketName, S3Bucket>();
  private readonly config: S3StorageConfig;

  constructor(config: S3StorageConfig) {
    this.config = config;
    this.client = new S3Client({
      region: config.region,
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      forcePathStyle: config.forcePathStyle,
      ...(config.accessKeyId && config.secretAccessKey
        ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } }
        : {}),
      // plain payload checksums only where S3 requires them: compatible stores (and s3rver in tests) do not all
      // understand the aws-chunked trailers the SDK would otherwise send
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  bucket(name: BucketName): S3Bucket {
    let b = this.buckets.get(name);
    if (!b) {
      b = new S3Bucket(this.client, this.config, BUCKETS[name]);
      this.buckets.set(name, b);
    }
    return b;
  }

  /** Closes the SDK's connections. */
  destroy(): void {
    this.client.destroy();
  }
}
