/**
 * The platform's document signer (docs/decisions/029-signed-certificates.md): the key and X.509
 * chain that sign certificate PDFs as PAdES signatures (ETSI EN 319 142-1 baseline B-B: a detached CMS SignedData,
 * RFC 5652, with the signed attributes content-type, message-digest and signing-certificate-v2, RFC 5035; no
 * signing-time attribute, the time goes in the PDF signature dictionary). Certificates and CMS are built with PKI.js
 * and asn1js; the signature itself is WebCrypto's.
 *
 * Key material, one PEM bundle (a PKCS#8 private key, then the signer certificate, then its issuers):
 * - DOCUMENT_SIGNING_PEM_FILE set: that file (a certificate from a real CA; RSA or EC P-256/P-384 key);
 * - else `${dataDir}/keys/document-signing.pem`, generated on first use: a local root CA "<operator> 文书签名
 *   根证书" (ECDSA P-256, 20 years) issues the signer certificate "<operator>" (ECDSA P-256, 10 years, digitalSignature +
 *   nonRepudiation, extended key usages documentSigning RFC 9336 and emailProtection); the root's private key is
 *   dropped after issuing, so nothing else can ever be issued under it. Written once, atomically, mode 0600
 *   (core/key-file.ts), so several instances sharing DATA_DIR end up with one key.
 */
import { createHash, createPrivateKey, randomBytes, X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { readOrCreateKeyFile } from '../core/key-file.ts';

/** File name of the generated bundle under `${dataDir}/keys/`. */
export const DOCUMENT_SIGNING_FILE = 'document-signing.pem';
/**
 * File name of the notary office's generated bundle under `${dataDir}/keys/` (notarial certificates, decision 034).
 */
export const NOTARY_SIGNING_FILE = 'notary-signing.pem';

const OID = {
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

const RSA = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const;

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
class EncodedCertificate extends pkijs.Certificate {
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

function pemBlocks(pem: string, label: string): Uint8Array<ArrayBuffer>[] {
  const re = new RegExp(`-----BEGIN ${label}-----([\\s\\S]*?)-----END ${label}-----`, 'g');
  return [...pem.matchAll(re)].map((m) => new Uint8Array(Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64')));
}

function toPem(label: string, der: ArrayBuffer | Uint8Array): string {
  const b64 = Buffer.from(der instanceof Uint8Array ? der : new Uint8Array(der)).toString('base64');
  return `-----BEGIN ${label}-----\n${b64.replace(/.{1,64}/g, '$&\n')}-----END ${label}-----\n`;
}

/** A distinguished name C=CN, O=…, CN=… with one attribute per RDN (PKI.js would put all three in one SET). */
function name(commonName: string, organization: string): pkijs.RelativeDistinguishedNames {
  const rdn = (type: string, value: asn1js.PrintableString | asn1js.Utf8String) =>
    new asn1js.Set({ value: [new pkijs.AttributeTypeAndValue({ type, value }).toSchema()] });
  const der = new asn1js.Sequence({
    value: [
      rdn(OID.country, new asn1js.PrintableString({ value: 'CN' })),
      rdn(OID.organization, new asn1js.Utf8String({ value: organization })),
      rdn(OID.commonName, new asn1js.Utf8String({ value: commonName })),
    ],
  }).toBER(false);
  return pkijs.RelativeDistinguishedNames.fromBER(der);
}

/** KeyUsage bits (RFC 5280 §4.2.1.3) as a DER BIT STRING: digitalSignature=0 … cRLSign=6. */
function keyUsage(bits: number[]): ArrayBuffer {
  let byte = 0;
  for (const b of bits) byte |= 0x80 >> b;
  const unused = 7 - Math.max(...bits);
  return new asn1js.BitString({ valueHex: new Uint8Array([byte]), unusedBits: unused }).toBER(false);
}

interface IssueInput {
  subject: pkijs.RelativeDistinguishedNames;
  issuer: pkijs.RelativeDistinguishedNames;
  publicKey: CryptoKey;
  signingKey: CryptoKey;
  years: number;
  ca: boolean;
}

/** Issues one X.509 v3 certificate (RFC 5280) signed with `signingKey`. */
async function issue(input: IssueInput): Promise<pkijs.Certificate> {
  const cert = new pkijs.Certificate();
  cert.version = 2;
  const serial = randomBytes(16);
  // a positive INTEGER in minimal DER: the first byte 0x40–0x7f (a leading 0x00 before a byte below 0x80 is
  // "illegal padding" to OpenSSL: one bundle in ~256 was unreadable)
  serial[0] = (serial[0]! & 0x7f) | 0x40;
  cert.serialNumber = new asn1js.Integer({ valueHex: serial });
  cert.subject = input.subject;
  cert.issuer = input.issuer;
  const now = Date.now();
  cert.notBefore.value = new Date(now - 60_000);
  cert.notAfter.value = new Date(now + input.years * 365 * 86_400_000);
  await cert.subjectPublicKeyInfo.importKey(input.publicKey);
  const spki = new Uint8Array(cert.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView);
  const ski = createHash('sha1').update(spki).digest();
  cert.extensions = [
    new pkijs.Extension({
      extnID: OID.basicConstraints,
      critical: true,
      extnValue: new pkijs.BasicConstraints({ cA: input.ca }).toSchema().toBER(false),
    }),
    new pkijs.Extension({
      extnID: OID.keyUsage,
      critical: true,
      extnValue: keyUsage(input.ca ? [5, 6] : [0, 1]),
    }),
    new pkijs.Extension({
      extnID: OID.subjectKeyIdentifier,
      extnValue: new asn1js.OctetString({ valueHex: ski }).toBER(false),
    }),
    ...(input.ca
      ? []
      : [
          new pkijs.Extension({
            extnID: OID.extKeyUsage,
            extnValue: new pkijs.ExtKeyUsage({
              keyPurposes: [OID.documentSigning, OID.emailProtection],
            })
              .toSchema()
              .toBER(false),
          }),
        ]),
  ];
  await cert.sign(input.signingKey, 'SHA-256');
  return cert;
}

/**
 * Generates the local bundle: root CA, signer certificate, signer key (see the module comment).
 * @param operator the platform operator's name (PLATFORM_OPERATOR), the signer's CN and O
 * @returns the PEM bundle: PRIVATE KEY, then CERTIFICATE (signer), then CERTIFICATE (root)
 */
export async function generateLocalBundle(operator: string): Promise<string> {
  // ECDSA P-256: generated in milliseconds (RSA 3072 took seconds on a loaded machine, and the first PDF waited).
  const params = { name: 'ECDSA', namedCurve: 'P-256' } as const;
  const root = await crypto.subtle.generateKey(params, false, ['sign', 'verify']);
  const signer = await crypto.subtle.generateKey(params, true, ['sign', 'verify']);
  const rootName = name(`${operator} 文书签名根证书`, operator);
  const rootCert = await issue({
    subject: rootName,
    issuer: rootName,
    publicKey: root.publicKey,
    signingKey: root.privateKey,
    years: 20,
    ca: true,
  });
  const signerCert = await issue({
    subject: name(operator, operator),
    issuer: rootName,
    publicKey: signer.publicKey,
    signingKey: root.privateKey,
    years: 10,
    ca: false,
  });
  const pkcs8 = await crypto.subtle.exportKey('pkcs8', signer.privateKey);
  return (
    toPem('PRIVATE KEY', pkcs8) +
    toPem('CERTIFICATE', signerCert.toSchema().toBER(false)) +
    toPem('CERTIFICATE', rootCert.toSchema().toBER(false))
  );
}

/** The WebCrypto algorithm of a private key (RSA PKCS#1 v1.5 or ECDSA on P-256/P-384), with SHA-256. */
function algorithmOf(pkcs8: Uint8Array): RsaHashedImportParams | EcKeyImportParams {
  const key = createPrivateKey({ key: Buffer.from(pkcs8), format: 'der', type: 'pkcs8' });
  if (key.asymmetricKeyType === 'rsa') return RSA;
  const curve = key.asymmetricKeyDetails?.namedCurve;
  if (key.asymmetricKeyType === 'ec' && (curve === 'prime256v1' || curve === 'secp384r1')) {
    return { name: 'ECDSA', namedCurve: curve === 'prime256v1' ? 'P-256' : 'P-384' };
  }
  throw new SigningKeyError('the document-signing key must be RSA or EC P-256/P-384');
}

/** Holds the signing key and chain; create it with {@link DocumentSigner.open}. */
export class DocumentSigner {
  /** The chain as PEM, signer first. */
  readonly chainPem: string;
  /** The signer certificate's subject CN. */
  readonly signerName: string;
  /** SHA-256 of the signer certificate's DER, uppercase hex with colons removed. */
  readonly fingerprint: string;
  readonly notBefore: Date;
  readonly notAfter: Date;
  /** SHA-256 of the signer certificate's DER as the CMS embeds it (signing-certificate-v2's certHash), made once. */
  private readonly leafCertHash: Buffer;
  private readonly key: CryptoKey;
  private readonly chain: pkijs.Certificate[];

  private constructor(key: CryptoKey, chain: pkijs.Certificate[], chainDer: Uint8Array[]) {
    this.key = key;
    this.chain = chain;
    this.chainPem = chainDer.map((d) => toPem('CERTIFICATE', d)).join('');
    const leaf = new X509Certificate(chainDer[0]!);
    this.signerName = /(?:^|\n)CN=([^\n]*)/.exec(leaf.subject)?.[1] ?? leaf.subject;
    this.fingerprint = leaf.fingerprint256.replace(/:/g, '');
    this.notBefore = new Date(leaf.validFrom);
    this.notAfter = new Date(leaf.validTo);
    // The leaf as the CMS embeds it: the DER the bundle holds (EncodedCertificate), hashed once.
    this.leafCertHash = createHash('sha256').update(chainDer[0]!).digest();
  }

  /**
   * Loads the bundle from `pemFile`, or from `${dataDir}/keys/<fileName>` (default document-signing.pem),
   * generating it when absent (a local CA issuing a signer named `operator`).
   * @throws SigningKeyError when the bundle lacks a key or a certificate, the key is of an unsupported type, or
   *   the first certificate does not belong to the key
   */
  static async open(
    dataDir: string,
    opts: { pemFile?: string | undefined; operator: string; fileName?: string },
  ): Promise<DocumentSigner> {
    const file = opts.pemFile ?? path.join(dataDir, 'keys', opts.fileName ?? DOCUMENT_SIGNING_FILE);
    const pem = opts.pemFile
      ? await readFile(opts.pemFile, 'utf8')
      : await readOrCreateKeyFile(file, () => generateLocalBundle(opts.operator));
    const [pkcs8] = pemBlocks(pem, 'PRIVATE KEY');
    const certs = pemBlocks(pem, 'CERTIFICATE');
    if (!pkcs8 || certs.length === 0) {
      throw new SigningKeyError(`${file}: expected a PKCS#8 PRIVATE KEY and at least one CERTIFICATE`);
    }
    const algorithm = algorithmOf(pkcs8);
    const key = await crypto.subtle.importKey('pkcs8', pkcs8, algorithm, false, ['sign']);
    const leaf = new X509Certificate(certs[0]!);
    if (!leaf.checkPrivateKey(createPrivateKey({ key: Buffer.from(pkcs8), format: 'der', type: 'pkcs8' }))) {
      throw new SigningKeyError(`${file}: the first certificate does not belong to the private key`);
    }
    const chain = certs.map((der) => new EncodedCertificate(der));
    return new DocumentSigner(key, chain, certs);
  }

  /**
   * Signs `digest`, the SHA-256 of the content (for a PDF, its signed byte range), as a detached CMS SignedData.
   * @param digest 32 bytes
   * @returns ContentInfo(SignedData) DER: version 1, the chain in `certificates`, one SignerInfo identified by issuer
   *   and serial number, signed attributes content-type (id-data), message-digest and signing-certificate-v2
   * @throws RangeError when `digest` is not 32 bytes
   */
  async signDigest(digest: Uint8Array): Promise<Buffer> {
    if (digest.byteLength !== 32) throw new RangeError('digest must be a SHA-256 (32 bytes)');
    const [leaf, ...rest] = this.chain;
    // SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2 } with ESSCertIDv2 ::= SEQUENCE {
    // certHash OCTET STRING (SHA-256 is the DEFAULT hashAlgorithm, so omitted), issuerSerial IssuerSerial }.
    const issuerSerial = new asn1js.Sequence({
      value: [
        new asn1js.Sequence({
          value: [
            new asn1js.Constructed({
              idBlock: { tagClass: 3, tagNumber: 4 },
              value: [leaf!.issuer.toSchema()],
            }),
          ],
        }),
        leaf!.serialNumber,
      ],
    });
    const signingCertificateV2 = new asn1js.Sequence({
      value: [
        new asn1js.Sequence({
          value: [
            new asn1js.Sequence({
              value: [new asn1js.OctetString({ valueHex: this.leafCertHash }), issuerSerial],
            }),
          ],
        }),
      ],
    });
    const signerInfo = new pkijs.SignerInfo({
      version: 1,
      sid: new pkijs.IssuerAndSerialNumber({ issuer: leaf!.issuer, serialNumber: leaf!.serialNumber }),
      signedAttrs: new pkijs.SignedAndUnsignedAttributes({
        type: 0,
        attributes: [
          new pkijs.Attribute({
            type: OID.contentType,
            values: [new asn1js.ObjectIdentifier({ value: pkijs.id_ContentType_Data })],
          }),
          new pkijs.Attribute({
            type: OID.messageDigest,
            values: [new asn1js.OctetString({ valueHex: digest })],
          }),
          new pkijs.Attribute({ type: OID.signingCertificateV2, values: [signingCertificateV2] }),
        ],
      }),
    });
    const signed = new pkijs.SignedData({
      version: 1,
      encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: pkijs.id_ContentType_Data }),
      signerInfos: [signerInfo],
      certificates: [leaf!, ...rest],
    });
    await signed.sign(this.key, 0, 'SHA-256');
    const info = new pkijs.ContentInfo({
      contentType: pkijs.id_ContentType_SignedData,
      content: signed.toSchema(true),
    });
    return Buffer.from(info.toSchema().toBER(false));
  }
}
