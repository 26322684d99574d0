/**
 * Labels of the console's orders view (zh-CN, ours; docs/decisions/019-billing-screens.md): the verdict stored with
 * each payment notification (contract NOTIFY_VERDICTS) and the kinds of points journal entries.
 */
import type { NotifyVerdict } from '../../../contract/billing.ts';
import type { JournalRow } from '../../../contract/billing-ops.ts';

/** What each verdict means to finance. */
export const VERDICT_LABEL: Readonly<Record<NotifyVerdict, string>> = {
  applied: '已入账',
  duplicate: '重复通知（此前已入账）',
  'bad-signature': '签名无效',
  'stale-timestamp': '时间戳超时',
  'bad-ciphertext': '密文校验失败',
  malformed: '格式错误',
  'unknown-order': '订单不存在',
  mismatch: '与订单不符（已标记异常）',
  'after-close': '订单关闭后付款（已标记异常）',
  'not-paid': '未付款',
  error: '处理出错',
};

/** Journal entry kinds. */
export const JOURNAL_KIND_LABEL: Readonly<Record<JournalRow['kind'], string>> = {
  recharge: '充值',
  spend: '消费',
  reversal: '退还',
};

/** Notification sources (another registered provider shows its name; decision 058). */
export const PROVIDER_LABEL: Readonly<Record<string, string>> = {
  alipay: '支付宝',
  wechat: '微信支付',
};
