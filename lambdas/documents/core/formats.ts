// The ten output formats of the contract (listed in the template kit), with the Content-Type and file extension
// each one is served with.
import { FORMATS, type Format } from '../../../templates/kit/formats';

export { FORMATS, type Format };

export const CONTENT_TYPES: Record<Format, string> = {
  pdf: 'application/pdf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8; header=present',
  html: 'text/html; charset=utf-8',
  json: 'application/json; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  png: 'image/png',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  zip: 'application/zip',
};
