/**
 * The evidence list screen of spec 01 §2.4, shared by the file, hash and user-data tabs: GET filter form, table,
 * pagination by links, and per-row actions (label, delete) confirmed in <details> steps (no JavaScript needed).
 */
import { Form, Link, NavLink } from 'react-router';
import { CsrfInput } from '../shell/csrf-input.tsx';
import { FormErrors, FormNotice } from '../shell/field.tsx';
import type { listLoader, ListKind } from './list.server.ts';
import type { ReactNode } from 'react';
import { CaptureTabs, type CaptureTab } from '../capture/capture-tabs.tsx';
import { DataTable } from '../shell/data-table.tsx';
import { ConfirmAction } from '../shell/confirm-action.tsx';
import {
  evidenceCells,
  EvidenceFilters,
  FileTypeSelect,
  LabelSelect,
  ListPagination,
} from './list-parts.tsx';

/**
 * Each list's tab label, its "new evidence" button (an action, 新建…, not the tab's name again; decision 030)
 * and that button's path. 数据保全 names the whole area (the top bar, the page title); the third kind is 用户数据保全.
 */
const KINDS: Record<ListKind, { label: string; action: string; create: string; base: string }> = {
  file: {
    label: '文件保全',
    action: '新建文件保全',
    create: '/newAccessCard',
    base: '/attestation-list/file',
  },
  hash: {
    label: '哈希保全',
    action: '新建哈希保全',
    create: '/newAccessHashCard',
    base: '/attestation-list/hash',
  },
  property: {
    label: '用户数据保全',
    action: '新建用户数据保全',
    create: '/newProperty',
    base: '/attestation-list/property',
  },
  // the app evidence of 在线取证 (decision 039): its tabs are the capture area's
  app: {
    label: 'App 取证',
    action: '接入 App 取证',
    create: '/newMobile',
    base: '/evidences-all/mobile-process',
  },
  music: {
    label: '音乐作品',
    action: '新建音乐作品保全',
    create: '/evidences-all/music/new',
    base: '/evidences-all/music',
  },
  web: { label: '网页取证', action: '新建网页取证', create: '/newWeb', base: '/evidences-all/web' },
  process: {
    label: '过程取证',
    action: '新建过程取证',
    create: '/newProcess',
    base: '/evidences-all/process',
  },
};

/** The tabs of 数据保全. */
const DATA_KINDS: ListKind[] = ['file', 'hash', 'property'];

/** What each list route hands the page: its loader's data (listLoader) and its action's answer (listAction). */
export interface EvidenceListProps {
  loaderData: Awaited<ReturnType<typeof listLoader>>;
  actionData?: { error?: string } | undefined;
  /** What goes between the tabs and the filters (the capture lists' jobs in progress). */
  intro?: ReactNode;
}

/**
 * The lists with the 文件类型 filter (spec 01 §2.4): those whose rows have varied file types, each filtered by `type`
 * on the platform — files, hash evidence (its type comes from the file name) and app evidence. The others have one
 * type each: user data a document, music works audio, web and process captures a WACZ archive.
 */
const TYPED_KINDS: ReadonlySet<ListKind> = new Set<ListKind>(['file', 'hash', 'app']);

/** The tab of 在线取证 each of its lists is under (the other kinds are 数据保全's). */
const ONLINE_TAB: Partial<Record<ListKind, CaptureTab>> = {
  web: 'web',
  process: 'process',
  app: 'mobile',
  music: 'music',
};

/**
 * The list screen: the default export of the file, hash and user-data routes (checked against their
 * Route.ComponentProps).
 */
export function EvidenceListPage({ loaderData, actionData, intro }: EvidenceListProps) {
  const { kind, filters, list, count, error, labels, notice } = loaderData;
  const base = KINDS[kind].base;
  const app = kind === 'app';
  const online = ONLINE_TAB[kind];
  return (
    <section className="page">
      <div className="page-head">
        <h1>{online ? '在线取证' : '数据保全'}</h1>
        <div className="head-actions">
          <Link to="/attestation-list/download" className="button">
            批量下载
          </Link>
          <Link to={KINDS[kind].create} className="button primary">
            {KINDS[kind].action}
          </Link>
        </div>
      </div>
      {online ? (
        <CaptureTabs current={online} />
      ) : (
        <nav className="tabs" aria-label="保全类型">
          {DATA_KINDS.map((k) => (
            <NavLink key={k} to={KINDS[k].base} aria-current={k === kind ? 'page' : undefined}>
              {KINDS[k].label}
            </NavLink>
          ))}
        </nav>
      )}
      {intro}
      <EvidenceFilters
        filters={filters}
        after={<Link to={base}>重置</Link>}
        selects={
          <>
            {TYPED_KINDS.has(kind) ? <FileTypeSelect value={filters.type} /> : null}
            <LabelSelect value={filters.label} labels={labels} />
          </>
        }
      />
      <FormNotice text={notice} />
      <FormErrors errors={[error, actionData?.error].filter((e): e is string => !!e)} />
      <DataTable
        headers={['保全编号', '证据名称', '文件类型', '标签', '保全时间', '操作']}
        items={list}
        empty="暂无数据"
        row={(row) => (
          <tr key={row.id}>
            {evidenceCells(row)}
            <td className="row-actions">
              <Link to={`/attestation/${row.baoquan}`}>查看证书</Link>
              {app ? (
                <Link to={`/evidences-all/mobile/queue/${encodeURIComponent(row.baoquan)}`}>处理进度</Link>
              ) : null}
              <details>
                <summary>标签</summary>
                <Form method="post" className="inline-form">
                  <CsrfInput />
                  <input type="hidden" name="intent" value="label" />
                  <input type="hidden" name="dataId" value={row.id} />
                  <input
                    type="text"
                    name="label"
                    defaultValue={row.label}
                    maxLength={30}
                    aria-label={`${row.title}的标签`}
                  />
                  <button type="submit" className="button small">
                    保存
                  </button>
                </Form>
              </details>
              <ConfirmAction
                summary="删除"
                question="删除后原始数据不可恢复，账本记录仍保留。确认删除？"
                confirm="确认删除"
                intent="delete"
                fields={{ dataId: row.id }}
                tone="danger"
              />
            </td>
          </tr>
        )}
      />
      <ListPagination filters={filters} count={count} />
    </section>
  );
}
