/**
 * SHA-256 of upload streams computed on a thread of its own ("hashing off the main thread";
 * docs/decisions/056 "Uploads hash on a thread of their own").
 *
 * An upload's bytes pass the platform's thread once (HTTP, multipart parsing, the file write); hashing them there
 * too took a quarter of that thread's time (node:crypto runs `update` on the calling thread, ~900 MB/s on the 2-core
 * machine). {@link OffThreadSha256} sends the chunks (copied once into 1 MiB buffers that are transferred there
 * and handed back with the worker's acknowledgements, so that they are reused) to one hashing worker
 * per thread that uses it, started on first use, and gets the hex digest back at the end. The worker keeps the
 * process alive only while it owes a digest. Measured on a
 * bare Fastify + multipart server writing 512 MiB uploads to disk: 300–325 MiB/s hashing inline, 326–432 off thread.
 *
 * Memory stays bounded: at most {@link MAX_IN_FLIGHT_BYTES} of one stream's chunks wait for the worker; past that
 * the stream is held (backpressure) until the worker has hashed them. A worker that fails (it should not: it only
 * hashes) fails the digests it owes; the next stream starts a new one.
 */
import { Worker } from 'node:worker_threads';

/** Most bytes of one stream sent to the worker and not yet hashed before the stream waits (bytes). */
export const MAX_IN_FLIGHT_BYTES = 4 * 1024 * 1024;

/** The worker tells how far it got after this many bytes of a stream (bytes). */
const ACK_EVERY_BYTES = 1024 * 1024;

/**
 * Size of the buffers chunks are gathered in (bytes): a stream's chunks (64 KiB socket reads) fill one, which goes to
 * the worker when full or at the end: one message and one wake-up of the worker per MiB rather than per chunk.
 */
const BUFFER_BYTES = 1024 * 1024;

/** Most hashed buffers kept for reuse: beyond it the worker's returns are left to the garbage collector. */
const MAX_SPARE_BUFFERS = MAX_IN_FLIGHT_BYTES / BUFFER_BYTES + 4;

/**
 * Messages to the worker: `length` bytes of stream `id` at the start of `buffer`, its end (digest wanted), or its
 * abandonment.
 */
type ToWorker =
  | { id: number; buffer: ArrayBuffer; length: number }
  | { id: number; end: true }
  | { id: number; drop: true };
/**
 * Messages from the worker: bytes of stream `id` hashed so far with the buffers it is done with (transferred back,
 * so that copies reuse them instead of leaving one 1 MiB allocation per buffer to the worker's collector), or the
 * digest (lower-case hex).
 */
type FromWorker = { id: number; hashed: number; spare: ArrayBuffer[] } | { id: number; hex: string };

/** The worker's code (CommonJS, evaluated: no file to ship or load through the TypeScript loader). */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const streams = new Map();
let spare = [];
parentPort.on('message', (m) => {
  let s = streams.get(m.id);
  if (m.buffer) {
    if (!s) streams.set(m.id, (s = { hash: createHash('sha256'), bytes: 0, acked: 0 }));
    s.hash.update(new Uint8Array(m.buffer, 0, m.length));
    s.bytes += m.length;
    spare.push(m.buffer);
    if (s.bytes - s.acked >= ${ACK_EVERY_BYTES}) {
      s.acked = s.bytes;
      parentPort.postMessage({ id: m.id, hashed: s.bytes, spare }, spare);
      spare = [];
    }
  } else if (m.end) {
    streams.delete(m.id);
    parentPort.postMessage({ id: m.id, hex: (s ? s.hash : createHash('sha256')).digest('hex') });
  } else if (m.drop) {
    streams.delete(m.id);
  }
});
`;

/** One stream's state as this side sees it. */
interface Pending {
  hashed: number;
  /** Called when the worker reports progress (a stream held by backpressure continues). */
  onProgress?: () => void;
  resolve?: (hex: string) => void;
  reject?: (err: Error) => void;
}

/** The hashing worker of this thread and the streams it owes. */
class HashWorker {
  private readonly worker: Worker;
  readonly streams = new Map<number, Pending>();
  /** Buffers the worker has hashed and handed back, for the next copies. */
  readonly spare: ArrayBuffer[] = [];
  failed = false;

  constructor() {
    // A small young generation whatever the process was started with (server/runtime-flags.ts sets 1 MiB
    // semi-spaces, a Vitest run none): what the worker allocates per chunk (a message, a view) dies at once, and
    // 16 MiB semi-spaces let ~48 MB of it sit in resident memory.
    this.worker = new Worker(WORKER_SOURCE, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 2 } });
    this.worker.on('message', (m: FromWorker) => {
      const s = this.streams.get(m.id);
      if (!s) return;
      if ('hex' in m) {
        this.forget(m.id);
        s.resolve?.(m.hex);
      } else {
        for (const b of m.spare) if (this.spare.length < MAX_SPARE_BUFFERS) this.spare.push(b);
        s.hashed = m.hashed;
        s.onProgress?.();
      }
    });
    const fail = (err: Error) => {
      if (this.failed) return;
      this.failed = true;
      for (const s of this.streams.values()) {
        s.reject?.(err);
        s.onProgress?.();
      }
      this.streams.clear();
      this.worker.unref();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the SHA-256 worker exited (${code})`)));
    // after the listeners: adding a 'message' listener refs the worker's port again
    this.worker.unref();
  }

  /** Registers a stream; the worker holds the process open while any is registered. */
  track(id: number, state: Pending): void {
    this.streams.set(id, state);
    if (this.streams.size === 1) this.worker.ref();
  }

  /** Forgets a stream (its digest came, or it was dropped). */
  forget(id: number): void {
    if (this.streams.delete(id) && this.streams.size === 0) this.worker.unref();
  }

  post(message: ToWorker, transfer?: ArrayBuffer[]): void {
    this.worker.postMessage(message, transfer);
  }
}

let current: HashWorker | null = null;
let nextId = 0;

function hashWorker(): HashWorker {
  if (!current || current.failed) current = new HashWorker();
  return current;
}

/**
 * Starts this thread's hashing worker now rather than on the first upload (the platform calls it at start): its
 * fixed cost, ~10 MB of resident memory, is then the idle process's and not an upload's.
 */
export function startSha256Thread(): void {
  hashWorker();
}

/**
 * The SHA-256 of one stream of bytes, computed on the hashing worker: {@link update} with each chunk in order (its
 * callback runs when the stream may go on: at once, or once the worker has caught up), then {@link digest} once.
 * {@link drop} abandons it (a failed upload).
 */
export class OffThreadSha256 {
  private readonly worker = hashWorker();
  private readonly id = ++nextId;
  private readonly state: Pending = { hashed: 0 };
  private sent = 0;
  private done = false;
  /** The buffer being filled with this stream's next bytes, and how many it holds. */
  private filling: Uint8Array | null = null;
  private filled = 0;

  constructor() {
    this.worker.track(this.id, this.state);
  }

  /**
   * Hands `chunk` to the worker (a copy: the caller keeps `chunk`); `ready` runs when fewer than
   * {@link MAX_IN_FLIGHT_BYTES} wait to be hashed, with an Error if the worker failed.
   */
  update(chunk: Uint8Array, ready: (err?: Error) => void): void {
    if (this.worker.failed) return ready(new Error('the SHA-256 worker failed'));
    for (let at = 0; at < chunk.length;) {
      this.filling ??= new Uint8Array(this.worker.spare.pop() ?? new ArrayBuffer(BUFFER_BYTES));
      const piece = chunk.subarray(at, at + BUFFER_BYTES - this.filled);
      this.filling.set(piece, this.filled);
      this.filled += piece.length;
      at += piece.length;
      if (this.filled === BUFFER_BYTES) this.flush();
    }
    this.sent += chunk.length;
    if (this.sent - this.state.hashed < MAX_IN_FLIGHT_BYTES) return ready();
    this.state.onProgress = () => {
      if (this.worker.failed) {
        this.state.onProgress = undefined;
        ready(new Error('the SHA-256 worker failed'));
      } else if (this.sent - this.state.hashed < MAX_IN_FLIGHT_BYTES) {
        this.state.onProgress = undefined;
        ready();
      }
    };
  }

  /**
   * The lower-case hex digest of every byte given to {@link update}; call once, after the last update.
   * @throws Error when the worker failed, or after {@link drop} or a first call
   */
  digest(): Promise<string> {
    const dropped = this.done;
    this.done = true;
    return new Promise((resolve, reject) => {
      if (dropped) return reject(new Error('the stream was dropped or its digest already asked for'));
      if (this.worker.failed) return reject(new Error('the SHA-256 worker failed'));
      this.state.resolve = resolve;
      this.state.reject = reject;
      this.flush();
      this.worker.post({ id: this.id, end: true });
    });
  }

  /** Sends the buffer being filled, if it holds anything. */
  private flush(): void {
    if (!this.filling || this.filled === 0) return;
    const buffer = this.filling.buffer as ArrayBuffer;
    this.worker.post({ id: this.id, buffer, length: this.filled }, [buffer]);
    this.filling = null;
    this.filled = 0;
  }

  /** Abandons the stream: the worker forgets it. Idempotent; a no-op after {@link digest}. */
  drop(): void {
    if (this.done) return;
    this.done = true;
    this.worker.forget(this.id);
    if (!this.worker.failed) this.worker.post({ id: this.id, drop: true });
  }
}
