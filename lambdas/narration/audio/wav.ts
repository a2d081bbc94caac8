// RIFF/WAVE headers: written for our WAV output, read from espeak-ng's output. Pure functions, no I/O.
// espeak-ng --stdout cannot seek back, so its header carries placeholder sizes (0x7ffff000...): callers that read
// such a stream take the data to its end rather than trusting `dataBytes`.

export interface WavInfo {
  /** 1 = integer PCM, 3 = float, 0xfffe = extensible. */
  audioFormat: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  /** Offset of the first sample byte. */
  dataOffset: number;
  /** Size the header declares for the data chunk (may be a placeholder). */
  dataBytes: number;
}

export const WAV_HEADER_BYTES = 44;

/** A canonical 44-byte header for 16-bit mono PCM. */
export function wavHeader(sampleRate: number, dataBytes: number): Uint8Array {
  if (dataBytes > 0xffffffff - 36)
    throw new RangeError(`WAV data of ${dataBytes} bytes exceeds the 4 GiB RIFF limit`);
  const h = new Uint8Array(WAV_HEADER_BYTES);
  const v = new DataView(h.buffer);
  const ascii = (at: number, s: string) => [...s].forEach((c, i) => v.setUint8(at + i, c.charCodeAt(0)));
  ascii(0, 'RIFF');
  v.setUint32(4, 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  v.setUint32(16, 16, true); // fmt chunk size
  v.setUint16(20, 1, true); // PCM
  v.setUint16(22, 1, true); // mono
  v.setUint32(24, sampleRate, true);
  v.setUint32(28, sampleRate * 2, true); // byte rate
  v.setUint16(32, 2, true); // block align
  v.setUint16(34, 16, true); // bits per sample
  ascii(36, 'data');
  v.setUint32(40, dataBytes, true);
  return h;
}

/** Parses the chunks before the sample data; throws when `bytes` does not start with a WAVE header. */
export function parseWavHeader(bytes: Uint8Array): WavInfo {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new Error('not a RIFF/WAVE file');
  let fmt: Omit<WavInfo, 'dataOffset' | 'dataBytes'> | undefined;
  let at = 12;
  while (at + 8 <= bytes.length) {
    const id = tag(at);
    const size = v.getUint32(at + 4, true);
    if (id === 'fmt ') {
      if (at + 24 > bytes.length) break;
      fmt = {
        audioFormat: v.getUint16(at + 8, true),
        channels: v.getUint16(at + 10, true),
        sampleRate: v.getUint32(at + 12, true),
        bitsPerSample: v.getUint16(at + 22, true),
      };
    } else if (id === 'data') {
      if (!fmt) throw new Error('WAV data chunk before its fmt chunk');
      return { ...fmt, dataOffset: at + 8, dataBytes: size };
    }
    at += 8 + size + (size % 2); // chunks are word-aligned
  }
  throw new Error('WAV header incomplete: no data chunk found');
}
