/**
 * Key files created once under DATA_DIR (the ledger signing key, the internal API key, the Alipay sandbox keys).
 */
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';

/**
 * Reads `file` as UTF-8, creating it first when it is missing: `make()` gives the content, which is written to a
 * temp file (mode 0600) and hard-linked into place. When two processes start together both end up reading the
 * same content, and nobody reads a half-written file. The directory is created with mode 0700.
 * @throws what the file system throws, except the EEXIST of losing the creation race
 */
export async function readOrCreateKeyFile(
  file: string,
  make: () => string | Promise<string>,
): Promise<string> {
  await fsp.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const existing = await fsp.readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
  if (existing !== null) return existing;
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await fsp.writeFile(tmp, await make(), { flag: 'wx', mode: 0o600 });
  try {
    await fsp.link(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await fsp.rm(tmp, { force: true });
  }
  return fsp.readFile(file, 'utf8');
}
