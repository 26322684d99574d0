/**
 * Where every logger of the product writes (the gateway's root logger, the embedded platform's worker, the standalone
 * platform): file descriptor 1, one synchronous `write(2)` per line (pino's `destination({ sync: true })`).
 *
 * pino's default stream writes asynchronously: each batch of lines is a `fs.write` through libuv's thread pool, a
 * round trip of two thread wake-ups. With one access line per `/api` call that was the gateway's dearest part on the
 * 2-core machine (decision 032: a CPU profile of `/api` through the gateway put 14 % of its thread in pino's writes;
 * 5,344–5,412 → 6,678–7,217 calls/s, CPU per call 0.31 → 0.24 ms, with synchronous writes). A line written directly
 * costs one system call, never waits in memory (nothing is lost when the process dies), and each line is one write, so
 * lines of the gateway's and the platform's threads do not interleave on a pipe (a write of up to PIPE_BUF, 4 KiB,
 * is atomic there; access lines are far shorter). The cost: a
 * log reader that stops reading (a full pipe) holds the writing thread until it reads again, as it would for any
 * synchronous logger; container runtimes and journald read continuously.
 */
import { pino, type DestinationStream } from 'pino';

/** A synchronous pino destination on `fd` (default 1, standard output). */
export function logDestination(fd = 1): DestinationStream {
  return pino.destination({ fd, sync: true });
}
