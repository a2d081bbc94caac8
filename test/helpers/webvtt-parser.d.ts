declare module 'webvtt-parser' {
  export interface WebVTTCue {
    id: string;
    startTime: number;
    endTime: number;
    text: string;
  }
  export class WebVTTParser {
    parse(
      input: string,
      mode?: 'metadata' | 'chapters',
    ): { cues: WebVTTCue[]; errors: { message: string }[] };
  }
}
