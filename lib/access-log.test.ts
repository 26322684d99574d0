/** The access log: one redacted line per request, by ACCESS_LOG mode (lib/access-log.ts). */
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { AccessLogController, AccessLogSchema, type AccessLogMode } from './access-log.ts';
import { REDACTED } from './log-redact.ts';

/** A Fastify app logging to memory with `mode`; routes answer 200, 404 (not found), 403 and a thrown 500. */
async function appWith(mode: AccessLogMode) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const app = Fastify({
    loggerInstance: pino({ level: 'info' }, sink),
    logController: new AccessLogController(mode),
  });
  app.get('/ok', async () => ({ ok: true }));
  app.get('/refused', async (_request, reply) => reply.code(403).send({ ok: false }));
  app.get('/broken', async () => {
    throw new Error('boom');
  });
  await app.ready();
  return { app, lines };
}

describe('access log', () => {
  it('logs one line per request with method, redacted URL, status and time, at error level for 5xx only', async () => {
    const { app, lines } = await appWith('all');
    await app.inject({ method: 'GET', url: '/ok?token=secret-token&page=2' });
    await app.inject({ method: 'GET', url: '/refused' });
    const requestLines = lines.filter((l) => l.msg === 'request');
    expect(requestLines).toHaveLength(2);
    expect(requestLines[0]).toMatchObject({
      level: 30,
      method: 'GET',
      url: `/ok?token=${REDACTED}&page=2`,
      status: 200,
    });
    expect(typeof requestLines[0]!.ms).toBe('number');
    expect(typeof requestLines[0]!.reqId).toBe('string');
    expect(requestLines[1]).toMatchObject({ level: 30, status: 403 });
    // Fastify's own two lines per request are gone
    expect(lines.some((l) => l.msg === 'incoming request' || l.msg === 'request completed')).toBe(false);
    expect(JSON.stringify(lines)).not.toContain('secret-token');
    await app.close();
  });

  it('keeps the error of a failed request (line at error level with err)', async () => {
    const { app, lines } = await appWith('all');
    await app.inject({ method: 'GET', url: '/broken' });
    const line = lines.find((l) => l.msg === 'request')!;
    expect(line).toMatchObject({ level: 50, status: 500 });
    expect(JSON.stringify(lines)).toContain('boom');
    await app.close();
  });

  it('logs only failures in mode errors, and no request line in mode off', async () => {
    const errorsOnly = await appWith('errors');
    await errorsOnly.app.inject({ method: 'GET', url: '/ok' });
    await errorsOnly.app.inject({ method: 'GET', url: '/refused' });
    await errorsOnly.app.inject({ method: 'GET', url: '/nowhere' });
    expect(errorsOnly.lines.filter((l) => l.msg === 'request').map((l) => l.status)).toEqual([403, 404]);
    await errorsOnly.app.close();

    const off = await appWith('off');
    await off.app.inject({ method: 'GET', url: '/ok' });
    await off.app.inject({ method: 'GET', url: '/broken' });
    expect(off.lines.filter((l) => l.msg === 'request')).toEqual([]);
    // the default error handler's own line still reports the failure
    expect(JSON.stringify(off.lines)).toContain('boom');
    await off.app.close();
  });

  it('reads ACCESS_LOG: all by default (also when empty), errors, off; anything else is refused', () => {
    expect(AccessLogSchema.parse(undefined)).toBe('all');
    expect(AccessLogSchema.parse(' ')).toBe('all');
    expect(AccessLogSchema.parse('ERRORS')).toBe('errors');
    expect(AccessLogSchema.parse('off')).toBe('off');
    expect(() => AccessLogSchema.parse('some')).toThrow(/ACCESS_LOG must be one of all, errors, off/);
  });
});
