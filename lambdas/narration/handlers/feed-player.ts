// The routes of feed-player.route.ts, one handler picking each by its route key (use-cases/listens.ts):
//   GET  /feeds/{feed_id}/article?url=   → 200 {audio_id, article, url, title} (public, cached 60 s) | 404;
//                                          audio_id null: a first_play feed's article, offered
//   POST /feeds/{feed_id}/article?url=   → 200 the same, narrated now if it was offered (per-IP limit → 429)
//   POST /listens  {feed_id, article, event}  → 204 (public beacon, per-IP limit → 429)
//   GET  /v1/feeds/{feed_id}/listens?days= → 200 counts per day and per article (the feed owner's key)
import { resolveCaller } from '../../shared/auth/resolve-caller';
import { invalid } from '../../shared/errors';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/response';
import { lazyHandlers, routeHandler } from '../../shared/http/route-handlers';
import { validate } from '../../shared/validation';
import { awsFeedDeps, type FeedDeps } from '../feed-deps';
import {
  MAX_LISTEN_DAYS,
  findPageNarration,
  listenStats,
  narrateOnFirstPlay,
  recordListen,
} from '../use-cases/listens';
import { FEED_PLAYER_ROUTES, ListenReq, listenRoute } from './feed-player.route';

const pageUrl = (query: Record<string, string>) => {
  const url = query['url'];
  if (!url) throw invalid(['query', 'url'], 'Field required', 'missing');
  return url;
};

export const makeHandlers = (deps: FeedDeps) =>
  lazyHandlers({
    FeedPageAudio: () =>
      apiHandler(async (req) => {
        const {
          feed: _feed,
          entry: _entry,
          ...found
        } = await findPageNarration(deps, req.pathParams['feed_id'] ?? '', pageUrl(req.query));
        // Not cached while it offers a first play: the press will narrate it.
        return json(200, found, { 'cache-control': found.audio_id ? 'public, max-age=60' : 'no-store' });
      }),
    FeedFirstPlay: () =>
      apiHandler(async (req) => {
        const { found, limits } = await narrateOnFirstPlay(
          deps,
          req.clientIp,
          req.pathParams['feed_id'] ?? '',
          pageUrl(req.query),
        );
        return json(200, found, { ...limits, 'cache-control': 'no-store' });
      }),
    Listen: () =>
      apiHandler(
        async (req) => {
          const body = validate(ListenReq, req.body());
          const limits = await recordListen(deps, req.clientIp, body);
          return { statusCode: 204, headers: { ...limits, 'cache-control': 'no-store' }, body: '' };
        },
        { maxBodyBytes: listenRoute.maxBodyBytes },
      ),
    FeedListens: () =>
      apiHandler(async (req) => {
        const caller = await resolveCaller(req.headers, req.clientIp, deps.keys);
        const raw = req.query['days'] ?? '30';
        const days = Number(raw);
        if (!/^\d+$/.test(raw) || days < 1 || days > MAX_LISTEN_DAYS)
          throw invalid(
            ['query', 'days'],
            `days should be a whole number from 1 to ${MAX_LISTEN_DAYS}.`,
            'value_error',
          );
        const stats = await listenStats(deps, caller, req.pathParams['feed_id'] ?? '', days);
        return json(200, stats, { 'cache-control': 'no-store' });
      }),
  });

export const handler = routeHandler(FEED_PLAYER_ROUTES, makeHandlers(awsFeedDeps()));
