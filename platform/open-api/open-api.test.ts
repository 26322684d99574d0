/**
 * The open API on both dialects (decision 038), driven by the typed client (clients/open-api.ts)
 * over real HTTP against the platform: a signed upload (streamed from a file, with device fields → app evidence) and
 * a signed hash save succeed and read back; a wrong signature, a body other than the signed one, a stale or future
 * timestamp, a reused nonce, an unsigned call, a key issued before the open API, a rotated-away key, an account that
 * is no longer a verified enterprise and an oversize upload are refused with their Chinese reasons — and none of them
 * leaves an evidence row, a stored file or a temp file.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { OpenApiClient, OpenApiError } from '../../clients/open-api.ts';
import { KycPaths } from '../../contract/kyc.ts';
import { OpenApiMsg, OpenApiPaths, type OpenApiState } from '../../contract/open-api.ts';
import { enterpriseFactory } from '../../tests/support/account.ts';
import { filesUnder } from '../../tests/support/integration.ts';
import { forEachDialect, get, post } from '../../tests/support/platform.ts';
import { ApiKeySealer } from './sealed-keys.ts';

/** Refusal of `p` as [HTTP status, message]. */
async function refusal(p: Promise<unknown>): Promise<[number, string]> {
  try {
    await p;
  } catch (err) {
    if (err instanceof OpenApiError) return [err.status, err.message];
    throw err;
  }
  throw new Error('the call was not refused');
}

forEachDialect(
  'open API',
  (h) => {
    const newEnterprise = enterpriseFactory(h);
    let base: string;
    let seq = 0;

    beforeAll(async () => {
      await h.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
    });

    /** A verified enterprise with an AppID (as approval leaves it) and a key from the rotation call. */
    async function enterprise() {
      const e = await newEnterprise(`cztest${String(seq++).padStart(10, '0')}`);
      return {
        ...e,
        client: new OpenApiClient({ baseUrl: base, appId: e.appId, securityKey: e.securityKey }),
      };
    }

    const evidenceRows = async (userId: number) =>
      Number(
        (
          await h.app.pdb.db
            .selectFrom('evidences')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('user_id', '=', userId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const storedFiles = () => filesUnder(path.join(h.dataDir, 'evidence')).length;
    const tempFiles = () => filesUnder(h.app.tmpDir).length;

    it('saves a signed file upload (streamed, with device fields) and a signed hash, and reads them back', async () => {
      const e = await enterprise();
      const state = await get<OpenApiState>(h.app, OpenApiPaths.state, {}, e.token);
      expect(state.data).toMatchObject({ enterprise: true, appId: e.appId, signingReady: true });
      expect(state.data.securityKeyMasked).toBe(
        `${e.securityKey.slice(0, 4)}${'*'.repeat(35)}${e.securityKey.slice(-4)}`,
      );

      const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-open-'));
      const file = path.join(dir, 'scene.bin');
      const bytes = randomBytes(3 * 1024 * 1024 + 17);
      await fsp.writeFile(file, bytes);
      const saved = await e.client.saveFile(file, {
        title: '现场录像 第1段',
        fileName: 'scene.bin',
        appType: '录像取证',
        configName: '张三的手机',
        configModelName: 'Mate 60',
        configVersion: 'HarmonyOS 4.2',
        configProcessor: 'Kirin 9000S',
        configCore: '5.10.43',
      });
      await fsp.rm(dir, { recursive: true, force: true });
      expect(saved.kind).toBe('app');
      expect(saved.filehash).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(saved.certificateUrl).toBe(`/attestation/${saved.baoquan}`);
      const view = await e.client.getEvidence(saved.baoquan);
      expect(view).toMatchObject({
        baoquan: saved.baoquan,
        kind: 'app',
        title: '现场录像 第1段',
        fileName: 'scene.bin',
        fileSize: bytes.length,
        filehash: saved.filehash,
        chainhash: saved.chainhash,
        appType: '录像取证',
        configName: '张三的手机',
        configModelName: 'Mate 60',
        configVersion: 'HarmonyOS 4.2',
        configProcessor: 'Kirin 9000S',
        configCore: '5.10.43',
        deletedAt: null,
      });
      // stored like any upload: the bytes are there under the evidence bucket
      const stored = await h.app.pdb.db
        .selectFrom('evidences')
        .select(['storage_key', 'kind'])
        .where('baoquan', '=', saved.baoquan)
        .executeTakeFirstOrThrow();
      expect(await h.app.files.bucket('evidence').size(stored.storage_key)).toBe(bytes.length);

      const plain = await e.client.saveFile(Buffer.from('合同正文'), { title: '合同' });
      expect(plain.kind).toBe('file');
      const hash = createHash('sha256').update('never uploaded').digest('hex');
      const hashed = await e.client.saveHash({ hash: hash.toUpperCase(), title: '哈希存证', fileSize: 14 });
      expect([hashed.kind, hashed.filehash]).toEqual(['hash', hash]);
      expect((await e.client.getEvidence(hashed.baoquan)).fileSize).toBe(14);
      // the gateway pre-renders the certificate PDF of the open API's saves as of the pages' ones: each save wrote
      // its `saved` event, which the renderer takes (docs/decisions/059-evidence-events.md)
      const events = await h.app.pdb.db
        .selectFrom('evidence_events')
        .select(['baoquan', 'kind'])
        .where('baoquan', 'in', [saved.baoquan, plain.baoquan, hashed.baoquan])
        .execute();
      expect(events.map((ev) => ev.kind)).toEqual(['saved', 'saved', 'saved']);
      expect(tempFiles()).toBe(0);
    });

    it('refuses a wrong signature, a changed body, stale and future timestamps, a reused nonce and unsigned calls, keeping nothing', async () => {
      const e = await enterprise();
      const before = [await evidenceRows(e.userId), storedFiles()];
      const body = Buffer.from('a file the attacker did not sign');
      const signedFor = (key: string, ts: string, nonce: string, sha: string) =>
        createHmac('sha256', key)
          .update(['POST', OpenApiPaths.file, ts, nonce, sha].join('\n'))
          .digest('base64');
      const octet = (bytes: Buffer, sha = createHash('sha256').update(bytes).digest('hex')) => ({
        contentType: 'application/octet-stream',
        sha256: sha,
        bytes,
      });
      const send = async (...args: Parameters<OpenApiClient['send']>) => {
        const res = await e.client.send(...args);
        return [res.status, ((await res.json()) as { msg: string }).msg] as const;
      };
      const now = String(Math.floor(Date.now() / 1000));

      // signed with another key
      const nonce1 = randomBytes(16).toString('hex');
      const wrongKey = randomBytes(32).toString('base64url');
      const sha = createHash('sha256').update(body).digest('hex');
      expect(
        await send('POST', OpenApiPaths.file, octet(body), {
          timestamp: now,
          nonce: nonce1,
          signature: signedFor(wrongKey, now, nonce1, sha),
        }),
      ).toEqual([401, OpenApiMsg.badSignature]);
      // signed for other bytes than those sent
      expect(
        await send(
          'POST',
          OpenApiPaths.file,
          octet(body, createHash('sha256').update('other').digest('hex')),
        ),
      ).toEqual([401, OpenApiMsg.badSignature]);
      // timestamps outside ±300 s, correctly signed: taken when each call is made and 30 s past the window, so that a
      // slow machine's earlier calls do not bring the future one back inside it (it read 301 s ahead of a `now`
      // taken seconds before)
      for (const skew of [-330, 330]) {
        const timestamp = String(Math.floor(Date.now() / 1000) + skew);
        expect(await send('POST', OpenApiPaths.file, octet(body), { timestamp })).toEqual([
          401,
          OpenApiMsg.expired,
        ]);
      }
      // unsigned and malformed
      const bare = await fetch(`${base}${OpenApiPaths.file}`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body,
      });
      expect([bare.status, ((await bare.json()) as { msg: string }).msg]).toEqual([401, OpenApiMsg.unsigned]);
      expect(await send('POST', OpenApiPaths.file, octet(body), { nonce: 'short' })).toEqual([
        400,
        OpenApiMsg.badNonce,
      ]);
      expect(await send('POST', OpenApiPaths.file, octet(body), { appId: 'cznosuchapp000000' })).toEqual([
        401,
        OpenApiMsg.badSignature,
      ]);
      expect([await evidenceRows(e.userId), storedFiles(), tempFiles()]).toEqual([...before, 0]);

      // a reused nonce: the first call is saved, the replay of the very same request is not
      const nonce = randomBytes(16).toString('hex');
      expect((await send('POST', OpenApiPaths.file, octet(body), { timestamp: now, nonce }))[0]).toBe(200);
      expect(await send('POST', OpenApiPaths.file, octet(body), { timestamp: now, nonce })).toEqual([
        409,
        OpenApiMsg.replayed,
      ]);
      const hashBody = Buffer.from(JSON.stringify({ hash: sha }));
      const jsonBody = {
        contentType: 'application/json',
        sha256: createHash('sha256').update(hashBody).digest('hex'),
        bytes: hashBody,
      };
      expect(await send('POST', OpenApiPaths.hash, jsonBody, { timestamp: now, nonce })).toEqual([
        409,
        OpenApiMsg.replayed,
      ]);
      expect([await evidenceRows(e.userId), storedFiles(), tempFiles()]).toEqual([
        before[0]! + 1,
        before[1]! + 1,
        0,
      ]);
      // another enterprise's evidence is not found
      const other = await enterprise();
      const own = await e.client.saveHash({ hash: sha });
      expect(await refusal(other.client.getEvidence(own.baoquan))).toEqual([404, OpenApiMsg.notFound]);
    });

    it('needs a key issued for the open API, the current key, and a verified enterprise', async () => {
      const e = await enterprise();
      const { db } = h.app.pdb;
      // a key from before the open API has no sealed form: the owner is told to rotate
      await db
        .updateTable('kyc_profiles')
        .set({ security_key_sealed: null })
        .where('user_id', '=', e.userId)
        .execute();
      expect(await refusal(e.client.saveHash({ hash: 'a'.repeat(64) }))).toEqual([
        403,
        OpenApiMsg.rotateFirst,
      ]);
      expect((await get<OpenApiState>(h.app, OpenApiPaths.state, {}, e.token)).data.signingReady).toBe(false);
      const rotated = await post<{ securityKey: string }>(h.app, KycPaths.rotateSecurityKey, {}, e.token);
      const fresh = new OpenApiClient({
        baseUrl: base,
        appId: e.appId,
        securityKey: rotated.data.securityKey,
      });
      expect((await fresh.saveHash({ hash: 'b'.repeat(64) })).kind).toBe('hash');
      // the rotated-away key no longer signs
      expect(await refusal(e.client.saveHash({ hash: 'c'.repeat(64) }))).toEqual([
        401,
        OpenApiMsg.badSignature,
      ]);
      // a sealed key copied onto another AppID's profile does not open there
      const other = await enterprise();
      const sealed = await db
        .selectFrom('kyc_profiles')
        .select('security_key_sealed')
        .where('user_id', '=', e.userId)
        .executeTakeFirstOrThrow();
      await db
        .updateTable('kyc_profiles')
        .set({ security_key_sealed: sealed.security_key_sealed })
        .where('user_id', '=', other.userId)
        .execute();
      const thief = new OpenApiClient({
        baseUrl: base,
        appId: other.appId,
        securityKey: rotated.data.securityKey,
      });
      expect(await refusal(thief.saveHash({ hash: 'd'.repeat(64) }))).toEqual([403, OpenApiMsg.rotateFirst]);
      // no longer a verified enterprise
      await db.updateTable('users').set({ account_type: 1 }).where('id', '=', e.userId).execute();
      expect(await refusal(fresh.saveHash({ hash: 'e'.repeat(64) }))).toEqual([
        403,
        OpenApiMsg.notEnterprise,
      ]);
      const state = await get<OpenApiState>(h.app, OpenApiPaths.state, {}, e.token);
      expect(state.data).toEqual({
        enterprise: false,
        appId: '',
        signingReady: false,
        securityKeyMasked: '',
      });
    });

    it('refuses an upload over MAX_UPLOAD_BYTES, declared or streamed, keeping nothing', async () => {
      const e = await enterprise();
      const before = [await evidenceRows(e.userId), storedFiles()];
      const big = randomBytes(h.config.maxUploadBytes + 1);
      expect(await refusal(e.client.saveFile(big))).toEqual([
        413,
        expect.stringContaining('文件大小不能超过'),
      ]);
      const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-open-'));
      await fsp.writeFile(path.join(dir, 'big.bin'), big);
      // streamed without a length (chunked): cut at the limit
      expect(await refusal(e.client.saveFile(path.join(dir, 'big.bin')))).toEqual([
        413,
        expect.stringContaining('文件大小不能超过'),
      ]);
      await fsp.rm(dir, { recursive: true, force: true });
      expect([await evidenceRows(e.userId), storedFiles(), tempFiles()]).toEqual([...before, 0]);
    });
  },
  { MAX_UPLOAD_BYTES: String(4 * 1024 * 1024) },
);

forEachDialect('open API throttle', (h) => {
  const newEnterprise = enterpriseFactory(h);
  it('refuses a caller after 20 wrong signatures in 15 minutes, even signed right; other AppIDs go on', async () => {
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
    const clients: OpenApiClient[] = [];
    for (const n of [1, 2]) {
      const e = await newEnterprise(`czthrottle00000${n}`);
      clients.push(new OpenApiClient({ baseUrl: base, appId: e.appId, securityKey: e.securityKey }));
    }
    const [a, b] = clients as [OpenApiClient, OpenApiClient];
    const forger = new OpenApiClient({
      baseUrl: base,
      appId: 'czthrottle000001',
      securityKey: 'not the key',
    });
    for (let i = 0; i < 20; i++) {
      expect(await refusal(forger.saveHash({ hash: 'a'.repeat(64) }))).toEqual([
        401,
        OpenApiMsg.badSignature,
      ]);
    }
    expect(await refusal(a.saveHash({ hash: 'a'.repeat(64) }))).toEqual([429, OpenApiMsg.throttled]);
    expect((await b.saveHash({ hash: 'b'.repeat(64) })).kind).toBe('hash');
  });
});

describe('sealed SecurityKeys', () => {
  it('open only with the same platform key and AppID, and not once altered', async () => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-seal-'));
    const a = await ApiKeySealer.open(path.join(dir, 'a.key'));
    const again = await ApiKeySealer.open(path.join(dir, 'a.key'));
    const b = await ApiKeySealer.open(path.join(dir, 'b.key'));
    expect((await fsp.stat(path.join(dir, 'a.key'))).mode & 0o777).toBe(0o600);
    const key = randomBytes(32).toString('base64url');
    const sealed = a.seal('czapp1', key);
    expect(sealed).not.toContain(key);
    expect(a.seal('czapp1', key)).not.toBe(sealed); // a fresh IV each time
    expect(again.unseal('czapp1', sealed)).toBe(key);
    expect(b.unseal('czapp1', sealed)).toBeNull();
    expect(a.unseal('czapp2', sealed)).toBeNull();
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw[20] = raw[20]! ^ 1;
    expect(a.unseal('czapp1', `v1.${raw.toString('base64url')}`)).toBeNull();
    expect(a.unseal('czapp1', null)).toBeNull();
    await fsp.rm(dir, { recursive: true, force: true });
  });
});
