// $default route: 404 / 405 / CORS preflight from the narration manifest (lambdas/shared/http/not-found.ts).
import { makeNotFoundHandler } from '../../shared/http/not-found';
import { narrationManifest } from '../routes';

export const makeHandler = () => makeNotFoundHandler(narrationManifest);

export const handler = makeHandler();
