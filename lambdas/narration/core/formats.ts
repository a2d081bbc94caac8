// Output formats offered by every plan (contract: MP3, WAV, OGG).
export const FORMATS = ['mp3', 'wav', 'ogg'] as const;
export type AudioFormat = (typeof FORMATS)[number];

export const CONTENT_TYPE: Record<AudioFormat, string> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
};
