/**
 * Signed notes and checkpoints against the C2SP texts (c2sp.org/signed-note, c2sp.org/tlog-checkpoint): the
 * specification's own example verifier key opens its example note (a known answer, computed by someone else); a
 * changed byte, another key, an unknown key only and a malformed line are refused; our notes round-trip and their
 * verifier key matches the spec's layout; checkpoints parse and are refused for another origin.
 */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  checkpointText,
  ed25519KeyId,
  openCheckpoint,
  openNote,
  parseCheckpoint,
  parseVerifierKey,
  verifierKey,
} from './signed-note.ts';
import { rawEd25519, signNote } from './note-signing.ts';

// c2sp.org/signed-note, section "Verifier keys", example
const SPEC_VKEY = 'example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k';
const SPEC_NOTE =
  'This is an example message.\n\n— example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n';

describe('signed notes (c2sp.org/signed-note)', () => {
  it("opens the specification's example with its verifier key", () => {
    const v = parseVerifierKey(SPEC_VKEY)!;
    expect(v).toMatchObject({ name: 'example.com/foo', keyId: 0x530d903a });
    expect(verifierKey(v.name, v.publicKey)).toBe(SPEC_VKEY);
    expect(openNote(SPEC_NOTE, [v])).toEqual({
      ok: true,
      text: 'This is an example message.\n',
      verifiedBy: ['example.com/foo'],
    });
    // one changed letter of the text
    expect(openNote(SPEC_NOTE.replace('example message', 'exbmple message'), [v])).toMatchObject({
      ok: false,
    });
  });

  it('refuses malformed verifier keys and a key ID that does not match', () => {
    expect(
      parseVerifierKey('example.com/foo+530d903b+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k'),
    ).toBeNull();
    expect(
      parseVerifierKey('example.com foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k'),
    ).toBeNull();
    expect(parseVerifierKey('example.com/foo+530d903a')).toBeNull();
    expect(
      parseVerifierKey('other.example/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k'),
    ).toBeNull();
  });

  it('round-trips verifier keys whose base64 holds a plus sign', () => {
    for (let i = 0; i < 64; i++) {
      const raw = rawEd25519(generateKeyPairSync('ed25519').publicKey);
      expect(parseVerifierKey(verifierKey('n.example/log', raw))?.publicKey).toEqual(raw);
    }
  });

  it('signs notes that open with our verifier key; unknown keys are ignored, a bad known signature rejects', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const other = generateKeyPairSync('ed25519');
    const name = 'cunzheng.example/ledger';
    const note = signNote('hello\nworld\n', name, privateKey);
    const v = parseVerifierKey(verifierKey(name, rawEd25519(publicKey)))!;
    expect(v.keyId).toBe(ed25519KeyId(name, rawEd25519(publicKey)));
    expect(openNote(note, [v])).toMatchObject({ ok: true, text: 'hello\nworld\n', verifiedBy: [name] });
    // a second, unknown signature is ignored; the same name with another key is not ours
    const cosigned = signNote('hello\nworld\n', 'witness.example', other.privateKey);
    const both = note + cosigned.slice(cosigned.lastIndexOf('\n\n') + 2);
    expect(openNote(both, [v])).toMatchObject({ ok: true, verifiedBy: [name] });
    const foreign = parseVerifierKey(verifierKey(name, rawEd25519(other.publicKey)))!;
    expect(openNote(note, [foreign])).toEqual({ ok: false, reason: 'no signature of a known key' });
    // a known key whose signature does not verify
    const forged = note.replace(/ (\S+)\n$/, (_m, b64: string) => {
      const bytes = Buffer.from(b64, 'base64');
      bytes[10] = bytes[10]! ^ 1;
      return ` ${bytes.toString('base64')}\n`;
    });
    expect(openNote(forged, [v])).toMatchObject({ ok: false });
    expect(openNote('hello\n\n—  bad\n', [v])).toMatchObject({ ok: false });
    expect(openNote('hello\n', [v])).toMatchObject({ ok: false });
    expect(() => signNote('no newline', name, privateKey)).toThrow();
  });
});

describe('checkpoints (c2sp.org/tlog-checkpoint)', () => {
  it('parses the specification example body and round-trips ours', () => {
    const spec = 'example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n';
    const c = parseCheckpoint(spec)!;
    expect(c).toMatchObject({ origin: 'example.com/behind-the-sofa', treeSize: 20852163, extensions: [] });
    expect(checkpointText(c)).toBe(spec);
    expect(parseCheckpoint('origin\n01\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n')).toBeNull();
    expect(parseCheckpoint('origin\n1\nshort\n')).toBeNull();
    expect(parseCheckpoint('origin\n1\n')).toBeNull();
  });

  it('opens a signed checkpoint of the right origin only', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const origin = 'cunzheng.example/ledger';
    const note = signNote(
      checkpointText({ origin, treeSize: 7, rootHash: 'ab'.repeat(32), extensions: [] }),
      origin,
      privateKey,
    );
    const v = parseVerifierKey(verifierKey(origin, rawEd25519(publicKey)))!;
    expect(openCheckpoint(note, origin, [v])).toMatchObject({
      ok: true,
      checkpoint: { treeSize: 7, rootHash: 'ab'.repeat(32) },
    });
    expect(openCheckpoint(note, 'other.example/log', [v])).toMatchObject({ ok: false });
  });
});
