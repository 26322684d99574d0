/** Loopback ports for suites and benches that start servers (no test-runner imports: benches use it too). */
import net from 'node:net';

/**
 * A port free on 127.0.0.1 right now (listened on, noted, closed), for a server that listens on it later. Taken below
 * Linux's ephemeral range (`net.ipv4.ip_local_port_range`, 32768–60999 by default): a port from port 0 could
 * meanwhile become the local port of some outgoing connection of a busy test run, and the later listen then fails
 * with EADDRINUSE (seen in CI: the billing suite, the crash-consistency gateway).
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const candidate = 20_000 + Math.floor(Math.random() * 12_000);
    const server = net.createServer();
    const listening = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(candidate, '127.0.0.1', () => resolve(true));
    });
    if (!listening) continue;
    await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    return candidate;
  }
}
