/**
 * The kinds of points sources (docs/decisions/057-points-api.md): every area that moves points registers its kinds
 * once at start — `registerPointsSource({ kind, label, direction })` — and names one source per entry as
 * `{ kind, ref }`, the reference unique within the kind (an order number, a redemption id). The label is the zh-CN
 * text the points page (积分明细) shows for the entry; the direction says whether the kind credits or debits, so a
 * credit can never be entered as a debit. An unregistered kind is a programming error: the points API throws.
 */

/** Which way a kind moves points. */
export type PointsDirection = 'credit' | 'debit';

/** A kind of source as an area registers it. */
export interface PointsSourceKind {
  /** Lower-case letters, digits and '-', starting with a letter, at most 32 characters (`source_kind`). */
  kind: string;
  /** zh-CN, at most 20 characters: what the points page shows (充值, 公证消费, 退还, 兑换码). */
  label: string;
  direction: PointsDirection;
}

/** One source of an entry: a registered kind and a reference unique within it (at most 64 characters). */
export interface PointsSource {
  kind: string;
  ref: string;
}

/** The kind names the journal's column takes. */
export const SOURCE_KIND_RE = /^[a-z][a-z0-9-]{0,31}$/;
/** Longest reference, characters (`points_journal.source_ref` is varchar(64)). */
export const MAX_SOURCE_REF = 64;
/** Longest label, characters. */
const MAX_LABEL = 20;

/** The kind is not registered (or registered with the other direction): a programming error of the caller. */
export class UnknownPointsSource extends Error {
  override readonly name = 'UnknownPointsSource';
}

const kinds = new Map<string, PointsSourceKind>();

/**
 * Registers a kind of source, once at start (a module's top level or the area's plugin). Registering the same kind
 * again with the same label and direction does nothing (a second app in one process, a test's re-run).
 * @throws TypeError for a malformed kind or label, or a kind already registered differently
 */
export function registerPointsSource(def: PointsSourceKind): void {
  if (!SOURCE_KIND_RE.test(def.kind)) throw new TypeError(`points source kind ${JSON.stringify(def.kind)}`);
  if (!def.label || def.label.length > MAX_LABEL) throw new TypeError(`points source label of ${def.kind}`);
  if (def.direction !== 'credit' && def.direction !== 'debit')
    throw new TypeError(`points source direction of ${def.kind}`);
  const known = kinds.get(def.kind);
  if (known) {
    if (known.label === def.label && known.direction === def.direction) return;
    throw new TypeError(`points source kind ${def.kind} is already registered differently`);
  }
  kinds.set(def.kind, Object.freeze({ ...def }));
}

/** The registered kind `kind`, if any. */
export function pointsSourceKind(kind: string): PointsSourceKind | undefined {
  return kinds.get(kind);
}

/**
 * Checks `source` against the registry before an entry is written.
 * @returns the kind's registration
 * @throws UnknownPointsSource when the kind is not registered or moves points the other way; TypeError for an empty
 *   or too long reference
 */
export function requireSource(source: PointsSource, direction: PointsDirection): PointsSourceKind {
  const kind = kinds.get(source.kind);
  if (!kind) throw new UnknownPointsSource(`points source kind ${source.kind} is not registered`);
  if (kind.direction !== direction)
    throw new UnknownPointsSource(
      `points source kind ${source.kind} is a ${kind.direction}, not a ${direction}`,
    );
  if (typeof source.ref !== 'string' || source.ref === '' || source.ref.length > MAX_SOURCE_REF)
    throw new TypeError(`points source reference of ${source.kind}: 1–${MAX_SOURCE_REF} characters`);
  return kind;
}
