// GET /voices — the voice catalogue (contract: JSON array of Voice). Static, so cacheable.
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/response';
import { VOICES, publicVoice } from '../core/voices';

export const makeHandler = () =>
  apiHandler(async () => json(200, VOICES.map(publicVoice), { 'cache-control': 'public, max-age=3600' }));

export const handler = makeHandler();
