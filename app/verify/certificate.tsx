/**
 * /queryAuthentication/certificate: find evidence by the data itself. With JavaScript the chosen file is hashed in
 * the browser (never uploaded); without it the file is streamed to the gateway, hashed and discarded; or the user
 * pastes a SHA-256. Says clearly when nothing matches.
 */
import { data, Form } from 'react-router';
import type { Route } from './+types/certificate';
import { HashPicker } from './hash-picker.tsx';
import { hashUpload, lookupByHash } from './lookup.server.ts';
import { EvidenceResult, NotFound } from './result.tsx';

export async function action({ request, context }: Route.ActionArgs) {
  const urlPath = new URL(request.url).pathname;
  const upload = await hashUpload(request);
  if ('error' in upload) return data({ error: upload.error, hash: '', list: null }, { status: 400 });
  const hash = upload.sha256 ?? upload.fields.hash ?? '';
  if (!hash) return data({ error: '请选择文件或填写SHA-256哈希值', hash, list: null }, { status: 400 });
  const found = await lookupByHash(context, hash, urlPath);
  if (!found.ok) return data({ error: found.error, hash, list: null }, { status: 400 });
  return { error: null, hash, list: found.value };
}

export default function CertificateCheck({ actionData: result }: Route.ComponentProps) {
  return (
    <>
      <p className="lead">
        选择文件或粘贴其 SHA-256 哈希值，查找保全过相同数据的证据。文件只用于计算哈希值，不会被保存。
      </p>
      <Form method="post" encType="multipart/form-data" reloadDocument className="card">
        <HashPicker />
        <button type="submit" className="button primary">
          核验
        </button>
      </Form>
      {result?.error ? <NotFound text={result.error} /> : null}
      {result?.list ? (
        result.list.length === 0 ? (
          <NotFound
            text={`未找到与该文件一致的保全记录（SHA-256：${result.hash}）。文件可能未经本平台保全，或已被修改。`}
          />
        ) : (
          <>
            <p className="form-notice" role="status">
              找到 {result.list.length} 条与该文件一致的保全记录，文件自保全以来未被修改。
            </p>
            {result.list.map((e) => (
              <EvidenceResult key={e.baoquan} evidence={e} />
            ))}
          </>
        )
      ) : null}
    </>
  );
}
