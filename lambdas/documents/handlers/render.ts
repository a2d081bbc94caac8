// POST /v1/render — JSON {template | custom_html, format, data, options} → the document as binary.
// 400 `{"detail": [{loc, msg, type}]}` for anything the caller can fix (all problems at once), 401 bad key,
// 403 custom_html on the free plan, 429 over the monthly quota (RateLimit-* + Retry-After), 500 with a request id
// only for a real rendering fault. Free-plan PDFs carry a subtle watermark. Documents over
// DOCUMENTS_INLINE_MAX_BYTES (4 MiB) are answered with 303 to a presigned URL valid for an hour.
// options.async (Scale plan; 403 for other plans): 202 {id, status: "queued", status_url} + Location, charged now,
// rendered by the render worker (use-cases/jobs.ts), announced to the account's webhook endpoint.
// Charges follow deliveries: a synchronous render's charge is held (lambdas/shared/quota: the hold is written with
// the charge) and committed only once the document is ready to answer, so a process that dies mid-render leaves a
// hold that is given back (by the window's next charge once the hold's time is past, or by the local start).
import { bearerToken, hashKey } from '../../shared/auth/keys';
import { ipSubject, resolveCaller, type Caller } from '../../shared/auth/resolve-caller';
import { apiHandler, CORS_HEADERS } from '../../shared/http/api-handler';
import { DomainError, Forbidden, QuotaExceeded, Unavailable, WorkStopped } from '../../shared/errors';
import { idempotency, idempotentId } from '../../shared/idempotency/idempotency';
import { logger } from '../../shared/logger';
import { coalescedCounter } from '../../shared/growth/coalesce';
import { timeRender } from '../metrics';
import { recordQuotaRejection } from '../../shared/observability/metrics';
import { countCut, refuseIfCutTooOften } from '../../shared/quota/cut-budget';
import {
  rateLimitHeaders,
  type ChargeHold,
  type ChargeOptions,
  type QuotaDecision,
} from '../../shared/quota/windows';
import { awsDeps, type DocumentsDeps } from '../deps';
import { monthlyRules, planOf, quotaSubject, type DocumentsPlan } from '../core/plans';
import { parseRenderRequest } from '../request/validate';
import { documentUnits, usesCustomHtml, type ValidRenderRequest } from '../request/valid-request';
import { renderDocument } from '../use-cases/render-request';
import { acceptAsyncRender, assertAsyncAllowed, ownerOf, withdrawAsyncRender } from '../use-cases/jobs';
import { bodyWithBrand, usesAccountBrand, withAccountBrand } from '../use-cases/brand';
import { json } from '../../shared/http/response';
import { documentsManifest } from '../routes';
import { renderRoute as route } from './render.route';

/** The GET /stats counter writer of each deps (renders in flight together share a write: coalesce.ts). */
const statsCounters = new WeakMap<object, ReturnType<typeof coalescedCounter>>();

/** Counters behind GET /stats (never fail a render over them). Resolves whether they were recorded. */
export async function recordRender(
  deps: Pick<DocumentsDeps, 'growth'>,
  format: string,
  /** Documents made (negative: a count given back). */
  delta = 1,
): Promise<boolean> {
  let add = statsCounters.get(deps);
  if (!add) {
    add = coalescedCounter((deltas) =>
      deps.growth.add('docs#stats', deltas).catch((err: unknown) => {
        logger.warn('documents stats not recorded', { error: err as Error });
        throw err;
      }),
    );
    statsCounters.set(deps, add);
  }
  return add({ documents: delta, [`format_${format}`]: delta });
}

/**
 * Plan and quota subject of the keys seen active in this container (keyed by key hash), so that a known key's quota
 * charge runs while its record is read instead of after (one DynamoDB round trip instead of two). The read still
 * decides: a key that changed plan or account is charged again as it is now, a revoked one gets its 401; either
 * way the early charge is given back. Bounded: cleared when full.
 */
const knownKeys = new Map<string, { plan: DocumentsPlan; subject: string }>();
const KNOWN_KEYS_MAX = 10_000;

/** Only for tests: forget the keys seen so far and the subjects refused. */
export function forgetKnownKeys(): void {
  knownKeys.clear();
  refusedUntil.clear();
}

function remember(caller: Caller, plan: DocumentsPlan): void {
  if (caller.kind !== 'key') return;
  if (knownKeys.size >= KNOWN_KEYS_MAX) knownKeys.clear();
  knownKeys.set(caller.key.keyHash, { plan, subject: quotaSubject(caller) });
}

async function giveBack(deps: DocumentsDeps, charge: Promise<QuotaDecision> | undefined): Promise<void> {
  const decision = await charge?.catch(() => undefined);
  if (decision?.allowed)
    await deps.quotas
      .refund(decision)
      .catch((e) => logger.error('quota refund failed', { error: e as Error }));
}

/**
 * Subjects refused (429) in this container, until their window resets (epoch seconds): their next render waits
 * for its charge instead of running beside it, so a caller over its limit costs a conditional write, not a render.
 * Only the order changes (the charge still decides). Bounded: cleared when full.
 */
const refusedUntil = new Map<string, number>();

function noteDecision(subject: string, decision: QuotaDecision): void {
  if (decision.allowed) refusedUntil.delete(subject);
  else {
    if (refusedUntil.size >= KNOWN_KEYS_MAX) refusedUntil.clear();
    refusedUntil.set(subject, decision.binding.resetAt);
  }
}

/**
 * Who is calling, and the quota charge for this render, started but not awaited (the template renders while it
 * is written; the decision is awaited before anything is answered). Refusals come before anything stays charged:
 * 401/402 (key), 403 (async on a plan without it, custom_html on the free plan); the decision may still be a
 * denial (429). `serial`: this subject was refused recently, render only once the charge allowed it.
 */
async function admitCaller(
  deps: DocumentsDeps,
  headers: Record<string, string>,
  clientIp: string,
  request: ValidRenderRequest,
  /**
   * The charge's id (a request with an Idempotency-Key: idempotentId), so the retry of a request that died after
   * charging counts once; its hold (a synchronous render), and its units (a merge: one per part, all or nothing).
   */
  charge: ChargeOptions,
): Promise<{
  caller: Caller;
  plan: DocumentsPlan;
  decision: Promise<QuotaDecision>;
  serial: boolean;
  now: Date;
}> {
  const now = deps.now();
  const token = bearerToken(headers['authorization']);
  const known = typeof token === 'string' ? knownKeys.get(hashKey(token)) : undefined;
  let early = known ? deps.quotas.consume(known.subject, monthlyRules(known.plan), now, charge) : undefined;
  early?.catch(() => undefined); // awaited below; this only keeps a failure from being reported as unhandled
  try {
    const caller = await resolveCaller(headers, clientIp, deps.keys);
    const plan = planOf(caller);
    // Async (Scale): refused before anything is charged.
    if (request.options.async) assertAsyncAllowed(plan);
    if (usesCustomHtml(request) && plan === 'free')
      throw new Forbidden(
        'custom_html (your own templates) is a Pro, Scale or Lifetime feature: send `Authorization: Bearer <key>`, ' +
          'or use a built-in template (GET /templates).',
      );
    remember(caller, plan);
    const subject = quotaSubject(caller);
    const rules = monthlyRules(plan);
    const stale = early && known!.plan === plan && known!.subject === subject ? undefined : early;
    const first =
      stale || !early
        ? giveBack(deps, stale).then(() => deps.quotas.consume(subject, rules, now, charge))
        : early;
    early = undefined; // from here on the decision owns the charge (chargeRest gives all of it back if it fails)
    const decision = first.then((d) => {
      noteDecision(subject, d);
      return d;
    });
    decision.catch(() => undefined); // awaited by the caller; this only keeps it from being reported as unhandled
    const refused = refusedUntil.get(subject);
    return { caller, plan, decision, serial: refused !== undefined && refused > now.getTime() / 1000, now };
  } catch (err) {
    if (err instanceof DomainError && typeof token === 'string') knownKeys.delete(hashKey(token));
    await giveBack(deps, early);
    throw err;
  }
}

/**
 * How long a synchronous render's charge is held at most: twice the route's deadline (no live request answers
 * after it), so a hold older than this belongs to a process that died, and is given back.
 */
const HOLD_S = 2 * route.timeoutS;

/** Thrown when the caller was already answered 503 by the early timeout (ApiRequest.signal): refund, deliver nothing. */
const ABANDONED = new Unavailable(
  'The request took too long and was stopped. Please retry; this attempt was not counted.',
);

/** What an abandoned render's log line says of the error that stopped it (besides the cut itself). */
function abandonedFields(err: unknown): Record<string, unknown> {
  if (err instanceof WorkStopped) {
    const fields: Record<string, unknown> = { rendered: err.done, documents: err.total };
    if (err.cause) fields.partError = String((err.cause as Error).message ?? err.cause);
    return fields;
  }
  return err === ABANDONED ? {} : { error: err as Error };
}

export const makeHandler = (deps: DocumentsDeps) =>
  apiHandler(
    async (req) => {
      // A free caller whose renders were cut at the deadline too often this hour is refused first: before its body
      // is parsed and before any charge, so the refusal costs one read however large the request (parsing and
      // validating a 1.5 MB merge takes seconds on a loaded machine: a refusal after it could itself run past a short
      // deadline and answer 503, the very answer the budget is there to stop).
      const free = bearerToken(req.headers['authorization']) === undefined;
      const cutSubject = quotaSubject({ kind: 'anonymous', subject: ipSubject(req.clientIp) });
      if (free)
        await refuseIfCutTooOften(
          deps.quotas,
          cutSubject,
          deps.config.FREE_CUT_PER_HOUR,
          deps.now(),
          'send smaller documents (fewer rows or parts), or render large ones with options.async (Scale plan)',
        );
      const body = req.body();
      let request = parseRenderRequest(body);
      const chargeId = idempotentId(req);
      const units = documentUnits(request);
      // A render's charge is held until it is delivered: a synchronous render's document, an async one's 202 (a
      // process that dies before either leaves a hold that is given back). An async job's charge always has an id
      // (the request's without an Idempotency-Key): its worker's commit and refund then count once.
      const hold: ChargeHold = {
        id: chargeId ?? req.requestId,
        untilS: Math.ceil(deps.now().getTime() / 1000) + HOLD_S,
      };
      const admitted = await admitCaller(deps, req.headers, req.clientIp, request, {
        ...(chargeId || request.options.async ? { id: hold.id } : {}),
        ...(units > 1 ? { units } : {}),
        hold,
      });
      const { caller, plan, now } = admitted;
      // A key's factura without options.marca prints its account's stored brand (PUT /v1/brand, use-cases/brand.ts):
      // one read, only for such requests, while the charge is written. An async job stores the brand in its body.
      let stored = body;
      if (caller.kind === 'key' && usesAccountBrand(request)) {
        const brand = await deps.brands.get(ownerOf(caller.key)).catch(async (err: unknown) => {
          await giveBack(deps, admitted.decision);
          throw err;
        });
        if (brand) {
          request = withAccountBrand(request, brand.marca);
          stored = bodyWithBrand(body, brand.marca);
        }
      }
      const refuse = (decision: QuotaDecision, headers: Record<string, string>) => {
        recordQuotaRejection('documents', req.event.routeKey);
        return new QuotaExceeded(
          `Monthly limit reached: ${decision.binding.limit} documents per calendar month (UTC) on the ${plan} plan. ` +
            `It resets in ${headers['retry-after']} seconds; a paid plan raises it (GET /pricing).` +
            (documentUnits(request) > 1
              ? ` This request merges ${documentUnits(request)} documents and counts as ${documentUnits(request)}.`
              : ''),
          headers,
        );
      };
      if (request.options.async && caller.kind === 'key') {
        const decision = await admitted.decision;
        const headers = rateLimitHeaders(decision, now);
        if (!decision.allowed) throw refuse(decision, headers);
        // 202 + a job: rendered by the render worker, announced by webhook (use-cases/jobs.ts).
        const accepted = await acceptAsyncRender(deps, {
          body: stored,
          request,
          key: caller.key,
          plan,
          decision,
          now,
          // A retry that takes over the key of a request that died continues that request's job (use-cases/jobs.ts);
          // one whose key's job failed is a new job, charged under an id of its own.
          ...(chargeId
            ? {
                keyed: {
                  chargeId,
                  recharge: (id: string) =>
                    deps.quotas.consume(quotaSubject(caller), monthlyRules(plan), now, {
                      id,
                      force: true,
                      hold: { id, untilS: hold.untilS },
                      ...(units > 1 ? { units } : {}),
                    }),
                },
              }
            : {}),
        });
        // The deadline answered 503 ("not counted, retry") while the job was accepted: it is withdrawn (retired,
        // charge given back), or the retry would render it a second time. A retry with the same Idempotency-Key
        // instead finds and continues this job, so that one stays.
        if (req.signal?.aborted && !chargeId) {
          await withdrawAsyncRender(deps, String(accepted.body.id), accepted.decision);
          throw ABANDONED;
        }
        // Accepted: the held charge is committed before the 202 leaves. A failed commit still answers 202 (the job
        // is queued): its worker commits the charge when it delivers (jobs-render.ts). Its worker may have failed
        // the job and given the charge back already: then nothing is charged (unlessRefunded).
        await deps.quotas
          .commit(accepted.decision, { unlessRefunded: true })
          .catch((e) => logger.error('async render: held charge not committed', { error: e as Error }));
        return json(accepted.statusCode, accepted.body, { ...headers, ...accepted.headers });
      }
      // The document renders while the quota charge is written (a subject refused recently waits for it first).
      // The charge still decides: a denial answers 429 and what was rendered is dropped; a failed charge is the
      // answer too (503), after the render has settled, so nothing runs on after the response.
      const render = async () => {
        if (req.signal?.aborted) throw ABANDONED;
        return timeRender(request.format, async () =>
          renderDocument(request, await deps.renderer(), {
            watermark: plan === 'free',
            ...(req.signal ? { signal: req.signal } : {}), // the deadline's 503 stops the render
          }),
        );
      };
      let rendering: Promise<Awaited<ReturnType<typeof render>>> | undefined;
      // The GET /stats counter write starts with the render too (its increment taken back if nothing is delivered,
      // refusals included); the response waits for the write that carries it.
      let counted: Promise<boolean> | undefined;
      const uncount = () => counted?.then((done) => done && recordRender(deps, request.format, -1));
      if (!admitted.serial) {
        rendering = render();
        rendering.catch(() => undefined); // settled below in every path
        counted = recordRender(deps, request.format);
      }
      let decision: QuotaDecision;
      try {
        decision = await admitted.decision;
      } catch (err) {
        await Promise.all([rendering?.catch(() => undefined), uncount()]);
        throw err;
      }
      const headers = rateLimitHeaders(decision, now);
      if (!decision.allowed) {
        await Promise.all([rendering?.catch(() => undefined), uncount()]);
        throw refuse(decision, headers);
      }
      let timed;
      let location: string | undefined;
      let committed = false;
      counted ??= recordRender(deps, request.format);
      try {
        timed = await (rendering ?? render());
        const { doc } = timed;
        // Too large for a Lambda response: stored, and answered 303 See Other to it (clients follow with a GET).
        if (doc.bytes.length > deps.config.DOCUMENTS_INLINE_MAX_BYTES)
          location = await deps.results.publish(doc.bytes, doc.contentType, doc.filename, 3600);
        // The route's deadline already answered 503 (retry): this document is not delivered, so not counted.
        if (req.signal?.aborted) throw ABANDONED;
        // Delivered: the held charge is committed before the answer leaves. This line comes first, so that a crash
        // between the two leaves both it and the hold's give-back line (the crash test pairs them by hold id).
        logger.info('render delivered: its held charge is committed', {
          hold: hold?.id,
          subject: quotaSubject(caller),
        });
        await deps.quotas.commit(decision);
        committed = true;
        await counted;
        // The deadline may have answered 503 while the charge was committed: then the document was not delivered
        // after all. Nothing is awaited from this check to the answer, so no 503 can come in between.
        if (req.signal?.aborted) throw ABANDONED;
      } catch (err) {
        // Nothing was delivered (render fault, storing the large result failed, or abandoned): it does not count.
        // A committed charge has no hold left: it is given back by its charge id (or as a plain unit).
        const { hold: _held, ...unheld } = decision;
        await Promise.all([
          deps.quotas
            .refund(committed ? unheld : decision)
            .catch((e) => logger.error('quota refund failed', { error: e as Error })),
          uncount(),
        ]);
        if (req.signal?.aborted) {
          // Cut at the deadline: not charged, but counted against a free caller's budget of such requests.
          if (free) await countCut(deps.quotas, cutSubject, deps.config.FREE_CUT_PER_HOUR, now);
          logger.warn('render abandoned after the early-timeout answer; charge given back', {
            format: request.format,
            // How far it got before it stopped (documents rendered / in the request), and what ended it besides the
            // cut: a part that failed after it, or a fault (the log says which).
            ...abandonedFields(err),
            // Cut while its charge was committed (its "render delivered" line was written): given back all the same.
            ...(committed ? { hold: hold?.id, committed } : {}),
          });
          throw ABANDONED;
        }
        throw err;
      }
      timed.delivered(); // DocumentsRendered counts what is answered, like GET /stats
      const { doc } = timed;
      // An XML input whose figures do not add up (SAT's rules): said here and on the PDF, never corrected.
      const exposed: string[] = [];
      if (doc.warnings?.length) {
        headers['x-cfdi-avisos'] = doc.warnings.join('; ');
        exposed.push('x-cfdi-avisos');
      }
      // A complement we do not know is printed as a generic section, never dropped; this header names it.
      if (doc.unknownComplements?.length) {
        headers['x-cfdi-complementos-no-reconocidos'] = doc.unknownComplements.join('; ').slice(0, 1500);
        exposed.push('x-cfdi-complementos-no-reconocidos');
      }
      // Readable by browser callers too (the playground, customers' web apps).
      if (exposed.length)
        headers['access-control-expose-headers'] =
          `${CORS_HEADERS['access-control-expose-headers']}, ${exposed.join(', ')}`;
      if (location)
        return { statusCode: 303, headers: { ...headers, location, 'cache-control': 'no-store' }, body: '' };
      return {
        statusCode: 200,
        headers: {
          ...headers,
          'content-type': doc.contentType,
          'content-disposition': `attachment; filename="${doc.filename}"`,
          'cache-control': 'no-store',
        },
        body: doc.bytes.toString('base64'),
        isBase64Encoded: true,
      };
    },
    {
      maxBodyBytes: route.maxBodyBytes,
      invalidStatus: documentsManifest.invalidRequestStatus,
      timeoutDetail:
        'The document took too long to render and was stopped. Please retry; large documents can be rendered in the background with options.async (Scale plan).',
      ...idempotency(route, deps),
    },
  );

export const handler = makeHandler(awsDeps());
