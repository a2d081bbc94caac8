// json: the validated data, pretty-printed (2 spaces, trailing newline).
import { CONTENT_TYPES } from '../core/formats';
import type { DocumentModel, RenderedFile } from './types';

export function dataJson(data: unknown): Buffer {
  return Buffer.from(`${JSON.stringify(data, null, 2)}\n`, 'utf8');
}

export async function renderJson(model: DocumentModel): Promise<RenderedFile> {
  return { bytes: dataJson(model.data), contentType: CONTENT_TYPES.json, extension: 'json' };
}
