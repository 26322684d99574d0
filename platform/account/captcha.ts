/**
 * Image captchas guarding the SMS calls (spec 02 §5): 4 characters drawn by svg-captcha, valid 5 minutes, single
 * use — the sendSMS attempt consumes the captcha whether its answer was right or wrong. Answers compare
 * case-insensitively.
 */
import type { Kysely } from 'kysely';
import svgCaptcha from 'svg-captcha';
import type { ImgCodeData } from '../../contract/account.ts';
import { randomBase64Url, safeEqual } from '../core/crypto.ts';
import { nowSeconds } from '../core/time.ts';
import type { Database } from '../db/schema.ts';

/** Captcha lifetime, seconds. */
export const CAPTCHA_TTL_SECONDS = 300;

/** Creates and stores a captcha. @returns `{key, img}` with `img` a `data:image/svg+xml;base64,…` URI. */
export async function createCaptcha(db: Kysely<Database>): Promise<ImgCodeData> {
  // Letters/digits only (the contract's IMG_CODE_RE); lookalikes left out so people can read it.
  const captcha = svgCaptcha.create({
    size: 4,
    noise: 2,
    ignoreChars: '0oO1iIlL',
    color: true,
    background: '#f4f6f8',
  });
  const key = randomBase64Url(18);
  const now = nowSeconds();
  await db
    .insertInto('captchas')
    .values({
      key,
      answer: captcha.text.toLowerCase(),
      expires_at: now + CAPTCHA_TTL_SECONDS,
      consumed: 0,
      created_at: now,
    })
    .execute();
  // Expired captchas are litter: sweep them now and then.
  await db
    .deleteFrom('captchas')
    .where('expires_at', '<', now - CAPTCHA_TTL_SECONDS)
    .execute();
  return { key, img: `data:image/svg+xml;base64,${Buffer.from(captcha.data).toString('base64')}` };
}

/**
 * Consumes the captcha `key` (atomically: a second call finds it used) and checks `answer`.
 * @returns true only when the captcha existed, was unused, unexpired, and the answer matched (case-insensitive)
 */
export async function consumeCaptcha(db: Kysely<Database>, key: string, answer: string): Promise<boolean> {
  const row = await db
    .updateTable('captchas')
    .set({ consumed: 1 })
    .where('key', '=', key)
    .where('consumed', '=', 0)
    .where('expires_at', '>=', nowSeconds())
    .returning('answer')
    .executeTakeFirst();
  return row !== undefined && safeEqual(row.answer, answer.trim().toLowerCase());
}

/** The stored answer of a captcha (test hook only). */
export async function peekCaptcha(db: Kysely<Database>, key: string): Promise<string | null> {
  const row = await db.selectFrom('captchas').select('answer').where('key', '=', key).executeTakeFirst();
  return row?.answer ?? null;
}
