/**
 * The notary office's decisions on an undecided order, on its page (decision 034): 受理 (a paid order whose steps are
 * all done), 出证 (an accepted order), 退回补充材料 (back to step 1–3 with a remark the user sees) and 终止并退款 (with
 * a required reason). Each is a plain POST form (`intent=accept|issue|return|terminate`) that the page's action
 * answers by Post/Redirect/Get, or with the field errors and what was typed.
 */
import { Form } from 'react-router';
import { Notarial, NotaryStep } from '../../../contract/notary-codes.ts';
import type { NotaryOpsDetail } from '../../../contract/notary-office-codes.ts';
import { ConfirmAction } from '../../shell/confirm-action.tsx';
import { CsrfInput } from '../../shell/csrf-input.tsx';
import { Field } from '../../shell/field.tsx';
import { RETURN_STEPS } from './labels.ts';

/** The decision forms' field errors (Chinese) by field. */
export interface DecisionFieldErrors {
  step?: string;
  returnRemark?: string;
  terminateRemark?: string;
}

/** What was typed in the decision forms, shown again with their errors. */
export interface DecisionValues {
  step: string;
  returnRemark: string;
  terminateRemark: string;
}

/** A remark textarea (`name=remark`, 200 characters at most) in a {@link Field} with its error and hint. */
function RemarkField({
  id,
  label,
  hint,
  error,
  value,
  placeholder,
}: {
  id: string;
  label: string;
  hint: string;
  error: string | undefined;
  value: string | undefined;
  placeholder?: string;
}) {
  return (
    <Field label={label} id={id} errors={error ? [error] : undefined} hint={hint}>
      <textarea
        id={id}
        name="remark"
        rows={3}
        maxLength={200}
        defaultValue={value ?? ''}
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
    </Field>
  );
}

/** The decision forms of order `o` (an undecided one: not yet accepted, or accepted and not yet issued). */
export function DecisionForms({
  order: o,
  fields,
  values,
}: {
  order: NotaryOpsDetail['order'];
  fields: DecisionFieldErrors;
  values: DecisionValues | undefined;
}) {
  return (
    <div className="ops-decision">
      {o.notarial === null && o.step === NotaryStep.done ? (
        <ConfirmAction
          className="card"
          summaryClassName="button primary"
          summary="受理"
          question="确认受理该公证订单？受理后将生成公证书编号，用户不能再自行关闭订单。"
          confirm="确认受理"
          intent="accept"
          tone="primary"
        />
      ) : null}
      {o.notarial === Notarial.inProgress ? (
        <ConfirmAction
          className="card"
          summaryClassName="button primary"
          summary="出证"
          question={`确认出证？将生成公证书 ${o.certificateNo ?? ''} 的签名PDF，出证后用户即可下载，不能撤回。`}
          confirm="确认出证"
          intent="issue"
          tone="primary"
        />
      ) : null}
      <Form method="post" className="card" noValidate>
        <h2 className="section-title">退回补充材料</h2>
        <CsrfInput />
        <Field label="退回到步骤" id="return-step" errors={fields.step ? [fields.step] : undefined}>
          <select
            id="return-step"
            name="step"
            defaultValue={values?.step ?? ''}
            aria-invalid={fields.step ? true : undefined}
            aria-describedby={fields.step ? 'return-step-error' : undefined}
          >
            <option value="">请选择</option>
            {RETURN_STEPS.map((s) => (
              <option key={s.step} value={s.step}>
                {s.step} {s.label}
              </option>
            ))}
          </select>
        </Field>
        <RemarkField
          id="return-remark"
          label="说明（用户可见）"
          hint="所选步骤及之后已提交的材料将被清除，用户需重新完成。"
          error={fields.returnRemark}
          value={values?.returnRemark}
          placeholder="请说明需要补充或修改的材料"
        />
        <button type="submit" name="intent" value="return" className="button">
          退回补充材料
        </button>
      </Form>
      <Form method="post" className="card" noValidate>
        <h2 className="section-title">终止并退款</h2>
        <CsrfInput />
        <RemarkField
          id="terminate-remark"
          label="终止原因（用户可见）"
          hint="终止后订单不能恢复，支付的积分将退还用户。"
          error={fields.terminateRemark}
          value={values?.terminateRemark}
        />
        <button type="submit" name="intent" value="terminate" className="button danger">
          终止并退款
        </button>
      </Form>
    </div>
  );
}
