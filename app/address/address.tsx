/**
 * /address (spec 02 "Addresses", §3, §5, §7): the user's delivery addresses with add, edit (`?edit=<id>`) and delete
 * (a <details> confirmation); name, detailed address, mobile and e-mail required with the shared validators; the
 * region from the GB/T 2260 tree (请选择所在地区); at most 5 (最多保存5个地址, enforced by the platform); one default.
 */
import { Form, Link } from 'react-router';
import type { Route } from './+types/address';
import { AddressMsg, AddressPaths, MAX_ADDRESSES, type Address } from '../../contract/address-codes.ts';
import { addressAction } from './address-action.server.ts';
import { valuesOf } from './address-values.ts';
import { isSuccess } from '../../contract/envelope.ts';
import { Msg } from '../../contract/messages.ts';
import { authedCall } from '../lib/auth.server.ts';
import { CsrfInput } from '../shell/csrf-input.tsx';
import { DefaultSubmit } from '../shell/default-submit.tsx';
import { Field, FormErrors, FormNotice } from '../shell/field.tsx';
import { regionTree } from './region.server.ts';
import { RegionSelect, regionOptions } from './region-select.tsx';
import { DataTable } from '../shell/data-table.tsx';
import { ConfirmAction } from '../shell/confirm-action.tsx';

export const meta: Route.MetaFunction = () => [{ title: '地址管理 - 存证云' }];

const DONE: Record<string, string> = { added: Msg.added, modified: Msg.modified, deleted: '已删除该地址' };
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const [list, tree] = await Promise.all([
    authedCall<Address[]>(request, context, AddressPaths.addressList),
    regionTree(context),
  ]);
  const addresses = isSuccess(list.code) ? list.data : [];
  const editing = addresses.find((a) => String(a.id) === url.searchParams.get('edit')) ?? null;
  return {
    addresses,
    // Only the options of the levels chosen so far (the whole tree is ~225 KB; with JavaScript the picker fetches
    // it once, browser-cached): the page stays small without JavaScript.
    regionOptions: regionOptions(tree, editing ? valuesOf(editing) : valuesOf(null)),
    editing: editing ? valuesOf(editing) : null,
    error: isSuccess(list.code) ? null : list.msg,
    notice: DONE[url.searchParams.get('done') ?? ''] ?? null,
  };
}

export async function action(args: Route.ActionArgs) {
  return addressAction(args);
}

export default function Addresses({ loaderData, actionData }: Route.ComponentProps) {
  const { addresses, editing, error, notice } = loaderData;
  const serverOptions =
    (actionData && 'options' in actionData ? actionData.options : null) ?? loaderData.regionOptions;
  const values = actionData?.values ?? editing ?? valuesOf(null);
  const errors: Record<string, string> = actionData?.errors ?? {};
  const regionError = errors.province || errors.city || errors.area ? AddressMsg.regionRequired : undefined;
  const full = addresses.length >= MAX_ADDRESSES && !values.id;
  return (
    <section className="page">
      <h1>地址管理</h1>
      <FormNotice text={notice} />
      <FormErrors errors={[error, actionData?.formError].filter((e): e is string => !!e)} />
      <DataTable
        headers={['收件人', '所在地区', '详细地址', '手机号', '邮箱', '操作']}
        items={addresses}
        empty="暂无地址"
        row={(a) => (
          <tr key={a.id} data-testid="address-row">
            <td>
              {a.name} {a.status === 1 ? <span className="tag">默认</span> : null}
            </td>
            <td>{`${a.province} ${a.city} ${a.area}`}</td>
            <td>{a.address}</td>
            <td>{a.phoneNumber}</td>
            <td>{a.email}</td>
            <td className="row-actions">
              <Link to={`/address?edit=${a.id}`}>编辑</Link>
              <ConfirmAction
                summary="删除"
                question="确认删除该地址？"
                confirm="确认删除"
                intent="del"
                fields={{ id: a.id }}
                tone="danger"
              />
            </td>
          </tr>
        )}
      />
      <p className="muted">
        最多保存 {MAX_ADDRESSES} 个地址，已保存 {addresses.length} 个。不支持寄送至港澳台地区。
      </p>
      <Form method="post" className="card narrow-card address-form" noValidate key={values.id || 'new'}>
        <DefaultSubmit intent="save" label="保存地址" />
        <h2 className="section-title">{values.id ? '编辑地址' : '新增地址'}</h2>
        {full ? <p className="form-notice">{AddressMsg.tooMany}</p> : null}
        <CsrfInput />
        <input type="hidden" name="id" value={values.id} />
        <Field label="收件人" id="addr-name" errors={errors.name ? [errors.name] : undefined}>
          <input id="addr-name" name="name" type="text" maxLength={20} defaultValue={values.name} />
        </Field>
        <RegionSelect serverOptions={serverOptions} value={values} error={regionError} />
        <Field label="详细地址" id="addr-address" errors={errors.address ? [errors.address] : undefined}>
          <input id="addr-address" name="address" type="text" maxLength={100} defaultValue={values.address} />
        </Field>
        <Field label="手机号" id="addr-phone" errors={errors.phoneNumber ? [errors.phoneNumber] : undefined}>
          <input id="addr-phone" name="phoneNumber" type="tel" defaultValue={values.phoneNumber} />
        </Field>
        <Field label="邮箱" id="addr-email" errors={errors.email ? [errors.email] : undefined}>
          <input id="addr-email" name="email" type="text" defaultValue={values.email} />
        </Field>
        <label className="checkbox">
          <input type="checkbox" name="status" value="1" defaultChecked={values.status === '1'} />{' '}
          设为默认地址
        </label>
        <p>
          <button type="submit" name="intent" value="save" className="button primary">
            保存地址
          </button>{' '}
          {values.id ? <Link to="/address">取消编辑</Link> : null}
        </p>
      </Form>
    </section>
  );
}
