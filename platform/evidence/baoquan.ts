/**
 * Evidence numbers (baoquan): `BQ` + Beijing date yyyymmdd + 20 Crockford base32 characters from
 * crypto.randomBytes (100 random bits). The number is the only secret guarding a certificate (spec 01 §6), so
 * it must be unguessable; the date only helps people read it.
 */
import { randomCrockford } from '../core/crypto.ts';
import { beijingDateStamp } from '../core/time.ts';

/** Shape of every number this platform issues. */
export const BAOQUAN_RE = /^BQ\d{8}[0-9A-HJKMNP-TV-Z]{20}$/;

/** A fresh evidence number for `nowSeconds` (unix seconds). */
export function newBaoquan(nowSeconds: number): string {
  return `BQ${beijingDateStamp(nowSeconds)}${randomCrockford(20)}`;
}

/** Storage key of an evidence: the first two random characters fan out the directory, then the number. */
export function storageKeyFor(baoquan: string): string {
  return `${baoquan.slice(10, 12)}/${baoquan}`;
}
