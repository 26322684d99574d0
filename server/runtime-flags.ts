/**
 * The V8 flags every start of the product passes to Node.js (`npm start`, `npm run dev`, the container's CMD, the
 * e2e servers and the benches; server/runtime-flags.test.ts checks the first three).
 *
 * `--max-semi-space-size=16` (MiB): V8 sizes the young generation from the machine's memory (on a 24 GiB machine it
 * grows past 32 MiB a semi-space), and a server under load grew it to the maximum: the abuse bench's refused bodies
 * measured 51–68 MB of peak RSS growth with the default, 27–31 MB with 16 MiB, and request throughput did not
 * drop (8 MiB did cost the `/api` proxy CPU: more scavenges, more promotion). Decision 024, issue 10.
 */
export const RUNTIME_FLAGS = ['--max-semi-space-size=16'] as const;
