/**
 * The capture artefacts the pages show (contract `CapturePaths.shot`, `.videoUrl`, `.video`; decision 039):
 * a page's or step's screenshot for the certificate — as public as the certificate itself, which anyone holding the
 * preservation number may open — and a process capture's video for its owner's preview, through a signed URL valid
 * for VIDEO_URL_TTL_SECONDS (a <video> element cannot send the session's token). Both read the stored WACZ in place
 * (artefacts.ts). Raw answers: a refusal is an envelope with its own HTTP status (404, 403).
 */
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiCode, ok } from '../../contract/envelope.ts';
import { CapturePaths, type CaptureVideoData } from '../../contract/capture.ts';
import { EvidenceMsg, EvidenceViewQuery, SignedUrlQuery } from '../../contract/evidence.ts';
import { currentUser } from '../account/auth.ts';
import { ApiError, parseInput } from '../core/errors.ts';
import { nowSeconds } from '../core/time.ts';
import { findByBaoquan } from '../evidence/lookup.ts';
import { artefactsOf, openStoredZipEntry } from './artefacts.ts';

/** How long a video URL is valid (seconds): long enough to start playing, short enough not to be passed around. */
export const VIDEO_URL_TTL_SECONDS = 10 * 60;
const VIDEO_PURPOSE = 'capture-video';

/** Answers one WACZ entry as `type` with its length and `headers` (never sniffed as another type). */
function sendEntry(
  reply: FastifyReply,
  found: { stream: Readable; size: number },
  type: string,
  headers: Record<string, string>,
) {
  return reply
    .type(type)
    .headers({ ...headers, 'content-length': String(found.size), 'x-content-type-options': 'nosniff' })
    .send(found.stream);
}

/** Registers the artefact routes (needs the services and auth plugins). */
export async function captureArtefactRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.pdb;
  const storage = app.files.bucket('evidence');
  const missing = () => new ApiError(ApiCode.NOT_FOUND, EvidenceMsg.evidenceNotFound, 404);

  /** The capture evidence `baoquan` with its artefacts, if its data is still stored. @throws ApiError 404 */
  async function captureEvidence(baoquan: string) {
    const ev = await findByBaoquan(db, baoquan.slice(0, 64));
    if (!ev || (ev.kind !== 'web' && ev.kind !== 'process') || ev.deleted_at !== null) throw missing();
    return { ev, artefacts: artefactsOf(ev.capture_meta) };
  }

  app.get<{ Params: { baoquan: string; n: string } }>(CapturePaths.shot, async (request, reply) => {
    const { ev, artefacts } = await captureEvidence(request.params.baoquan);
    const n = Number(request.params.n);
    const entry = Number.isSafeInteger(n) && n >= 1 ? artefacts.shots[n - 1] : undefined;
    const found = entry ? await openStoredZipEntry(storage, ev.storage_key, entry) : null;
    if (!found) throw missing();
    return sendEntry(reply, found, 'image/png', { 'cache-control': 'private, max-age=3600' });
  });

  app.get(CapturePaths.videoUrl, { preHandler: app.requireUser }, async (request) => {
    const { baoquan } = parseInput(EvidenceViewQuery, request.query);
    const { ev, artefacts } = await captureEvidence(baoquan);
    if (Number(ev.user_id) !== currentUser(request).id || !artefacts.video) throw missing();
    const query = app.downloads.signedQuery(VIDEO_PURPOSE, ev.baoquan, nowSeconds(), VIDEO_URL_TTL_SECONDS);
    const data: CaptureVideoData = {
      url: `${CapturePaths.video.replace(':baoquan', encodeURIComponent(ev.baoquan))}?${query}`,
    };
    return ok(data);
  });

  app.get<{ Params: { baoquan: string } }>(CapturePaths.video, async (request, reply) => {
    const { exp, sig } = parseInput(SignedUrlQuery, request.query);
    const baoquan = request.params.baoquan.slice(0, 64);
    if (!app.downloads.verifyFor(VIDEO_PURPOSE, baoquan, exp, sig, nowSeconds())) {
      throw new ApiError(ApiCode.FORBIDDEN, EvidenceMsg.downloadLinkInvalid, 403);
    }
    const { ev, artefacts } = await captureEvidence(baoquan);
    const found = artefacts.video ? await openStoredZipEntry(storage, ev.storage_key, artefacts.video) : null;
    if (!found) throw missing();
    return sendEntry(reply, found, 'video/webm', {
      'cache-control': 'private, no-store',
      'content-disposition': 'inline; filename="process.webm"',
    });
  });
}
