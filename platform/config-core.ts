/**
 * The platform's own variables (docs/decisions/002-platform.md, 025-secrets-sms.md, 029-signed-certificates.md,
 * 045-job-queue.md): its database, tokens, password cost, test hooks, demo account, signing keys and jobs; and the
 * standalone entry's listen address. Composed into platform/config.ts.
 */
import { envGroup, envVar } from '../lib/config-schema.ts';
import { flag, integer, text } from '../lib/config-types.ts';

/** Lowest scrypt N a production start accepts (2^14). */
export const MIN_PRODUCTION_SCRYPT_N = 2 ** 14;

const path = (description: string, defaultText: string) => envVar(text(), { description, defaultText });

/** The platform's database, security and test settings. */
export const PlatformVars = envGroup({
  id: 'platform',
  title: 'Platform',
  summary:
    'The platform API: its database, login tokens, password hashing, signing keys, recurring jobs, and the test-only switches a production start refuses.',
  vars: {
    DATABASE_URL: envVar(
      text({
        pattern: /^postgres(ql)?:\/\//,
        patternError: 'must be a postgres:// or postgresql:// URL (leave unset for SQLite under DATA_DIR)',
      }),
      {
        description: 'PostgreSQL connection URL; unset: SQLite at DATA_DIR/cunzheng.sqlite',
        secret: true,
        defaultText: 'SQLite under DATA_DIR',
      },
    ),
    TOKEN_TTL_SECONDS: envVar(integer({ min: 60, default: 86_400 }), {
      description: 'lifetime of a login token, seconds',
    }),
    SCRYPT_N: envVar(
      integer({ min: 2, max: 2 ** 24, default: 2 ** 15 }).refine(
        (n) => n === undefined || (n & (n - 1)) === 0,
        'must be a power of two',
      ),
      {
        description: 'scrypt CPU/memory cost of password hashes (a power of two)',
        production: {
          refuse: (n) => typeof n === 'number' && n < MIN_PRODUCTION_SCRYPT_N,
          why: `below ${MIN_PRODUCTION_SCRYPT_N} is only allowed outside production`,
        },
      },
    ),
    SCRYPT_R: envVar(integer({ min: 1, max: 64, default: 8 }), { description: 'scrypt block size' }),
    SCRYPT_P: envVar(integer({ min: 1, max: 16, default: 1 }), { description: 'scrypt parallelism' }),
    DOWNLOAD_URL_TTL_SECONDS: envVar(integer({ min: 1, max: 7 * 86_400, default: 600 }), {
      description: 'lifetime of a signed download URL, seconds',
    }),
    SEED_DEMO: envVar(flag(), {
      description: '1 creates the verified demo account 13800138000 on start (even in production), 0 never',
      defaultText: 'seeded with APP_ENV development/test, or APP_ENV unset and sandbox providers only',
    }),
    DEMO_PASSWORD: envVar(text({ default: 'demo1234', max: 64 }), {
      description: "the demo account's initial password (never logged)",
      secret: true,
    }),
    API_KEYS_KEY_FILE: path(
      "the 256-bit key sealing enterprises' SecurityKeys for open-API signatures; keep it out of database backups",
      'DATA_DIR/keys/api-keys.key (created)',
    ),
    DOCUMENT_SIGNING_PEM_FILE: path(
      'PEM bundle (PKCS#8 key, signer certificate, issuers) that signs certificate PDFs (PAdES)',
      'a local CA generated in DATA_DIR/keys',
    ),
    NOTARY_SIGNING_PEM_FILE: path(
      "the notary office's PEM bundle that signs notarial certificates",
      'a local CA generated in DATA_DIR/keys/notary-signing.pem',
    ),
    PLATFORM_JOBS: envVar(flag(true), {
      description: 'work the recurring jobs (face polling, payment reconciliation) in this process',
    }),
    TEST_HOOKS: envVar(flag(false), {
      description: 'test only: registers the /api/__test/* routes (captcha answers, token expiry, …)',
      production: { refuse: (v) => v === true, why: 'a production start refuses to enable test hooks' },
    }),
    SANDBOX_RESUME_DELAY_MS: envVar(integer({ min: 0, max: 600_000 }), {
      description:
        "test only, with TEST_HOOKS: the payment sandboxes' delay before re-sending a notification, milliseconds",
      defaultText: "the sandboxes' own",
    }),
  },
});

/** Where the standalone platform (platform/main.ts) listens. */
export const StandaloneVars = envGroup({
  id: 'standalone',
  title: 'Standalone platform',
  summary:
    'Where `npm run start:platform` listens; the embedded platform listens on a free loopback port instead.',
  vars: {
    PLATFORM_HOST: envVar(text({ default: '127.0.0.1' }), { description: 'listen address' }),
    PLATFORM_PORT: envVar(integer({ min: 0, max: 65_535, default: 3001 }), { description: 'listen port' }),
  },
});
