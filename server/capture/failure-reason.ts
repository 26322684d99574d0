/**
 * Why a capture could not open a page or do a step, in Chinese, for the job's error, the certificate and the log
 * (decision 037; decision 063 "Failures say why"): the egress proxy's recorded refusal when the proxy refused the
 * target (Chromium itself only reports `net::ERR_TUNNEL_CONNECTION_FAILED` for a refused HTTPS tunnel), a time-out
 * in seconds instead of puppeteer's "Navigation timeout of 20000 ms exceeded", and Chromium's network errors
 * (`net::ERR_*`, Chromium's net_error_list.h) in words a user can act on, with the code kept for support.
 */
import { TimeoutError } from 'puppeteer-core';
import type { BlockedRequest } from './egress-proxy.ts';

/** Chromium network errors a capture meets, in words (net/base/net_error_list.h). */
const NET_ERRORS: Readonly<Record<string, string>> = {
  ERR_NAME_NOT_RESOLVED: '域名无法解析',
  ERR_NAME_RESOLUTION_FAILED: '域名无法解析',
  ERR_CONNECTION_REFUSED: '目标服务器拒绝连接',
  ERR_CONNECTION_TIMED_OUT: '连接目标服务器超时',
  ERR_TIMED_OUT: '连接目标服务器超时',
  ERR_CONNECTION_RESET: '连接被目标服务器重置',
  ERR_CONNECTION_CLOSED: '连接被目标服务器关闭',
  ERR_EMPTY_RESPONSE: '目标服务器未返回任何内容',
  ERR_ADDRESS_UNREACHABLE: '目标地址不可达',
  ERR_TOO_MANY_REDIRECTS: '重定向次数过多',
  ERR_INVALID_URL: '网址无效',
  ERR_SSL_PROTOCOL_ERROR: '无法与目标服务器建立安全连接',
  ERR_TUNNEL_CONNECTION_FAILED: '无法连接目标服务器',
  ERR_ABORTED: '页面加载被中止',
};

/** The refusal the proxy recorded for `url`'s host (`https://host:port` or the absolute URL), or null. */
function refusalFor(url: string, blocked: readonly BlockedRequest[]): string | null {
  let host: string;
  try {
    host = new URL(url).host;
  } catch {
    return null;
  }
  const hostOf = (target: string) => {
    try {
      return new URL(target).host;
    } catch {
      return null;
    }
  };
  return blocked.findLast((b) => hostOf(b.target) === host)?.reason ?? null;
}

/** Seconds of `ms`, for messages (at least 1). */
const seconds = (ms: number) => Math.max(1, Math.round(ms / 1000));

/**
 * Why opening `url` failed.
 * @param err what `page.goto` threw
 * @param blocked the job proxy's refusals so far (egress-proxy.ts)
 * @param timeoutMs the navigation's time-out, milliseconds
 * @returns `无法打开该网址：<why>` — the recorded refusal, `加载超时（N 秒内未完成）`, or Chromium's error in words and code
 */
export function navigationFailure(
  err: unknown,
  url: string,
  blocked: readonly BlockedRequest[],
  timeoutMs: number,
): string {
  const message = err instanceof Error ? err.message : String(err);
  const code = /net::(ERR_[A-Z_]+)/.exec(message)?.[1] ?? null;
  // a refused HTTPS tunnel reaches puppeteer as a tunnel failure: the proxy knows why
  const refused =
    refusalFor(url, blocked) ?? (code === 'ERR_TUNNEL_CONNECTION_FAILED' ? blocked.at(-1)?.reason : null);
  if (refused) return `无法打开该网址：${refused}`;
  if (err instanceof TimeoutError) return `无法打开该网址：加载超时（${seconds(timeoutMs)} 秒内未完成）`;
  if (code?.startsWith('ERR_CERT_')) return `无法打开该网址：网站证书无效（${code}）`;
  if (code) return `无法打开该网址：${NET_ERRORS[code] ?? '网络错误'}（${code}）`;
  return '无法打开该网址：浏览器未能加载该页面';
}

/**
 * Why a step other than visiting a URL failed (click, type): an element not found in time, or one that cannot be
 * used. @param timeoutMs the step's time-out, milliseconds
 */
export function stepFailure(err: unknown, timeoutMs: number): string {
  if (err instanceof TimeoutError) return `${seconds(timeoutMs)} 秒内未找到可操作的页面元素`;
  return '页面元素无法操作';
}
