// /v1/feeds — publisher feeds of paid accounts (Bearer key; none → 401 naming the fix):
//   POST   /v1/feeds                   {url, voice?, fmt?, lexicons?, mode?, podcast?} → 201 the feed (first poll sent)
//   GET    /v1/feeds                   → 200 {feeds}
//   GET    /v1/feeds/{feed_id}         → 200 the feed with its articles (status, audio, narrations)
//   PATCH  /v1/feeds/{feed_id}         {status: active|paused} → 200
//   POST   /v1/feeds/{feed_id}/poll    → 202 (a poll is queued)
//   DELETE /v1/feeds/{feed_id}?audio=  keep (default) | delete → 200 {deleted, audio_deleted, audio_kept}
// One handler for the six routes of feeds.route.ts (each its own Lambda, with its own grants).
import { resolveCaller } from '../../shared/auth/resolve-caller';
import { publicBase } from '../../shared/billing/web';
import { invalid } from '../../shared/errors';
import { apiHandler } from '../../shared/http/api-handler';
import { NO_STORE, json } from '../../shared/http/response';
import { validate } from '../../shared/validation';
import { NARRATION_BILLING } from '../billing';
import { awsFeedDeps, type FeedDeps } from '../feed-deps';
import {
  articleView,
  deleteFeed,
  feedOwner,
  feedView,
  getFeed,
  listFeeds,
  pollNow,
  registerFeed,
  setFeedStatus,
} from '../use-cases/feeds';
import { CreateFeedReq, UpdateFeedReq, feedCreateRoute } from './feeds.route';

export const makeHandler = (deps: FeedDeps) =>
  apiHandler(
    async (req) => {
      const caller = await resolveCaller(req.headers, req.clientIp, deps.keys);
      feedOwner(caller); // 401 for the free tier before anything else is looked at
      const id = req.pathParams['feed_id'];
      const base = publicBase(req, deps.config, NARRATION_BILLING);
      const view = (feed: Parameters<typeof feedView>[0]) => feedView(feed, base);
      if (id === undefined) {
        if (req.method === 'POST') {
          const body = validate(CreateFeedReq, req.body());
          const feed = await registerFeed(deps, caller, body);
          return json(201, view(feed), { ...NO_STORE, location: `/v1/feeds/${feed.feedId}` });
        }
        const feeds = await listFeeds(deps, caller);
        return json(200, { feeds: feeds.map(view) }, NO_STORE);
      }
      switch (req.method) {
        case 'PATCH': {
          const body = validate(UpdateFeedReq, req.body());
          return json(200, view(await setFeedStatus(deps, caller, id, body.status)), NO_STORE);
        }
        case 'POST':
          return json(202, view(await pollNow(deps, caller, id)), NO_STORE);
        case 'DELETE': {
          const audio = req.query['audio'] ?? 'keep';
          if (audio !== 'keep' && audio !== 'delete')
            throw invalid(['query', 'audio'], 'audio is "keep" (default) or "delete".', 'enum');
          const out = await deleteFeed(deps, caller, id, audio === 'delete');
          return json(
            200,
            { deleted: true, audio_deleted: out.audioDeleted, audio_kept: out.audioKept },
            NO_STORE,
          );
        }
        default: {
          const { feed, articles } = await getFeed(deps, caller, id);
          return json(200, { ...view(feed), entries: articles.map(articleView) }, NO_STORE);
        }
      }
    },
    { maxBodyBytes: feedCreateRoute.maxBodyBytes },
  );

export const handler = makeHandler(awsFeedDeps());
