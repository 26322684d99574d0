/**
 * Lingering after an early answer (docs/decisions/024-gateway-bodies.md). When a server answers before it has read
 * the whole request body (a 412 verification gate, a 413, a refused upload) and closes the connection at once, the
 * kernel resets it while the client is still sending, and the client's HTTP stack often fails the write before it
 * reads the answer: the gateway in front saw "write EPIPE" and answered 502 instead of the real answer.
 *
 * So the answer says `Connection: close` (the rest of the body is never read, so the connection cannot serve another
 * request) but the socket is only half-closed after it: the client can still write into its window and reads the
 * answer. Node is kept from reading and discarding the unread body (at wire speed, hundreds of megabytes a stubborn
 * client, all garbage for the heap); the socket is destroyed when the client closes its side, or `lingerMs` after
 * the answer, whichever comes first. A refused upload costs what the socket buffers hold, not its size. Used by the
 * platform (envelope plugin) and the gateway.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** The socket's latest request answered early (for the half-closing `destroySoon`). */
const LINGER_REQUEST = Symbol('cunzheng.lingerRequest');

/** Default time an early answer keeps its connection open before it is destroyed (milliseconds). */
export const DEFAULT_LINGER_MS = 1000;

/** Destroys a real socket; the stand-in socket of an injected request (light-my-request) has no `destroy`. */
function destroy(socket: Socket): void {
  if (typeof socket.destroy === 'function') socket.destroy();
}

/**
 * Call from an `onSend` hook (before the headers are written). When `req`'s body is not complete yet: the answer
 * carries `Connection: close` (`setHeader` is the framework's header setter, e.g. Fastify's `reply.header`), as the
 * rest of the body is never read; Node is kept from reading (dumping) it; after the answer the socket is
 * half-closed, and destroyed as soon as the client closes its side or `lingerMs` after `res` finished, whichever
 * comes first. Does nothing for a complete body.
 */
export function lingerOnEarlyAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  setHeader: (name: string, value: string) => void,
  lingerMs = DEFAULT_LINGER_MS,
): void {
  if (req.complete || req.method === 'GET' || req.method === 'HEAD') return;
  setHeader('connection', 'close');
  // Node reads and discards an unread body after the answer (IncomingMessage#_dump), at wire speed: megabytes a
  // refused upload, garbage the heap keeps until its next full collection. A request that has started reading is
  // left alone: `read(0)` starts it.
  req.read(0);
  // What the parser already pushed (the rest of the socket read that carried the headers, up to 64 KB) is let go
  // now: left in the request's buffer it lives as long as the request, which by then is in the old generation, and
  // is freed only by a full collection (V8 starts one after ~64 MB of such external memory). Dropped now, it dies
  // young (abuse bench, 1,000 refused 1.5 MB bodies, default young generation: peak growth 67 → 51–57 MB).
  while (req.read() !== null);
  const socket = req.socket as Socket & { destroySoon?: () => void; [LINGER_REQUEST]?: IncomingMessage };
  // `read(0)` also resumes the socket, whose next read would copy up to 64 KB more of a body nobody wants (garbage
  // until the next collection; on the abuse bench the peak growth fell from 80–128 MB to 60–69 MB without it). Stop
  // reading instead; the client's close is then seen by the timer rather than by a read. (An injected request's
  // stand-in socket has no pause.)
  if (typeof socket.pause === 'function') socket.pause();
  // Node ends the socket of a `Connection: close` answer and destroys it as soon as the answer is written, which
  // resets it with the body still coming. Half-close instead and let the client's close or the timer destroy it.
  // Installed once per socket; it looks at the socket's latest early-answered request.
  if (!(LINGER_REQUEST in socket) && typeof socket.destroySoon === 'function') {
    const destroySoon = socket.destroySoon;
    socket.destroySoon = function lingeringDestroySoon(this: typeof socket) {
      const pending = this[LINGER_REQUEST];
      if (!pending || pending.complete) return destroySoon.call(this);
      if (this.writable) this.end();
    };
  }
  socket[LINGER_REQUEST] = req;
  res.once('finish', () => {
    if (req.complete) return;
    const done = () => {
      clearTimeout(timer);
      socket.off('close', done);
      socket.off('end', closeNow);
      req.off('end', closeNow);
    };
    // The client read the answer and closed its side, or the body completed after all: nothing is left to wait for.
    const closeNow = () => {
      done();
      if (!socket.destroyed) destroy(socket);
    };
    const timer = setTimeout(closeNow, lingerMs);
    timer.unref();
    socket.once('close', done);
    socket.once('end', closeNow);
    req.once('end', closeNow);
  });
}
