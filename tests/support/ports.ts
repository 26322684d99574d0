/** Loopback ports for suites and benches that start servers (no test-runner imports: benches use it too). */
import net from 'node:net';

/** A port free on 127.0.0.1 right now (listened on with port 0, noted, closed). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
