/**
 * The choice both payment sandboxes' cashier pages offer a tester (Alipay's cashier, WeChat Pay's code_url page): a
 * sentence saying nothing is charged and two plain forms posting `decision=success|fail` back to the page, so the
 * sandbox works without JavaScript. HTML text; `action` is a relative URL made of our own identifiers.
 */
export function sandboxChoices(action: string, provider: string): string {
  const form = (decision: string, label: string) =>
    `<form method="post" action="${action}"><input type="hidden" name="decision" value="${decision}">` +
    `<button type="submit">${label}</button></form>`;
  return (
    `<p>这是${provider}，不会扣款。请选择本次支付的结果：</p>` +
    `<div class="actions">${form('success', '支付成功')}${form('fail', '支付失败')}</div>`
  );
}
