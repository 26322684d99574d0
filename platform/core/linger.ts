/**
 * Lingering after an early answer (docs/decisions/024-gateway-bodies.md). When a server answers before it has read
 * the whole request body (a 412 verification gate, a 413, a refused upload) and closes the connection at once, the
 * kernel resets it while the client is still sending, and the client's HTTP stack often fails the write before it
 * reads the answer: the gateway in front saw "write EPIPE" and answered 502 instead of the real answer.
 *
 * So the answer goes out without `Connection: close` (or, when the client asked to close, the socket is only
 * half-closed after it); if the body is still incomplete `lingerMs` after the answer was written, the socket is
 * destroyed. A client that stops sending on the answer (undici, browsers) has it in time; a
 * refused upload is not read to its end (Node discards at most what arrives during the linger, and nothing at all
 * once the handler has started and paused reading). Used by the platform (envelope plugin) and the gateway.
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
 * Call from an `onSend` hook (before the headers are written). When `req`'s body is not complete yet: drops the
 * `Connection: close` the answer carries (`removeHeader` is the framework's header removal, e.g. Fastify's
 * `reply.removeHeader`), and destroys the socket `lingerMs` after `res` finished unless the body completed meanwhile.
 * Does nothing for a complete body.
 */
export function lingerOnEarlyAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  removeHeader: (name: string) => void,
  lingerMs = DEFAULT_LINGER_MS,
): void {
  if (req.complete || req.method === 'GET' || req.method === 'HEAD') return;
  removeHeader('connection');
  const socket = req.socket as Socket & { destroySoon?: () => void; [LINGER_REQUEST]?: IncomingMessage };
  // A client that asked for `Connection: close` gets it: Node then ends the socket and destroys it as soon as the
  // answer is written (resets it, with the body still coming). Half-close instead and let the timer destroy it.
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
    // The listeners go again whatever happens first: a kept-alive socket must not collect one per early answer.
    const done = () => {
      clearTimeout(timer);
      socket.off('close', done);
      req.off('end', done);
      // The body completed after a half-close: nothing is left unread, close now.
      if (req.complete && !socket.writable && !socket.destroyed) destroy(socket);
    };
    const timer = setTimeout(() => {
      done();
      if (!req.complete && !socket.destroyed) destroy(socket);
    }, lingerMs);
    timer.unref();
    socket.once('close', done);
    req.once('end', done);
  });
}
