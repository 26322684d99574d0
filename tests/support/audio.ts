/**
 * Audio for the music-work tests (decision 039): a RIFF/WAVE file of 16-bit mono PCM written out byte by byte,
 * so the tests need no sample file.
 */

/** A mono 16-bit PCM WAV of `seconds` at `rate` Hz: a 440 Hz tone, or silence with `tone` false. */
export function pcmWav(seconds: number, rate = 8000, tone = true): Buffer {
  const samples = Math.round(seconds * rate);
  const data = Buffer.alloc(samples * 2);
  if (tone) {
    for (let i = 0; i < samples; i++) {
      data.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), i * 2);
    }
  }
  const head = Buffer.alloc(44);
  head.write('RIFF', 0);
  head.writeUInt32LE(36 + data.length, 4);
  head.write('WAVEfmt ', 8);
  head.writeUInt32LE(16, 16); // fmt chunk size
  head.writeUInt16LE(1, 20); // PCM
  head.writeUInt16LE(1, 22); // mono
  head.writeUInt32LE(rate, 24);
  head.writeUInt32LE(rate * 2, 28); // bytes per second
  head.writeUInt16LE(2, 32); // block align
  head.writeUInt16LE(16, 34); // bits per sample
  head.write('data', 36);
  head.writeUInt32LE(data.length, 40);
  return Buffer.concat([head, data]);
}
