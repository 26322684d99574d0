/**
 * App versions, activities and the certificate calls through the real process (gateway + embedded platform + built
 * UI; spec 01 §2.1, §7; decision 027): the configured app versions and activities on /appDownload and /activity (and
 * their calls through the /api proxy), and the certificate calls: check/downCertificate after a public lookup and
 * data/downContract answer the gateway's certificate PDF path, which really serves a PDF; share/downBaoquan's package
 * URL for the owner.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DownloadData, SaveEvidenceData } from '../../contract/evidence.ts';
import type { CertificateDownloadData } from '../../contract/evidence-share.ts';
import { EvidencePaths } from '../../contract/evidence.ts';
import { type Activity, type AppVersion, HomePaths } from '../../contract/home.ts';
import { VerifyPaths, type ViewTokenData } from '../../contract/verify.ts';
import { apiLogin, type Envelope, startWhole, type Whole } from '../support/integration.ts';

const VERSIONS: AppVersion[] = [
  {
    platform: 'Android',
    name: '存证云取证',
    version: '3.2.1',
    url: 'https://example.com/cz.apk',
    size: 31_457_280,
  },
  {
    platform: 'iOS',
    name: '存证云取证',
    version: '3.1.0',
    url: 'https://apps.apple.com/app/id1',
    notes: '支持拍照取证',
  },
];
const ACTIVITIES: Activity[] = [
  { title: '往届培训', startAt: '2020-03-01', endAt: '2020-03-02', location: '北京' },
  { title: '长期活动', startAt: '2020-01-01', endAt: '2099-12-31', url: '/helpCenter', summary: '全年开放' },
  { title: '未来峰会', startAt: '2099-06-01', endAt: '2099-06-01' },
];

describe.sequential('app versions, activities and certificate calls through the gateway', () => {
  let whole: Whole;
  beforeAll(async () => {
    whole = await startWhole({
      APP_VERSIONS: JSON.stringify(VERSIONS),
      ACTIVITIES: JSON.stringify(ACTIVITIES),
    });
  });
  afterAll(async () => {
    await whole?.stop();
  });
  const api = async <T>(path: string, body?: Record<string, string>, token?: string, method = 'POST') => {
    const res = await fetch(`${whole.base}${path}`, {
      method,
      headers: {
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body ? new URLSearchParams(body) : undefined,
    });
    return (await res.json()) as Envelope<T>;
  };

  it('/appDownload lists the configured versions with their links', async () => {
    expect(await api<AppVersion[]>(HomePaths.appVersion)).toMatchObject({ code: 200, data: VERSIONS });
    const res = await fetch(`${whole.base}/appDownload`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).not.toContain('暂无可下载的应用');
    expect(html).toContain('存证云取证（Android）');
    expect(html).toContain('href="https://example.com/cz.apk"');
    expect(html).toContain('30.0 MB');
    expect(html).toContain('支持拍照取证');
  });

  it('/activity lists the configured events, latest first, with their status', async () => {
    const a = await api<Activity[]>(HomePaths.activities, undefined, undefined, 'GET');
    expect(a.data.map((x) => x.title)).toEqual(['未来峰会', '往届培训', '长期活动']);
    const html = await (await fetch(`${whole.base}/activity`)).text();
    expect(html).not.toContain('暂无活动');
    const order = ['未来峰会', '往届培训', '长期活动'].map((t) => html.indexOf(t));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((x, y) => x - y)).toEqual(order);
    expect(html).toMatch(/【即将开始】[\s\S]*未来峰会|未来峰会[\s\S]*【即将开始】/);
    expect(html).toContain('【已结束】');
    expect(html).toContain('【进行中】');
    expect(html).toContain('<a href="/helpCenter" rel="noopener noreferrer">长期活动</a>');
  });

  it('downCertificate and downContract answer the certificate PDF, which the gateway serves', async () => {
    const token = await apiLogin(whole.base);
    const form = new FormData();
    form.set('title', '证书下载');
    form.set('file', new Blob([Buffer.from(`certificate ${Date.now()}`)]), 'c.txt');
    const saved = (await (
      await fetch(`${whole.base}${EvidencePaths.save}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      })
    ).json()) as Envelope<SaveEvidenceData>;
    expect(saved.code).toBe(200);
    const no = saved.data.baoquan;

    const viewToken = (await api<ViewTokenData>(VerifyPaths.bqno, { no })).data.viewToken;
    const cert = await api<CertificateDownloadData>(VerifyPaths.downCertificate, { viewToken, no });
    expect(cert).toMatchObject({ code: 200, data: { downUrl: `/attestation/${no}.pdf` } });
    const own = await api<CertificateDownloadData>(
      EvidencePaths.ownerCertificate,
      { dataId: String(saved.data.id) },
      token,
    );
    expect(own.data).toEqual(cert.data);

    const pdf = await fetch(`${whole.base}${cert.data.downUrl}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    const share = await api<DownloadData>(EvidencePaths.shareDownload, { baoquan: no }, token);
    expect(share.code).toBe(200);
    const zip = await fetch(`${whole.base}${share.data.packageUrl}`);
    expect(zip.status).toBe(200);
    expect(
      Buffer.from(await zip.arrayBuffer())
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');
    // anonymous without a code: a 4xx answer in Chinese, not a 500
    expect(await api(EvidencePaths.shareDownload, { baoquan: no })).toMatchObject({
      code: 400,
      msg: '请输入提取码',
    });
  }, 90_000);
});
