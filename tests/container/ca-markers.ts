/**
 * Prints one base64 line of each certificate in the PEM file argv[2] that Node does not ship among its own roots: a
 * TLS-inspecting gateway's root, handed to the image build as a secret. scripts/test-container.sh looks for these
 * lines in every layer of the image, where none may be.
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';

const file = process.argv[2];
if (!file) throw new Error('usage: ca-markers.ts FILE.pem');
const shipped = new Set(rootCertificates.map((pem) => new X509Certificate(pem).fingerprint256));
const pems =
  readFileSync(file, 'utf8').match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? [];
for (const pem of pems) {
  if (shipped.has(new X509Certificate(pem).fingerprint256)) continue;
  // the fourth line: well inside the body, the same in any file that holds the certificate as PEM
  const line = pem.split('\n')[3];
  if (line) process.stdout.write(`${line}\n`);
}
