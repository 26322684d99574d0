/**
 * The ledger's public face and its witnesses (LEDGER_*; docs/decisions/035-checkpoints.md), composed into
 * platform/config.ts.
 */
import { z } from 'zod';
import { envGroup, envVar } from '../lib/config-schema.ts';
import { flag, integer, jsonList, notBoth, text } from '../lib/config-types.ts';

/** LEDGER_WITNESSES: where each witness listens and its verifier key (checked when the ledger starts). */
const WitnessList = z.array(z.object({ url: z.url(), key: z.string().min(1).max(300) }).strict()).max(20);
const witnesses = jsonList('LEDGER_WITNESSES', WitnessList);

/** LEDGER_ORIGIN, LEDGER_PUBLIC_ENTRIES and the witnesses. */
export const LedgerVars = envGroup({
  id: 'ledger',
  title: 'Ledger',
  summary:
    "The ledger's C2SP checkpoint origin, whether its entry bundles are public, and the witnesses asked to cosign its checkpoints.",
  vars: {
    LEDGER_ORIGIN: envVar(
      text({ pattern: /^[^\s+]{1,200}$/, patternError: 'must be 1–200 characters without spaces or +' }),
      {
        description: "first line of the ledger's checkpoints and their key name; keep it stable",
        defaultText: '<PUBLIC_URL host>/ledger',
      },
    ),
    LEDGER_PUBLIC_ENTRIES: envVar(flag(false), {
      description: "1 serves the ledger's entry bundles (every record) as well as its hash tiles",
    }),
    LEDGER_WITNESSES: envVar(witnesses.inline, {
      description: 'JSON [{"url": …, "key": <witness verifier key>}]: witnesses asked to cosign checkpoints',
      showValue: false,
      defaultText: 'none',
    }),
    LEDGER_WITNESSES_FILE: envVar(witnesses.file, {
      description: 'a file holding LEDGER_WITNESSES, instead of it',
    }),
    LEDGER_WITNESS_INTERVAL_SECONDS: envVar(integer({ min: 1, max: 86_400, default: 30 }), {
      description: 'how often the witnesses are asked, seconds',
    }),
  },
  checks: [
    {
      vars: [],
      problems: (_v, given) => notBoth('LEDGER_WITNESSES', 'LEDGER_WITNESSES_FILE', given),
    },
  ],
});
