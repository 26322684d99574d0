/**
 * Tab 2 of /invoice, 发票抬头管理 (spec 02 §3 "Invoice head", §5 "Invoice heads"): the user's heads with edit
 * (`&edit=<id>` fills the form) and delete after a `<details>` confirmation, and the add/edit form validated with the
 * contract's InvoiceHeadBody by Conform in the browser and by the action. The special invoice's four fields (开户银行,
 * 银行账号, 注册地址, 注册电话) are required for 增值税专用发票: without JavaScript they are always shown and labelled
 * so; with it they hide while 增值税电子普通发票 is chosen. At most 5 heads (the platform enforces it).
 */
import {
  getFormProps,
  getInputProps,
  getSelectProps,
  useForm,
  type SubmissionResult,
} from '@conform-to/react';
import { useState } from 'react';
import { Form, Link } from 'react-router';
import { useHydrated } from 'remix-utils/use-hydrated';
import {
  INVOICE_TYPE_TEXT,
  INVOICE_TYPES,
  InvoiceMsg,
  MAX_INVOICE_HEADS,
  type InvoiceType,
} from '../../contract/invoice-codes.ts';
import type { InvoiceHead } from '../../contract/invoice.ts';
import { useLazyValidation } from '../shell/lazy-validation.ts';
import { ConfirmAction } from '../shell/confirm-action.tsx';
import { ErrorSummary } from '../shell/error-summary.tsx';
import { CsrfInput } from '../shell/csrf-input.tsx';
import { DataTable } from '../shell/data-table.tsx';
import { Field, FormErrors } from '../shell/field.tsx';
import { InputField } from '../shell/input-field.tsx';

/** The form's text values (what Conform's defaultValue takes). */
export type HeadValues = Record<
  'id' | 'head' | 'type' | 'taxNum' | 'bankName' | 'account' | 'street' | 'phoneNumber',
  string
>;

/** The form values of `h` (empty for a new head, 增值税电子普通发票 chosen). */
export function headValues(h?: InvoiceHead | null): HeadValues {
  return {
    id: h ? String(h.id) : '',
    head: h?.head ?? '',
    type: h?.type ?? 'ENTERPRISE',
    taxNum: h?.taxNum ?? '',
    bankName: h?.bankName ?? '',
    account: h?.account ?? '',
    street: h?.street ?? '',
    phoneNumber: h?.phoneNumber ?? '',
  };
}

/** The heads table. */
/** The heads table's columns. */
const HEAD_COLUMNS = [
  '发票抬头',
  '发票类型',
  '纳税人识别号',
  '开户银行',
  '银行账号',
  '注册地址',
  '注册电话',
  '操作',
];

export function HeadsTable({ heads }: { heads: InvoiceHead[] }) {
  return (
    <DataTable
      headers={HEAD_COLUMNS}
      items={heads}
      empty="暂无发票抬头"
      row={(h) => (
        <tr key={h.id} data-testid="head-row">
          <td>{h.head}</td>
          <td>{INVOICE_TYPE_TEXT[h.type]}</td>
          <td className="mono">{h.taxNum}</td>
          <td>{h.bankName}</td>
          <td className="mono">{h.account}</td>
          <td>{h.street}</td>
          <td>{h.phoneNumber}</td>
          <td className="row-actions">
            <Link to={`/invoice?activeName=2&edit=${h.id}`}>编辑</Link>
            <ConfirmAction
              summary="删除"
              question={`确认删除发票抬头“${h.head}”？已提交的开票申请不受影响。`}
              confirm="确认删除"
              intent="del"
              fields={{ id: h.id }}
              tone="danger"
            />
          </td>
        </tr>
      )}
    />
  );
}

const SPECIAL_FIELDS = [
  ['bankName', '开户银行', 'text', 50],
  ['account', '银行账号', 'text', 25],
  ['street', '注册地址', 'text', 100],
  ['phoneNumber', '注册电话', 'tel', 20],
] as const;

/**
 * The add/edit form. `editing` fills it for `&edit=<id>`; `lastResult` is the action's answer (errors and the
 * values sent, shown again without JavaScript).
 */
export function HeadForm({
  editing,
  count,
  lastResult,
}: {
  editing: HeadValues | null;
  count: number;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const start = editing ?? headValues(null);
  const validation = useLazyValidation(() => import('./head-validation.ts').then((m) => m.validateHead));
  const [form, fields] = useForm({
    id: `head-form-${start.id || 'new'}`,
    lastResult,
    defaultValue: start,
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  const live = useHydrated();
  const [type, setType] = useState<string>(String(fields.type.initialValue ?? start.type));
  // Without JavaScript every field shows; with it the special invoice's fields follow the chosen type.
  const showSpecial = !live || type === 'ENTERPRISE_SPECIAL';
  const editingId = start.id;
  const full = count >= MAX_INVOICE_HEADS && !editingId;
  return (
    <Form
      method="post"
      {...getFormProps(form)}
      onFocus={validation.onFocus}
      className="card narrow-card"
      noValidate
    >
      <h2 className="section-title">{editingId ? '编辑发票抬头' : '新增发票抬头'}</h2>
      {full ? <p className="form-notice">{InvoiceMsg.tooManyHeads}</p> : null}
      <FormErrors errors={form.errors} />
      <CsrfInput />
      <ErrorSummary form={form} />
      <input type="hidden" name="id" value={editingId} />
      {/* The form's intent rides in a field, whatever button or key submits it (the action refuses any other). */}
      <input type="hidden" name="intent" value="save" />
      <InputField meta={fields.head} label="发票抬头" type="text" maxLength={100} />
      <Field label="发票类型" id={fields.type.id} errors={fields.type.errors}>
        <select
          {...getSelectProps(fields.type)}
          onChange={(e) => setType(e.currentTarget.value)}
          data-testid="head-type"
        >
          {INVOICE_TYPES.map((t: InvoiceType) => (
            <option key={t} value={t}>
              {INVOICE_TYPE_TEXT[t]}
            </option>
          ))}
        </select>
      </Field>
      <InputField meta={fields.taxNum} label="纳税人识别号" type="text" maxLength={20} />
      {showSpecial ? (
        <fieldset className="field">
          <legend>专用发票信息{live ? '' : '（增值税专用发票必填）'}</legend>
          {SPECIAL_FIELDS.map(([name, label, inputType, max]) => (
            <Field key={name} label={label} id={fields[name].id} errors={fields[name].errors}>
              <input
                {...getInputProps(fields[name], { type: inputType })}
                maxLength={max}
                placeholder={`请输入${label}`}
              />
            </Field>
          ))}
        </fieldset>
      ) : null}
      <p>
        <button type="submit" className="button primary">
          保存发票抬头
        </button>{' '}
        {editingId ? <Link to="/invoice?activeName=2">取消编辑</Link> : null}
      </p>
    </Form>
  );
}
