/**
 * Music works (decision 039), JS on and off: /evidences-all/music/new takes an audio file (a WAV written here),
 * the title, two authors by role and an ISRC; the certificate it lands on states them with the duration and format
 * read from the file, and the work is listed at /evidences-all/music. A file that is not audio is refused with the
 * platform's message on the form.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MusicMsg } from '../../contract/music.ts';
import { pcmWav } from '../support/audio.ts';
import { expect, test } from '../support/e2e-fixtures.ts';

/** A WAV of `seconds` of silence written to a temp file. */
function wavFile(seconds: number): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cz-music-e2e-')), 'song.wav');
  fs.writeFileSync(file, pcmWav(seconds, 8000, false));
  return file;
}

test('a music work is preserved with its authors, ISRC, duration and format', async ({
  page,
  freshUser,
}, info) => {
  await freshUser('/evidences-all/music/new');
  const title = `晨曲-${info.project.name}`;

  // not audio: refused, the form says why
  const text = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cz-music-e2e-')), 'notes.txt');
  fs.writeFileSync(text, '这不是音频');
  await page.getByLabel('作品名称').fill(title);
  await page.getByLabel('第 1 位作者的姓名').fill('李四');
  await page.getByLabel('音频文件').setInputFiles(text);
  await page.getByRole('button', { name: '提交保全' }).click();
  await expect(page.getByText(MusicMsg.notAudio)).toBeVisible();

  await page.getByLabel('作品名称').fill(title);
  await page.getByLabel('ISRC（国际标准录音制品编码，可选）').fill('CN-A12-26-00042');
  await page.getByLabel('第 1 位作者的角色').selectOption('作曲');
  await page.getByLabel('第 1 位作者的姓名').fill('李四');
  await page.getByLabel('第 2 位作者的角色').selectOption('演唱');
  await page.getByLabel('第 2 位作者的姓名').fill('王五');
  await page.getByLabel('音频文件').setInputFiles(wavFile(5));
  await page.getByRole('button', { name: '提交保全' }).click();
  await expect(page).toHaveURL(/\/attestation\/[^/]+$/);
  await expect(page.getByRole('row', { name: /ISRC/ })).toContainText('CN-A12-26-00042');
  await expect(page.getByRole('row', { name: /作曲/ })).toContainText('李四');
  await expect(page.getByRole('row', { name: /演唱/ })).toContainText('王五');
  await expect(page.getByRole('row', { name: /时长/ })).toContainText('5秒');
  await expect(page.getByRole('row', { name: /音频格式/ })).toContainText('8000 Hz');

  await page.goto('/evidences-all/music');
  await expect(page.getByRole('row').filter({ hasText: title })).toBeVisible();
  await expect(page.getByRole('link', { name: '新建音乐作品保全' })).toHaveAttribute(
    'href',
    '/evidences-all/music/new',
  );
});
