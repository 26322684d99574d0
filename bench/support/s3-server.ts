/**
 * Entry of the local S3-compatible server as a process of its own (`bench/support/scale-processes.ts`
 * startS3Process): s3rver from tests/support/s3.ts with the bucket named by argv[2], its S3StorageConfig written to
 * stdout as one JSON line once it listens; SIGTERM stops it and removes its directory.
 */
import { startS3 } from '../../tests/support/s3.ts';

const s3 = await startS3(process.argv[2]);
process.stdout.write(`${JSON.stringify(s3.config)}\n`);
process.once('SIGTERM', () => {
  void s3.stop().finally(() => process.exit(0));
});
