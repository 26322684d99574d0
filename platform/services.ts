/**
 * The services plugin: opens and migrates the database, prepares the data directories, the file storage, the SMS
 * provider and the URL signer, and decorates the Fastify instance with them (`app.config`, `app.pdb`, `app.files`,
 * `app.storage`, `app.sms`, `app.downloads`, `app.tmpDir`, `app.treeHeads`), and registers the evidence events'
 * internal take call (events/plugin.ts). Closing the app closes the database.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { OutboxSmsProvider, type SmsProvider } from './account/sms.ts';
import type { PlatformConfig } from './config.ts';
import { readOrCreateKeyFile } from './core/key-file.ts';
import { ApiKeySealer, apiKeysKeyPath } from './open-api/sealed-keys.ts';
import { ensurePrivateDir, restrictNewFiles } from '../lib/private-files.ts';
import { migrateToLatest, openDatabase, type PlatformDb } from './db/database.ts';
import { DownloadSigner } from './evidence/download.ts';
import { eventsPlugin } from './events/plugin.ts';
import { FileService } from './files/service.ts';
import { startSha256Thread } from './files/sha256-thread.ts';
import { LocalFileStorage, type FileBucket, type FileStorage } from './files/storage.ts';
import { startTempSweeper, sweepStaleTemp } from './files/temp.ts';
import { LedgerSigner, TreeHeads } from './ledger/signer.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: PlatformConfig;
    pdb: PlatformDb;
    /** The file storage of every bucket, the temp area and the multipart intake (files/service.ts). */
    files: FileService;
    /** The evidence bucket, `app.files.bucket('evidence')`. */
    storage: FileBucket;
    sms: SmsProvider;
    /** The URL signer: signed file URLs (files/signer.ts) and the evidence downloads (evidence/download.ts). */
    downloads: DownloadSigner;
    /** Directory of in-flight uploads, `${dataDir}/tmp`. */
    tmpDir: string;
    /** The key the gateway's jobs present on `/api/internal/*` (INTERNAL_API_KEY or `${dataDir}/keys/internal.key`). */
    internalKey: string;
    /** Seals SecurityKeys for the open API's signature checks (open-api/sealed-keys.ts; API_KEYS_KEY_FILE). */
    apiKeys: ApiKeySealer;
    /**
     * The ledger's signed tree heads (ledger/signer.ts), one per process so that its cache is shared: the ledger's
     * routes and the certificate view (`getView?sth=1`).
     */
    treeHeads: TreeHeads;
  }
}

/** Path of the generated internal API key under `dataDir` (an embedded gateway reads it). */
export function internalKeyPath(dataDir: string): string {
  return path.join(dataDir, 'keys', 'internal.key');
}

/** Reads `${dataDir}/keys/internal.key`, creating it (0600, 64 hex) on first start. */
async function internalKeyFile(dataDir: string): Promise<string> {
  const key = await readOrCreateKeyFile(internalKeyPath(dataDir), () => randomBytes(32).toString('hex'));
  return key.trim();
}

/** Options of {@link servicesPlugin}: the config, and optional replacements (a real SMS provider, S3 storage). */
export interface ServicesOptions {
  config: PlatformConfig;
  sms?: SmsProvider;
  /** The store of every bucket; default: directories under DATA_DIR (files/storage.ts). */
  storage?: FileStorage;
}

/**
 * Registers the services (see the module comment). Encapsulation is skipped (fastify-plugin) so every later plugin
 * sees the decorations. @throws when the database cannot be opened or migrated, or DATA_DIR is not writable
 */
export const servicesPlugin = fp(
  async (app: FastifyInstance, opts: ServicesOptions) => {
    const { config } = opts;
    const tmpDir = path.join(config.dataDir, 'tmp');
    // Data at rest is owner-only: 0700 folders, 0600 files from here on (core/private-files.ts).
    restrictNewFiles();
    ensurePrivateDir(config.dataDir);
    ensurePrivateDir(tmpDir);
    const swept = await sweepStaleTemp(tmpDir);
    if (swept) app.log.warn({ swept }, 'removed orphan temp uploads');
    const stopSweeper = startTempSweeper(tmpDir, (n) =>
      app.log.warn({ swept: n }, 'removed orphan temp uploads'),
    );
    app.addHook('onClose', async () => stopSweeper());

    const pdb = openDatabase(config.database, (err) =>
      app.log.warn({ err }, 'idle database connection failed'),
    );
    app.addHook('onClose', async () => pdb.close());
    await migrateToLatest(pdb);

    app.decorate('config', config);
    app.decorate('pdb', pdb);
    app.decorate('tmpDir', tmpDir);
    startSha256Thread(); // uploads hash on it (files/sha256-thread.ts)
    // The AWS SDK and Tencent Cloud's SMS SDK are loaded only when configured (~9 MB of heap; decision 056).
    const s3 =
      !opts.storage && config.storage
        ? new (await import('./files/s3-storage.ts')).S3FileStorage(config.storage)
        : null;
    if (s3) app.addHook('onClose', async () => s3.destroy());
    const files = new FileService(opts.storage ?? s3 ?? new LocalFileStorage(config.dataDir), tmpDir);
    app.decorate('files', files);
    app.decorate('storage', files.bucket('evidence'));
    app.decorate(
      'sms',
      opts.sms ??
        (config.sms.tencent
          ? new (await import('./account/sms-tencent.ts')).TencentSmsProvider(config.sms.tencent)
          : new OutboxSmsProvider(config.dataDir, app.log, config.sms.logCodes)),
    );
    app.decorate('downloads', await DownloadSigner.open(config.dataDir));
    app.decorate('internalKey', config.internalApiKey ?? (await internalKeyFile(config.dataDir)));
    app.decorate('apiKeys', await ApiKeySealer.open(config.apiKeysKeyFile ?? apiKeysKeyPath(config.dataDir)));
    app.decorate(
      'treeHeads',
      new TreeHeads(pdb.db, await LedgerSigner.open(config.dataDir, config.ledgerOrigin)),
    );
    // the evidence events' take call for the gateway's consumers (events/plugin.ts; decision 059)
    await app.register(eventsPlugin);
    app.log.info({ dialect: pdb.dialect, dataDir: config.dataDir }, 'platform database ready');
  },
  { name: 'cunzheng-services' },
);
