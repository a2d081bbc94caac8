// HLS playlists played by a player we did not write: ffprobe's HLS demuxer (the static ffprobe from
// @ffprobe-installer) fetches the playlist and every segment over loopback HTTP, following the redirects, and decodes
// every audio frame (one HTTP connection per request: the segments redirect to another port). Our own parsing of
// the playlist text is not involved.
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FFPROBE } from './runtime';

/**
 * The seconds of audio ffprobe decodes when it plays the playlist at `url` (the sum of every decoded frame's
 * duration), and what it complained about. Asynchronous: the server answering may run in this process.
 */
export function playedSeconds(url: string): Promise<{ seconds: number; frames: number; errors: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      FFPROBE,
      [
        '-v',
        'error',
        '-http_persistent',
        '0',
        '-select_streams',
        'a:0',
        '-show_entries',
        'frame=duration_time',
        '-of',
        'csv=p=0',
        url,
      ],
      { encoding: 'utf8', maxBuffer: 64 << 20, timeout: 60_000 },
      (err, stdout, stderr) => {
        if (err) return reject(new Error(`ffprobe could not play ${url}: ${stderr || err.message}`));
        const durations = stdout
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map(Number);
        resolve({
          seconds: durations.reduce((s, d) => s + d, 0),
          frames: durations.length,
          errors: stderr.trim(),
        });
      },
    );
  });
}

/** Serves `text` as an HLS playlist at `http://127.0.0.1:<port>/stream.m3u8` (negative controls serve a broken one). */
export async function servePlaylist(text: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    if (req.url === '/stream.m3u8')
      res.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl' }).end(text);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/stream.m3u8`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
