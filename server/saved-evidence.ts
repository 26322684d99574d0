/**
 * Evidence saved through the `/api` proxy (an API client's save call): the proxy passes the platform's answer on
 * unchanged and reads the preservation number from it on the way, so that the certificate PDF is rendered ahead
 * of its first visitor (server/pdf `prerender`; pages that save tell the gateway through their load context).
 */
import { PassThrough, type Readable } from 'node:stream';
import { EVIDENCE_SAVE_PATHS, savedBaoquan } from '../contract/evidence-codes.ts';

/** Most bytes of a save answer read for its number (an envelope of SaveEvidenceData is about 200 bytes). */
const MAX_ANSWER_BYTES = 4096;

/** Whether a proxied request is a save call: `POST` to one of {@link EVIDENCE_SAVE_PATHS} (query ignored). */
export function isSaveCall(method: string, url: string): boolean {
  const q = url.indexOf('?');
  return method === 'POST' && EVIDENCE_SAVE_PATHS.has(q === -1 ? url : url.slice(0, q));
}

/**
 * The preservation number of a save answer read whole: `data.baoquan` of a success envelope (`code` 200), else
 * null (another code, not JSON, or over {@link MAX_ANSWER_BYTES}).
 */
export function savedFromAnswer(body: Buffer): string | null {
  if (body.length > MAX_ANSWER_BYTES) return null;
  try {
    return savedBaoquan(JSON.parse(body.toString('utf8')) as { code?: unknown });
  } catch {
    return null; // not an envelope: nothing to render
  }
}

/**
 * `answer` passed through unchanged; when it is a success envelope (`code` 200) with `data.baoquan`, `onSaved`
 * gets the number after the last byte. An answer over {@link MAX_ANSWER_BYTES}, or not JSON, is passed on and
 * otherwise ignored.
 */
export function watchSavedEvidence(answer: Readable, onSaved: (baoquan: string) => void): Readable {
  const chunks: Buffer[] = [];
  let bytes = 0;
  const pass = new PassThrough();
  answer.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes <= MAX_ANSWER_BYTES) chunks.push(chunk);
  });
  answer.once('end', () => {
    if (bytes > MAX_ANSWER_BYTES) return;
    const baoquan = savedFromAnswer(Buffer.concat(chunks));
    if (baoquan !== null) onSaved(baoquan);
  });
  answer.once('error', (err) => pass.destroy(err));
  answer.pipe(pass);
  return pass;
}
