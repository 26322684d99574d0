/**
 * The gateway's event consumer (server/pdf/event-consumer.ts; docs/decisions/059-evidence-events.md) against a real
 * platform through its in-process call: a commit wakes it at once (its idle poll is a minute here); it takes no
 * more than its handler has room for, leaving the rest in the platform; against a platform nobody answers it backs
 * off (1 s, doubling) instead of polling; `stop()` ends it at once.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TakenEvent } from '../../contract/events.ts';
import type { PlatformCall } from '../../contract/platform-call.ts';
import { buildPlatform } from '../../platform/app.ts';
import { saveEvidence } from '../../platform/evidence/service.ts';
import { takeEvents } from '../../platform/events/events.ts';
import { answerInProcess } from '../../platform/in-process-call.ts';
import { testConfig } from '../../tests/support/platform.ts';
import { freePort } from '../../tests/support/ports.ts';
import { EventConsumer, type EventConsumerOptions } from './event-consumer.ts';

const logger = pino({ level: 'silent' });

describe('the event consumer', () => {
  let dir: string;
  let app: FastifyInstance;
  let call: PlatformCall;
  let demoId: number;
  const consumers: EventConsumer[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'cz-consumer-'));
    app = await buildPlatform(testConfig(dir, undefined), { logger: false });
    call = (request) => answerInProcess(app, request, '127.0.0.1');
    const demo = await app.pdb.db
      .selectFrom('users')
      .select('id')
      .where('mobile', '=', '13800138000')
      .executeTakeFirstOrThrow();
    demoId = Number(demo.id);
  });
  afterAll(async () => {
    await Promise.all(consumers.map((c) => c.stop()));
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const save = () =>
    saveEvidence(app.pdb, app.storage, {
      userId: demoId,
      title: '唤醒测试',
      label: '',
      fileName: '',
      file: { path: null, size: 0, sha256: randomBytes(32).toString('hex') },
      type: { fileType: 5, mime: '' },
      kind: 'hash',
    });
  const consumer = (opts: Partial<EventConsumerOptions>) => {
    const c = new EventConsumer({
      consumer: 'test',
      target: { upstreamUrl: 'http://127.0.0.1:9', platformCall: call },
      internalKey: app.internalKey,
      room: () => 100,
      handle: () => undefined,
      wakeUps: true,
      pollMs: 60_000,
      logger,
      ...opts,
    });
    consumers.push(c);
    return c;
  };

  it('takes a committed event at once when woken, though its poll is a minute away', async () => {
    const taken: TakenEvent[] = [];
    const c = consumer({ consumer: 'woken', handle: (events) => taken.push(...events) });
    c.start();
    await new Promise((r) => setTimeout(r, 300)); // its first take is done: it sleeps
    const saved = await save();
    const started = Date.now();
    await expect.poll(() => taken.map((e) => e.baoquan), { timeout: 5000 }).toContain(saved.baoquan);
    expect(Date.now() - started).toBeLessThan(5000);
    await c.stop();
  });

  it('takes only as many as its handler has room for; the rest stay in the platform', async () => {
    for (let i = 0; i < 5; i++) await save();
    let room = 2;
    const taken: TakenEvent[] = [];
    const c = consumer({
      consumer: 'roomy',
      room: () => room,
      handle: (events) => {
        taken.push(...events);
        room = 0;
      },
    });
    c.start();
    await expect.poll(() => taken.length).toBe(2);
    await new Promise((r) => setTimeout(r, 700));
    expect(taken.length).toBe(2);
    await c.stop();
    // what it had no room for is still there for the same consumer
    const left = await takeEvents(app.pdb.db, 'roomy', 100);
    expect(left.length).toBeGreaterThanOrEqual(4);
    expect(left[0]!.id).toBeGreaterThan(taken[1]!.id);
  });

  it('backs off from a platform nobody answers, and stops at once', async () => {
    const c = consumer({
      consumer: 'unreachable',
      target: { upstreamUrl: `http://127.0.0.1:${await freePort()}` },
      wakeUps: false,
      pollMs: 10,
    });
    c.start();
    await new Promise((r) => setTimeout(r, 2500));
    // tries at 0, 1 s and 3 s: a 10 ms poll would have tried hundreds of times
    expect(c.failures).toBeGreaterThanOrEqual(1);
    expect(c.failures).toBeLessThanOrEqual(3);
    const stopping = Date.now();
    await c.stop();
    expect(Date.now() - stopping).toBeLessThan(500);
  });
});
