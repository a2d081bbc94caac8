// $default route: 404 / 405 / CORS preflight from the documents manifest.
import { makeNotFoundHandler } from '../../shared/http/not-found';
import { ROUTE_INDEX } from '../route-index';

export const makeHandler = () => makeNotFoundHandler(ROUTE_INDEX);

export const handler = makeHandler();
