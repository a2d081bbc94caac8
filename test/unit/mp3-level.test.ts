// A voice's level measured once (lambdas/narration/audio/mp3-level.ts VoiceLevels): the first chunks of a voice are
// measured one at a time until 30 s of its speech are, later chunks get the level found; and the true-peak meter the
// measured chunks are checked with sees peaks between samples that the samples do not show; and the limiter that
// writes fewer global_gain steps where the gained frames would pass the true-peak ceiling.
import {
  decodeMp3Frames,
  levelMp3Frames,
  levelMp3FramesAs,
  VoiceLevels,
  VOICE_LEVEL_SECONDS,
  type LevelChunk,
  type VoiceLevel,
} from '../../lambdas/narration/audio/mp3-level';
import { DEFAULT_LOUDNESS, integratedLoudness } from '../../lambdas/narration/audio/loudness';
import { truePeakDb } from '../../lambdas/narration/audio/true-peak';
import { encodeMp3Segment } from '../../lambdas/narration/audio/encode';
import { applyMp3Gain } from '../../lambdas/narration/audio/mp3-gain';

/** A leveller that "measures" a chunk as `seconds` long with `steps`, recording what it was asked. */
function stub(measures: { seconds: number; steps: number; peakDb: number }[]) {
  const calls: { known?: VoiceLevel; at: number }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const run: LevelChunk = async (frames, _target, known) => {
    // Measuring chunks in flight at once.
    if (!known) maxInFlight = Math.max(maxInFlight, ++inFlight);
    calls.push({ ...(known ? { known } : {}), at: calls.length });
    await new Promise((r) => setImmediate(r));
    if (!known) inFlight--;
    const level = known ? undefined : measures.shift();
    return {
      frames,
      leveling: {
        gainDb: 0,
        limited: 0,
        before: { integrated: -20, truePeakDb: -1 },
        expectedLufs: -16,
        decoded: !known,
        ...(level ? { level } : {}),
      },
    };
  };
  return { run, calls, maxInFlight: () => maxInFlight };
}

describe('VoiceLevels', () => {
  it('measures a voice one chunk at a time until 30 s are measured, then gives every chunk that level', async () => {
    const levels = new VoiceLevels();
    const s = stub([
      { seconds: 12, steps: 4, peakDb: -2 },
      { seconds: 24, steps: 6, peakDb: -1 },
    ]);
    const frames = new Uint8Array(4);
    // Six chunks arrive at once, as a long job's do.
    await Promise.all(
      Array.from({ length: 6 }, () =>
        levels.level('polly/neural/Mia/24000', frames, DEFAULT_LOUDNESS, s.run),
      ),
    );
    // 12 s are not enough (VOICE_LEVEL_SECONDS), 12 + 24 are; never two measured at once.
    expect(VOICE_LEVEL_SECONDS).toBeGreaterThan(12);
    expect(s.calls.filter((c) => !c.known)).toHaveLength(2);
    expect(s.maxInFlight()).toBe(1);
    // The known level: steps weighted by seconds (4×12 + 6×24) / 36 = 5.33 → 5, the loudest peak, 36 s.
    const known = s.calls.filter((c) => c.known).map((c) => c.known);
    expect(known).toHaveLength(4);
    expect(known[0]).toEqual({ steps: 5, peakDb: -1, seconds: 36 });
  });

  it('keeps voices and targets apart', async () => {
    const levels = new VoiceLevels();
    const s = stub([
      { seconds: 40, steps: 4, peakDb: -2 },
      { seconds: 40, steps: 1, peakDb: -2 },
      { seconds: 40, steps: -2, peakDb: -2 },
    ]);
    const f = new Uint8Array(4);
    await levels.level('polly/neural/Mia/24000', f, DEFAULT_LOUDNESS, s.run);
    await levels.level('polly/neural/Sergio/24000', f, DEFAULT_LOUDNESS, s.run);
    await levels.level('polly/neural/Mia/24000', f, { lufs: -23, truePeakDb: -1 }, s.run);
    await levels.level('polly/neural/Mia/24000', f, DEFAULT_LOUDNESS, s.run);
    expect(s.calls.map((c) => c.known?.steps)).toEqual([undefined, undefined, undefined, 4]);
  });
});

describe('truePeakDb', () => {
  it('finds the peak between samples (a quarter-rate sine sampled at ±45°) that the samples miss', () => {
    const n = 4800;
    const samples = new Float32Array(n);
    for (let i = 0; i < n; i++) samples[i] = 0.5 * Math.sin((Math.PI / 2) * i + Math.PI / 4);
    const sampleDb = 20 * Math.log10(Math.max(...samples.map(Math.abs)));
    // Control: the samples alone read 3 dB low.
    expect(sampleDb).toBeCloseTo(20 * Math.log10(0.5 * Math.SQRT1_2), 2);
    expect(truePeakDb(samples)).toBeCloseTo(20 * Math.log10(0.5), 0);
    expect(truePeakDb(samples) - sampleDb).toBeGreaterThan(2.5);
  });
});

describe('levelMp3Frames / levelMp3FramesAs: the limiter in global_gain steps', () => {
  // Speech-like frames peakier than −16 LUFS under −1 dBTP allows: a steady vowel-like tone with a short loud
  // burst every 0.25 s (~20 dB peak-to-loudness; the limit is 15), encoded by our LAME at 24 kHz.
  const rate = 24_000;
  async function peakyFrames(): Promise<Uint8Array> {
    const pcm = new Int16Array(rate * 5);
    for (let i = 0; i < pcm.length; i++) {
      const burst = i % (rate / 4) < rate * 0.003 ? 0.8 * Math.sin((2 * Math.PI * 2000 * i) / rate) : 0;
      pcm[i] = Math.round((0.12 * Math.sin((2 * Math.PI * 300 * i) / rate) + burst) * 32767);
    }
    return (await encodeMp3Segment(pcm, rate)).bytes;
  }
  const measure = async (frames: Uint8Array) => {
    const { samples } = await decodeMp3Frames(frames);
    return { lufs: integratedLoudness(samples, rate), tp: truePeakDb(samples) };
  };

  it('reaches the target under the ceiling, measured and with the known level; a constant gain alone passes it', async () => {
    const original = await peakyFrames();
    const measured = Uint8Array.from(original);
    const leveling = await levelMp3Frames(measured, DEFAULT_LOUDNESS);
    expect(leveling.limited).toBeGreaterThan(0);
    const m = await measure(measured);
    // What the limiter computed is what the decoder makes of the frames it wrote.
    expect(m.lufs).toBeCloseTo(leveling.expectedLufs, 1);
    expect({ lufs: Math.abs(m.lufs + 16) <= 1, tp: m.tp <= -1.2 }).toEqual({ lufs: true, tp: true });
    // A later chunk with the voice's known level (the same speech): limited as well.
    const later = Uint8Array.from(original);
    await levelMp3FramesAs(later, leveling.level!, DEFAULT_LOUDNESS);
    expect((await measure(later)).tp).toBeLessThanOrEqual(-1.2);
    // Control: the same constant gain without the limiter peaks far over −1 dBTP.
    const constant = Uint8Array.from(original);
    applyMp3Gain(constant, leveling.level!.steps);
    expect((await measure(constant)).tp).toBeGreaterThan(0);
  });
});
