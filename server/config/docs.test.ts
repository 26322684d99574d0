/**
 * The generated configuration docs (docs/decisions/050-configuration.md "Generated docs"): the committed
 * docs/configuration.md and .env.example are what `npm run config:docs` renders from the schemas, every variable
 * has a one-line description, no name is declared twice, and the schemas' secrets are the ones `withSecretFiles`
 * knows.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { metaOf } from '../../lib/config-schema.ts';
import { SECRET_VARIABLES } from '../../lib/secret-files.ts';
import { allGroups, CONFIG_PROCESSES, renderConfigurationMarkdown, renderEnvExample } from './docs.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const committed = (file: string) => readFileSync(path.join(root, file), 'utf8');

describe('the generated configuration docs', () => {
  it.each([
    ['docs/configuration.md', renderConfigurationMarkdown],
    ['.env.example', renderEnvExample],
  ] as const)('%s is what the schemas render', (file, render) => {
    expect(
      committed(file) === render(),
      `${file} differs from the schemas: run \`npm run config:docs\``,
    ).toBe(true);
  });

  it('describes every variable in one line, each process declaring a name once', () => {
    for (const group of allGroups()) {
      for (const [name, schema] of Object.entries(group.vars)) {
        const { description } = metaOf(name, schema);
        expect(description.trim(), name).not.toBe('');
        expect(description, name).not.toMatch(/\n/);
      }
    }
    for (const process of CONFIG_PROCESSES) {
      const names = [...process.groups, ...(process.sometimes?.groups ?? [])]
        .filter((g, i, all) => all.indexOf(g) === i)
        .flatMap((g) => Object.keys(g.vars));
      expect(new Set(names).size, process.id).toBe(names.length);
    }
  });

  it('declares secret exactly the variables NAME_FILE may hold', () => {
    const secrets = allGroups().flatMap((g) =>
      Object.entries(g.vars)
        .filter(([name, schema]) => metaOf(name, schema).secret)
        .map(([name]) => name),
    );
    expect(secrets.sort()).toEqual([...SECRET_VARIABLES].sort());
  });
});
