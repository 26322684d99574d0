/**
 * The PKI.js and asn1js pieces of the document signers (docs/decisions/029-signed-certificates.md): the object
 * identifiers they use, the RSA algorithm of WebCrypto, DER that PKI.js re-encodes byte for byte as read (so a
 * certificate's signature keeps verifying), PEM blocks in and out, and the error of an unusable key bundle.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

/** The object identifiers of the name attributes the signers write (X.520). */
export const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  country: '2.5.4.6',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  subjectKeyIdentifier: '2.5.29.14',
  documentSigning: '1.3.6.1.5.5.7.3.36',
  emailProtection: '1.3.6.1.5.5.7.3.4',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
} as const;

/** WebCrypto's RSA signature algorithm of an RSA signing key (PKCS#1 v1.5 with SHA-256). */
export const RSA = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const;

pkijs.setEngine(
  'node-webcrypto',
  new pkijs.CryptoEngine({ name: 'node-webcrypto', crypto: globalThis.crypto }),
);

/**
 * DER bytes that asn1js writes as they are, inside a constructed value too (asn1js's own RawData returns its bytes
 * but ignores the writer a SEQUENCE or SET hands its members, so it only works at the top).
 */
class EncodedDer extends asn1js.RawData {
  override toBER(_sizeOnly?: boolean, writer?: asn1js.ViewWriter): ArrayBuffer {
    const bytes = this.dataView.slice().buffer;
    if (!writer) return bytes;
    writer.write(bytes);
    return new ArrayBuffer(0);
  }
}

/**
 * A certificate of the chain that encodes as the DER it was read from. PKI.js rebuilds and re-encodes every
 * certificate of a SignedData each time one is signed (asn1js was ~60 % of a signature's CPU, 1.7–2.2 ms each); the
 * bytes never change, so `toSchema()` hands asn1js the original encoding. Parsed fields (issuer, serial number) are
 * PKI.js's as usual; a malformed certificate still throws when read.
 */
export class EncodedCertificate extends pkijs.Certificate {
  private readonly der: Uint8Array;

  constructor(der: Uint8Array) {
    super({ schema: asn1js.fromBER(der).result });
    this.der = new Uint8Array(der);
  }

  override toSchema(): asn1js.Sequence {
    // SignedData and CertificateSet only call toBER on what this returns, as a member of their SET.
    return new EncodedDer({ data: this.der }) as unknown as asn1js.Sequence;
  }
}

/** Thrown when DOCUMENT_SIGNING_PEM_FILE (or the generated bundle) cannot be used: a configuration error. */
export class SigningKeyError extends Error {
  override name = 'SigningKeyError';
}

/** The DER bytes of every `label` block (e.g. CERTIFICATE) of `pem`, in order; none when it has none. */
export function pemBlocks(pem: string, label: string): Uint8Array<ArrayBuffer>[] {
  const re = new RegExp(`-----BEGIN ${label}-----([\\s\\S]*?)-----END ${label}-----`, 'g');
  return [...pem.matchAll(re)].map((m) => new Uint8Array(Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64')));
}

/** `der` as one PEM block of `label`, base64 in lines of 64 characters, ending with a line break. */
export function toPem(label: string, der: ArrayBuffer | Uint8Array): string {
  const b64 = Buffer.from(der instanceof Uint8Array ? der : new Uint8Array(der)).toString('base64');
  return `-----BEGIN ${label}-----\n${b64.replace(/.{1,64}/g, '$&\n')}-----END ${label}-----\n`;
}
