/**
 * Music works (decision 039; spec 01 §2 route `/evidences-all/music`): an audio file preserved with the work's
 * metadata — its title, its authors by role, its ISRC when it has one — and what the file itself says of its
 * duration and format (read by the platform with music-metadata). The evidence is of kind `music`; its certificate
 * shows all of it.
 *
 * ISRC: ISO 3901, 12 characters — country code (2 letters), registrant code (3 letters or digits), year of reference
 * (2 digits), designation code (5 digits); written with or without hyphens (CN-A12-26-00001), stored without.
 */
import { z } from 'zod';
import './zod-locale.ts';
import { freeText } from './validators.ts';
import { MAX_MUSIC_AUTHORS, MUSIC_ROLES, MusicMsg } from './music-codes.ts';

export { MAX_MUSIC_AUTHORS, MUSIC_ROLES, MusicMsg, MusicPaths, type MusicRole } from './music-codes.ts';

/** One credited author. */
export const MusicAuthor = z.object({
  role: z.enum(MUSIC_ROLES, { error: MusicMsg.roleInvalid }),
  name: z
    .string({ error: MusicMsg.nameRequired })
    .trim()
    .min(1, MusicMsg.nameRequired)
    .max(50, '作者姓名不能超过50个字符'),
});
export type MusicAuthor = z.infer<typeof MusicAuthor>;

/** An ISRC as typed: hyphens and spaces dropped, upper case, then checked (ISO 3901). '' when none. */
export const Isrc = z
  .string()
  .optional()
  .transform((s) => (s ?? '').replace(/[\s-]/g, '').toUpperCase())
  .refine((s) => s === '' || /^[A-Z]{2}[A-Z0-9]{3}\d{7}$/.test(s), MusicMsg.isrcInvalid);

/**
 * The text parts of a music save, as the platform reads them from the multipart body: rows whose role and name are
 * both empty are ignored; at least one author is needed.
 */
export const SaveMusicFields = z.object({
  title: freeText('作品名称', 100, true),
  label: freeText('标签', 30),
  isrc: Isrc,
  authors: z.array(MusicAuthor).min(1, MusicMsg.authorsRequired).max(MAX_MUSIC_AUTHORS),
});
export type SaveMusicFields = z.infer<typeof SaveMusicFields>;

/**
 * The flat multipart fields (`authors[0].role` …) as the object {@link SaveMusicFields} parses: author rows in index
 * order, empty rows dropped.
 */
export function musicFieldsOf(fields: Record<string, string>): Record<string, unknown> {
  const rows = new Map<number, { role: string; name: string }>();
  for (const [k, v] of Object.entries(fields)) {
    const m = /^authors\[(\d{1,2})\]\.(role|name)$/.exec(k);
    if (!m) continue;
    const i = Number(m[1]);
    const row = rows.get(i) ?? { role: '', name: '' };
    row[m[2] as 'role' | 'name'] = v.trim();
    rows.set(i, row);
  }
  const authors = [...rows.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, r]) => r)
    .filter((r) => r.role || r.name);
  return { title: fields.title, label: fields.label, isrc: fields.isrc, authors };
}

/** What the platform keeps of a work besides the file (`evidences.work_json`). Seconds, bits per second, hertz. */
export interface MusicWork {
  isrc: string;
  authors: MusicAuthor[];
  /** Seconds (fractional), or null when the file does not say. */
  durationSeconds: number | null;
  /** The container as the file names it (e.g. MPEG, FLAC, WAVE, Ogg). */
  container: string;
  /** The codec (e.g. MPEG 1 Layer 3, PCM), '' when unknown. */
  codec: string;
  sampleRate: number | null;
  bitrate: number | null;
  channels: number | null;
}

/** "3分25秒" (whole seconds, rounded) of a duration in seconds; "未知" for null. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '未知';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h ? `${h}小时` : ''}${h || m ? `${m}分` : ''}${s % 60}秒`;
}
