/**
 * The URL at which this machine reaches a server listening at `address`: a wildcard listen (0.0.0.0, ::) is reached
 * over loopback (127.0.0.1, [::1]). The gateway's own Chromium prints its pages there (server/pdf/plugin.ts) and its
 * background worker child is pointed there (server/start.ts; decision 064).
 */
import type { AddressInfo } from 'node:net';

/**
 * `http://<host>:<port>` of `address` (no trailing slash), IPv6 hosts in brackets.
 * @throws Error when `address` is not a TCP address (a pipe, or a server not listening)
 */
export function loopbackOrigin(address: AddressInfo | string | null): string {
  if (!address || typeof address === 'string')
    throw new Error(`not listening on a TCP port: ${String(address)}`);
  const host =
    address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}
