/**
 * Music works on both dialects (decision 039): a WAV written here and an MP3 encoded by Debian's ffmpeg are
 * preserved with their authors by role and an ISRC; the duration and format are read from the files
 * (music-metadata) and the certificate states them; a file that is not audio, a missing author, an unknown role and
 * a malformed ISRC are refused with their Chinese messages and keep nothing. Music works have their own list.
 */
import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { EvidencePaths, type EvidenceListData, type EvidenceView } from '../../contract/evidence.ts';
import { formatDuration, MusicMsg } from '../../contract/music.ts';
import { userFactory } from '../../tests/support/account.ts';
import { filesUnder } from '../../tests/support/integration.ts';
import { evidenceCalls } from '../../tests/support/evidence.ts';
import { forEachDialect, get } from '../../tests/support/platform.ts';
import { pcmWav } from '../../tests/support/audio.ts';

/** An MP3 of `seconds` of a tone, encoded by ffmpeg. */
async function mp3(seconds: number): Promise<Buffer> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-music-'));
  const out = path.join(dir, 'tone.mp3');
  execFileSync(
    'ffmpeg',
    ['-v', 'error', '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`].concat([
      '-ac',
      '2',
      '-b:a',
      '64k',
      out,
    ]),
  );
  const bytes = await fsp.readFile(out);
  await fsp.rm(dir, { recursive: true, force: true });
  return bytes;
}

forEachDialect('music works', (h) => {
  const newUser = userFactory(h);

  const { saveMusic: save } = evidenceCalls(h);
  const certificate = async (baoquan: string) =>
    (await get<EvidenceView>(h.app, EvidencePaths.view, { baoquan })).data;

  it('preserves a WAV and an MP3 with their authors and ISRC; the certificate states duration and format', async () => {
    const u = await newUser();
    const saved = await save(
      u.token,
      {
        title: '春日序曲',
        isrc: 'cn-a12-26-00001',
        'authors[0].role': '作词',
        'authors[0].name': '张三',
        'authors[1].role': '作曲',
        'authors[1].name': '李四',
        'authors[2].role': '',
        'authors[2].name': '',
        'authors[3].role': '作曲',
        'authors[3].name': '王五',
      },
      pcmWav(3),
      'spring.wav',
    );
    expect([saved.code, saved.msg]).toEqual([200, '保全成功']);
    const view = await certificate(saved.data.baoquan);
    expect(view.kind).toBe('music');
    const text = view.html.replace(/<[^>]+>/g, '|');
    expect(text).toContain('|ISRC||CN-A12-26-00001|');
    expect(text).toContain('|作词||张三|');
    expect(text).toContain('|作曲||李四、王五|');
    expect(text).toContain('|时长||3秒|');
    expect(text).toMatch(/\|音频格式\|\|WAVE（PCM）?，8000 Hz，1 声道/);
    expect(text).toContain('|证据类型||音乐作品保全|');

    const song = await save(
      u.token,
      { title: '夏夜', 'authors[0].role': '演唱', 'authors[0].name': '赵六' },
      await mp3(4),
      'summer.mp3',
    );
    expect(song.code).toBe(200);
    const songText = (await certificate(song.data.baoquan)).html.replace(/<[^>]+>/g, '|');
    expect(songText).toContain('|ISRC||未提供|');
    expect(songText).toContain('|时长||4秒|');
    expect(songText).toMatch(/\|音频格式\|\|MPEG（MPEG 1 Layer 3），\d+ Hz，2 声道，64 kbps/);

    const music = await get<EvidenceListData>(h.app, EvidencePaths.list, { v: 'music' }, u.token);
    expect(music.data.list.map((e) => e.title).sort()).toEqual(['夏夜', '春日序曲']);
    const files = await get<EvidenceListData>(h.app, EvidencePaths.list, {}, u.token);
    expect(files.data.count).toBe(0);
  });

  it('refuses what is not audio, a work without authors, an unknown role and a malformed ISRC, keeping nothing', async () => {
    const u = await newUser();
    const stored = filesUnder(path.join(h.dataDir, 'evidence')).length;
    const author = { 'authors[0].role': '作曲', 'authors[0].name': '李四' };
    const cases: [Record<string, string>, Buffer, string][] = [
      [{ title: '不是音频', ...author }, Buffer.from('%PDF-1.7 not audio at all'), MusicMsg.notAudio],
      [{ title: '没有作者' }, pcmWav(1), MusicMsg.authorsRequired],
      [
        { title: '角色不对', 'authors[0].role': '导演', 'authors[0].name': '某人' },
        pcmWav(1),
        MusicMsg.roleInvalid,
      ],
      [{ title: '只有角色', 'authors[0].role': '作曲' }, pcmWav(1), MusicMsg.nameRequired],
      [{ title: 'ISRC 错', isrc: 'CN-123', ...author }, pcmWav(1), MusicMsg.isrcInvalid],
    ];
    for (const [fields, data, msg] of cases) {
      const r = await save(u.token, fields, data, 'x.wav');
      expect([r.code, r.msg], fields.title).toEqual([400, msg]);
    }
    const music = await get<EvidenceListData>(h.app, EvidencePaths.list, { v: 'music' }, u.token);
    expect(music.data.count).toBe(0);
    expect(filesUnder(path.join(h.dataDir, 'evidence')).length).toBe(stored);
    expect(filesUnder(h.app.tmpDir)).toEqual([]);
  });
});

it('formats durations for the certificate', () => {
  expect([formatDuration(3), formatDuration(205.4), formatDuration(3725), formatDuration(null)]).toEqual([
    '3秒',
    '3分25秒',
    '1小时2分5秒',
    '未知',
  ]);
});
