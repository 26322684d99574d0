/**
 * The RFC 3161 Time-Stamp Authority that stamps the ledger's checkpoints (TSA_*; docs/decisions/035-checkpoints.md),
 * composed into platform/config.ts.
 */
import { envGroup, envVar, type EnvValues } from '../lib/config-schema.ts';
import { integer, textFile, url } from '../lib/config-types.ts';

/** TSA_URL, TSA_CERT_FILE, TSA_INTERVAL_SECONDS. */
export const TsaVars = envGroup({
  id: 'tsa',
  title: 'Time-stamp authority',
  summary: "An RFC 3161 TSA that stamps the ledger's checkpoints; none by default.",
  vars: {
    TSA_URL: envVar(url(), { description: "the TSA's URL; unset: checkpoints are not stamped" }),
    TSA_CERT_FILE: envVar(textFile('TSA_CERT_FILE'), {
      description: "PEM certificates the TSA's tokens must chain to; unset: the certificate a token carries",
    }),
    TSA_INTERVAL_SECONDS: envVar(integer({ min: 1, max: 7 * 86_400, default: 3600 }), {
      description: 'at most how often a checkpoint is stamped, seconds',
    }),
  },
});

/** The TSA settings, or null when TSA_URL is unset: its URL, the trusted PEM (or null) and the interval (seconds). */
export function tsaOf(
  e: EnvValues<typeof TsaVars.vars>,
): { url: string; trustedPem: string | null; intervalSeconds: number } | null {
  return e.TSA_URL
    ? { url: e.TSA_URL, trustedPem: e.TSA_CERT_FILE?.text ?? null, intervalSeconds: e.TSA_INTERVAL_SECONDS }
    : null;
}
