import {
  Mp3FrameCounter,
  OggPageReader,
  mp3DurationS,
  mp3Summary,
  oggDurationS,
  oggSummary,
  parseMp3FrameHeader,
  wavDurationS,
} from '../../lambdas/narration/audio/duration';
import { parseWavHeader, wavHeader } from '../../lambdas/narration/audio/wav';
import { pcmFromWavStream } from '../../lambdas/narration/speech/espeak-cli';

// ------------------------------------------------------------------------------------------- synthetic MP3 frames

/** A frame with a valid header and a zero payload. */
function mp3Frame(opts: {
  b1: number;
  bitrateIndex: number;
  rateIndex?: number;
  padding?: boolean;
  mono?: boolean;
  size: number;
}): Uint8Array {
  const f = new Uint8Array(opts.size);
  f[0] = 0xff;
  f[1] = opts.b1;
  f[2] = (opts.bitrateIndex << 4) | ((opts.rateIndex ?? 0) << 2) | (opts.padding ? 2 : 0);
  f[3] = opts.mono === false ? 0x00 : 0xc0;
  return f;
}
// MPEG-2 layer III, no CRC, 22,050 Hz, 48 kbps: floor(72 × 48000 / 22050) = 156 bytes, 576 samples.
const lsf = (padding = false) =>
  mp3Frame({ b1: 0xf3, bitrateIndex: 6, padding, size: 156 + (padding ? 1 : 0) });
// MPEG-1 layer III, 44,100 Hz, 128 kbps: floor(144 × 128000 / 44100) = 417 bytes, 1152 samples.
const mpeg1 = () => mp3Frame({ b1: 0xfb, bitrateIndex: 9, mono: false, size: 417 });

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
const repeat = (n: number, make: (i: number) => Uint8Array) =>
  concat(...Array.from({ length: n }, (_, i) => make(i)));

function id3v2(payload: number): Uint8Array {
  const t = new Uint8Array(10 + payload).fill(0xff); // 0xff payload: would look like sync bytes if not skipped
  t.set([0x49, 0x44, 0x33, 4, 0, 0]);
  t[6] = (payload >> 21) & 0x7f;
  t[7] = (payload >> 14) & 0x7f;
  t[8] = (payload >> 7) & 0x7f;
  t[9] = payload & 0x7f;
  return t;
}

function withTag(frame: Uint8Array, tag: 'Xing' | 'Info', offset: number): Uint8Array {
  const f = frame.slice();
  f.set(
    [...tag].map((c) => c.charCodeAt(0)),
    offset,
  );
  return f;
}

describe('parseMp3FrameHeader', () => {
  it('reads MPEG-2 LSF layer III (576 samples) and MPEG-1 (1152 samples)', () => {
    expect(parseMp3FrameHeader(lsf())).toMatchObject({
      version: 2,
      layer: 3,
      bitrateKbps: 48,
      sampleRate: 22050,
      channels: 1,
      frameBytes: 156,
      samplesPerFrame: 576,
    });
    expect(parseMp3FrameHeader(lsf(true))).toMatchObject({ frameBytes: 157 });
    expect(
      parseMp3FrameHeader(mp3Frame({ b1: 0xf3, bitrateIndex: 6, rateIndex: 2, size: 216 })),
    ).toMatchObject({ sampleRate: 16000, frameBytes: 216, samplesPerFrame: 576 });
    expect(parseMp3FrameHeader(mpeg1())).toMatchObject({
      version: 1,
      layer: 3,
      bitrateKbps: 128,
      sampleRate: 44100,
      channels: 2,
      frameBytes: 417,
      samplesPerFrame: 1152,
    });
    // MPEG-2.5 at 8 kHz, 32 kbps: floor(72 × 32000 / 8000) = 288.
    expect(
      parseMp3FrameHeader(mp3Frame({ b1: 0xe3, bitrateIndex: 4, rateIndex: 2, size: 288 })),
    ).toMatchObject({ version: 2.5, sampleRate: 8000, frameBytes: 288 });
  });

  it('rejects non-headers, reserved fields and free format', () => {
    expect(parseMp3FrameHeader(new Uint8Array([0xff, 0xf3]))).toBeUndefined();
    expect(parseMp3FrameHeader(new Uint8Array([0xfe, 0xf3, 0x60, 0xc0]))).toBeUndefined();
    expect(parseMp3FrameHeader(new Uint8Array([0xff, 0xeb, 0x60, 0xc0]))).toBeUndefined(); // version "reserved"
    expect(parseMp3FrameHeader(new Uint8Array([0xff, 0xf1, 0x60, 0xc0]))).toBeUndefined(); // layer "reserved"
    expect(parseMp3FrameHeader(new Uint8Array([0xff, 0xf3, 0x00, 0xc0]))).toBeUndefined(); // free format
    expect(parseMp3FrameHeader(new Uint8Array([0xff, 0xf3, 0xf0, 0xc0]))).toBeUndefined(); // bad bitrate
    expect(parseMp3FrameHeader(new Uint8Array([0xff, 0xf3, 0x6c, 0xc0]))).toBeUndefined(); // rate "reserved"
  });
});

describe('MP3 duration', () => {
  it('counts LSF frames × 576 / rate', () => {
    const file = repeat(100, (i) => lsf(i % 3 === 0));
    expect(mp3Summary(file)).toMatchObject({
      frames: 100,
      samples: 57600,
      sampleRate: 22050,
      skippedBytes: 0,
    });
    expect(mp3DurationS(file)).toBeCloseTo((100 * 576) / 22050, 9);
  });

  it('counts MPEG-1 frames × 1152 / rate', () => {
    expect(mp3DurationS(repeat(10, mpeg1))).toBeCloseTo((10 * 1152) / 44100, 9);
  });

  it('skips an ID3v2 tag (even one full of 0xff) and a trailing ID3v1 tag', () => {
    const id3v1 = new Uint8Array(128);
    id3v1.set([0x54, 0x41, 0x47]);
    const file = concat(
      id3v2(300),
      repeat(20, () => lsf()),
      id3v1,
    );
    expect(mp3Summary(file)).toMatchObject({ frames: 20, skippedBytes: 310 + 128 });
  });

  it('does not count a Xing or Info first frame (it carries no audio)', () => {
    // MPEG-2 mono: side info is 9 bytes, so the tag sits at 4 + 9 = 13.
    expect(
      mp3Summary(
        concat(
          withTag(lsf(), 'Info', 13),
          repeat(5, () => lsf()),
        ),
      ).frames,
    ).toBe(5);
    expect(
      mp3Summary(
        concat(
          withTag(lsf(), 'Xing', 13),
          repeat(5, () => lsf()),
        ),
      ).frames,
    ).toBe(5);
    // MPEG-1 stereo: 32 bytes of side info.
    expect(mp3Summary(concat(withTag(mpeg1(), 'Info', 36), repeat(3, mpeg1))).frames).toBe(3);
    // The same bytes later in the stream are audio.
    expect(
      mp3Summary(
        concat(
          repeat(2, () => lsf()),
          withTag(lsf(), 'Info', 13),
        ),
      ).frames,
    ).toBe(3);
  });

  it('resynchronises after junk and ignores a false sync inside it', () => {
    const junk = new Uint8Array([1, 2, 0xff, 0xf3, 0x60, 0xc0, 9, 9, 9]); // a lone header not followed by a frame
    const file = concat(
      repeat(3, () => lsf()),
      junk,
      repeat(4, () => lsf()),
    );
    expect(mp3Summary(file)).toMatchObject({ frames: 7, skippedBytes: junk.length });
  });

  it('drops a truncated last frame', () => {
    const file = concat(
      repeat(4, () => lsf()),
      lsf().subarray(0, 100),
    );
    expect(mp3Summary(file).frames).toBe(4);
  });

  it('gives the same answer however the bytes are split across pushes', () => {
    const file = concat(
      id3v2(50),
      withTag(lsf(), 'Info', 13),
      repeat(30, (i) => lsf(i % 2 === 0)),
    );
    for (const step of [1, 3, 7, 60, 155, 156, 157, 1000]) {
      const c = new Mp3FrameCounter();
      for (let at = 0; at < file.length; at += step) c.push(file.subarray(at, at + step));
      expect(c.end()).toEqual(mp3Summary(file));
    }
    expect(mp3Summary(file).frames).toBe(30);
  });

  it('reports zero for data without frames', () => {
    expect(mp3Summary(new Uint8Array(1000))).toMatchObject({ frames: 0, durationS: 0, sampleRate: 0 });
  });
});

// ------------------------------------------------------------------------------------------- synthetic Ogg pages

function oggPage(opts: {
  granule: bigint;
  serial: number;
  seq: number;
  body: Uint8Array;
  flags?: number;
}): Uint8Array {
  const segs: number[] = [];
  let left = opts.body.length;
  while (left >= 255) {
    segs.push(255);
    left -= 255;
  }
  segs.push(left);
  const page = new Uint8Array(27 + segs.length + opts.body.length);
  const v = new DataView(page.buffer);
  page.set([0x4f, 0x67, 0x67, 0x53, 0, opts.flags ?? 0]);
  v.setBigInt64(6, opts.granule, true);
  v.setUint32(14, opts.serial, true);
  v.setUint32(18, opts.seq, true);
  page[26] = segs.length;
  page.set(segs, 27);
  page.set(opts.body, 27 + segs.length);
  return page;
}

function vorbisId(rate: number): Uint8Array {
  const b = new Uint8Array(30);
  const v = new DataView(b.buffer);
  b.set([1, ...[...'vorbis'].map((c) => c.charCodeAt(0))]);
  v.setUint32(7, 0, true);
  b[11] = 1;
  v.setUint32(12, rate, true);
  return b;
}

function oggFile(rate: number, granules: bigint[], serial = 42): Uint8Array {
  return concat(
    oggPage({ granule: 0n, serial, seq: 0, body: vorbisId(rate), flags: 2 }),
    ...granules.map((g, i) =>
      oggPage({ granule: g, serial, seq: i + 1, body: new Uint8Array(300 + i).fill(7) }),
    ),
  );
}

describe('Ogg duration', () => {
  it('is the last granule position divided by the Vorbis rate', () => {
    const file = oggFile(22050, [0n, 10_000n, 20_000n, 44_100n]);
    expect(oggSummary(file)).toMatchObject({
      pages: 5,
      serials: [42],
      sampleRate: 22050,
      lastGranule: 44_100,
    });
    expect(oggDurationS(file)).toBeCloseTo(2, 9);
  });

  it('ignores pages where no packet ends (granule -1)', () => {
    expect(oggSummary(oggFile(16000, [16_000n, -1n])).lastGranule).toBe(16_000);
  });

  it('reports chained streams and takes the first stream duration', () => {
    const chained = concat(oggFile(22050, [22050n]), oggFile(22050, [44100n], 7));
    expect(oggSummary(chained)).toMatchObject({ serials: [42, 7], durationS: 1 });
  });

  it('gives the same answer however the bytes are split, and skips junk', () => {
    const file = concat(new Uint8Array([1, 2, 3]), oggFile(22050, [100n, 200n, 300n, 11025n]));
    for (const step of [1, 5, 27, 100, 4096]) {
      const r = new OggPageReader();
      for (let at = 0; at < file.length; at += step) r.push(file.subarray(at, at + step));
      expect(r.end()).toEqual(oggSummary(file));
    }
    expect(oggDurationS(file)).toBeCloseTo(0.5, 9);
  });

  it('reports zero for a stream that is not Vorbis', () => {
    const notVorbis = concat(
      oggPage({ granule: 0n, serial: 1, seq: 0, body: new Uint8Array(40), flags: 2 }),
      oggPage({ granule: 48000n, serial: 1, seq: 1, body: new Uint8Array(10) }),
    );
    expect(oggSummary(notVorbis)).toMatchObject({ sampleRate: 0, durationS: 0 });
  });
});

// ------------------------------------------------------------------------------------------------------------ WAV

describe('WAV header and duration', () => {
  it('writes a canonical header that reads back', () => {
    const h = wavHeader(22050, 44100);
    expect(h.length).toBe(44);
    expect(Buffer.from(h).toString('hex')).toBe(
      [
        '52494646',
        '68ac0000',
        '57415645',
        '666d7420',
        '10000000',
        '0100',
        '0100',
        '22560000',
        '44ac0000',
        '0200',
        '1000',
        '64617461',
        '44ac0000',
      ].join(''),
    );
    expect(parseWavHeader(h)).toEqual({
      audioFormat: 1,
      channels: 1,
      sampleRate: 22050,
      bitsPerSample: 16,
      dataOffset: 44,
      dataBytes: 44100,
    });
    expect(wavDurationS(h)).toBeCloseTo(1, 9);
  });

  it('walks extra chunks (LIST, odd sizes) to find the data', () => {
    const h = wavHeader(16000, 3200);
    const list = concat(new Uint8Array([0x4c, 0x49, 0x53, 0x54, 3, 0, 0, 0, 1, 2, 3, 0])); // LIST of 3 bytes + pad
    const file = concat(h.subarray(0, 36), list, h.subarray(36));
    expect(parseWavHeader(file)).toMatchObject({ sampleRate: 16000, dataOffset: 56, dataBytes: 3200 });
    expect(wavDurationS(file)).toBeCloseTo(0.1, 9);
  });

  it('uses the file size when the header carries espeak-style placeholder sizes', () => {
    const h = wavHeader(22050, 0x7ffff000);
    expect(wavDurationS(h, 44 + 22050)).toBeCloseTo(0.5, 9);
    expect(wavDurationS(wavHeader(22050, 0), 44 + 44100)).toBeCloseTo(1, 9);
  });

  it('rejects what is not a WAV file', () => {
    expect(() => parseWavHeader(new TextEncoder().encode('ID3 this is not a wav file'))).toThrow(
      'not a RIFF/WAVE',
    );
    expect(() => parseWavHeader(wavHeader(22050, 10).subarray(0, 30))).toThrow('no data chunk');
    expect(() => wavHeader(22050, 2 ** 32)).toThrow(RangeError);
  });

  it('reads an espeak --stdout stream: placeholder sizes, samples to the end, odd trailing byte dropped', () => {
    const header = wavHeader(22050, 0x7ffff000);
    const samples = Int16Array.from([1, -2, 300, -32768, 32767]);
    const stream = concat(header, new Uint8Array(samples.buffer), new Uint8Array([0x7f]));
    // At an odd offset inside a larger buffer, as Buffer.concat may hand it over.
    const shifted = new Uint8Array(stream.length + 1);
    shifted.set(stream, 1);
    const pcm = pcmFromWavStream(shifted.subarray(1));
    expect(pcm.sampleRate).toBe(22050);
    expect(Array.from(pcm.samples)).toEqual([1, -2, 300, -32768, 32767]);
    expect(() =>
      pcmFromWavStream(
        concat(
          wavHeader(22050, 0).map((b, i) => (i === 22 ? 2 : b)),
          new Uint8Array(8),
        ),
      ),
    ).toThrow('mono 16-bit');
  });
});
