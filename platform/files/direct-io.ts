/**
 * Large files written past the page cache (`O_DIRECT`, Linux; docs/decisions/016 "Large files go to the disk
 * directly"): {@link DirectFileSink} is the end of {@link streamToNewFile}'s pipeline. It gathers the stream's chunks
 * in 1 MiB slots of page-aligned memory and writes each full slot straight to the disk through a second descriptor
 * opened with `O_DIRECT`, two writes in flight; what is not a whole 4 KiB block at the end, and every file smaller
 * than one slot, goes through the ordinary descriptor the file was created with.
 *
 * Why: a buffered write copies every byte into the page cache and leaves the disk write for later (or for the flush
 * a durable save asks for); on a freshly booted virtual machine each new page-cache page is also a first touch of the
 * guest's memory, which the host backs at that moment. Measured on the 2-core machine (decision 032), 512 MiB written
 * buffered to a new file took 0.85 s of system time where memory was fresh (0.12 s where it had been used), 0.07 s
 * with `O_DIRECT`; a 512 MiB upload spent 1.2 s of the libuv pool's CPU in its writes. Uploads are rarely read
 * right after they are stored, so keeping them out of the page cache also leaves it to the database (object stores
 * such as MinIO write large objects with `O_DIRECT` for both reasons).
 *
 * Alignment: `O_DIRECT` wants the memory address, the file offset and the length aligned to the device's logical
 * block (512 B or 4 KiB). Slots live in one WebAssembly.Memory, whose backing store V8 allocates page-aligned (a
 * Node.js Buffer of the same size starts 16 bytes past a page); offsets and lengths are multiples of 4 KiB. Where
 * `O_DIRECT` is refused (EINVAL at the open or the first write: a file system without it, an unusual block size),
 * the slot is written through the ordinary descriptor and the process stops trying: correctness never depends on it.
 * Durability is unchanged: the caller's final flush (`fsync`) covers both descriptors' writes and the file's size.
 * A direct write is on the device when it returns, but a device with a write-back cache (a virtual disk) holds it
 * until a flush, which the next `fsync` of any file then waits for: the direct writes are flushed in the background as
 * they go, as the page cache path's are (files/flush.ts; decision 016, "The device's cache").
 */
import fs from 'node:fs';
import fsp, { type FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { BackgroundFlusher } from './flush.ts';

/** Bytes of one slot and of one direct write (1 MiB). */
export const DIRECT_SLOT_BYTES = 1024 * 1024;

/** Alignment of a direct write's memory, offset and length, bytes (a page: every logical block size up to it). */
const ALIGN = 4096;

/** Slots in the process: three per file being written (one filling, two writing), sixteen files at once. */
const POOL_SLOTS = 48;

/** Direct writes of one file in flight at once. */
const WRITES_IN_FLIGHT = 2;

/** One slot of the pool (`index` -1: an ordinary Buffer, taken when the pool was empty or unavailable). */
interface Slot {
  index: number;
  buffer: Buffer;
}

/**
 * Whether `O_DIRECT` works for this process: unknown until a first direct open/write, false after one was refused
 * (then every later file is written the ordinary way).
 */
let supported: boolean | undefined = fs.constants.O_DIRECT === undefined ? false : undefined;

/** The slots (created on first use) and the indexes of the free ones, reused last-in first-out. */
let pool: { slots: Buffer[]; free: number[] } | null = null;

/** True unless `O_DIRECT` was refused in this process (or the platform has no such flag). */
export function directIoUsable(): boolean {
  return supported !== false;
}

/**
 * For tests: forget what was learnt about `O_DIRECT` support, or (`off`) act as if it had been refused, so that the
 * ordinary path of {@link streamToNewFile} runs.
 */
export function resetDirectIoSupport(off = false): void {
  supported = off || fs.constants.O_DIRECT === undefined ? false : undefined;
}

/** Free slots of the pool now (tests check that every slot comes back), or null before the pool exists. */
export function freeDirectSlots(): number | null {
  return pool ? pool.free.length : null;
}

function takeSlot(): Slot {
  if (!pool && supported !== false) {
    try {
      const memory = new WebAssembly.Memory({ initial: (POOL_SLOTS * DIRECT_SLOT_BYTES) / 65536 });
      const slots = Array.from({ length: POOL_SLOTS }, (_, i) =>
        Buffer.from(memory.buffer, i * DIRECT_SLOT_BYTES, DIRECT_SLOT_BYTES),
      );
      pool = { slots, free: slots.map((_, i) => POOL_SLOTS - 1 - i) };
    } catch {
      supported = false; // no WebAssembly (e.g. --jitless): no aligned memory
    }
  }
  const index = pool?.free.pop();
  if (index === undefined) return { index: -1, buffer: Buffer.allocUnsafeSlow(DIRECT_SLOT_BYTES) };
  return { index, buffer: pool!.slots[index]! };
}

function giveSlot(slot: Slot): void {
  if (slot.index >= 0) pool!.free.push(slot.index);
}

/** Writes `length` bytes of `buffer` from its start at `position`, however many calls it takes. */
async function writeFully(
  handle: FileHandle,
  buffer: Buffer,
  length: number,
  position: number,
): Promise<void> {
  for (let done = 0; done < length;) {
    const { bytesWritten } = await handle.write(buffer, done, length - done, position + done);
    if (bytesWritten === 0) throw new Error('the file system accepted no bytes');
    done += bytesWritten;
  }
}

/**
 * The write end of a new file: the handle `file` (opened by the caller, exclusive; this sink owns and closes it) at
 * `dest`, flushed in the background every 32 MiB written (files/flush.ts). With `flush`, the file is `fsync`ed once
 * everything is written, before the stream finishes. A failed
 * stream closes both descriptors once its writes have settled; {@link settled} tells when (the caller deletes the
 * file after it). Memory: at most three slots (3 MiB) per file.
 */
export class DirectFileSink extends Writable {
  private slot: Slot | null = null;
  private filled = 0;
  /** File offset of the current slot's first byte. */
  private position = 0;
  private readonly writes: Promise<void>[] = [];
  private direct: Promise<FileHandle | null> | null = null;
  private closing: Promise<void> | null = null;
  private readonly file: FileHandle;
  private readonly dest: string;
  private readonly flush: boolean;
  private readonly flusher: BackgroundFlusher;

  constructor(file: FileHandle, dest: string, flush: boolean) {
    super({ highWaterMark: DIRECT_SLOT_BYTES });
    this.file = file;
    this.flusher = new BackgroundFlusher(file);
    this.dest = dest;
    this.flush = flush;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error | null) => void): void {
    this.take(chunk).then(() => done(), done);
  }

  override _final(done: (err?: Error | null) => void): void {
    (async () => {
      if (this.filled > 0) await this.sendSlot(this.filled);
      while (this.writes.length) await this.writes.shift();
      if (this.flush) await this.file.sync();
      await this.close();
    })().then(() => done(), done);
  }

  override _destroy(err: Error | null, done: (err?: Error | null) => void): void {
    this.close().then(
      () => done(err),
      (closeErr: unknown) => done(err ?? (closeErr as Error)),
    );
  }

  /** Resolves once both descriptors are closed and no write is in flight (after the stream ended or failed). */
  settled(): Promise<void> {
    return this.close().catch(() => undefined);
  }

  private async take(chunk: Buffer): Promise<void> {
    for (let at = 0; at < chunk.length;) {
      this.slot ??= takeSlot();
      const copied = chunk.copy(this.slot.buffer, this.filled, at);
      this.filled += copied;
      at += copied;
      if (this.filled === DIRECT_SLOT_BYTES) await this.sendSlot(DIRECT_SLOT_BYTES);
    }
  }

  /** Sends the current slot's `length` bytes to the file; waits while more than {@link WRITES_IN_FLIGHT} writes are running. */
  private async sendSlot(length: number): Promise<void> {
    const slot = this.slot!;
    const position = this.position;
    this.slot = null;
    this.filled = 0;
    this.position += length;
    const write = this.writeSlot(slot, length, position)
      .then(() => this.flusher.wrote(length))
      .finally(() => giveSlot(slot));
    write.catch(() => undefined); // awaited below or in _final; a failure ends the stream there
    this.writes.push(write);
    while (this.writes.length > WRITES_IN_FLIGHT) await this.writes.shift();
  }

  /** Writes a slot: its whole blocks directly when possible, the rest through the ordinary descriptor. */
  private async writeSlot(slot: Slot, length: number, position: number): Promise<void> {
    // a file that never fills a slot is small: it stays on the ordinary path and never opens a second descriptor
    const wantsDirect =
      slot.index >= 0 && supported !== false && (length === DIRECT_SLOT_BYTES || this.direct !== null);
    const direct = wantsDirect ? await (this.direct ??= this.openDirect()) : null;
    let written = 0;
    const aligned = length - (length % ALIGN);
    if (direct && aligned > 0) {
      try {
        await writeFully(direct, slot.buffer, aligned, position);
        supported = true;
        written = aligned;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EINVAL') throw err;
        supported = false; // refused: the whole slot is written again the ordinary way below
      }
    }
    if (written < length) {
      await writeFully(this.file, slot.buffer.subarray(written), length - written, position + written);
    }
  }

  /** The `O_DIRECT` descriptor of `dest`, or null where the file system refuses it. */
  private async openDirect(): Promise<FileHandle | null> {
    try {
      return await fsp.open(this.dest, fs.constants.O_WRONLY | fs.constants.O_DIRECT!);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EINVAL') throw err;
      supported = false;
      return null;
    }
  }

  /** Waits for the writes in flight, returns the filling slot, closes both descriptors. Idempotent. */
  private close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.allSettled(this.writes);
      await this.flusher.settled();
      if (this.slot) giveSlot(this.slot);
      this.slot = null;
      const direct = await this.direct?.catch(() => null);
      await Promise.all([direct?.close(), this.file.close()]);
    })();
    return this.closing;
  }
}
