/**
 * LOG_FORMAT (docs/decisions/050-configuration.md): `pretty` writes one human line per event — an access line stays
 * one line per request — and redaction still applies; unset, standard output that is no terminal gets JSON, as
 * `LOG_FORMAT=json` forces.
 */
import { PassThrough } from 'node:stream';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadPlatformConfig } from '../config.ts';
import { AccessLogController } from '../../lib/access-log.ts';
import { createLogger, resolveLogFormat } from '../../lib/logger.ts';
import { redactingChildLoggerFactory } from '../../lib/log-redact.ts';

/** A logger of `format` writing into a buffer, and the lines written so far. */
function captured(format: 'pretty' | 'json') {
  const sink = new PassThrough();
  let text = '';
  sink.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const logger = createLogger({ level: 'info', format }, sink);
  return { logger, lines: () => text.split('\n').filter(Boolean) };
}

/** Serves one request with a token and an extraction code in its query, logged through `logger`. */
async function oneRequest(logger: FastifyBaseLogger): Promise<void> {
  const app = Fastify({ loggerInstance: logger, logController: new AccessLogController('all') });
  app.setChildLoggerFactory(redactingChildLoggerFactory);
  app.get('/api/file/BQ1', async () => 'ok');
  await app.inject({ method: 'GET', url: '/api/file/BQ1?token=tok-secret-1&extractCode=9876&x=1' });
  await app.close();
}

describe('LOG_FORMAT', () => {
  it('pretty: one human line per request, redacted', async () => {
    const { logger, lines } = captured('pretty');
    await oneRequest(logger.child({ part: 'gateway' }) as FastifyBaseLogger);
    const access = lines().filter((l) => l.includes('request'));
    expect(access).toHaveLength(1);
    const [line] = access;
    expect(line).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: \[gateway\] request /);
    expect(() => JSON.parse(line!)).toThrow();
    expect(line).toContain('"status":200');
    expect(line).toContain('[REDACTED]');
    expect(lines().join('\n')).not.toMatch(/tok-secret-1|9876/);
  });

  it('json: one JSON object per line, redacted', async () => {
    const { logger, lines } = captured('json');
    await oneRequest(logger as FastifyBaseLogger);
    const access = lines()
      .map((l) => JSON.parse(l) as { msg: string; url?: string; status?: number })
      .filter((l) => l.msg === 'request');
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({ status: 200, url: expect.stringContaining('[REDACTED]') });
    expect(lines().join('\n')).not.toMatch(/tok-secret-1|9876/);
  });

  it('unset: pretty on a terminal, JSON otherwise; LOG_FORMAT decides when set', () => {
    expect(resolveLogFormat(undefined, { isTTY: false })).toBe('json');
    expect(resolveLogFormat(undefined, {})).toBe('json');
    expect(resolveLogFormat(undefined, { isTTY: true })).toBe('pretty');
    expect(resolveLogFormat('json', { isTTY: true })).toBe('json');
    expect(resolveLogFormat('pretty', { isTTY: false })).toBe('pretty');
    expect(loadPlatformConfig({ LOG_FORMAT: 'PRETTY' }).logFormat).toBe('pretty');
    expect(loadPlatformConfig({}).logFormat).toBeUndefined();
    expect(() => loadPlatformConfig({ LOG_FORMAT: 'yaml' })).toThrow(
      /LOG_FORMAT: must be one of pretty, json, got "yaml"/,
    );
  });
});
