/**
 * File-or-hash input of the verification forms. Without JavaScript: a file input (uploaded, hashed on the gateway,
 * discarded) and a hash field. With JavaScript the file is hashed in the browser and the file input is cleared
 * before submitting, so the bytes never leave the machine.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { useRef, useState } from 'react';

const SLICE = 4 * 1024 * 1024;

export function HashPicker() {
  const fileRef = useRef<HTMLInputElement>(null);
  const [hash, setHash] = useState('');
  const [progress, setProgress] = useState<number | null>(null);

  async function onPick() {
    const input = fileRef.current;
    const file = input?.files?.[0];
    if (!input || !file) return;
    setProgress(0);
    const h = sha256.create();
    for (let offset = 0; offset < file.size; offset += SLICE) {
      h.update(new Uint8Array(await file.slice(offset, offset + SLICE).arrayBuffer()));
      setProgress(Math.min(1, (offset + SLICE) / file.size));
    }
    setHash(bytesToHex(h.digest()));
    setProgress(null);
    input.value = ''; // hashed locally: do not upload the bytes
  }

  return (
    <>
      <div className="field">
        <label htmlFor="verify-file">选择文件</label>
        <input id="verify-file" ref={fileRef} name="file" type="file" onChange={onPick} />
        {progress !== null ? <progress value={progress} max={1} aria-label="计算进度" /> : null}
      </div>
      <div className="field">
        <label htmlFor="verify-hash">或粘贴 SHA-256 哈希值</label>
        <input
          id="verify-hash"
          name="hash"
          type="text"
          className="mono"
          maxLength={64}
          value={hash}
          onChange={(e) => setHash(e.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
      </div>
    </>
  );
}
