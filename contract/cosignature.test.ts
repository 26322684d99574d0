/**
 * Witness cosignatures (c2sp.org/tlog-cosignature, Ed25519 cosignature/v1): the byte layout read off the
 * specification's own example line, and sign → verify round trips with the message the specification gives.
 */
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  cosignatureMessage,
  cosignerVerifierKey,
  openCosignatures,
  parseCosignerKey,
} from './cosignature.ts';
import { cosign, rawEd25519 } from './note-signing.ts';

const SPEC_CHECKPOINT =
  'example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n';
const SPEC_LINE =
  'jWbPPwAAAABkGFDLEZMHwSRaJNiIDoe9DYn/zXcrtPHeolMI5OWXEhZCB9dlrDJsX3b2oyin1nPZqhf5nNo0xUe+mbIUBkBIfZ+qnA==';

describe('cosignature/v1', () => {
  it('the spec example: key ID, then the big-endian time of its signed message, then 64 signature bytes', () => {
    const bytes = Buffer.from(SPEC_LINE, 'base64');
    expect(bytes.length).toBe(4 + 8 + 64);
    expect(Number(bytes.readBigUInt64BE(4))).toBe(1679315147);
    expect(new TextDecoder().decode(cosignatureMessage(SPEC_CHECKPOINT, 1679315147))).toBe(
      `cosignature/v1\ntime 1679315147\n${SPEC_CHECKPOINT}`,
    );
  });

  it('signs and verifies; other keys are ignored, a damaged line of a known key fails', () => {
    const key = generateKeyPairSync('ed25519').privateKey;
    const vkey = cosignerVerifierKey('witness.example/w1', rawEd25519(createPublicKey(key)));
    const witness = parseCosignerKey(vkey)!;
    expect(witness.name).toBe('witness.example/w1');
    const line = cosign(SPEC_CHECKPOINT, 'witness.example/w1', key, 1_700_000_000);
    const note = `${SPEC_CHECKPOINT}\n— example.com/behind-the-sofa AAAA\n${line}`;
    expect(openCosignatures(note, [witness])).toEqual({
      verified: [{ name: 'witness.example/w1', timestamp: 1_700_000_000 }],
      failed: [],
    });
    const other = parseCosignerKey(
      cosignerVerifierKey(
        'witness.example/w1',
        rawEd25519(createPublicKey(generateKeyPairSync('ed25519').privateKey)),
      ),
    )!;
    expect(openCosignatures(note, [other])).toEqual({ verified: [], failed: [] });
    const at = line.length - 10;
    const damaged = `${SPEC_CHECKPOINT}\n${line.slice(0, at)}${line[at] === 'A' ? 'B' : 'A'}${line.slice(at + 1)}`;
    expect(openCosignatures(damaged, [witness])).toEqual({ verified: [], failed: ['witness.example/w1'] });
    // a note verifier key (type 0x01) is not a cosigner key; the key's base64 may itself hold '+', so it is
    // everything after the second '+'
    const [name, id] = vkey.split('+', 2) as [string, string];
    const typed = Buffer.from(vkey.slice(name.length + id.length + 2), 'base64');
    typed[0] = 0x01;
    expect(parseCosignerKey(`${name}+${id}+${typed.toString('base64')}`)).toBeNull();
  });
});
