/**
 * Sets zod 4's zh-CN locale once for the whole process, so that every schema failure without an explicit spec
 * message (max length, wrong type, unknown enum value …) is reported in Chinese instead of zod's English default
 * (spec 01 §5: every validation message is shown to the user in zh-CN). Explicit per-field messages still win.
 * Imported for its side effect by every contract module that builds schemas (checked by zod-locale.test.ts); not by
 * messages.ts, which every page loads: a page without a validating form loads no zod.
 *
 * The locale leaves numbers half in English (`数值过大：期望 number <=5`, `无效输入：期望 数字，实际接收 NaN` for a
 * size typed as "10MB"), so number issues get our wording first: 请输入有效的数字, 数值不能大于N / 数值必须小于N,
 * 数值不能小于N / 数值必须大于N. Everything else is the locale's.
 */
import { z } from 'zod';

const zhCN = z.locales.zhCN().localeError;

/** Our message for an issue about a number, or undefined to leave it to the locale. */
function numberMessage(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code === 'invalid_type' && (issue.expected === 'number' || issue.expected === 'int')) {
    return '请输入有效的数字';
  }
  if (issue.code === 'too_big' && (issue.origin === 'number' || issue.origin === 'bigint')) {
    return issue.inclusive ? `数值不能大于${issue.maximum}` : `数值必须小于${issue.maximum}`;
  }
  if (issue.code === 'too_small' && (issue.origin === 'number' || issue.origin === 'bigint')) {
    return issue.inclusive ? `数值不能小于${issue.minimum}` : `数值必须大于${issue.minimum}`;
  }
  return undefined;
}

z.config({ localeError: (issue) => numberMessage(issue) ?? zhCN(issue) });
