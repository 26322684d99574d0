/**
 * Activities, app downloads and the previewProgress guard, JS on and off (spec 01 §2.1, spec 02 §2; decision 027):
 * /activity and /appDownload show their empty states when nothing is configured (the e2e server sets no ACTIVITIES /
 * APP_VERSIONS; the configured lists are covered by tests/integration/app-versions-activities-certificates.test.ts),
 * and the previewProgress route guard turns the extra slashes of a file-url into asterisks, so a token whose base64
 * kept its slashes still opens the file.
 */
import { encodeFileToken } from '../../app/certificate/file-token.server.ts';
import { expect, test } from '../support/e2e-fixtures.ts';
import { testSetting } from '../support/environment.ts';

test('/activity without configured events shows 暂无活动', async ({ page }) => {
  const res = await page.goto('/activity');
  expect(res?.status()).toBe(200);
  await expect(page).toHaveTitle('活动 - 存证云');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('活动');
  await expect(page.getByRole('status').filter({ hasText: '暂无活动' })).toBeVisible();
  await expect(page.getByText('抱歉，您访问的页面不存在!')).toHaveCount(0);
});

test('/appDownload without configured versions shows 暂无可下载的应用', async ({ page }) => {
  const res = await page.goto('/appDownload');
  expect(res?.status()).toBe(200);
  await expect(page).toHaveTitle('应用下载 - 存证云');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('应用下载');
  await expect(page.getByRole('status').filter({ hasText: '暂无可下载的应用' })).toBeVisible();
});

test('previewProgress: extra slashes inside the file-url become asterisks and the file link opens', async ({
  page,
}) => {
  // '?' and '>' bytes put '/' into the base64, so the token carries '*' where a raw link would carry '/'
  const fileUrl = '/helpCenter?q=>>>???';
  const token = encodeFileToken(fileUrl, testSetting('E2E_SESSION_SECRET')!);
  expect(token).toContain('*');
  const withSlashes = token.replace(/\*/g, '/');
  const res = await page.goto(`/mobile/previewProgress/${withSlashes}`);
  expect(res?.status()).toBe(200);
  await expect(page).toHaveURL(new RegExp(`/mobile/previewProgress/${token.replace(/[*+?]/g, '\\$&')}$`));
  const link = page.getByRole('link', { name: '下载原文件' });
  await expect(link).toHaveAttribute('href', fileUrl);
  await expect(page.getByRole('alert').filter({ hasText: '二维码无效' })).toHaveCount(0);

  // a forged token still shows the refusal after the guard
  const refused = await page.goto(`/mobile/previewProgress/${'A'.repeat(23)}${withSlashes.slice(23)}`);
  expect(refused?.status()).toBe(403);
  await expect(page.getByRole('alert').filter({ hasText: '二维码无效' })).toBeVisible();
});
