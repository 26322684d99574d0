/**
 * The paper notarial certificate on the office's order page (decision 034): once the user asked for it to be
 * mailed, when they asked, how many copies, and the waybill number — or, until it is sent, the form that records it
 * (`intent=ship`, a plain POST answered by Post/Redirect/Get).
 */
import { Form } from 'react-router';
import type { NotaryOpsDetail } from '../../../contract/notary-office-codes.ts';
import { CsrfInput } from '../../shell/csrf-input.tsx';
import { Facts } from '../../shell/facts.tsx';
import { Field } from '../../shell/field.tsx';

export function PaperSection({
  order: o,
  copies,
  error,
  value,
}: {
  order: NotaryOpsDetail['order'];
  copies: number | null;
  error: string | undefined;
  value: string | undefined;
}) {
  if (!o.paperRequestedAt) return null;
  return (
    <>
      <h2 className="section-title">纸质公证书</h2>
      <Facts
        testId="ops-notary-paper"
        rows={[
          ['申请寄送时间', o.paperRequestedAt],
          ['份数', copies === null ? '' : `${copies}份`],
          ['快递单号', o.courierNumber ? <span className="mono">{o.courierNumber}</span> : '待寄送'],
        ]}
      />
      {o.courierNumber ? null : (
        <Form method="post" className="card" noValidate>
          <CsrfInput />
          <Field label="快递单号" id="ops-notary-courier" errors={error ? [error] : undefined}>
            <input
              id="ops-notary-courier"
              name="courierNumber"
              maxLength={30}
              defaultValue={value}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'ops-notary-courier-error' : undefined}
            />
          </Field>
          <button type="submit" name="intent" value="ship" className="button primary">
            登记寄送
          </button>
        </Form>
      )}
    </>
  );
}
