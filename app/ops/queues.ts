/**
 * Where each area plugs its queue into the operator console (docs/decisions/015-operator-console-roles.md): one
 * entry per queue, in the order the console shows them. The console shell links the queues whose role the
 * operator holds; the home (/ops) lists what waits in each (the platform's `/api/ops/home`, matched by `area`),
 * each item linking to `<path>/<id>`; the audit log names entries by the entry's title and action labels. The
 * platform enforces the role on the queue's own calls (403 无权访问).
 */
import { BILLING_OPS_ROLE, BillingMsg } from '../../contract/billing.ts';
import { INVOICE_OPS_ROLE, InvoiceMsg } from '../../contract/invoice.ts';
import { KYC_REVIEW_ROLE } from '../../contract/kyc-review.ts';
import { KycMsg } from '../../contract/kyc.ts';
import { NOTARY_AREA, NOTARY_OPS_ROLE } from '../../contract/notary-office-codes.ts';
import type { OpsRole } from '../../contract/ops.ts';
import { PROMO_QUEUE } from './promo/queue.ts';

/** One queue of the console. */
export interface OpsQueueEntry {
  /** The platform's area (`kyc`, …): its home summary and its audit entries. */
  area: string;
  /** The queue's name in the console (zh-CN). */
  title: string;
  /** The queue's page; an item's detail page is `${path}/${ref}`. */
  path: string;
  /** The role that opens it. */
  role: OpsRole;
  /** More views of the queue, linked on the home (e.g. the decided ones). */
  views: readonly { label: string; to: string }[];
  /** Messages the home shows for `?done=<key>` after a decision on the queue's detail page. */
  notices: Readonly<Record<string, string>>;
  /** Labels of the area's audit actions. */
  actions: Readonly<Record<string, string>>;
  /** How the home labels a waiting item's state and the link to its detail page. */
  item: { state: string; open: string };
}

/** The console's queues. A new area adds its entry here and its pages under app/ops/<area>/. */
export const OPS_QUEUES: readonly OpsQueueEntry[] = [
  {
    area: 'kyc',
    title: '实名审核',
    path: '/ops/kyc',
    role: KYC_REVIEW_ROLE,
    views: [
      { label: '待审核', to: '/ops/kyc?status=2' },
      { label: '已通过', to: '/ops/kyc?status=3' },
      { label: '已驳回', to: '/ops/kyc?status=4' },
    ],
    notices: { approved: KycMsg.reviewApproved, rejected: KycMsg.reviewRejected },
    actions: { approve: '通过', reject: '驳回' },
    item: { state: '待审核', open: '审核' },
  },
  {
    area: 'billing',
    title: '订单管理',
    path: '/ops/billing',
    role: BILLING_OPS_ROLE,
    views: [{ label: '全部订单', to: '/ops/billing' }],
    notices: { reconciled: BillingMsg.reconciled },
    actions: { search: '查询订单', view: '查看订单', reconcile: '手动对账' },
    item: { state: '待核对', open: '查看' },
  },
  {
    area: 'invoice',
    title: '发票管理',
    path: '/ops/invoice',
    role: INVOICE_OPS_ROLE,
    views: [
      { label: '待处理', to: '/ops/invoice' },
      { label: '已开票', to: '/ops/invoice?status=3' },
      { label: '已拒绝', to: '/ops/invoice?status=4' },
    ],
    notices: { invoiceIssued: InvoiceMsg.issued, invoiceRejected: InvoiceMsg.rejected },
    actions: { view: '查看申请', submit: '提交财务', issue: '开票', reject: '拒绝', file: '查看发票文件' },
    item: { state: '待处理', open: '处理' },
  },
  {
    area: NOTARY_AREA,
    title: '公证受理',
    path: '/ops/notary',
    role: NOTARY_OPS_ROLE,
    views: [
      { label: '待受理', to: '/ops/notary' },
      { label: '出证中', to: '/ops/notary?state=2' },
      { label: '已办结', to: '/ops/notary?state=3' },
    ],
    // The order's own page shows the decisions' messages (/ops/notary/:id?done=…); the home shows none.
    notices: {},
    actions: {
      view: '查看订单',
      document: '查看文书',
      evidence: '读取证据',
      accept: '受理',
      return: '退回补充材料',
      terminate: '终止并退款',
      issue: '出证',
    },
    item: { state: '待受理', open: '受理' },
  },
  PROMO_QUEUE,
];

/** The queues an operator holding `roles` may see. */
export function queuesFor(roles: readonly OpsRole[]): OpsQueueEntry[] {
  return OPS_QUEUES.filter((q) => roles.includes(q.role));
}

/** The entry of `area`, if any. */
export function queueOf(area: string): OpsQueueEntry | undefined {
  return OPS_QUEUES.find((q) => q.area === area);
}
