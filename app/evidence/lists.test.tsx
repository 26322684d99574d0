/**
 * The evidence lists of spec 01 §2.4 against a fake upstream that records every call: the row action acts only on
 * its own intents (`delete`, `label` with its field) and refuses anything else with 400 before calling the platform;
 * each list's label select offers its own kind's labels (getLabelList `v`); the 文件类型 select is on the file, hash
 * and app lists; the batch download page never shows NaN for a hand-edited `n`.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { createRoutesStub } from 'react-router';
import { describe, expect, it } from 'vitest';
import { EvidencePaths } from '../../contract/evidence.ts';
import { Msg } from '../../contract/messages.ts';
import { perRequest, recordingUpstreamForSuite, signedInRequest } from '../../tests/support/route-actions.ts';
import type { ComponentProps } from 'react';
import BatchDownload, { loader as batchLoader } from './batch-download.tsx';
import { readFilters } from './filters.ts';
import { EvidenceListPage } from './list-page.tsx';
import { listAction, listLoader, type ListKind } from './list.server.ts';

/** getLabelList's answer by `v`: without it, every kind's labels (as the platform answers; labelKinds). */
const LABELS_BY_V: Record<string, string[]> = {
  '': ['只在数据', '只在文件'],
  file: ['只在文件'],
  property: ['只在数据'],
  app: [],
};

const suite = recordingUpstreamForSuite(({ path, query }) => {
  const data =
    path === EvidencePaths.labels
      ? (LABELS_BY_V[query.get('v') ?? ''] ?? []).map((label) => ({ label }))
      : path === EvidencePaths.hashLabels
        ? [{ label: '只在哈希' }]
        : path === EvidencePaths.list || path === EvidencePaths.hashList
          ? { list: [], count: 0 }
          : null;
  return { code: 200, msg: '操作成功', data };
});
const { calls } = suite;

/** A signed-in request (session token and CSRF cookie) to `path`; a POST carries `form` with the matching token. */
const signedIn = (path: string, form?: Record<string, string>) => signedInRequest(suite.ctx, path, form);

describe('listAction', () => {
  const act = async (form: Record<string, string>) =>
    listAction(await signedIn('/attestation-list/file', form), perRequest(suite.ctx));

  it('refuses a missing or unknown intent, and a label save without its field, with 400 and no call', async () => {
    for (const form of [
      { dataId: '7' } as Record<string, string>,
      { dataId: '7', intent: '' },
      { dataId: '7', intent: 'remove' },
      { dataId: '7', intent: 'DELETE' },
      { dataId: '7', intent: 'label' },
    ]) {
      const res = await act(form);
      expect(res, JSON.stringify(form)).toMatchObject({
        data: { error: Msg.badRequest },
        init: { status: 400 },
      });
    }
    expect(calls).toEqual([]);
  });

  it('deletes on intent=delete and saves the label (empty clears it) on intent=label, then redirects back', async () => {
    const deleted = (await act({ dataId: '7', intent: 'delete' })) as Response;
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get('location')).toBe('/attestation-list/file?done=deleted');
    const cleared = (await act({ dataId: '8', intent: 'label', label: '' })) as Response;
    expect(cleared.headers.get('location')).toBe('/attestation-list/file?done=labelled');
    await act({ dataId: '9', intent: 'label', label: '合同' });
    expect(calls.map((c) => [c.path, c.body])).toEqual([
      [EvidencePaths.delData, { dataId: '7' }],
      [EvidencePaths.labelSave, { dataId: '8', label: '' }],
      [EvidencePaths.labelSave, { dataId: '9', label: '合同' }],
    ]);
  });
});

describe('listLoader labels', () => {
  const labelsOf = async (kind: ListKind) =>
    (await listLoader(await signedIn('/attestation-list/x'), perRequest(suite.ctx), kind)).labels;

  it('offers each list its own kind’s labels only (getLabelList v), hash its own call', async () => {
    expect(await labelsOf('file')).toEqual(['只在文件']);
    expect(await labelsOf('property')).toEqual(['只在数据']);
    expect(await labelsOf('app')).toEqual([]);
    expect(await labelsOf('hash')).toEqual(['只在哈希']);
    const labelCalls = calls.filter(
      (c) => c.path === EvidencePaths.labels || c.path === EvidencePaths.hashLabels,
    );
    expect(labelCalls.map((c) => [c.path, c.query.get('v')])).toEqual([
      [EvidencePaths.labels, 'file'],
      [EvidencePaths.labels, 'property'],
      [EvidencePaths.labels, 'app'],
      [EvidencePaths.hashLabels, null],
    ]);
  });
});

/** The list page of `kind` rendered on the server with the URL's filters. */
function listHtml(kind: ListKind, search = '') {
  const loaderData = {
    kind,
    filters: readFilters(new URL(`http://x/${search}`)),
    list: [],
    count: 0,
    error: null,
    labels: [],
    notice: null,
  };
  const Stub = createRoutesStub([
    { path: '/', Component: () => <EvidenceListPage loaderData={loaderData} /> },
  ]);
  return renderToStaticMarkup(<Stub initialEntries={['/']} />);
}

describe('the 文件类型 filter (spec 01 §2.4)', () => {
  it('is on the file, hash and app lists, keeping the URL’s type', () => {
    for (const kind of ['file', 'hash', 'app'] as const) {
      const html = listHtml(kind, '?type=3');
      expect(html, kind).toContain('<select name="type">');
      expect(html, kind).toContain('<option value="3" selected="">音频</option>');
    }
  });

  it('is not on the lists whose evidence has one type', () => {
    for (const kind of ['property', 'music', 'web', 'process'] as const) {
      expect(listHtml(kind), kind).not.toContain('name="type"');
    }
  });

  it('reaches the platform on the hash and app lists', async () => {
    await listLoader(await signedIn('/attestation-list/hash?type=3'), perRequest(suite.ctx), 'hash');
    await listLoader(await signedIn('/evidences-all/mobile-process?type=2'), perRequest(suite.ctx), 'app');
    const lists = calls.filter((c) => c.path === EvidencePaths.list || c.path === EvidencePaths.hashList);
    expect(lists.map((c) => [c.path, c.query.get('type'), c.query.get('v')])).toEqual([
      [EvidencePaths.hashList, '3', null],
      [EvidencePaths.list, '2', 'app'],
    ]);
  });
});

/** The batch download page's props (the test hands it only `loaderData`). */
type BatchProps = ComponentProps<typeof BatchDownload>;

describe('batch download count', () => {
  const BATCH = '/attestation-list/download/batch.zip?exp=1&sig=ab';
  const loaded = async (n: string | null) => {
    const params = new URLSearchParams({ batch: BATCH, ...(n === null ? {} : { n }) });
    const request = await signedIn(`/attestation-list/download?${params}`);
    return batchLoader({ request, context: perRequest(suite.ctx), params: {} } as never);
  };

  it('reads a whole number of 1 to 100 and treats anything else as absent', async () => {
    expect((await loaded('3')).itemCount).toBe(3);
    expect((await loaded('100')).itemCount).toBe(100);
    for (const n of ['abc', '', '0', '-1', '1.5', '1e2', '101', ' 3', '0x10', null]) {
      expect((await loaded(n)).itemCount, String(n)).toBeNull();
    }
  });

  it('never shows NaN: without a count the notice says the evidence is packed', async () => {
    const render = (itemCount: number | null) => {
      const loaderData = {
        filters: readFilters(new URL('http://x/')),
        list: [],
        count: 0,
        labels: [],
        batch: BATCH,
        itemCount,
      };
      const Stub = createRoutesStub([
        { path: '/', Component: () => <BatchDownload {...({ loaderData } as unknown as BatchProps)} /> },
      ]);
      return renderToStaticMarkup(<Stub initialEntries={['/']} />);
    };
    const html = render((await loaded('abc')).itemCount);
    expect(html).not.toContain('NaN');
    expect(html).toContain('证据已打包，');
    expect(render(3)).toContain('已打包 3 个证据，');
  });
});
