/**
 * A music work's part of the certificate (decision 039; contract/music.ts): the ISRC, the authors grouped by
 * role in the order of MUSIC_ROLES, the duration and the audio format read from the file. Values are escaped by the
 * caller's table renderer.
 */
import { formatDuration, MUSIC_ROLES, type MusicWork } from '../../contract/music.ts';

/** The work stored with a music evidence (`evidences.work_json`), or null when missing or malformed. */
export function parseMusicWork(json: string | null | undefined): MusicWork | null {
  if (!json) return null;
  try {
    const w = JSON.parse(json) as MusicWork;
    return typeof w === 'object' && w !== null && Array.isArray(w.authors) ? w : null;
  } catch {
    return null;
  }
}

/** "MPEG（MPEG 1 Layer 3），44100 Hz，2 声道，128 kbps": what the file says of its format. */
export function audioFormatText(w: MusicWork): string {
  return [
    `${w.container || '未知'}${w.codec && w.codec !== w.container ? `（${w.codec}）` : ''}`,
    w.sampleRate ? `${w.sampleRate} Hz` : '',
    w.channels ? `${w.channels} 声道` : '',
    w.bitrate ? `${Math.round(w.bitrate / 1000)} kbps` : '',
  ]
    .filter(Boolean)
    .join('，');
}

/** The certificate rows of a music work (none when it is missing). */
export function musicRows(w: MusicWork | null | undefined): [string, string][] {
  if (!w) return [];
  const byRole = MUSIC_ROLES.flatMap((role): [string, string][] => {
    const names = w.authors.filter((a) => a.role === role).map((a) => a.name);
    return names.length ? [[role, names.join('、')]] : [];
  });
  return [
    [
      'ISRC',
      w.isrc
        ? `${w.isrc.slice(0, 2)}-${w.isrc.slice(2, 5)}-${w.isrc.slice(5, 7)}-${w.isrc.slice(7)}`
        : '未提供',
    ],
    ...byRole,
    ['时长', formatDuration(w.durationSeconds)],
    ['音频格式', audioFormatText(w)],
  ];
}
