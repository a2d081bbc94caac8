// The HLS playlist builder (core/hls.ts): RFC 8216 v3 EVENT playlists of a job's MP3 segments.
import { EMPTY_TARGET_S, hlsPlaylist } from '../../lambdas/narration/core/hls';

const seg = (n: number, start_s: number, duration_s: number) => ({ n, start_s, duration_s });

test('a pending job lists its segments in order, without ENDLIST, target ≥ every rounded duration', () => {
  const text = hlsPlaylist({ segments: [seg(0, 0, 12.4), seg(1, 12.4, 30.51)], done: false });
  expect(text).toBe(
    [
      '#EXTM3U',
      '#EXT-X-VERSION:3',
      '#EXT-X-PLAYLIST-TYPE:EVENT',
      '#EXT-X-TARGETDURATION:31',
      '#EXT-X-MEDIA-SEQUENCE:0',
      '#EXTINF:12.400,',
      'seg/0.mp3',
      '#EXTINF:30.510,',
      'seg/1.mp3',
      '',
    ].join('\n'),
  );
});

test('nothing landed yet: an open, empty playlist with the short target so players reload soon', () => {
  const text = hlsPlaylist({ segments: [], done: false, whole: { uri: '../x.mp3', duration_s: 3 } });
  expect(text).toContain(`#EXT-X-TARGETDURATION:${EMPTY_TARGET_S}\n`);
  expect(text).not.toContain('#EXTINF');
  expect(text).not.toContain('ENDLIST');
});

test('done: ENDLIST; without segments the whole file is the one entry', () => {
  const segs = hlsPlaylist({
    segments: [seg(0, 0, 2)],
    done: true,
    whole: { uri: '../x.mp3', duration_s: 2 },
  });
  expect(segs.trim().split('\n').slice(-3)).toEqual(['#EXTINF:2.000,', 'seg/0.mp3', '#EXT-X-ENDLIST']);
  const whole = hlsPlaylist({ segments: [], done: true, whole: { uri: '../x.mp3', duration_s: 1.2345 } });
  expect(whole.trim().split('\n').slice(-3)).toEqual(['#EXTINF:1.234,', '../x.mp3', '#EXT-X-ENDLIST']);
  expect(whole).toContain('#EXT-X-TARGETDURATION:2\n');
});
