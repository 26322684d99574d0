/**
 * Public verification calls of `/queryAuthentication` (issue 3 item 7; spec 01 §2.1, §7; contract
 * `EvidenceKindPaths`):
 * - `POST /api/check/bqno {no}` → `{viewToken}`: a token for that one evidence number, valid 10 minutes
 *   (`<exp>.<hex HMAC over "view:<no>:<exp>">`, the download key with its own purpose string); an unknown number
 *   answers code 404 `Msg.evidenceNumberNotFound`;
 * - `POST /api/check/bqview {viewToken, no}` → PublicEvidence; a bad or expired token answers code 400
 *   `Msg.viewTokenInvalid` (not 403: the legacy client reads 403 as "log in again", spec 01 §8);
 * - `POST /api/check/byHash {hash}` → PublicEvidence[] with that SHA-256, newest first, at most 20 (none → []).
 *
 * No owner data is answered (no mobile, no id). Deleted evidence is found too, with its `deletedAt`.
 *
 * Rate limit: every call of the three counts against one budget per client IP (`request.ip`, which is the browser's
 * address because the platform trusts X-Forwarded-For from the gateway, TRUST_PROXY): at most
 * {@link PUBLIC_LOOKUP_POLICY}.max calls per window, then code 429 `Msg.tooManyRequests`. The counter lives in the
 * database (core/attempts.ts) so every platform instance shares it (docs/decisions/006-evidence-kinds.md).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ApiCode,
  ByHashBody,
  Msg,
  NoBody,
  ViewTokenBody,
  EvidenceKindPaths,
  ok,
  type PublicEvidence,
  type ViewTokenData,
} from '../../contract/index.ts';
import { isThrottled, recordFailure, type AttemptPolicy } from '../core/attempts.ts';
import { ApiError, parseInput } from '../core/errors.ts';
import { formatBeijing, nowSeconds } from '../core/time.ts';
import type { EvidenceRow } from '../db/schema.ts';
import { formatBeijingDate } from '../evidence/certificate.ts';
import { findByBaoquan, findBySha256 } from '../evidence/service.ts';

/** 30 public lookups per client IP a minute (all three calls together). */
export const PUBLIC_LOOKUP_POLICY: AttemptPolicy = { scope: 'publicLookup', max: 30, windowSeconds: 60 };
/** Lifetime of a view token, seconds. */
export const VIEW_TOKEN_TTL_SECONDS = 600;
/** Most evidences byHash answers. */
export const BY_HASH_LIMIT = 20;

/** The public face of an evidence (contract PublicEvidence). */
export function toPublicEvidence(ev: EvidenceRow & { chainhash: string }): PublicEvidence {
  return {
    baoquan: ev.baoquan,
    title: ev.title,
    kind: ev.kind,
    fileType: ev.file_type,
    filehash: ev.sha256,
    chainhash: ev.chainhash,
    saveTime: formatBeijing(ev.created_at),
    deletedAt: ev.deleted_at === null ? null : formatBeijingDate(ev.deleted_at),
  };
}

/** Registers the three public lookups (needs the services plugin). */
export async function verifyRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.pdb;

  /** preHandler: counts the call against the client's budget; code 429 once it is spent. */
  async function limit(request: FastifyRequest): Promise<void> {
    const subject = request.ip;
    if (await isThrottled(db, PUBLIC_LOOKUP_POLICY, subject)) {
      throw new ApiError(ApiCode.TOO_MANY_REQUESTS, Msg.tooManyRequests);
    }
    await recordFailure(db, PUBLIC_LOOKUP_POLICY, subject);
  }

  app.post(EvidenceKindPaths.bqno, { preHandler: limit }, async (request) => {
    const { no } = parseInput(NoBody, request.body);
    const ev = await findByBaoquan(db, no);
    if (!ev) throw new ApiError(ApiCode.NOT_FOUND, Msg.evidenceNumberNotFound);
    const data: ViewTokenData = {
      viewToken: app.downloads.viewToken(ev.baoquan, nowSeconds(), VIEW_TOKEN_TTL_SECONDS),
    };
    return ok(data);
  });

  app.post(EvidenceKindPaths.bqview, { preHandler: limit }, async (request) => {
    const { viewToken, no } = parseInput(ViewTokenBody, request.body);
    if (!app.downloads.verifyViewToken(no, viewToken, nowSeconds())) {
      throw new ApiError(ApiCode.BAD_REQUEST, Msg.viewTokenInvalid);
    }
    const ev = await findByBaoquan(db, no);
    if (!ev) throw new ApiError(ApiCode.NOT_FOUND, Msg.evidenceNumberNotFound);
    return ok(toPublicEvidence(ev));
  });

  app.post(EvidenceKindPaths.byHash, { preHandler: limit }, async (request) => {
    const { hash } = parseInput(ByHashBody, request.body);
    const rows = await findBySha256(db, hash, BY_HASH_LIMIT);
    return ok(rows.map(toPublicEvidence));
  });
}
