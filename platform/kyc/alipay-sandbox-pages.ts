/**
 * The sandbox Alipay gateway's certification page (alipay-sandbox.ts), where a tester decides the result of a face
 * certification: the masked name and ID number with 通过 / 不通过 forms (plain forms, POST then 303 redirect, no
 * JavaScript), then the result and a link back to the merchant's return URL. Pages are sent with a strict CSP.
 */
import { esc, sendSandboxPage } from '../core/sandbox-page.ts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { CertificationStore } from './alipay-sandbox-store.ts';

/** A certify_id: 32 hex digits. */
export const CERTIFY_ID_RE = /^[0-9a-f]{32}$/;

/**
 * Registers the page routes: `GET /certify/:certifyId` (the page) and `POST /certify/:certifyId`
 * (`decision=pass|fail`: records the decision once, then 303 to the page). Links are relative, so the routes
 * mount under any prefix.
 */
export function registerCertifyPages(
  app: FastifyInstance,
  store: CertificationStore,
  now: () => number,
): void {
  app.get<{ Params: { certifyId: string } }>('/certify/:certifyId', async (request, reply) => {
    const c = CERTIFY_ID_RE.test(request.params.certifyId) ? store.get(request.params.certifyId) : undefined;
    if (!c) return sendPage(reply, 404, '认证不存在', '<p>certify_id 不存在或已过期。</p>');
    const who = `<p>认证对象：<strong>${esc(c.maskedName)}</strong>，身份证号 ${esc(c.maskedCertNo)}</p>`;
    if (c.state === 'INIT') {
      const form = (decision: string, label: string) =>
        `<form method="post" action="${c.certifyId}"><input type="hidden" name="decision" value="${decision}">` +
        `<button type="submit" name="submit" value="${decision}">${label}</button></form>`;
      return sendPage(
        reply,
        200,
        '支付宝身份认证（沙箱）',
        `${who}<p>这是沙箱网关，不进行真实的人脸识别。请选择本次认证的结果：</p>` +
          `<div class="actions">${form('pass', '通过')}${form('fail', '不通过')}</div>`,
      );
    }
    const result = c.state === 'PASSED' ? '认证通过' : '认证不通过';
    const back = /^https?:\/\//.test(c.returnUrl)
      ? `<p><a href="${esc(c.returnUrl)}">返回商户页面</a></p>`
      : '';
    return sendPage(
      reply,
      200,
      result,
      `${who}<p class="result" data-state="${c.state}">${result}</p>${back}`,
    );
  });

  app.post<{ Params: { certifyId: string } }>('/certify/:certifyId', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const decision = body.decision;
    if (decision !== 'pass' && decision !== 'fail') {
      return sendPage(reply, 400, '请求无效', '<p>请选择“通过”或“不通过”。</p>');
    }
    const id = request.params.certifyId;
    const outcome = CERTIFY_ID_RE.test(id) ? await store.decide(id, decision === 'pass', now()) : 'missing';
    if (outcome === 'missing')
      return sendPage(reply, 404, '认证不存在', '<p>certify_id 不存在或已过期。</p>');
    if (outcome === 'conflict')
      return sendPage(reply, 409, '认证已完成', '<p>该认证已有结果，不能更改。</p>');
    return reply.code(303).header('location', id).send();
  });
}

/** Sends a small HTML page with `status`, `title` and `body` (HTML), never cached. */
export function sendPage(reply: FastifyReply, status: number, title: string, body: string) {
  return sendSandboxPage(reply, status, title, body, { accent: '#1677ff' });
}
