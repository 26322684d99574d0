/**
 * App evidence through the open API (decision 039), JS on and off: a fresh account becomes a verified enterprise
 * (test hook; approval gives the AppID), /newMobile first asks it to generate a key that can sign, then shows its
 * credentials as ready; an "app" of this test (the typed client, clients/open-api.ts) uploads a photo with device
 * fields; the upload appears at /evidences-all/mobile-process, its queue page lists the steps and the device, and
 * its certificate names the device. A personal account is told the open API is for verified enterprises. axe-clean.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { OpenApiClient } from '../../clients/open-api.ts';
import { OpenApiPaths, type OpenApiState } from '../../contract/open-api.ts';
import { expect, test } from '../support/e2e-fixtures.ts';
import { apiLogin, DEMO, setUserStatus, TINY_PNG } from '../support/e2e.ts';

/**
 * axe-core's WCAG 2.1 A/AA and best-practice violations on `page` as it is now; none checked with JS off (axe runs as
 * a script in the page).
 */
async function axeViolations(page: Page): Promise<string[]> {
  if (test.info().project.name !== 'js-on') return [];
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return result.violations.map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ') ?? ''} — ${v.help}`);
}

test('an app preserves a photo through the open API; the capture pages show it', async ({
  page,
  request,
  freshUser,
  loginAs,
  baseURL,
}) => {
  const user = await freshUser('/newMobile');
  await expect(page.getByTestId('open-api-state')).toHaveAttribute('data-state', 'not-enterprise');
  await expect(page.getByText('开放接口仅向已认证的企业用户开放')).toBeVisible();

  await setUserStatus(request, user.mobile, '3', 2, 1);
  await page.goto('/newMobile');
  // approval gave an AppID; no key yet that can sign: rotate on the verification page
  await expect(page.getByTestId('open-api-state')).toHaveAttribute('data-state', 'rotate');
  const { token } = await apiLogin(request, user.mobile, user.password);
  const rotated = (await (
    await request.post('/api/user/resetSecurityKey', {
      headers: { authorization: `Bearer ${token}` },
      data: {},
    })
  ).json()) as { code: number; data: { securityKey: string } };
  expect(rotated.code).toBe(200);
  const state = (await (
    await request.get(OpenApiPaths.state, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { data: OpenApiState };
  await loginAs(user, '/newMobile');
  await expect(page.getByTestId('open-api-state')).toHaveAttribute('data-state', 'ready');
  await expect(page.getByText(state.data.appId)).toBeVisible();
  await expect(page.getByRole('link', { name: 'OpenAPI 3.1 文档' })).toHaveAttribute('href', '/openapi.json');
  expect(await axeViolations(page)).toEqual([]);

  const app = new OpenApiClient({
    baseUrl: baseURL!,
    appId: state.data.appId,
    securityKey: rotated.data.securityKey,
  });
  const saved = await app.saveFile(TINY_PNG, {
    title: '仓库门口照片',
    fileName: 'door.png',
    appType: '拍照取证',
    configName: '巡检终端 07',
    configModelName: 'PDA-X1',
  });

  await page.goto('/evidences-all/mobile-process');
  await expect(page.getByRole('heading', { name: '在线取证' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: '仓库门口照片' });
  await expect(row).toContainText(saved.baoquan);
  expect(await axeViolations(page)).toEqual([]);
  await row.getByRole('link', { name: '处理进度' }).click();
  await expect(page).toHaveURL(new RegExp(`/evidences-all/mobile/queue/${saved.baoquan}$`));
  await expect(page.getByTestId('queue-status')).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('step-log')).toContainText(saved.filehash);
  await expect(page.getByText('巡检终端 07')).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  await page.getByRole('link', { name: `查看证书 ${saved.baoquan}` }).click();
  await expect(page).toHaveURL(new RegExp(`/attestation/${saved.baoquan}$`));
  await expect(page.getByText('巡检终端 07').first()).toBeVisible();

  // another user's preservation number has no queue page for them
  await loginAs(DEMO, '/evidences-all/mobile-process');
  const other = await page.goto(`/evidences-all/mobile/queue/${saved.baoquan}`);
  expect(other?.status()).toBe(404);
});
