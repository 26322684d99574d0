/**
 * The script of the saved offline verifier (decision 036), built by scripts/build-offline-verifier.ts
 * into one IIFE that app/verify/offline.ts inlines into `cunzheng-verify.html`. The page holds the keys it checks
 * against in `<script type="application/json" id="cz-keys">` (the LedgerPublicKey published when it was saved); this
 * script takes the package the user picks or drops, checks it with package-browser.ts — the same seven steps as
 * /verify and `npm run verify` — and writes the verdict into `#cz-result`. Plain DOM, no framework; the page's CSP
 * (`default-src 'none'`) keeps it from reaching any network.
 */
import type { LedgerPublicKey } from '../../../contract/ledger.ts';
import { canCheckHere, checkPackageFile } from '../package-browser.ts';
import { STATUS_WORDS, summaryOf, type PackageVerdict } from '../package-steps.ts';

/** An element with a class and text. */
function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  text = '',
  className = '',
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text) node.textContent = text;
  if (className) node.className = className;
  return node;
}

/** The verdict as /verify shows it (package-check.tsx's VerdictView). */
function render(v: PackageVerdict, out: HTMLElement): void {
  out.textContent = '';
  if ('error' in v) {
    const p = el('p', v.error, 'error');
    p.setAttribute('role', 'alert');
    p.setAttribute('data-testid', 'package-error');
    out.appendChild(p);
    return;
  }
  const summary = el('p', summaryOf(v), v.ok ? 'notice' : 'error');
  summary.setAttribute('role', 'status');
  summary.setAttribute('data-testid', 'package-summary');
  out.appendChild(summary);
  const list = el('ol');
  for (const s of v.steps) {
    const li = el('li');
    li.setAttribute('data-testid', 'package-step');
    li.setAttribute('data-status', s.status);
    li.appendChild(el('strong', `${s.name}：${STATUS_WORDS[s.status]}`));
    li.appendChild(el('p', s.text));
    const details = el('details');
    details.appendChild(el('summary', '技术细节'));
    details.appendChild(el('code', s.detail));
    li.appendChild(details);
    list.appendChild(li);
  }
  out.appendChild(list);
}

function start(): void {
  const keysNode = document.getElementById('cz-keys');
  const input = document.getElementById('package') as HTMLInputElement | null;
  const zone = document.getElementById('cz-drop');
  const out = document.getElementById('cz-result');
  if (!keysNode || !input || !zone || !out) return;
  const key = JSON.parse(keysNode.textContent ?? 'null') as LedgerPublicKey;
  if (!canCheckHere()) {
    out.appendChild(el('p', '此浏览器不支持本机核验（缺少 WebCrypto），请换用较新的浏览器。', 'error'));
    return;
  }
  async function check(file: File | undefined) {
    if (!file || !out) return;
    out.textContent = '';
    out.appendChild(el('p', `正在核验 ${file.name}…`));
    render(await checkPackageFile(file, key), out);
  }
  input.addEventListener('change', () => void check(input.files?.[0]));
  zone.addEventListener('dragover', (e) => e.preventDefault());
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    void check(e.dataTransfer?.files[0]);
  });
  document.documentElement.className = 'js';
}

start();
