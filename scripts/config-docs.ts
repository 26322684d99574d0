/**
 * `npm run config:docs`: writes docs/configuration.md and .env.example from the processes' configuration schemas
 * (server/config/docs.ts; docs/decisions/050-configuration.md). server/config/docs.test.ts fails when the committed
 * files differ from what this writes.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderConfigurationMarkdown, renderEnvExample } from '../server/config/docs.ts';

const root = path.resolve(import.meta.dirname, '..');
writeFileSync(path.join(root, 'docs', 'configuration.md'), renderConfigurationMarkdown());
writeFileSync(path.join(root, '.env.example'), renderEnvExample());
process.stdout.write('wrote docs/configuration.md and .env.example\n');
