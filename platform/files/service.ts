/**
 * The files service decorated on the platform as `app.files` (decision 016): the one {@link FileStorage} of every
 * bucket, the temp area of uploads and the multipart intake bound to it. A new area stores its files in a bucket of
 * {@link BUCKETS}, receives uploads with {@link FileService.receive} and serves private files with
 * files/signed-files.ts; it never opens a directory or parses multipart itself.
 */
import type { FastifyRequest } from 'fastify';
import { receiveMultipart, type Intake, type IntakeOptions } from './intake.ts';
import type { BucketName, FileBucket, FileStorage } from './storage.ts';

/** See the module comment. */
export class FileService {
  readonly storage: FileStorage;
  readonly tmpDir: string;
  /**
   * @param storage the store of every bucket (local directories, or S3-compatible)
   * @param tmpDir the temp area of uploads, `${dataDir}/tmp`
   */
  constructor(storage: FileStorage, tmpDir: string) {
    this.storage = storage;
    this.tmpDir = tmpDir;
  }

  /** The bucket `name` of the store. */
  bucket(name: BucketName): FileBucket {
    return this.storage.bucket(name);
  }

  /**
   * Reads the multipart body of `request` into the temp area (files/intake.ts).
   * @throws ApiError 413 `opts.tooLarge`, ApiError 400 on a cut-off body, or the errors of @fastify/multipart
   */
  receive(request: FastifyRequest, opts: IntakeOptions): Promise<Intake> {
    return receiveMultipart(request, this.tmpDir, opts);
  }
}
