/**
 * The V8 flags every start of the product passes to Node.js (`npm start`, `npm run dev`, `npm run start:platform`, the
 * container's CMD, the e2e servers and the benches; server/runtime-flags.test.ts checks the first four), in this order.
 *
 * - `--max-semi-space-size=1` (MiB): the young generation stays small, so scavenges come often enough to free the
 *   body chunks a streamed upload passes through (Node's HTTP parser copies each socket read, ≤ 64 KiB, into a new
 *   ArrayBuffer; the gateway and the platform each make 512 MiB of them per 512 MiB uploaded). With 16 MiB a
 *   semi-space the JavaScript allocated per chunk filled it so rarely that those buffers piled up as external memory
 *   until V8 ran full mark-compacts instead, 10–17 per upload in each isolate, each marking a 50–80 MB heap: over
 *   half of all CPU of an upload went to concurrent marking (perf, decision 032). Before that the value was 16
 * (decision
 *   024: V8 sizes the young generation from the machine's memory and grew it past 32 MiB under load); 1 keeps the
 *   abuse bench's refused bodies at ~1 MB of RSS growth (16: 27–31 MB), idle RSS 400 → ~325 MB, and the page and
 *   `/api` rows of `npm run bench` unchanged.
 * - `--heap-growing-percent=100`: after a full collection the old generation may double before the next one (what
 *   Go's GOGC=100 does). V8's own factor drops to 1.1 when the collector is fast beside a mutator that allocates
 *   little, which a streaming upload is: every few MB of chunks promoted while in flight then started another
 *   mark-compact. Together: 0–1 mark-compacts over two 512 MiB uploads (was 21–34), the product's CPU per upload
 *   3.2–3.7 s → 1.5–2.2 s. Decision 056, "GC of streamed bodies".
 */
export const RUNTIME_FLAGS = ['--max-semi-space-size=1', '--heap-growing-percent=100'] as const;
