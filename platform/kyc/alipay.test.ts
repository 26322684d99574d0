/**
 * Integration tests: the real `alipay-sdk` (through AlipayFace) against the sandbox gateway on loopback — signed
 * requests verified by the sandbox, signed responses verified by the SDK, the no-JS certification page, and the
 * rejections (wrong key, tampered request, tampered response, stale timestamp, unreachable gateway).
 */
import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import fsp from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlipayFace, AlipayFaceError, FACE_METHODS, newOuterOrderNo } from './alipay-face.ts';
import {
  loadOrCreateSandboxKeys,
  requestSignContent,
  rsa2Sign,
  SANDBOX_DIR,
  SANDBOX_KEYS_FILE,
} from './alipay-sandbox-keys.ts';
import { SANDBOX_STATE_FILE } from './alipay-sandbox.ts';
import { startAlipaySandbox, type AlipaySandbox } from './alipay-sandbox-server.ts';

const CERT_NAME = '张三';
const CERT_NO = '11010519491231002X';
const RETURN_URL = 'http://127.0.0.1:3000/personage-face-kyc';

let dataDir: string;
let sandbox: AlipaySandbox;
let face: AlipayFace;

beforeAll(async () => {
  dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cunzheng-alipay-'));
  sandbox = await startAlipaySandbox({ dataDir });
  face = new AlipayFace(sandbox.clientConfig(), { returnUrl: RETURN_URL });
});

afterAll(async () => {
  await sandbox?.close();
  await fsp.rm(dataDir, { recursive: true, force: true });
});

/** Opens the certify URL like a browser: the gateway checks it and redirects to the page; returns the page URL. */
async function openCertifyPage(certifyUrl: string): Promise<string> {
  const res = await fetch(certifyUrl, { redirect: 'manual' });
  expect(res.status).toBe(303);
  return new URL(res.headers.get('location') ?? '', certifyUrl).toString();
}

/** Presses 通过 or 不通过: POSTs the page's own form (action and fields read from the HTML). */
async function pressButton(pageUrl: string, label: '通过' | '不通过'): Promise<Response> {
  const html = await (await fetch(pageUrl)).text();
  const forms = [...html.matchAll(/<form method="post" action="([^"]+)">(.*?)<\/form>/g)];
  const form = forms.find((f) => f[2]!.includes(`>${label}</button>`));
  expect(form, `a form with the ${label} button`).toBeDefined();
  const fields = new URLSearchParams();
  for (const [, name, value] of form![2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]+)">/g)) {
    fields.set(name!, value!);
  }
  return fetch(new URL(form![1]!, pageUrl), {
    method: 'POST',
    body: fields,
    redirect: 'manual',
  });
}

async function rejection(promise: Promise<unknown>): Promise<AlipayFaceError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AlipayFaceError);
  return err as AlipayFaceError;
}

describe('keys', () => {
  it('creates an AppID and two RSA-2048 key pairs once, private file 0600, and reuses them', async () => {
    const again = await loadOrCreateSandboxKeys(dataDir);
    expect(again).toEqual(sandbox.keys);
    expect(again.appId).toMatch(/^\d{16}$/);
    for (const pem of [again.appPublicKey, again.alipayPublicKey]) {
      expect(createPublicKey(pem).asymmetricKeyDetails?.modulusLength).toBe(2048);
    }
    expect(again.appPublicKey).not.toBe(again.alipayPublicKey);
    const stat = await fsp.stat(path.join(dataDir, SANDBOX_DIR, SANDBOX_KEYS_FILE));
    expect(stat.mode & 0o777).toBe(0o600);
  });

  it('two processes starting together get the same keys', async () => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cunzheng-alipay-race-'));
    try {
      const [a, b] = await Promise.all([loadOrCreateSandboxKeys(dir), loadOrCreateSandboxKeys(dir)]);
      expect(a).toEqual(b);
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('face certification through alipay-sdk and the sandbox', () => {
  it('pass: initialize → certify page → 通过 → query passed', async () => {
    const { certifyId } = await face.initialize({
      outerOrderNo: newOuterOrderNo(),
      certName: CERT_NAME,
      certNo: CERT_NO,
    });
    expect(certifyId).toMatch(/^[0-9a-f]{32}$/);
    expect(await face.query(certifyId)).toEqual({ passed: null, rawPassed: 'F' });

    const url = face.certifyUrl(certifyId);
    expect(url.startsWith(`${sandbox.gateway}?`)).toBe(true);
    const params = new URL(url).searchParams;
    expect(params.get('method')).toBe(FACE_METHODS.certify);
    expect(params.get('sign_type')).toBe('RSA2');
    expect(params.get('sign')).toBeTruthy();
    expect(JSON.parse(params.get('biz_content') ?? '{}')).toEqual({ certify_id: certifyId });

    const pageUrl = await openCertifyPage(url);
    const page = await (await fetch(pageUrl)).text();
    expect(page).toContain('110***********002X');
    expect(page).toContain('张*');
    expect(page).not.toContain(CERT_NO);
    expect(page).not.toContain('<script');

    const pressed = await pressButton(pageUrl, '通过');
    expect(pressed.status).toBe(303);
    const after = await (await fetch(new URL(pressed.headers.get('location') ?? '', pageUrl))).text();
    expect(after).toContain('data-state="PASSED"');
    expect(after).toContain(`href="${RETURN_URL}"`);

    expect(await face.query(certifyId)).toEqual({ passed: true, rawPassed: 'T' });

    // The decision is final: pressing 不通过 afterwards changes nothing.
    expect(
      (await fetch(pageUrl, { method: 'POST', body: new URLSearchParams({ decision: 'fail' }) })).status,
    ).toBe(409);
    expect((await face.query(certifyId)).passed).toBe(true);
  });

  it('fail: 不通过 → query passed false with a fail reason', async () => {
    const { certifyId } = await face.initialize({
      outerOrderNo: newOuterOrderNo(),
      certName: '李四',
      certNo: CERT_NO,
    });
    const pageUrl = await openCertifyPage(face.certifyUrl(certifyId));
    expect((await pressButton(pageUrl, '不通过')).status).toBe(303);
    expect(await face.query(certifyId)).toEqual({
      passed: false,
      rawPassed: 'F',
      failReason: 'SANDBOX_FAILED',
    });
  });

  it('initialize is idempotent per outer_order_no, and refuses its reuse for another person', async () => {
    const outerOrderNo = newOuterOrderNo();
    const first = await face.initialize({ outerOrderNo, certName: CERT_NAME, certNo: CERT_NO });
    const again = await face.initialize({ outerOrderNo, certName: CERT_NAME, certNo: CERT_NO });
    expect(again.certifyId).toBe(first.certifyId);
    const other = await rejection(face.initialize({ outerOrderNo, certName: '王五', certNo: CERT_NO }));
    expect(other).toMatchObject({ kind: 'rejected', code: '40004', subCode: 'OUTER_ORDER_NO_DUPLICATE' });
  });

  it('business errors: an invalid ID number, an unknown certify_id', async () => {
    const badId = await rejection(
      face.initialize({ outerOrderNo: newOuterOrderNo(), certName: CERT_NAME, certNo: '110105194912310021' }),
    );
    expect(badId).toMatchObject({ kind: 'rejected', subCode: 'INVALID_PARAMETER' });
    expect(badId.message).not.toContain('110105194912310021');
    const unknown = await rejection(face.query('0123456789abcdef0123456789abcdef'));
    expect(unknown).toMatchObject({ kind: 'rejected', code: '40004', subCode: 'CERTIFY_ID_NOT_EXIST' });
  });

  it('keeps only masked personal data in the state file, and survives a restart', async () => {
    const { certifyId } = await face.initialize({
      outerOrderNo: newOuterOrderNo(),
      certName: CERT_NAME,
      certNo: CERT_NO,
    });
    await pressButton(await openCertifyPage(face.certifyUrl(certifyId)), '通过');
    const state = await fsp.readFile(path.join(dataDir, SANDBOX_DIR, SANDBOX_STATE_FILE), 'utf8');
    expect(state).toContain(certifyId);
    expect(state).not.toContain(CERT_NO);
    expect(state).not.toContain(CERT_NAME);

    const second = await startAlipaySandbox({ dataDir });
    try {
      expect(second.keys.appId).toBe(sandbox.keys.appId);
      const face2 = new AlipayFace(second.clientConfig(), { returnUrl: RETURN_URL });
      expect((await face2.query(certifyId)).passed).toBe(true);
    } finally {
      await second.close();
    }
  });
});

describe('request signatures (verified by the sandbox)', () => {
  const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();

  it('a request signed with another key is rejected with isv.invalid-signature and changes nothing', async () => {
    const impostor = new AlipayFace(
      { ...sandbox.clientConfig(), privateKey: otherKey },
      { returnUrl: RETURN_URL },
    );
    const outerOrderNo = newOuterOrderNo();
    const err = await rejection(impostor.initialize({ outerOrderNo, certName: CERT_NAME, certNo: CERT_NO }));
    expect(err).toMatchObject({ kind: 'rejected', code: '40002', subCode: 'isv.invalid-signature' });
    expect(sandbox.store.findByOrder(sandbox.keys.appId, outerOrderNo)).toBeUndefined();

    // Its certify URL does not open the page either.
    const { certifyId } = await face.initialize({
      outerOrderNo: newOuterOrderNo(),
      certName: CERT_NAME,
      certNo: CERT_NO,
    });
    const res = await fetch(impostor.certifyUrl(certifyId), { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('isv.invalid-signature');
  });

  it('an unknown AppID is rejected', async () => {
    const stranger = new AlipayFace(
      { ...sandbox.clientConfig(), appId: '2021000000000000' },
      { returnUrl: RETURN_URL },
    );
    const err = await rejection(stranger.query('0123456789abcdef0123456789abcdef'));
    expect(err).toMatchObject({ kind: 'rejected', subCode: 'isv.invalid-app-id' });
  });

  /** A hand-built request (node:crypto only, independent of the SDK), as the OpenAPI 2.0 documentation describes. */
  async function rawCall(
    params: Record<string, string>,
    change?: (p: Record<string, string>) => void,
  ): Promise<{ text: string; data: Record<string, string> }> {
    const signed = { ...params, sign: rsa2Sign(requestSignContent(params), sandbox.keys.appPrivateKey) };
    change?.(signed);
    const res = await fetch(sandbox.gateway, { method: 'POST', body: new URLSearchParams(signed) });
    const text = await res.text();
    const key = `${params.method!.replaceAll('.', '_')}_response`;
    return { text, data: (JSON.parse(text) as Record<string, Record<string, string>>)[key]! };
  }

  const localTimestamp = (ms: number) => {
    const d = new Date(ms);
    const p = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
  };
  const baseParams = () => ({
    app_id: sandbox.keys.appId,
    method: FACE_METHODS.query,
    charset: 'utf-8',
    sign_type: 'RSA2',
    timestamp: localTimestamp(Date.now()),
    version: '1.0',
    biz_content: JSON.stringify({ certify_id: '0123456789abcdef0123456789abcdef' }),
  });

  it('a correctly hand-signed request is accepted, and its response signature covers the exact JSON text', async () => {
    const { text, data } = await rawCall(baseParams());
    expect(data).toMatchObject({ code: '40004', sub_code: 'CERTIFY_ID_NOT_EXIST' }); // accepted, then looked up
    const inner = /^\{"alipay_user_certify_open_query_response":(\{.*\}),"sign":"([^"]+)"\}$/.exec(text);
    expect(inner).not.toBeNull();
    const ok = verify(
      'sha256',
      Buffer.from(inner![1]!, 'utf8'),
      sandbox.keys.alipayPublicKey,
      Buffer.from(inner![2]!, 'base64'),
    );
    expect(ok).toBe(true);
  });

  it('rejects a request changed after signing, a stale timestamp, RSA1 and duplicated parameters', async () => {
    const tampered = await rawCall(baseParams(), (p) => {
      p.biz_content = JSON.stringify({ certify_id: 'ffffffffffffffffffffffffffffffff' });
    });
    expect(tampered.data).toMatchObject({ code: '40002', sub_code: 'isv.invalid-signature' });

    const stale = await rawCall({ ...baseParams(), timestamp: localTimestamp(Date.now() - 16 * 60_000) });
    expect(stale.data).toMatchObject({ code: '40002', sub_code: 'isv.invalid-timestamp' });

    const rsa1 = await rawCall({ ...baseParams(), sign_type: 'RSA' });
    expect(rsa1.data).toMatchObject({ sub_code: 'isv.invalid-signature-type' });

    const params = baseParams();
    const signed = { ...params, sign: rsa2Sign(requestSignContent(params), sandbox.keys.appPrivateKey) };
    const body = `${new URLSearchParams(signed).toString()}&method=${encodeURIComponent(FACE_METHODS.initialize)}`;
    const dup = await fetch(sandbox.gateway, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    expect(JSON.parse(await dup.text())).toMatchObject({
      error_response: { sub_code: 'isv.invalid-parameter' },
    });
  });
});

describe('response signatures (verified by alipay-sdk)', () => {
  /** A man in the middle on loopback: forwards to the sandbox and rewrites each response body with `alter`. */
  async function withProxy<T>(
    alter: (body: string) => string,
    run: (gateway: string) => Promise<T>,
  ): Promise<T> {
    const proxy = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void (async () => {
          const upstream = await fetch(new URL(req.url ?? '/', sandbox.url), {
            method: req.method ?? 'GET',
            headers: { 'content-type': req.headers['content-type'] ?? 'application/octet-stream' },
            ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
          });
          const out = Buffer.from(alter(await upstream.text()), 'utf8');
          res.writeHead(upstream.status, {
            'content-type': 'application/json',
            'content-length': out.length,
          });
          res.end(out);
        })();
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const { port } = proxy.address() as AddressInfo;
    try {
      return await run(`http://127.0.0.1:${port}/gateway.do`);
    } finally {
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  }

  it('an untouched response passes through the proxy (control)', async () => {
    const { certifyId } = await face.initialize({
      outerOrderNo: newOuterOrderNo(),
      certName: CERT_NAME,
      certNo: CERT_NO,
    });
    await withProxy(
      (body) => body,
      async (gateway) => {
        const viaProxy = new AlipayFace({ ...sandbox.clientConfig(), gateway }, { returnUrl: RETURN_URL });
        expect(await viaProxy.query(certifyId)).toEqual({ passed: null, rawPassed: 'F' });
      },
    );
  });

  it('flipping passed F → T in transit (one byte) is rejected by the SDK verification', async () => {
    const { certifyId } = await face.initialize({
      outerOrderNo: newOuterOrderNo(),
      certName: CERT_NAME,
      certNo: CERT_NO,
    });
    let altered = 0;
    await withProxy(
      (body) => {
        if (body.includes('"passed":"F"')) altered++;
        return body.replace('"passed":"F"', '"passed":"T"');
      },
      async (gateway) => {
        const viaProxy = new AlipayFace({ ...sandbox.clientConfig(), gateway }, { returnUrl: RETURN_URL });
        const err = await rejection(viaProxy.query(certifyId));
        expect(err.kind).toBe('signature');
      },
    );
    expect(altered).toBe(1);
  });

  it('a response without its signature, or signed by another key, is rejected', async () => {
    const { certifyId } = await face.initialize({
      outerOrderNo: newOuterOrderNo(),
      certName: CERT_NAME,
      certNo: CERT_NO,
    });
    await withProxy(
      (body) => body.replace(/,"sign":"[^"]*"/, ''),
      async (gateway) => {
        const viaProxy = new AlipayFace({ ...sandbox.clientConfig(), gateway }, { returnUrl: RETURN_URL });
        expect((await rejection(viaProxy.query(certifyId))).kind).toBe('response');
      },
    );
    const wrongKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .publicKey.export({ type: 'spki', format: 'pem' })
      .toString();
    const trusting = new AlipayFace(
      { ...sandbox.clientConfig(), alipayPublicKey: wrongKey },
      { returnUrl: RETURN_URL },
    );
    expect((await rejection(trusting.query(certifyId))).kind).toBe('signature');
  });

  it('an unreachable gateway is a transport error; an empty alipayPublicKey is refused up front', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const down = new AlipayFace(
      { ...sandbox.clientConfig(), gateway: `http://127.0.0.1:${port}/gateway.do` },
      { returnUrl: RETURN_URL },
    );
    expect((await rejection(down.query('0123456789abcdef0123456789abcdef'))).kind).toBe('transport');
    expect(
      () => new AlipayFace({ ...sandbox.clientConfig(), alipayPublicKey: ' ' }, { returnUrl: RETURN_URL }),
    ).toThrow(TypeError);
  });
});
