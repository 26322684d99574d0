/**
 * The RFC 3161 part of the platform configuration (TSA_CERT_FILE; decision 035), read by platform/config.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from './config-error.ts';

/** TSA_CERT_FILE's PEM text, or null when unset. @throws ConfigError when it cannot be read */
export function readTsaCerts(file: string | undefined): string | null {
  if (!file) return null;
  try {
    return readFileSync(path.resolve(file), 'utf8');
  } catch (err) {
    throw new ConfigError(
      `Invalid platform configuration: TSA_CERT_FILE cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    );
  }
}
