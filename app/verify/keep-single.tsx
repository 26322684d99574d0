/**
 * /queryAuthentication/keepSingle: check a file (or its SHA-256) against one preservation number: is this the very
 * data that evidence preserved? Answers match / no match with both hashes shown.
 */
import { data, Form } from 'react-router';
import type { Route } from './+types/keep-single';
import { Sha256Hex } from '../../contract/evidence.ts';
import { HashPicker } from './hash-picker.tsx';
import { hashUpload, lookupByNumber } from './lookup.server.ts';
import { EvidenceResult, NotFound } from './result.tsx';

export async function action({ request, context }: Route.ActionArgs) {
  const urlPath = new URL(request.url).pathname;
  const upload = await hashUpload(request);
  if ('error' in upload) return data({ error: upload.error }, { status: 400 });
  const no = (upload.fields.no ?? '').trim();
  if (!no) return data({ error: '保全编号不能为空' }, { status: 400 });
  const hash = Sha256Hex.safeParse(upload.sha256 ?? upload.fields.hash ?? '');
  if (!hash.success) return data({ error: '请选择文件或填写SHA-256哈希值' }, { status: 400 });
  const found = await lookupByNumber(context, no, urlPath);
  if (!found.ok) return data({ error: found.error }, { status: 400 });
  return { error: null, match: found.value.filehash === hash.data, hash: hash.data, evidence: found.value };
}

export default function KeepSingle({ actionData: result }: Route.ComponentProps) {
  return (
    <>
      <p className="lead">
        同时提供保全编号和文件（或其 SHA-256），核对手中的文件是否正是该证据保全的那一份。
      </p>
      <Form method="post" encType="multipart/form-data" reloadDocument className="card">
        <div className="field">
          <label htmlFor="ks-no">保全编号</label>
          <input id="ks-no" name="no" type="text" maxLength={64} />
        </div>
        <HashPicker />
        <button type="submit" className="button primary">
          核对
        </button>
      </Form>
      {result?.error ? <NotFound text={result.error} /> : null}
      {result && 'evidence' in result && result.evidence ? (
        <>
          {result.match ? (
            <p className="form-notice" role="status" data-testid="verify-match">
              一致：该文件与保全编号 {result.evidence.baoquan} 保全的数据完全相同。
            </p>
          ) : (
            <NotFound
              text={`不一致：该文件的 SHA-256 为 ${result.hash}，与保全记录不同，文件不是所保全的那一份或已被修改。`}
            />
          )}
          <EvidenceResult evidence={result.evidence} />
        </>
      ) : null}
    </>
  );
}
