/**
 * The end-to-end servers' witnesses (playwright.config.ts; decision 035): each e2e server asks a local witness of its
 * own (`npm run witness`'s code) to cosign its checkpoints. The witness's key is made before the servers start
 * ({@link e2eWitnessKey}), so the server can be configured with it; the witness itself starts as a Playwright web
 * server running this file, which waits for its log to publish its verifier key and then witnesses that log, with a
 * fresh state (the log's database is fresh too).
 *
 * Env of the process: E2E_LOG_URL (the e2e server), WITNESS_DIR, WITNESS_NAME, PORT.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { cosignerVerifierKey } from '../../contract/cosignature.ts';
import { rawEd25519 } from '../../contract/note-signing.ts';
import { loadWitnessConfig } from '../../witness/config.ts';
import { childEnvironment, testSetting } from './environment.ts';

/** The witness key file under `dir` (witness/witness.ts reads it from there). */
const keyFile = (dir: string) => path.join(dir, 'witness-ed25519.pem');

/** Makes (once) the key of the witness in `dir` named `name`. @returns its verifier key */
export function e2eWitnessKey(dir: string, name: string): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!fs.existsSync(keyFile(dir))) {
    const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    fs.writeFileSync(keyFile(dir), pem, { mode: 0o600 });
  }
  const key = createPrivateKey(fs.readFileSync(keyFile(dir), 'utf8'));
  return cosignerVerifierKey(name, rawEd25519(createPublicKey(key)));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = testSetting('WITNESS_DIR')!;
  for (const f of ['state.json', 'refusals.jsonl']) fs.rmSync(path.join(dir, f), { force: true });
  let vkey = '';
  for (let i = 0; i < 600 && !vkey; i++) {
    const res = await fetch(`${testSetting('E2E_LOG_URL')}/.well-known/cunzheng-ledger.vkey`).catch(
      () => null,
    );
    if (res?.ok) vkey = (await res.text()).trim();
    else await new Promise((r) => setTimeout(r, 200));
  }
  if (!vkey) throw new Error('the e2e server did not publish its ledger key');
  const { startWitness } = await import('../../witness/main.ts');
  await startWitness(loadWitnessConfig(childEnvironment({ WITNESS_LOGS: vkey, LOG_LEVEL: 'warn' })));
}
