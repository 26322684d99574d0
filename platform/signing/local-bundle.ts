/**
 * The generated key bundle of a document signer (docs/decisions/029-signed-certificates.md), used when no
 * DOCUMENT_SIGNING_PEM_FILE is set: a local root CA "<operator> 文书签名根证书" (ECDSA P-256, 20 years) issues the signer
 * certificate "<operator>" (ECDSA P-256, 10 years, digitalSignature + nonRepudiation, extended key usages
 * documentSigning RFC 9336 and emailProtection); the root's private key is dropped after issuing, so nothing else can
 * ever be issued under it. Built with PKI.js and asn1js, signed by WebCrypto.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { OID, toPem } from './pki.ts';

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
