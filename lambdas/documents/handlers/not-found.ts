// $default route: 404 / 405 / CORS preflight from the documents manifest.
import { makeNotFoundHandler } from '../../shared/http/not-found';
import { documentsManifest } from '../routes';

export const makeHandler = () => makeNotFoundHandler(documentsManifest);

export const handler = makeHandler();
