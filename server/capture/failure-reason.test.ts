/**
 * Capture failures in Chinese (decision 063 "Failures say why"): the proxy's refusal before Chromium's tunnel error,
 * time-outs in seconds, Chromium's network errors in words with their code, steps other than visits.
 */
import { TimeoutError } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { navigationFailure, stepFailure } from './failure-reason.ts';

const refused = { target: 'https://intranet.example:443', reason: '目标地址 10.0.0.1 属于内网地址' };

describe('navigationFailure', () => {
  it('gives the refusal the egress proxy recorded for the host, not the tunnel error', () => {
    const err = new Error('net::ERR_TUNNEL_CONNECTION_FAILED at https://intranet.example/');
    expect(navigationFailure(err, 'https://intranet.example/', [refused], 20_000)).toBe(
      '无法打开该网址：目标地址 10.0.0.1 属于内网地址',
    );
    // a redirect to a refused host: the tunnel failure names the newest refusal
    expect(navigationFailure(err, 'https://public.example/', [refused], 20_000)).toBe(
      '无法打开该网址：目标地址 10.0.0.1 属于内网地址',
    );
  });

  it('says a time-out in seconds, not in puppeteer words', () => {
    const err = new TimeoutError('Navigation timeout of 20000 ms exceeded');
    expect(navigationFailure(err, 'https://slow.example/', [], 20_000)).toBe(
      '无法打开该网址：加载超时（20 秒内未完成）',
    );
  });

  it("names Chromium's network errors in words and keeps the code", () => {
    const at = (code: string) => new Error(`net::${code} at https://x.example/`);
    expect(navigationFailure(at('ERR_NAME_NOT_RESOLVED'), 'https://x.example/', [], 1000)).toBe(
      '无法打开该网址：域名无法解析（ERR_NAME_NOT_RESOLVED）',
    );
    expect(navigationFailure(at('ERR_CERT_DATE_INVALID'), 'https://x.example/', [], 1000)).toBe(
      '无法打开该网址：网站证书无效（ERR_CERT_DATE_INVALID）',
    );
    expect(navigationFailure(at('ERR_QUIC_PROTOCOL_ERROR'), 'https://x.example/', [], 1000)).toBe(
      '无法打开该网址：网络错误（ERR_QUIC_PROTOCOL_ERROR）',
    );
    // a refused tunnel with no refusal recorded (the site itself refused): words, not the bare code
    expect(navigationFailure(at('ERR_TUNNEL_CONNECTION_FAILED'), 'https://x.example/', [], 1000)).toBe(
      '无法打开该网址：无法连接目标服务器（ERR_TUNNEL_CONNECTION_FAILED）',
    );
    expect(navigationFailure(new Error('Target closed'), 'https://x.example/', [], 1000)).toBe(
      '无法打开该网址：浏览器未能加载该页面',
    );
  });
});

describe('stepFailure', () => {
  it('says an element was not found in time, or cannot be used', () => {
    expect(stepFailure(new TimeoutError('Waiting for selector `#go` failed'), 8000)).toBe(
      '8 秒内未找到可操作的页面元素',
    );
    expect(stepFailure(new Error('Node is detached from document'), 8000)).toBe('页面元素无法操作');
  });
});
