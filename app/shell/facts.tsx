/**
 * A list of facts (label → value) as a description list, the way detail pages show an order or an application
 * (the invoice, notarisation and console pages). Server-rendered, no JavaScript.
 */
import type { ReactNode } from 'react';

/** Label → value rows as a description list; rows whose value is '' or null are left out. */
export function Facts({ rows, testId }: { rows: [string, ReactNode][]; testId?: string }) {
  return (
    <dl className="facts" data-testid={testId}>
      {rows
        .filter(([, value]) => value !== '' && value !== null && value !== undefined)
        .map(([label, value]) => (
          <FactRow key={label} label={label} value={value} />
        ))}
    </dl>
  );
}

/** One label → value row of a description list (`<dt>` and `<dd>`), for a `<dl className="facts">`. */
export function FactRow({ label, value }: { label: string; value: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </>
  );
}
