// Chapters inside an MP3 file: an ID3v2.4 tag with a CTOC frame (the table of contents: top level, ordered) and
// one CHAP frame per chapter (start and end in milliseconds, its title as a TIT2 sub-frame), the ID3 chapter
// addendum's layout that podcast apps, players and ffmpeg (`ffprobe -show_chapters`) read. Pure, no I/O.
// The tag's size depends only on the titles, not on the times: narrate() writes it first with the titles it knows
// before synthesis and rewrites it in place, same size, once the start times are known.

export interface Id3Chapter {
  title: string;
  startMs: number;
  endMs: number;
}

/** CTOC holds at most 255 entries (one byte of count). */
export const MAX_ID3_CHAPTERS = 255;

const syncsafe = (n: number): number[] => [(n >> 21) & 0x7f, (n >> 14) & 0x7f, (n >> 7) & 0x7f, n & 0x7f];
const u32 = (n: number): number[] => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const latin1 = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));

function frame(id: string, body: number[]): number[] {
  if (body.length >= 1 << 28) throw new RangeError('ID3 frame too large');
  return [...latin1(id), ...syncsafe(body.length), 0, 0, ...body];
}

/** A TIT2 (title) frame in UTF-8 (encoding 3), without a terminator. */
function title(text: string): number[] {
  return frame('TIT2', [3, ...Buffer.from(text, 'utf8')]);
}

/** Titles are cut to this many characters: a chapter list, not the text. */
const MAX_TITLE_CHARS = 200;

/**
 * An ID3v2.4 tag with a CTOC and a CHAP frame per chapter (at most MAX_ID3_CHAPTERS, in order). Its length depends
 * only on the titles. An empty list gives an empty array (no tag).
 */
export function id3ChapterTag(chapters: readonly Id3Chapter[]): Uint8Array {
  const list = chapters.slice(0, MAX_ID3_CHAPTERS);
  if (list.length === 0) return new Uint8Array(0);
  const ids = list.map((_, i) => `ch${i}`);
  const ctoc = frame('CTOC', [
    ...latin1('toc'),
    0,
    0x03, // top-level, ordered
    list.length,
    ...ids.flatMap((id) => [...latin1(id), 0]),
    ...title('Capítulos'),
  ]);
  const chaps = list.flatMap((c, i) =>
    frame('CHAP', [
      ...latin1(ids[i]!),
      0,
      ...u32(Math.max(0, Math.round(c.startMs))),
      ...u32(Math.max(0, Math.round(c.endMs))),
      ...u32(0xffffffff), // no byte offsets: the times are exact
      ...u32(0xffffffff),
      ...title([...c.title.trim()].slice(0, MAX_TITLE_CHARS).join('')),
    ]),
  );
  const body = [...ctoc, ...chaps];
  return Uint8Array.from([...latin1('ID3'), 4, 0, 0, ...syncsafe(body.length), ...body]);
}
