/**
 * Notifications (spec 01 §2.6; decision 009), JS on and off: saving evidence notifies, opening one marks it read and
 * the top-bar badge drops, delete selected and mark all read.
 */
import { expect, test } from '../support/e2e-fixtures.ts';
import { makeFile, preserveFile } from '../support/e2e.ts';

test('notifications: saving evidence notifies, opening marks read and the badge drops, delete and mark all', async ({
  page,
  freshUser,
}, info) => {
  await freshUser('/attestation-list/file');
  for (const i of [1, 2, 3]) {
    await preserveFile(
      page,
      `通知-${info.project.name}-${i}`,
      makeFile(`news-${info.project.name}-${i}.bin`, 500 + i).file,
    );
  }
  await page.goto('/notifications');
  const badge = page.locator('.topbar .badge');
  await expect(badge).toHaveText('3');
  const rows = page.getByTestId('news-row');
  await expect(rows).toHaveCount(3);
  await expect(page.locator('tr.unread')).toHaveCount(3);
  await page.locator('tr.unread').first().getByRole('button').click();
  await expect(page.locator('tr.unread')).toHaveCount(2);
  await expect(badge).toHaveText('2');
  await rows.nth(2).getByRole('checkbox').check();
  await page.getByRole('button', { name: '删除所选' }).click();
  await expect(page.getByTestId('news-row')).toHaveCount(2);
  await page.getByRole('button', { name: '全部标记已读' }).click();
  await expect(page.locator('tr.unread')).toHaveCount(0);
  await expect(badge).toHaveCount(0);
});
