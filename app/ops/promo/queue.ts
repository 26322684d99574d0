/**
 * The promotion-code entry of the console's queues (app/ops/queues.ts lists it; docs/decisions/062-promotion-codes.md):
 * finance's batches, the home listing enabled batches that expire within 7 days, and the labels of the area's audit
 * actions. Checked against `OpsQueueEntry` where the list takes it (not imported here: the list imports this module).
 */
import { PROMO_AREA, PROMO_OPS_ROLE, PromoOpsPages } from '../../../contract/promo-codes.ts';

/** The queue of area `promo`. */
export const PROMO_QUEUE = {
  area: PROMO_AREA,
  title: '兑换码管理',
  path: PromoOpsPages.batches,
  role: PROMO_OPS_ROLE,
  views: [{ label: '全部批次', to: PromoOpsPages.batches }],
  notices: {},
  actions: { mint: '生成兑换码', view: '查看兑换码', disable: '停用批次' },
  item: { state: '即将过期', open: '查看' },
} as const;
