/**
 * The list of table modules is complete (docs/decisions/060-operator-routes-and-tables.md "Tables"): every
 * `platform/<area>/schema.ts` that merges tables into `Database` is imported by platform/db/schema-areas.ts, so a
 * program that starts from any entry point sees every table.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const PLATFORM = path.resolve(import.meta.dirname, '..');

describe('platform/db/schema-areas.ts (decision 060)', () => {
  it('imports every area schema module that declares tables into Database, and only existing ones', () => {
    const merging = fs
      .readdirSync(PLATFORM, { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name !== 'db')
      .map((d) => path.join(d.name, 'schema.ts'))
      .filter((f) => {
        const file = path.join(PLATFORM, f);
        return (
          fs.existsSync(file) && /declare module '\.\.\/db\/schema\.ts'/.test(fs.readFileSync(file, 'utf8'))
        );
      })
      .map((f) => `../${f}`)
      .sort();
    const listed = [
      ...fs.readFileSync(path.join(PLATFORM, 'db', 'schema-areas.ts'), 'utf8').matchAll(/from '([^']+)'/g),
    ]
      .map((m) => m[1]!)
      .sort();
    expect(merging.length).toBeGreaterThan(10);
    expect(listed).toEqual(merging);
  });
});
