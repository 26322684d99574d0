/**
 * The platform's document signer (docs/decisions/029-signed-certificates.md): the key and X.509
 * chain that sign certificate PDFs as PAdES signatures (ETSI EN 319 142-1 baseline B-B: a detached CMS SignedData,
 * RFC 5652, with the signed attributes content-type, message-digest and signing-certificate-v2, RFC 5035; no
 * signing-time attribute, the time goes in the PDF signature dictionary). Certificates and CMS are built with PKI.js
 * and asn1js; the signature itself is WebCrypto's.
 *
 * Key material, one PEM bundle (a PKCS#8 private key, then the signer certificate, then its issuers):
 * - DOCUMENT_SIGNING_PEM_FILE set: that file (a certificate from a real CA; RSA or EC P-256/P-384 key);
 * - else `${dataDir}/keys/document-signing.pem`, generated on first use by platform/signing/local-bundle.ts (a local
 *   root CA issues the signer certificate, then its private key is dropped). Written once, atomically, mode 0600
 *   (core/key-file.ts), so several instances sharing DATA_DIR end up with one key. The PKI.js pieces are in
 *   platform/signing/pki.ts.
 */
import { createHash, createPrivateKey, X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { readOrCreateKeyFile } from '../core/key-file.ts';
import { OID, RSA, EncodedCertificate, SigningKeyError, pemBlocks, toPem } from './pki.ts';
import { generateLocalBundle } from './local-bundle.ts';

/** File name of the generated bundle under `${dataDir}/keys/`. */
export const DOCUMENT_SIGNING_FILE = 'document-signing.pem';
/**
 * File name of the notary office's generated bundle under `${dataDir}/keys/` (notarial certificates, decision 034).
 */
export const NOTARY_SIGNING_FILE = 'notary-signing.pem';

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
