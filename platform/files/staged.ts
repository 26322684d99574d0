/**
 * Files stored inside a database transaction (docs/decisions/016-files-and-services.md: no row without its file, no
 * file without its row). The caller inserts the row, then `put`s the temp file under a fresh key; when the
 * transaction fails, `discard()` deletes every object put so far. Used where one decision stores several files
 * (KYC images, issued invoices).
 */
import { randomCrockford } from '../core/crypto.ts';
import type { FileBucket } from './storage.ts';

/** A fresh object key of the buckets' shape `xx/NAME` (2 + 26 Crockford base-32 characters, 130 random bits). */
export function newObjectKey(): string {
  return `${randomCrockford(2)}/${randomCrockford(26)}`;
}

/** The objects one transaction has put into `bucket`, to delete if it fails. */
export class StagedPuts {
  private readonly keys: string[] = [];
  private readonly bucket: FileBucket;

  constructor(bucket: FileBucket) {
    this.bucket = bucket;
  }

  /** Moves the temp file at `tempPath` to `key` and remembers it. @throws what the bucket throws */
  async put(tempPath: string, key: string): Promise<void> {
    await this.bucket.putFile(tempPath, key);
    this.keys.push(key);
  }

  /** Deletes every object put so far (best effort: a failed delete leaves an orphan, never a broken row). */
  async discard(): Promise<void> {
    await Promise.all(this.keys.map((key) => this.bucket.delete(key).catch(() => undefined)));
  }
}
