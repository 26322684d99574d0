/**
 * Province → city → area selects. Without JavaScript the server renders the options of the chosen levels and a
 * “下一步” button posts the form to refresh them (one server step per level); with JavaScript the tree is fetched
 * once (browser-cached) and the selects cascade in place.
 */
import { useEffect, useState } from 'react';
import { useHydrated } from 'remix-utils/use-hydrated';
import type { RegionNode } from '../../contract/address.ts';
import { useAppUrl } from '../lib/base-path.ts';

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

/** One level's select: the placeholder 请选择<label> and the level's names; `onPick` gets the chosen name. */
function LevelSelect({
  name,
  label,
  value,
  names,
  onPick,
}: {
  name: keyof RegionValue;
  label: string;
  value: string;
  names: string[];
  onPick: (name: string) => void;
}) {
  return (
    <select name={name} aria-label={label} value={value} onChange={(e) => onPick(e.target.value)}>
      <option value="">{`请选择${label}`}</option>
      {names.map((n) => (
        <option key={n} value={n}>
          {n}
        </option>
      ))}
    </select>
  );
}

/** The region picker of the address form; `serverOptions` are the options rendered without JavaScript. */
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
  const districts = useAppUrl()('/api/User/district');
  const [tree, setTree] = useState<RegionNode[] | null>(null);
  const [v, setV] = useState(value);
  // Follow new values from the server (after an action), by content: the object is rebuilt on every render.
  useEffect(
    () => setV({ province: value.province, city: value.city, area: value.area }),
    [value.province, value.city, value.area],
  );
  useEffect(() => {
    if (!hydrated) return;
    void fetch(districts)
      .then((r) => r.json())
      .then((body: { code: number; data: RegionNode[] }) => {
        if (Number(body.code) === 200) setTree(body.data);
      })
      .catch(() => undefined);
  }, [hydrated, districts]);
  const options = tree ? regionOptions(tree, v) : serverOptions;
  return (
    <fieldset className="field region">
      <legend>所在地区</legend>
      <LevelSelect
        name="province"
        label="省份"
        value={v.province}
        names={options.provinces}
        onPick={(province) => setV({ province, city: '', area: '' })}
      />
      <LevelSelect
        name="city"
        label="城市"
        value={v.city}
        names={options.cities}
        onPick={(city) => setV({ ...v, city, area: '' })}
      />
      <LevelSelect
        name="area"
        label="区县"
        value={v.area}
        names={options.areas}
        onPick={(area) => setV({ ...v, area })}
      />
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
