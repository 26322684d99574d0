/**
 * The operator console with roles (docs/decisions/015-operator-console-roles.md), on SQLite and PostgreSQL: the CLI
 * creates operators with roles and changes them; an operator without `reviewer` can neither see nor decide the KYC
 * queue (403 无权访问); the console home lists only the queues the operator's roles open; the audit log shows the
 * entries of every area to an admin and the KYC ones to a reviewer; migration 0006 gives existing operators
 * `reviewer` and `admin` and moves the KYC audit rows.
 */
import { describe, expect, it } from 'vitest';
import { type KycQueueData, KycReviewPaths } from '../../contract/kyc-review.ts';
import { KycMsg } from '../../contract/kyc.ts';
import {
  type AuditListData,
  type OpsHomeData,
  type OpsLoginData,
  OpsMsg,
  type OpsOperator,
  OpsPaths,
} from '../../contract/ops.ts';
import {
  forEachDialect,
  get,
  post,
  registerUser,
  type PlatformHarness,
  withScratchDatabase,
  insertBareUser,
} from '../../tests/support/platform.ts';
import { runOpsCommand } from './cli-commands.ts';

/** Runs a CLI command against the suite's database. */
const cli = (h: PlatformHarness, ...argv: string[]) => runOpsCommand(h.app.pdb.db, h.config.scryptCost, argv);

/** Creates an operator with `roles` (CLI) and logs in. @returns the token and the login answer */
async function operator(h: PlatformHarness, username: string, roles?: string) {
  const password = `${username}-password`;
  const created = await cli(h, 'create', username, password, ...(roles ? ['--roles', roles] : []));
  expect(created).toEqual({ code: 0, out: `operator ${username} created\n`, err: '' });
  const r = await post<OpsLoginData>(h.app, OpsPaths.login, { username, password });
  expect(r.code, r.msg).toBe(200);
  return { token: r.data.token, login: r.data };
}

/** A registered user whose personal submission waits for review (userStatus '2'), set up in the database. */
async function waitingUser(h: PlatformHarness, mobile: string): Promise<number> {
  await registerUser(h.app, h.dataDir, mobile, 'abc12345', false);
  const { db } = h.app.pdb;
  const user = await db
    .selectFrom('users')
    .select('id')
    .where('mobile', '=', mobile)
    .executeTakeFirstOrThrow();
  await db.updateTable('users').set({ user_status: '2' }).where('id', '=', user.id).execute();
  await db
    .insertInto('kyc_profiles')
    .values({
      user_id: user.id,
      kind: 'personal',
      auth_type: 1,
      fields_json: JSON.stringify({ userName: '钱七' }),
      submitted_at: 1_700_000_000,
    })
    .execute();
  return Number(user.id);
}

forEachDialect('operator console roles', (h) => {
  it('the CLI creates operators with roles (reviewer by default) and shows and replaces them', async () => {
    expect(await cli(h, 'create', 'cli-default', 'cli-default-pass')).toMatchObject({ code: 0 });
    expect(await cli(h, 'roles', 'cli-default')).toEqual({
      code: 0,
      out: 'operator cli-default roles reviewer\n',
      err: '',
    });
    expect(await cli(h, 'create', 'cli-two', 'cli-two-password', '--roles', 'finance, admin')).toMatchObject({
      code: 0,
    });
    expect((await cli(h, 'roles', 'cli-two')).out).toBe('operator cli-two roles finance,admin\n');
    expect(await cli(h, 'roles', 'cli-two', 'admin,reviewer,admin')).toEqual({
      code: 0,
      out: 'operator cli-two roles reviewer,admin\n',
      err: '',
    });
    expect((await cli(h, 'roles', 'cli-two')).out).toBe('operator cli-two roles reviewer,admin\n');
    // the same username again, an unknown operator, an unknown role, bad arguments
    expect((await cli(h, 'create', 'cli-two', 'cli-two-password')).out).toBe('operator cli-two exists\n');
    expect(await cli(h, 'roles', 'nobody', 'admin')).toMatchObject({
      code: 1,
      out: 'operator nobody not found\n',
    });
    const unknown = await cli(h, 'create', 'cli-three', 'cli-three-password', '--roles', 'reviewer,boss');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('roles: one or more of reviewer, finance, notary, admin');
    expect((await cli(h, 'roles', 'cli-two', '')).code).toBe(2);
    expect((await cli(h, 'create', 'cli-four')).code).toBe(2);
    expect((await cli(h, 'create', 'cli-four', 'pw', '--colour', 'red')).code).toBe(2);
    expect((await cli(h, 'create', 'x', 'long-enough-password')).err).toContain('username');
  });

  it('an operator without reviewer can neither see nor decide the KYC queue (403 无权访问)', async () => {
    const userId = await waitingUser(h, '13900000101');
    const { token, login } = await operator(h, 'finance-only', 'finance');
    expect(login.operator).toEqual({ username: 'finance-only', roles: ['finance'] });
    const answers = [
      await get(h.app, KycReviewPaths.queue, {}, token),
      await get(h.app, KycReviewPaths.detail, { userId }, token),
      await post(h.app, KycReviewPaths.approve, { userId }, token),
      await post(h.app, KycReviewPaths.reject, { userId, remark: '不清晰' }, token),
    ];
    for (const r of answers) expect([r.status, r.code, r.msg]).toEqual([403, 403, OpsMsg.forbidden]);
    const user = await h.app.pdb.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', userId)
      .executeTakeFirst();
    expect(user?.user_status).toBe('2');

    // given the role with the CLI, the same token opens the queue at once
    await cli(h, 'roles', 'finance-only', 'finance,reviewer');
    const me = await get<OpsOperator>(h.app, OpsPaths.me, {}, token);
    expect(me.data).toEqual({ username: 'finance-only', roles: ['reviewer', 'finance'] });
    const queue = await get<KycQueueData>(h.app, KycReviewPaths.queue, {}, token);
    expect(queue.data.list.map((i) => i.userId)).toContain(userId);
    // and without a token at all: 408 as before
    expect((await get(h.app, KycReviewPaths.queue, {})).code).toBe(408);
  });

  it('the console home lists only the queues the operator may see, with what waits in them', async () => {
    const userId = await waitingUser(h, '13900000102');
    const finance = await operator(h, 'home-finance', 'finance');
    const admin = await operator(h, 'home-admin', 'admin');
    const reviewer = await operator(h, 'home-reviewer');
    // finance opens the finance queues of every area (billing's flagged orders among them; none waiting here) and
    // never the reviewers' KYC queue; admin no queue at all
    const financeHome = await get<OpsHomeData>(h.app, OpsPaths.home, {}, finance.token);
    const financeAreas = financeHome.data.queues.map((q) => q.area);
    expect(financeAreas).toContain('billing');
    expect(financeAreas).not.toContain('kyc');
    for (const q of financeHome.data.queues) expect(q).toEqual({ area: q.area, count: 0, items: [] });
    const adminHome = await get<OpsHomeData>(h.app, OpsPaths.home, {}, admin.token);
    expect(adminHome.data.queues).toEqual([]);
    const home = await get<OpsHomeData>(h.app, OpsPaths.home, {}, reviewer.token);
    expect(home.data.operator).toEqual({ username: 'home-reviewer', roles: ['reviewer'] });
    expect(home.data.queues.map((q) => q.area)).toEqual(['kyc']);
    const kyc = home.data.queues[0]!;
    expect(kyc.count).toBe(kyc.items.length);
    expect(kyc.items).toContainEqual({
      id: userId,
      ref: String(userId),
      subject: '13900000102',
      name: '钱七',
      submittedAt: '2023-11-15 06:13:20',
    });
  });

  it('the audit log shows the entries of every area to an admin, and of the KYC area to a reviewer', async () => {
    const userId = await waitingUser(h, '13900000103');
    const reviewer = await operator(h, 'audit-reviewer', 'reviewer');
    const reject = await post(h.app, KycReviewPaths.reject, { userId, remark: '照片模糊' }, reviewer.token);
    expect([reject.code, reject.msg]).toEqual([200, KycMsg.reviewRejected]);
    const admin = await operator(h, 'audit-admin', 'admin');

    const all = await get<AuditListData>(h.app, OpsPaths.audit, {}, admin.token);
    expect(all.data.list[0]).toMatchObject({
      area: 'ops',
      operator: '',
      action: 'create',
      subject: 'audit-admin',
      userId: null,
      remark: 'admin',
    });
    expect(all.data.list.find((e) => e.area === 'kyc' && e.userId === userId)).toMatchObject({
      operator: 'audit-reviewer',
      action: 'reject',
      subject: String(userId),
      mobile: '13900000103',
      remark: '照片模糊',
    });
    expect(new Set(all.data.list.map((e) => e.area))).toEqual(new Set(['ops', 'kyc']));

    const own = await get<AuditListData>(h.app, OpsPaths.audit, {}, reviewer.token);
    expect(own.data.list.length).toBeGreaterThan(0);
    expect(own.data.list.every((e) => e.area === 'kyc')).toBe(true);
    const finance = await operator(h, 'audit-finance', 'finance');
    expect((await get<AuditListData>(h.app, OpsPaths.audit, {}, finance.token)).data).toEqual({
      list: [],
      count: 0,
    });
  });
});

forEachDialect('migration 0006 (operator roles, one audit log)', (h) => {
  it('gives existing operators reviewer and admin and moves the KYC audit rows; down moves them back', async () => {
    await withScratchDatabase(h, async (pdb, migrator) => {
      expect((await migrator.migrateTo('0005_kyc')).error).toBeUndefined();
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const db = pdb.db as any;
      const op = await db
        .insertInto('operators')
        .values({ username: 'old-op', password_hash: 'x', created_at: 1 })
        .returning('id')
        .executeTakeFirstOrThrow();
      const user = { id: await insertBareUser(db, '13900000199', '4') };
      await db
        .insertInto('kyc_audit')
        .values([
          { operator_id: op.id, user_id: user.id, action: 'reject', remark: '旧的驳回', created_at: 10 },
          { operator_id: op.id, user_id: user.id, action: 'approve', remark: '', created_at: 20 },
        ])
        .execute();

      expect((await migrator.migrateTo('0006_ops_roles')).error).toBeUndefined();
      const roles = await pdb.db.selectFrom('operator_roles').select('role').orderBy('role').execute();
      expect(roles.map((r) => r.role)).toEqual(['admin', 'reviewer']);
      const audit = await pdb.db.selectFrom('ops_audit').selectAll().orderBy('id').execute();
      expect(
        audit.map((a) => [a.area, a.action, a.subject, Number(a.user_id), a.remark, Number(a.created_at)]),
      ).toEqual([
        ['kyc', 'reject', String(user.id), Number(user.id), '旧的驳回', 10],
        ['kyc', 'approve', String(user.id), Number(user.id), '', 20],
      ]);

      expect((await migrator.migrateDown()).error).toBeUndefined();
      const back = await db.selectFrom('kyc_audit').select(['action', 'remark']).orderBy('id').execute();
      expect(back).toEqual([
        { action: 'reject', remark: '旧的驳回' },
        { action: 'approve', remark: '' },
      ]);
    });
  });
});

describe('ops CLI usage', () => {
  it('names both commands and every role', async () => {
    const { USAGE } = await import('./cli-commands.ts');
    expect(USAGE).toContain('ops create <username> <password> [--roles <roles>]');
    expect(USAGE).toContain('ops roles <username> [<roles>]');
    expect(USAGE).toContain('reviewer, finance, notary, admin');
  });
});
