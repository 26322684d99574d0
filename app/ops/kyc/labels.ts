/** Labels of the KYC queue's pages (zh-CN): the userStatus tabs and the kind of submission. */

/** userStatus as the console names it (spec 02 §4). */
export const OPS_STATUS_LABEL: Record<string, string> = {
  '1': '未认证',
  '2': '待审核',
  '3': '已通过',
  '4': '已驳回',
};

/** The kind of submission: 企业, 个人（刷脸） or 个人（照片）. */
export function accountTypeLabel(status: number, authType: number): string {
  if (status === 2) return '企业';
  return authType === 3 ? '个人（刷脸）' : '个人（照片）';
}
