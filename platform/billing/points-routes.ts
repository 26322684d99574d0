/**
 * The user's points history (contract/points.ts `PointsPaths`; docs/decisions/057-points-api.md), served by the
 * billing area, whose screens show points (the top bar's figure, /buyCredits, /points):
 * - `GET` or `POST /api/points/history {page}` → PointsHistoryData: the caller's balance and journal entries, newest
 *   first, {@link POINTS_PAGE_SIZE} a page, each with its source's label, signed points and the balance after it.
 * The entries are read from the points API (platform/points/journal.ts `history`), which every area writes through.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ok } from '../../contract/envelope.ts';
import { POINTS_PAGE_SIZE, PointsHistoryQuery, PointsPaths } from '../../contract/points.ts';
import { currentUser } from '../account/auth.ts';
import { parseInput } from '../core/errors.ts';
import { history } from '../points/journal.ts';

/** Registers the history call (needs the auth plugin's `requireUser`). */
export async function pointsRoutes(app: FastifyInstance): Promise<void> {
  const answer = async (request: FastifyRequest, input: unknown) => {
    const { page } = parseInput(PointsHistoryQuery, input);
    return ok(await history(app.pdb.db, currentUser(request).id, page, POINTS_PAGE_SIZE));
  };
  app.get(PointsPaths.history, { preHandler: app.requireUser }, (request) => answer(request, request.query));
  app.post(PointsPaths.history, { preHandler: app.requireUser }, (request) => answer(request, request.body));
}
