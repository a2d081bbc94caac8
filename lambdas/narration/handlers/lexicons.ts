// /v1/lexicons — pronunciation lexicons of paid accounts (Bearer key; none → 401 naming the fix):
//   PUT    /v1/lexicons/{name}   {language?, entries, default?} → 201 created / 200 replaced, the lexicon
//   GET    /v1/lexicons          → 200 {lexicons: [summary…], limits}
//   GET    /v1/lexicons/{name}   → 200 the lexicon with its entries; 404 when the account has none by that name
//   DELETE /v1/lexicons/{name}   → 204; 404 when missing
// One handler for the four routes of lexicons.route.ts (each its own Lambda, with its own grants).
import { resolveCaller } from '../../shared/auth/resolve-caller';
import { apiHandler } from '../../shared/http/api-handler';
import { NO_STORE, json } from '../../shared/http/response';
import { validate } from '../../shared/validation';
import { LEXICON_LIMITS } from '../core/lexicon';
import { awsDeps, type NarrationDeps } from '../deps';
import {
  deleteLexicon,
  getLexicon,
  lexiconOwner,
  lexiconSummary,
  listLexicons,
  putLexicon,
} from '../use-cases/lexicons';
import { LexiconName } from '../requests';
import { PutLexiconReq, lexiconPutRoute } from './lexicons.route';

export const makeHandler = (deps: Pick<NarrationDeps, 'keys' | 'lexicons' | 'now'>) =>
  apiHandler(
    async (req) => {
      const caller = await resolveCaller(req.headers, req.clientIp, deps.keys);
      lexiconOwner(caller); // 401 for the free tier before anything else is looked at
      const rawName = req.pathParams['name'];
      if (rawName === undefined) {
        const all = await listLexicons(deps.lexicons, caller);
        return json(200, { lexicons: all.map(lexiconSummary), limits: LEXICON_LIMITS }, NO_STORE);
      }
      const name = validate(LexiconName, rawName, ['path', 'name']);
      switch (req.method) {
        case 'PUT': {
          const body = validate(PutLexiconReq, req.body());
          const { created, lexicon } = await putLexicon(deps.lexicons, caller, name, body, deps.now());
          return json(created ? 201 : 200, lexicon, NO_STORE);
        }
        case 'DELETE':
          await deleteLexicon(deps.lexicons, caller, name);
          return { statusCode: 204, headers: NO_STORE, body: '' };
        default:
          return json(200, await getLexicon(deps.lexicons, caller, name), NO_STORE);
      }
    },
    { maxBodyBytes: lexiconPutRoute.maxBodyBytes },
  );

export const handler = makeHandler(awsDeps());
