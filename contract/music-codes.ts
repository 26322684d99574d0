/**
 * Music works' paths, roles, limits and messages (contract/music.ts has the schemas; decision 039), without zod,
 * so that the form page names them without loading the schemas into the browser.
 */

export const MusicPaths = {
  /**
   * `POST` multipart (user, verified): text parts `title`, `label`, `isrc`, `authors[i].role`, `authors[i].name`
   * (i from 0), then the file part `file` (audio) → SaveEvidenceData.
   */
  save: '/api/music/save',
} as const;

/** The roles an author of a music work may have (the usual credits of a Chinese release). */
export const MUSIC_ROLES = ['作词', '作曲', '编曲', '演唱', '演奏', '制作人', '录音制作者'] as const;
export type MusicRole = (typeof MUSIC_ROLES)[number];

/** Most authors one work lists (the form shows as many rows). */
export const MAX_MUSIC_AUTHORS = 6;

export const MusicMsg = {
  authorsRequired: '请至少填写一位作者',
  roleInvalid: '请选择作者的角色',
  nameRequired: '请填写作者姓名',
  isrcInvalid: 'ISRC 格式不正确，应如 CN-A12-26-00001（12 位）',
  notAudio: '请上传音频文件（MP3、FLAC、WAV、AAC、OGG 等）',
} as const;
