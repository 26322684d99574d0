/**
 * The job queue in the operator console (decision 045): an admin sees the platform's recurring tasks — face
 * polling, payment reconciliation, the file sweep and the evidence-event prune (decision 059) — at /ops/jobs, worked in-process on SQLite by the e2e server; the task runs
 * (face.poll every 3 s) keep its chain queued or running; under them the background worker's jobs (certificate
 * renders and captures; docs/decisions/064-background-worker.md) with their counts and longest wait; a reviewer is
 * not shown the page.
 */
import { expect, test } from '../support/e2e-fixtures.ts';
import { createOperator } from '../support/e2e.ts';

test('an admin sees the recurring jobs and their state; a reviewer does not', async ({
  page,
  opsLoginAs,
}) => {
  await opsLoginAs(createOperator('admin'), page);
  await page.getByRole('link', { name: '后台任务' }).click();
  await expect(page.getByRole('heading', { name: '后台任务' })).toBeVisible();
  await expect(page.getByText('任务队列：SQLite（本进程内）')).toBeVisible();
  const rows = page.getByTestId('job-row');
  await expect(rows).toHaveCount(4);
  await expect(rows.filter({ hasText: 'face.poll' })).toContainText('人脸核身结果查询（每 3 秒）');
  await expect(rows.filter({ hasText: 'billing.reconcile' })).toContainText('充值订单对账（每 30 秒）');
  // each chain always has its next run waiting or going (at most one of each)
  await expect(rows.filter({ hasText: 'files.sweep' })).toContainText('清理中断上传遗留的文件');
  await expect(rows.filter({ hasText: 'events.prune' })).toContainText(
    '清理一周前的证据事件与失败的渲染任务（每小时）',
  );
  for (const name of ['face.poll', 'billing.reconcile', 'files.sweep', 'events.prune']) {
    const cells = rows.filter({ hasText: name }).locator('td');
    const waiting = Number(await cells.nth(2).textContent());
    const going = Number(await cells.nth(3).textContent());
    expect(waiting + going).toBeGreaterThanOrEqual(1);
    expect(waiting).toBeLessThanOrEqual(1);
    expect(going).toBeLessThanOrEqual(1);
  }

  await expect(page.getByRole('heading', { name: '后台工作进程（Chromium）' })).toBeVisible();
  const work = page.getByTestId('work-row');
  await expect(work).toHaveCount(2);
  await expect(work.filter({ hasText: 'certificate.render' })).toContainText('证书 PDF 预生成');
  await expect(work.filter({ hasText: 'capture' })).toContainText('网页取证与过程取证');
  for (const name of ['certificate.render', 'capture']) {
    const cells = work.filter({ hasText: name }).locator('td');
    for (const column of [2, 3, 4]) expect(await cells.nth(column).textContent()).toMatch(/^\d+$/);
    // 最长等待: seconds (minutes, hours) or a dash when nothing waits
    expect(await cells.nth(5).textContent()).toMatch(/^(—|\d+ 秒|\d+ 分 \d+ 秒|\d+ 小时 \d+ 分)$/);
  }

  await page.context().clearCookies();
  await opsLoginAs(createOperator('reviewer'), page);
  await expect(page.getByRole('link', { name: '后台任务' })).toHaveCount(0);
  const denied = await page.goto('/ops/jobs');
  expect(denied?.status()).toBe(403);
});
