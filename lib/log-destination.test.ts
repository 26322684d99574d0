/** The loggers' destination (core/log-destination.ts): a line is in the file when the call returns, whole. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, expect, it } from 'vitest';
import { logDestination } from './log-destination.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

it('writes each line before the logging call returns, one JSON line per call', () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cz-log-'));
  const file = path.join(dir, 'out.log');
  const fd = fs.openSync(file, 'a');
  try {
    const log = pino({ level: 'info' }, logDestination(fd));
    log.info({ n: 1 }, 'first');
    // no tick has passed: an asynchronous destination would not have written yet
    expect(
      fs
        .readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).msg),
    ).toEqual(['first']);
    log.info({ n: 2 }, 'second');
    const lines = fs
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.msg, l.n])).toEqual([
      ['first', 1],
      ['second', 2],
    ]);
  } finally {
    fs.closeSync(fd);
  }
});
