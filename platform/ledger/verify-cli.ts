/**
 * `npm run verify -- <package.zip> [--key <public key PEM file>] [--witness <witness verifier key>]…`: checks an
 * evidence package offline and prints each step on its own line (✓ pass, ✗ fail, – skipped); see package-verify.ts
 * for the seven steps (the sixth reports which of the given witnesses cosigned the package's checkpoint, the seventh
 * the RFC 3161 time stamp of its checkpoint).
 * Exit status: 0 when every step of every package holds; otherwise the number (1–7) of the first failing step;
 * 64 for a usage error, 66 when the ZIP or the key file cannot be read.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { verifyPackage, type PackageReport } from './package-verify.ts';

const USAGE =
  'usage: npm run verify -- <package.zip> [--key <Ed25519 public key PEM file>] [--witness <witness verifier key>]... [--tsa-cert <PEM file>]\n';
const MARK = { pass: '✓', fail: '✗', skip: '–' } as const;

function print(line = ''): void {
  process.stdout.write(`${line}\n`);
}

/** Runs the verifier on `argv` (without node and script). @returns the exit status */
export async function main(argv: string[]): Promise<number> {
  let args: ReturnType<typeof parse>;
  const parse = (a: string[]) =>
    parseArgs({
      args: a,
      allowPositionals: true,
      options: {
        key: { type: 'string' },
        witness: { type: 'string', multiple: true },
        'tsa-cert': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  try {
    args = parse(argv);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}`);
    return 64;
  }
  if (args.values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (args.positionals.length !== 1) {
    process.stderr.write(USAGE);
    return 64;
  }
  const file = args.positionals[0]!;
  let keyPem: string | undefined;
  if (args.values.key !== undefined) {
    try {
      keyPem = fs.readFileSync(args.values.key, 'utf8');
    } catch (err) {
      process.stderr.write(`cannot read the key file: ${(err as Error).message}\n`);
      return 66;
    }
  }
  let tsaCertsPem: string | undefined;
  if (args.values['tsa-cert'] !== undefined) {
    try {
      tsaCertsPem = fs.readFileSync(args.values['tsa-cert'], 'utf8');
    } catch (err) {
      process.stderr.write(`cannot read the TSA certificate file: ${(err as Error).message}\n`);
      return 66;
    }
  }
  let reports: PackageReport[];
  try {
    reports = await verifyPackage(file, { keyPem, witnessKeys: args.values.witness, tsaCertsPem });
  } catch (err) {
    process.stderr.write(`cannot read ${file} as a ZIP: ${(err as Error).message}\n`);
    return 66;
  }
  print(`Verifying ${file}${keyPem ? ' against the given key' : ''}`);
  for (const r of reports) {
    if (reports.length > 1 || r.prefix) print(`\n${r.prefix || '(package)'}`);
    for (const s of r.steps) print(`${MARK[s.status]} ${s.step}) ${s.name}: ${s.detail}`);
  }
  const failed = reports.find((r) => !r.ok);
  print();
  if (!failed) {
    const what = reports.map((r) => r.baoquan).join(', ');
    print(
      `OK: all steps hold — ${what} ${reports.length > 1 ? 'are' : 'is'} recorded in the ledger as packaged.`,
    );
    return 0;
  }
  const f = failed.failed!;
  print(`FAILED at step ${f.step} (${f.name})${failed.prefix ? ` in ${failed.prefix}` : ''}: ${f.detail}`);
  return f.step;
}

process.exitCode = await main(process.argv.slice(2));
