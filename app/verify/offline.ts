/**
 * /verify/offline (decision 036): the offline verifier as one self-contained HTML file,
 * `cunzheng-verify.html`, to save and open later with no network. It holds the keys published now (the ledger key,
 * its note verifier key, the witnesses' keys, the TSA's certificates; shown on the page and read by the script), the
 * verifier script (build-offline/verifier.js, built from app/verify/offline/main.ts) and its styles inline, and a CSP
 * (`default-src 'none'`) under which the page cannot load or send anything. Served as an attachment: it is meant to
 * be saved, not run from this origin.
 */
import { data } from 'react-router';
import type { Route } from './+types/offline';
import { isSuccess } from '../../contract/envelope.ts';
import { escapeHtml } from '../../contract/html-escape.ts';
import { LedgerPaths, type LedgerPublicKey } from '../../contract/ledger.ts';
import { apiCall } from '../lib/api.server.ts';
import verifierScript from '../../build-offline/verifier.js?raw';
import { siteUrl } from '../lib/base-path.ts';

/** JSON safe inside a `<script>` element: no `<`, so no `</script>` and no `<!--`. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

const STYLE = `body{font:15px/1.6 "PingFang SC","Microsoft YaHei","Noto Sans CJK SC",sans-serif;color:#1f2933;margin:0;background:#f5f7fa}
main{max-width:760px;margin:0 auto;padding:16px}h1{font-size:22px}h2{font-size:17px;margin-top:20px}
dt{font-weight:bold;margin-top:8px}dd{margin:2px 0 0;word-break:break-all}code{font-family:Consolas,monospace;word-break:break-all}
.card{background:#fff;border:1px solid #d9e2ec;border-radius:6px;padding:12px 16px;margin:12px 0}
.drop{border:2px dashed #9fb3c8;text-align:center;padding:24px 12px}
.notice{color:#0b6e4f;font-weight:bold}.error{color:#b42318;font-weight:bold}
ol li{margin-bottom:8px}details{margin-top:2px}`;

/** The saved file's HTML for the published key `key`, saved from `origin` at `savedAt`. */
export function offlineVerifierHtml(key: LedgerPublicKey, origin: string, savedAt: Date): string {
  const witnesses = key.witnesses?.length
    ? `<ul>${key.witnesses.map((w) => `<li><code>${escapeHtml(w)}</code></li>`).join('')}</ul>`
    : '未配置（见证联署只列出名称，不核对签名）';
  const tsa = key.tsaCertificates
    ? `<details><summary>已公布，时间戳须由其签发（PEM）</summary><pre><code>${escapeHtml(key.tsaCertificates)}</code></pre></details>`
    : '未配置（只核对时间戳自带的证书）';
  return `<!DOCTYPE html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>证据包离线核验 - 存证云</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>证据包离线核验</h1>
<p>本文件是存证云的离线核验工具：保存到本机后，断网也可用浏览器打开。选择从证据页面下载的证据包（ZIP 文件），本页在浏览器中逐项核验原始文件、账本记录、包含证明、签名树头、见证联署和可信时间戳；不联网，不上传。</p>
<noscript><p class="error">本工具需要启用 JavaScript。也可在 ${escapeHtml(origin)}/verify 上传核验，或使用命令行工具 npm run verify。</p></noscript>
<h2>核验所用的密钥（${escapeHtml(origin)} 于 ${escapeHtml(savedAt.toISOString())} 公布）</h2>
<dl>
<dt>账本公钥（Ed25519）</dt><dd><code data-testid="trusted-key">${escapeHtml(key.keyId)}</code></dd>
${key.noteKey ? `<dt>检查点验证密钥</dt><dd><code>${escapeHtml(key.noteKey)}</code></dd>` : ''}
<dt>见证方</dt><dd>${witnesses}</dd>
<dt>可信时间戳机构证书</dt><dd>${tsa}</dd>
</dl>
<form class="card drop" id="cz-drop">
<label for="package">证据包（ZIP 文件，可拖放到此处）</label><br>
<input id="package" name="package" type="file" accept=".zip,application/zip">
</form>
<div id="cz-result" aria-live="polite"></div>
</main>
<script type="application/json" id="cz-keys">${scriptJson(key)}</script>
<script>${verifierScript.replace(/<\/script/gi, '<\\/script')}</script>
</body>
</html>
`;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const res = await apiCall<LedgerPublicKey>(context, LedgerPaths.publicKey);
  if (!isSuccess(res.code)) throw data({ message: res.msg }, { status: 502 });
  const html = offlineVerifierHtml(res.data, siteUrl(request, context, ''), new Date());
  return new Response(html, {
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Disposition': 'attachment; filename="cunzheng-verify.html"',
      'Cache-Control': 'public, max-age=300',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
