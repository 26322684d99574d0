/**
 * The one list of the modules that declare the platform's tables (docs/decisions/060-operator-routes-and-tables.md):
 * each `platform/<area>/schema.ts` merges its tables into `Database` (platform/db/schema.ts) by declaration merging,
 * which TypeScript applies only to modules in the program. platform/db/database.ts imports this list, so every
 * build, test and tool that opens the database sees every table, whichever area it starts from. A new area with
 * tables adds its line here (platform/db/schema-areas.test.ts checks that none is missing). Type-only: nothing is loaded at run time. platform/jobs/schema.ts is not listed: its
 * SQLite-only table stays out of `Database`.
 */
import type {} from '../core/schema.ts';
import type {} from '../account/schema.ts';
import type {} from '../notification/schema.ts';
import type {} from '../signature/schema.ts';
import type {} from '../address/schema.ts';
import type {} from '../evidence/schema.ts';
import type {} from '../ledger/schema.ts';
import type {} from '../capture/schema.ts';
import type {} from '../open-api/schema.ts';
import type {} from '../files/schema.ts';
import type {} from '../kyc/schema.ts';
import type {} from '../ops/schema.ts';
import type {} from '../points/schema.ts';
import type {} from '../events/schema.ts';
import type {} from '../billing/schema.ts';
import type {} from '../invoice/schema.ts';
import type {} from '../notary/schema.ts';
import type {} from '../promo/schema.ts';
import type {} from '../renders/schema.ts';
