/**
 * Province → city → area selects. Without JavaScript the server renders the options of the chosen levels and a
 * “下一步” button posts the form to refresh them (one server step per level); with JavaScript the tree is fetched
 * once (browser-cached) and the selects cascade in place.
 */
import { useEffect, useState } from 'react';
import { useHydrated } from 'remix-utils/use-hydrated';
import type { RegionNode } from '../../contract/index.ts';

export interface RegionValue {
  province: string;
  city: string;
  area: string;
}

/** The options of each level for a value, from a tree. */
export function regionOptions(tree: RegionNode[], v: RegionValue) {
  const province = tree.find((p) => p.name === v.province);
  const city = province?.child?.find((c) => c.name === v.city);
  return {
    provinces: tree.map((p) => p.name),
    cities: province?.child?.map((c) => c.name) ?? [],
    areas: city?.child?.map((a) => a.name) ?? [],
  };
}

export function RegionSelect({
  serverOptions,
  value,
  error,
}: {
  serverOptions: ReturnType<typeof regionOptions>;
  value: RegionValue;
  error?: string | undefined;
}) {
  const hydrated = useHydrated();
  const [tree, setTree] = useState<RegionNode[] | null>(null);
  const [v, setV] = useState(value);
  // Follow new values from the server (after an action), by content: the object is rebuilt on every render.
  useEffect(
    () => setV({ province: value.province, city: value.city, area: value.area }),
    [value.province, value.city, value.area],
  );
  useEffect(() => {
    if (!hydrated) return;
    void fetch('/api/User/district')
      .then((r) => r.json())
      .then((body: { code: number; data: RegionNode[] }) => {
        if (Number(body.code) === 200) setTree(body.data);
      })
      .catch(() => undefined);
  }, [hydrated]);
  const options = tree ? regionOptions(tree, v) : serverOptions;
  return (
    <fieldset className="field region">
      <legend>所在地区</legend>
      <select
        name="province"
        aria-label="省份"
        value={v.province}
        onChange={(e) => setV({ province: e.target.value, city: '', area: '' })}
      >
        <option value="">请选择省份</option>
        {options.provinces.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
      <select
        name="city"
        aria-label="城市"
        value={v.city}
        onChange={(e) => setV({ ...v, city: e.target.value, area: '' })}
      >
        <option value="">请选择城市</option>
        {options.cities.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
      <select
        name="area"
        aria-label="区县"
        value={v.area}
        onChange={(e) => setV({ ...v, area: e.target.value })}
      >
        <option value="">请选择区县</option>
        {options.areas.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
      {tree ? null : (
        <button type="submit" name="intent" value="region" className="button small" formNoValidate>
          下一步
        </button>
      )}
      {error ? (
        <div className="field-error" role="alert">
          {error}
        </div>
      ) : null}
    </fieldset>
  );
}
