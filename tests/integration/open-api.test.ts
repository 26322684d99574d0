/**
 * The open API through the real process (gateway + embedded platform, production build; decision 039):
 * - the gateway serves `/openapi.json`, a valid OpenAPI 3.1 document (checked by @seriousme/openapi-schema-validator);
 * - the typed client (clients/open-api.ts) is tested against that document: a signed, streamed upload with device
 *   fields, a hash save and a read succeed through the gateway, and every answer — successes and refusals — matches
 *   the document's schema for its operation and status (schemas turned back into validators with z.fromJSONSchema);
 * - a wrong signature, a stale timestamp and a reused nonce are refused with their HTTP status passed through the
 *   gateway intact; the evidence shows up in the list and its certificate page names the device.
 */
import { createHash, randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OpenApiClient, OpenApiError } from '../../clients/open-api.ts';
import { KycPaths } from '../../contract/kyc.ts';
import { OPEN_API_DOCUMENT_PATH, OpenApiMsg, OpenApiPaths } from '../../contract/open-api.ts';
import {
  apiLogin,
  DEMO_MOBILE,
  evidenceCount,
  startWhole,
  type Envelope,
  type Whole,
} from '../support/integration.ts';

/** The dereferenced document's operations: path → method → operation. */
type Operations = Record<
  string,
  Record<string, { responses: Record<string, { content: Record<string, { schema: object }> }> }>
>;

describe('open API through the gateway', () => {
  let whole: Whole;
  let doc: { openapi: string; paths: Operations };
  let client: OpenApiClient;
  let token: string;
  let credentials: ConstructorParameters<typeof OpenApiClient>[0];
  /** Every answer the client received: [template path, method, status, body]. */
  const seen: [string, string, number, unknown][] = [];

  /** The document's path template for a concrete path. */
  const templateOf = (pathname: string) =>
    Object.keys(doc.paths).find((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(pathname));

  beforeAll(async () => {
    whole = await startWhole();
    const res = await fetch(`${whole.base}${OPEN_API_DOCUMENT_PATH}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const validator = new Validator();
    const result = await validator.validate(
      JSON.parse(await res.text()) as Parameters<typeof validator.validate>[0],
    );
    expect(result.errors ?? []).toEqual([]);
    expect([result.valid, validator.version]).toEqual([true, '3.1']);
    doc = validator.resolveRefs() as typeof doc;

    token = await apiLogin(whole.base);
    const hook = await fetch(`${whole.base}/api/__test/setUserStatus`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ mobile: DEMO_MOBILE, userStatus: '3', status: '2', authType: '1' }),
    });
    expect(((await hook.json()) as Envelope).code).toBe(200);
    const rotated = await fetch(`${whole.base}${KycPaths.rotateSecurityKey}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    const key = (await rotated.json()) as Envelope<{ securityKey: string }>;
    const state = await fetch(`${whole.base}${OpenApiPaths.state}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const { appId } = ((await state.json()) as Envelope<{ appId: string }>).data;
    // a fetch that keeps a copy of every answer for the schema check
    const recording: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      const url = new URL(String(input));
      seen.push([
        templateOf(url.pathname) ?? url.pathname,
        init?.method ?? 'GET',
        res.status,
        await res.clone().json(),
      ]);
      return res;
    };
    credentials = { baseUrl: whole.base, appId, securityKey: key.data.securityKey };
    client = new OpenApiClient(credentials, { fetch: recording });
  });
  afterAll(async () => whole?.stop());

  it('uploads, saves a hash and reads back with the typed client; every answer matches the document', async () => {
    const before = await evidenceCount(whole.base, token);
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-open-gw-'));
    const file = path.join(dir, 'clip.bin');
    const bytes = randomBytes(2 * 1024 * 1024);
    await fsp.writeFile(file, bytes);
    const saved = await client.saveFile(file, {
      title: '门店巡查',
      configName: '巡检终端 07',
      appType: '拍照取证',
    });
    await fsp.rm(dir, { recursive: true, force: true });
    expect([saved.kind, saved.filehash]).toEqual(['app', createHash('sha256').update(bytes).digest('hex')]);
    const hashed = await client.saveHash({
      hash: createHash('sha256').update('x').digest('hex'),
      fileName: 'x.txt',
    });
    expect(hashed.kind).toBe('hash');
    expect((await client.getEvidence(saved.baoquan)).configName).toBe('巡检终端 07');
    expect(await evidenceCount(whole.base, token)).toBe(before + 1); // getList's default lists file and app evidence

    const page = await fetch(`${whole.base}${saved.certificateUrl}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('巡检终端 07');

    // refusals, passed through the gateway with their status
    const refused = async (p: Promise<unknown>) =>
      p.then(
        () => null,
        (err: unknown) => (err instanceof OpenApiError ? [err.status, err.message] : err),
      );
    const body = { contentType: 'application/json', sha256: 'f'.repeat(64), bytes: Buffer.from('{}') };
    const res = await client.send('POST', OpenApiPaths.hash, body);
    expect([res.status, ((await res.json()) as Envelope).msg]).toEqual([401, OpenApiMsg.badSignature]);
    const stale = String(Math.floor(Date.now() / 1000) - 600);
    const staleRes = await client.send('GET', `/api/open/v1/evidences/${saved.baoquan}`, undefined, {
      timestamp: stale,
    });
    expect(staleRes.status).toBe(401);
    const wrongKey = new OpenApiClient({
      ...credentials,
      securityKey: randomBytes(32).toString('base64url'),
    });
    expect(await refused(wrongKey.getEvidence(saved.baoquan))).toEqual([401, OpenApiMsg.badSignature]);
    const once = new OpenApiClient(credentials, { nonce: () => 'the-very-same-nonce' });
    expect((await once.getEvidence(saved.baoquan)).baoquan).toBe(saved.baoquan);
    expect(await refused(once.getEvidence(saved.baoquan))).toEqual([409, OpenApiMsg.replayed]);

    // every recorded answer matches the document's schema for its operation and status
    expect(seen.map(([, , status]) => status).sort()).toEqual([200, 200, 200, 401, 401]);
    for (const [template, method, status, answer] of seen) {
      const op = doc.paths[template]?.[method.toLowerCase()];
      expect(op, `${method} ${template} in the document`).toBeDefined();
      const schema = op!.responses[String(status)]?.content['application/json']?.schema;
      expect(schema, `${method} ${template} ${status} documented`).toBeDefined();
      const check = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]).safeParse(answer);
      expect(check.error?.issues ?? [], `${method} ${template} ${status}`).toEqual([]);
    }
  });
});
