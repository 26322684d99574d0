/**
 * A local RFC 3161 Time-Stamp Authority for the tests (decision 035): OpenSSL's `ts -reply` behind a small HTTP
 * server speaking RFC 3161 §3.4 (POST `application/timestamp-query` → `application/timestamp-reply`). It makes its
 * own CA and a TSA certificate (P-256, extended key usage critical timeStamping) in a temp directory; `caPem` is
 * what verifiers trust, as `openssl ts -verify -CAfile` does.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

/** A running local TSA. */
export interface LocalTsa {
  url: string;
  dir: string;
  /** The CA certificate file (PEM) the TSA certificate is issued by. */
  caFile: string;
  caPem: string;
  /** Requests answered so far. */
  readonly answered: number;
  close(): Promise<void>;
}

const openssl = (dir: string, args: string[], input?: Buffer) =>
  execFileSync('openssl', args, { cwd: dir, input, stdio: ['pipe', 'pipe', 'pipe'] });

/** Makes the CA, the TSA certificate and OpenSSL's TSA configuration in a new temp directory, and starts serving. */
export async function startLocalTsa(): Promise<LocalTsa> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cz-tsa-'));
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl(dir, [
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-days',
    '3650',
    '-subj',
    '/CN=Cunzheng Test TSA CA',
    '-addext',
    'basicConstraints=critical,CA:true',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  openssl(dir, ['req', ...ec, '-keyout', 'tsa.key', '-out', 'tsa.csr', '-subj', '/CN=Cunzheng Test TSA']);
  fs.writeFileSync(
    path.join(dir, 'tsa.ext'),
    'basicConstraints=critical,CA:false\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=critical,timeStamping\n',
  );
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    'tsa.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '3650',
    '-extfile',
    'tsa.ext',
    '-out',
    'tsa.crt',
  ]);
  fs.writeFileSync(path.join(dir, 'serial'), '01\n');
  fs.writeFileSync(
    path.join(dir, 'ts.cnf'),
    [
      '[ tsa ]',
      'default_tsa = local',
      '[ local ]',
      `dir = ${dir}`,
      'serial = $dir/serial',
      'crypto_device = builtin',
      'signer_cert = $dir/tsa.crt',
      'certs = $dir/ca.crt',
      'signer_key = $dir/tsa.key',
      'signer_digest = sha256',
      'default_policy = 1.2.3.4.1',
      'digests = sha256',
      'accuracy = secs:1',
      'ordering = no',
      'tsa_name = yes',
      'ess_cert_id_chain = no',
      'ess_cert_id_alg = sha256',
      '',
    ].join('\n'),
  );
  let answered = 0;
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const query = path.join(dir, `q-${randomBytes(6).toString('hex')}.tsq`);
      try {
        if (req.method !== 'POST' || req.headers['content-type'] !== 'application/timestamp-query') {
          res.writeHead(400).end();
          return;
        }
        fs.writeFileSync(query, Buffer.concat(parts));
        const reply = openssl(dir, ['ts', '-reply', '-config', 'ts.cnf', '-queryfile', query, '-out', '-']);
        answered++;
        res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(reply);
      } catch {
        res.writeHead(500).end();
      } finally {
        fs.rmSync(query, { force: true });
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/`,
    dir,
    caFile: path.join(dir, 'ca.crt'),
    caPem: fs.readFileSync(path.join(dir, 'ca.crt'), 'utf8'),
    get answered() {
      return answered;
    },
    close: async () => {
      await new Promise((r) => server.close(r));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
