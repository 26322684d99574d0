/** The platform's answer to a path Fastify cannot route: the envelope with 请求参数错误, not English JSON. */
import { expect, it } from 'vitest';
import { Msg } from '../../contract/messages.ts';
import { forEachDialect } from '../../tests/support/platform.ts';

forEachDialect('platform: framework errors', (h) => {
  it.each(['/api/%E0', '/api/capture/shot/%E0%A4%A/1'])('%s answers 400 with the envelope', async (url) => {
    const res = await h.app.inject(url);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 400, msg: Msg.badRequest, data: null });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('an over-long route parameter answers 414 with the same envelope', async () => {
    const res = await h.app.inject(`/api/capture/shot/${'B'.repeat(150)}/1`);
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual({ code: 400, msg: Msg.badRequest, data: null });
  });
});
