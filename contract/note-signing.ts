/**
 * Signing C2SP notes and cosignatures with node:crypto private keys (the ledger's checkpoints, the witness's
 * cosignatures; decision 035). The formats and their verification are contract/signed-note.ts and
 * contract/cosignature.ts, which also run in browsers; this module is Node only.
 */
import { createPublicKey, sign as cryptoSign, type KeyObject } from 'node:crypto';
import { concatBytes, encodeBase64, uint32BE, uint64BE, utf8ToBytes } from './bytes.ts';
import { cosignatureMessage, cosignerKeyId } from './cosignature.ts';
import { ed25519KeyId, isKeyName } from './signed-note.ts';

/** The 32 raw bytes of an Ed25519 public (or private: its public half is taken) key object. */
export function rawEd25519(key: KeyObject): Uint8Array {
  const der = (key.type === 'private' ? createPublicKey(key) : key).export({ type: 'spki', format: 'der' });
  return new Uint8Array(der.subarray(der.length - 32));
}

/**
 * Signs note `text` (it must end in a newline) with the Ed25519 private key `key` named `name` (c2sp.org/signed-note).
 * @returns the signed note: the text, a blank line, the signature line `— <name> base64(key ID ‖ signature)`
 * @throws Error on a text without its final newline or a name the spec does not allow
 */
export function signNote(text: string, name: string, key: KeyObject): string {
  if (!text.endsWith('\n')) throw new Error('note text must end with a newline');
  if (!isKeyName(name)) throw new Error(`invalid note key name ${JSON.stringify(name)}`);
  const id = uint32BE(ed25519KeyId(name, rawEd25519(key)));
  const signature = cryptoSign(null, utf8ToBytes(text), key);
  return `${text}\n— ${name} ${encodeBase64(concatBytes(id, signature))}\n`;
}

/**
 * Cosigns the checkpoint note text `checkpointText` (ending in a newline) as witness `name` at `timestamp` (POSIX
 * seconds; c2sp.org/tlog-cosignature, cosignature/v1).
 * @returns the signature line, newline-terminated
 * @throws Error for a text without its final newline, a bad name or timestamp
 */
export function cosign(checkpointText: string, name: string, key: KeyObject, timestamp: number): string {
  if (!checkpointText.endsWith('\n')) throw new Error('checkpoint text must end with a newline');
  if (!isKeyName(name)) throw new Error(`invalid witness name ${JSON.stringify(name)}`);
  if (!Number.isSafeInteger(timestamp) || timestamp <= 0)
    throw new Error('cosignature timestamp must be positive');
  const head = concatBytes(uint32BE(cosignerKeyId(name, rawEd25519(key))), uint64BE(BigInt(timestamp)));
  const sig = cryptoSign(null, cosignatureMessage(checkpointText, timestamp), key);
  return `— ${name} ${encodeBase64(concatBytes(head, sig))}\n`;
}
