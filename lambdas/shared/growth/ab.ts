// A/B experiment events and results over the GrowthStore. Every count is exact under concurrency: an event is
// first recorded as a dedupe marker (conditional put), and only the call that created the marker adds to the
// variant's counters (atomic ADD). Keys in the `growth` table:
//   ab#<experiment>#variant#<variant>      counters: exposures, conversions, conv_event, conv_waitlist, conv_checkout
//   ab#<experiment>#exposed#<visitor hash> marker: this visitor's exposure was counted (refreshes don't count)
//   ab#<experiment>#converted#<key>        marker: this visitor's (or email's / checkout's) conversion was counted
// A conversion by a known visitor also counts their exposure if it was never recorded (an ad blocker may have
// eaten it), so such conversions are always a subset of exposures.
import { createHash } from 'node:crypto';
import { logger } from '../logger';
import { assignVariant, parseAbRef, type Experiment, type Experiments } from './experiments';
import type { GrowthStore } from './ports';
import { Z_TEST_METHOD, twoProportionZTest } from './statistics';

export type Channel = 'event' | 'waitlist' | 'checkout';
export const CHANNELS: readonly Channel[] = ['event', 'waitlist', 'checkout'];

/** Dedupe markers outlive any sensible experiment, then DynamoDB TTL removes them. */
export const MARKER_TTL_DAYS = 400;

export const variantKey = (experiment: string, variant: string) => `ab#${experiment}#variant#${variant}`;
const exposureKey = (experiment: string, visitor: string) => `ab#${experiment}#exposed#${digest(visitor)}`;
const conversionKey = (experiment: string, key: string) => `ab#${experiment}#converted#${digest(key)}`;

/** Markers store hashes: visitor ids and emails never appear in A/B keys. */
function digest(s: string): string {
  return createHash('sha256').update(s, 'utf8').digest('hex').slice(0, 32);
}

function marker(variant: string, now: Date, extra: Record<string, unknown> = {}) {
  return {
    variant,
    at: now.toISOString(),
    expiresAt: Math.floor(now.getTime() / 1000) + MARKER_TTL_DAYS * 86400,
    ...extra,
  };
}

/** Counts a visitor's exposure once per experiment; true when this call counted it. */
export async function recordExposure(
  store: GrowthStore,
  experiment: Experiment,
  variant: string,
  visitor: string,
  now: Date,
): Promise<boolean> {
  const created = await store.putIfAbsent(exposureKey(experiment.name, visitor), marker(variant, now));
  if (created) await store.add(variantKey(experiment.name, variant), { exposures: 1 });
  return created;
}

export interface ConversionIdentity {
  /** The visitor: dedupes across channels and also counts a missing exposure. */
  visitor?: string;
  /** Without a visitor: what makes this conversion unique in its channel (an email, a checkout session id). */
  dedupeKey?: string;
}

/** Counts a conversion once per visitor (or per channel + dedupe key); true when this call counted it. */
export async function recordAbConversion(
  store: GrowthStore,
  experiment: Experiment,
  variant: string,
  channel: Channel,
  who: ConversionIdentity,
  now: Date,
): Promise<boolean> {
  const key = who.visitor
    ? `visitor:${who.visitor}`
    : who.dedupeKey
      ? `${channel}:${who.dedupeKey}`
      : undefined;
  const exposed = who.visitor
    ? await store.putIfAbsent(exposureKey(experiment.name, who.visitor), marker(variant, now))
    : false;
  const converted = key
    ? await store.putIfAbsent(conversionKey(experiment.name, key), marker(variant, now, { channel }))
    : true;
  const deltas: Record<string, number> = {};
  if (exposed) deltas.exposures = 1;
  if (converted) {
    deltas.conversions = 1;
    deltas[`conv_${channel}`] = 1;
  }
  if (exposed || converted) await store.add(variantKey(experiment.name, variant), deltas);
  return converted;
}

export type AttributionResult =
  | { counted: true; experiment: string; variant: string }
  | {
      counted: false;
      reason:
        | 'no_ab_ref'
        | 'unknown_experiment'
        | 'unknown_variant'
        | 'variant_mismatch'
        | 'duplicate'
        | 'store_error';
      experiment?: string;
      variant?: string;
    };

export interface AttributionOptions {
  /** Where the conversion happened. @default 'checkout' */
  channel?: Channel;
  /** Makes a conversion without a visitor id count once (checkout: the session id; waitlist: the email). */
  dedupeKey?: string;
  /** The configured experiments (AB_EXPERIMENTS). */
  experiments: Experiments;
  now?: Date;
}

/**
 * Attribution entry point for billing (checkout `ref`) and the waitlist (`source`): counts a conversion when
 * `ref` is `ab:<experiment>:<variant>[:<visitor>]` naming a configured experiment and variant (and, with a
 * visitor, the variant that visitor is assigned). Anything else is ignored. Never throws: attribution must not
 * fail a payment or a sign-up; a storage failure is logged and reported as `store_error`.
 */
export async function recordConversion(
  store: GrowthStore,
  ref: string | null | undefined,
  options: AttributionOptions,
): Promise<AttributionResult> {
  const parsed = parseAbRef(ref);
  if (!parsed) return { counted: false, reason: 'no_ab_ref' };
  const { experiment: name, variant, visitor } = parsed;
  try {
    const experiment = options.experiments.get(name);
    if (!experiment) return { counted: false, reason: 'unknown_experiment', experiment: name, variant };
    if (!experiment.variants.some((v) => v.name === variant))
      return { counted: false, reason: 'unknown_variant', experiment: name, variant };
    if (visitor && assignVariant(experiment, visitor) !== variant)
      return { counted: false, reason: 'variant_mismatch', experiment: name, variant };
    const counted = await recordAbConversion(
      store,
      experiment,
      variant,
      options.channel ?? 'checkout',
      { visitor, dedupeKey: options.dedupeKey },
      options.now ?? new Date(),
    );
    return counted
      ? { counted: true, experiment: name, variant }
      : { counted: false, reason: 'duplicate', experiment: name, variant };
  } catch (err) {
    logger.error('A/B conversion could not be recorded', { error: err as Error, experiment: name, variant });
    return { counted: false, reason: 'store_error', experiment: name, variant };
  }
}

export interface VariantResult {
  variant: string;
  weight: number;
  exposures: number;
  conversions: number;
  conversions_by_channel: Record<Channel, number>;
  /** conversions / exposures; null without exposures. */
  rate: number | null;
  /** (rate − control rate) / control rate; null for the control and when the control rate is 0 or unknown. */
  uplift: number | null;
  z: number | null;
  p_value: number | null;
  /** p_value < alpha; null for the control and when no test is possible. */
  significant: boolean | null;
}

export interface ExperimentResults {
  experiment: string;
  control: string;
  method: string;
  alpha: number;
  variants: VariantResult[];
  /** Why some figures are null, in words. */
  notes: string[];
  generated_at: string;
}

const num = (v: unknown) => (typeof v === 'number' ? v : Number(v ?? 0) || 0);

/** Per-variant counts from the counters (one consistent batch read, no scans) and the test against control. */
export async function experimentResults(
  store: GrowthStore,
  experiment: Experiment,
  now: Date,
  alpha = 0.05,
): Promise<ExperimentResults> {
  const items = await store.getMany(experiment.variants.map((v) => variantKey(experiment.name, v.name)));
  const counts = experiment.variants.map((v) => {
    const item = items.get(variantKey(experiment.name, v.name)) ?? {};
    const byChannel = Object.fromEntries(CHANNELS.map((c) => [c, num(item[`conv_${c}`])])) as Record<
      Channel,
      number
    >;
    return { v, exposures: num(item.exposures), conversions: num(item.conversions), byChannel };
  });
  const notes: string[] = [];
  const control = counts.find((c) => c.v.name === experiment.control)!;
  const controlRate = control.exposures > 0 ? control.conversions / control.exposures : null;
  if (controlRate === null) notes.push('The control has no exposures yet: no uplift or test is possible.');
  else if (controlRate === 0) notes.push('The control has no conversions yet: uplift is undefined.');
  const variants = counts.map(({ v, exposures, conversions, byChannel }): VariantResult => {
    const rate = exposures > 0 ? conversions / exposures : null;
    const isControl = v.name === experiment.control;
    const test = isControl
      ? undefined
      : twoProportionZTest(control.conversions, control.exposures, conversions, exposures);
    if (conversions > exposures)
      notes.push(
        `Variant '${v.name}' has more conversions than exposures (conversions attributed without a visitor ` +
          'id, e.g. a checkout ref without one): no test involving it is possible.',
      );
    return {
      variant: v.name,
      weight: v.weight,
      exposures,
      conversions,
      conversions_by_channel: byChannel,
      rate,
      uplift: !isControl && rate !== null && controlRate ? (rate - controlRate) / controlRate : null,
      z: test ? test.z : null,
      p_value: test ? test.pValue : null,
      significant: test ? test.pValue < alpha : null,
    };
  });
  return {
    experiment: experiment.name,
    control: experiment.control,
    method: Z_TEST_METHOD,
    alpha,
    variants,
    notes,
    generated_at: now.toISOString(),
  };
}
