/**
 * The /address action (spec 02 "Addresses", §5): delete (intent `del`), the no-JavaScript region step (intent
 * `region`: the posted levels' options), or save (add or edit) after the contract's validation. Every answer that
 * re-renders the form carries the region options of the posted levels. Server-only, so the request schema (zod)
 * never reaches the page's bundle.
 */
import { parseWithZod } from '@conform-to/zod/v4';
import { data, redirect } from 'react-router';
import type { Route } from './+types/address';
import { AddressBody, AddressPaths } from '../../contract/address.ts';
import { isSuccess } from '../../contract/envelope.ts';
import { authedCall } from '../lib/auth.server.ts';
import { validateCsrf } from '../lib/csrf.server.ts';
import { readForm } from '../lib/form-body.server.ts';
import { FIELDS, type Values } from './address-values.ts';
import { regionTree } from './region.server.ts';
import { regionOptions } from './region-select.tsx';

export async function addressAction({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request, context);
  await validateCsrf(formData, request, context);
  const intent = formData.get('intent');
  if (intent === 'del') {
    const res = await authedCall(request, context, AddressPaths.delAddress, {
      body: { id: String(formData.get('id')) },
    });
    if (!isSuccess(res.code)) return data({ values: null, errors: {}, formError: res.msg }, { status: 400 });
    return redirect('/address?done=deleted');
  }
  const values = Object.fromEntries(FIELDS.map((f) => [f, String(formData.get(f) ?? '')])) as Values;
  if (formData.get('status') === 'on') values.status = '1';
  // Every answer that re-renders the form carries the region options of the posted levels.
  const options = regionOptions(await regionTree(context), values);
  // “下一步” without JavaScript: re-render with the chosen levels' options.
  if (intent === 'region') return { values, options, errors: {} as Record<string, string>, formError: null };
  const submission = parseWithZod(formData, { schema: AddressBody });
  if (submission.status !== 'success') {
    const errors = Object.fromEntries(
      Object.entries(submission.reply().error ?? {}).map(([k, v]) => [k, v?.[0] ?? '']),
    ) as Record<string, string>;
    return data({ values, options, errors, formError: null }, { status: 400 });
  }
  const body = {
    ...submission.value,
    status: String(submission.value.status),
    ...(values.id ? { id: values.id } : {}),
  };
  const res = await authedCall(
    request,
    context,
    values.id ? AddressPaths.editAddress : AddressPaths.addAddress,
    {
      body,
    },
  );
  if (!isSuccess(res.code)) return data({ values, options, errors: {}, formError: res.msg }, { status: 400 });
  return redirect(`/address?done=${values.id ? 'modified' : 'added'}`);
}
