/**
 * The "cost flat as data grows" rows' products (decision 032): a product process whose demo account holds a number
 * of evidences, signed in both ways a visitor is (a sealed session cookie for pages, a bearer token for `/api`), with
 * one evidence saved through the API whose certificate page is one of the reads; and the three reads the rows and the
 * burst (bench/support/burst.ts) drive: the evidence list page, a no-match keyword search and that certificate page.
 */
import { sessionStorageFor } from '../../app/lib/session.server.ts';
import { login, uploadEvidence } from '../../tests/support/pdf-whole.ts';
import type { BurstRead } from './burst.ts';
import { settle, type Child } from './process.ts';

/** A product signed in as its demo account. */
export interface Holder {
  child: Child;
  /** `cz_session=…` sealed with the bench's session secret. */
  cookie: string;
  /** The upstream token, and the same as an Authorization value. */
  token: string;
  bearer: string;
  /** The evidence saved through the API. */
  baoquan: string;
}

/**
 * Signs in to `child` (its sessions sealed with `sessionSecret`), saves one evidence through the API and waits until
 * its certificate PDF, rendered ahead in the background worker, is done (so it does not run beside a measurement).
 * @throws when the login or the save fails
 */
export async function signedIn(child: Child, sessionSecret: string): Promise<Holder> {
  const token = await login(child.base);
  const storage = sessionStorageFor({ sessionSecrets: [sessionSecret], secureCookies: false });
  const session = await storage.getSession(null);
  session.set('token', token);
  session.set('expiresAt', Math.floor(Date.now() / 1000) + 86_400);
  const cookie = (await storage.commitSession(session)).split(';')[0]!;
  const saved = await uploadEvidence(child.base, token, {
    title: '规模基准证据',
    fileName: 'scale.txt',
    bytes: new Uint8Array(Buffer.from(`scale evidence ${Date.now()}`)),
  });
  await settle(child.pid);
  return { child, cookie, token, bearer: `Bearer ${token}`, baoquan: saved.baoquan };
}

/** The three reads of `h`: its list page, a search for `noMatchKeyword` (`/api/data/getList`), its certificate page. */
export function holderReads(h: Holder, noMatchKeyword: string): BurstRead[] {
  const { base, pid } = h.child;
  return [
    {
      name: 'list page',
      target: { url: `${base}/attestation-list/file`, pid, headers: { cookie: h.cookie } },
    },
    {
      name: 'no-match keyword search',
      target: {
        url: `${base}/api/data/getList?page=1&limit=20&keyword=${encodeURIComponent(noMatchKeyword)}`,
        pid,
        headers: { authorization: h.bearer },
      },
    },
    {
      name: 'certificate page',
      target: {
        url: `${base}/attestation/${encodeURIComponent(h.baoquan)}`,
        pid,
        headers: { cookie: h.cookie },
      },
    },
  ];
}
