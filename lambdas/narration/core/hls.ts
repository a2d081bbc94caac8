// HLS (RFC 8216, version 3) media playlists of a narration: the MP3 segments a long job writes as it goes
// (GET /audio/{id}/stream.m3u8). An EVENT playlist only grows; #EXT-X-ENDLIST closes it once the job is done.
// Segment URIs are relative to the playlist (`seg/<n>.mp3`), so the same text works behind any host or stage.

export interface PlaylistSegment {
  n: number;
  start_s: number;
  duration_s: number;
}

export interface PlaylistInput {
  /** Segments in order, contiguous from 0 (the audio record's `segments`). */
  segments: readonly PlaylistSegment[];
  /** The job is finished: no more segments will come. */
  done: boolean;
  /** A done MP3 without segments (a short conversion made in one go) is listed as this one URI. */
  whole?: { uri: string; duration_s: number };
}

/**
 * Target duration while nothing has landed yet: players reload an EVENT playlist about every target duration,
 * so a small value keeps a fresh job's first segment a few seconds away.
 */
export const EMPTY_TARGET_S = 4;

/** EXTINF with millisecond precision (version 3 allows decimals); never 0 (players skip empty segments). */
const extinf = (s: number): string => `#EXTINF:${Math.max(0.001, s).toFixed(3)},`;

export function hlsPlaylist(input: PlaylistInput): string {
  const entries: { uri: string; duration_s: number }[] = input.segments.map((s) => ({
    uri: `seg/${s.n}.mp3`,
    duration_s: s.duration_s,
  }));
  if (entries.length === 0 && input.done && input.whole) entries.push(input.whole);
  // Every EXTINF rounded to the nearest integer must be ≤ the target duration (RFC 8216 §4.3.3.1). The target can
  // only be known from the segments seen so far; it grows with a longer segment (players re-read it on reload).
  const target = entries.length
    ? Math.max(1, ...entries.map((e) => Math.ceil(e.duration_s)))
    : EMPTY_TARGET_S;
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    '#EXT-X-PLAYLIST-TYPE:EVENT',
    `#EXT-X-TARGETDURATION:${target}`,
    '#EXT-X-MEDIA-SEQUENCE:0',
    ...entries.flatMap((e) => [extinf(e.duration_s), e.uri]),
  ];
  if (input.done) lines.push('#EXT-X-ENDLIST');
  return `${lines.join('\n')}\n`;
}
