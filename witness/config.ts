/**
 * The witness's configuration (`npm run witness`, witness/main.ts; docs/decisions/050-configuration.md): its
 * variables, parsed once at the entry point into a frozen {@link WitnessConfig}. A bad or missing value stops the
 * start with one message listing every problem (lib/config-schema.ts).
 */
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { parseVerifierKey, type NoteVerifier } from '../contract/signed-note.ts';
import {
  deepFreeze,
  envGroup,
  envVar,
  parseEnvironment,
  processEnvironment,
  type Environment,
} from '../lib/config-schema.ts';
import { LogVars, type LogFormat, type LogLevel } from '../lib/config-shared.ts';
import { integer, text } from '../lib/config-types.ts';

/** WITNESS_LOGS parsed: the note verifier keys of the logs, at least one. */
const logKeys = z
  .string()
  .optional()
  .transform((v, ctx): NoteVerifier[] | undefined => {
    if (v === undefined) return undefined;
    const keys = v
      .split(/[,\n]/)
      .map((s) => s.trim())
      .filter(Boolean);
    if (keys.length === 0) {
      ctx.addIssue({ code: 'custom', message: 'must name at least one log verifier key' });
      return z.NEVER;
    }
    const verifiers: NoteVerifier[] = [];
    for (const key of keys) {
      const verifier = parseVerifierKey(key);
      if (verifier) verifiers.push(verifier);
      else ctx.addIssue({ code: 'custom', message: `not a note verifier key: ${key}` });
    }
    return verifiers.length === keys.length ? verifiers : z.NEVER;
  });

/** WITNESS_*, and where it listens. */
export const WitnessVars = envGroup({
  id: 'witness',
  title: 'Witness',
  summary:
    'A local transparency-log witness (`npm run witness`, c2sp.org/tlog-witness) with its own environment: the logs it cosigns, its key name and state, where it listens.',
  vars: {
    WITNESS_LOGS: envVar(logKeys, {
      description: 'the note verifier keys of the logs to witness, comma- or newline-separated',
      required: true,
      showValue: false,
      defaultText: 'none',
    }),
    WITNESS_NAME: envVar(text({ max: 200 }), {
      description: "the witness's key name",
      defaultText: 'witness.local/<host name>',
    }),
    WITNESS_DIR: envVar(text({ default: './data/witness' }), {
      description: 'its key and state; a directory no one else writes',
    }),
    PORT: envVar(integer({ min: 0, max: 65_535, default: 3300 }), {
      description: 'listen port (0: any free port)',
    }),
    HOST: envVar(text({ default: '127.0.0.1' }), { description: 'listen address' }),
  },
});

/** The groups the witness reads. */
export const WITNESS_GROUPS = [WitnessVars, LogVars] as const;

/** What the witness runs with. */
export interface WitnessConfig {
  /** The logs it cosigns. */
  logs: NoteVerifier[];
  /** Its key name. */
  name: string;
  /** Absolute directory of its key and state. */
  dir: string;
  port: number;
  host: string;
  logLevel: LogLevel;
  logFormat: LogFormat | undefined;
}

/** The witness's configuration of `env` (a test's). @throws ConfigError listing every problem */
export function loadWitnessConfig(env: Environment): WitnessConfig {
  const e = parseEnvironment(WITNESS_GROUPS, env).values;
  return deepFreeze({
    logs: e.WITNESS_LOGS!, // required: parseEnvironment refuses it unset
    name: e.WITNESS_NAME ?? `witness.local/${os.hostname()}`,
    dir: path.resolve(e.WITNESS_DIR),
    port: e.PORT,
    host: e.HOST,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
  });
}

/** The witness's configuration of this process's environment, read once. @throws ConfigError */
export function readWitnessConfig(): WitnessConfig {
  return loadWitnessConfig(processEnvironment());
}
