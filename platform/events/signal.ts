/**
 * The in-process wake-up of event consumers (docs/decisions/059-evidence-events.md): after a transaction that wrote
 * evidence events commits, its writer calls {@link signalEventsCommitted}; whoever listens in this thread
 * ({@link onEventsCommitted}) takes the new events at once instead of at its next poll. It carries nothing but "look
 * now": a listener takes the events themselves through `takeEvents` (events.ts), so a lost or extra signal costs a
 * poll's delay or one empty take, never an event.
 *
 * Who listens: an inline embedded platform's gateway (same thread), and in the worker-thread platform
 * platform/worker.ts, which forwards the signal over its message port to the gateway's thread
 * (server/embedded-platform.ts calls {@link signalEventsCommitted} there). A gateway in front of another process's
 * platform (UPSTREAM_URL) hears nothing and polls. One signal per thread, not per database: with several platforms in
 * one thread (tests) every listener wakes, and takes from its own platform.
 */

const listeners = new Set<() => void>();

/**
 * Tells this thread's listeners that events were committed. Call it after the commit, never inside the transaction
 * (a listener may take at once). Never throws: a listener's exception is swallowed (waking is best effort).
 */
export function signalEventsCommitted(): void {
  for (const listener of listeners) {
    try {
      listener();
    } catch {
      // a consumer that cannot wake polls instead
    }
  }
}

/**
 * Calls `listener` (synchronously, so it must only note the wake-up or schedule work) on every
 * {@link signalEventsCommitted} of this thread until the returned function is called.
 */
export function onEventsCommitted(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
