// A/B experiments: their definitions (config AB_EXPERIMENTS), deterministic variant assignment, and the
// attribution reference `ab:<experiment>:<variant>[:<visitor>]` carried by a waitlist `source` or a checkout `ref`.
// Pure: no I/O, so the stack's config check, the handlers and billing share one definition.
import { createHash } from 'node:crypto';
import { z } from 'zod';

export const EXPERIMENT_PATTERN = '^[a-z][a-z0-9-]{0,31}$';
export const VARIANT_PATTERN = '^[a-z][a-z0-9-]{0,15}$';
/** Visitor ids are made by the client (random, kept in localStorage) or minted by GET /ab/assign. */
export const VISITOR_PATTERN = '^[A-Za-z0-9_-]{8,64}$';

export interface Variant {
  name: string;
  weight: number;
}

export interface Experiment {
  name: string;
  /** The variant others are compared against. */
  control: string;
  /** In configuration order. */
  variants: Variant[];
  totalWeight: number;
}

export type Experiments = ReadonlyMap<string, Experiment>;

const Definitions = z.record(
  z.string(),
  z
    .object({
      variants: z.record(z.string(), z.number().int().min(1).max(1_000_000)),
      control: z.string().optional(),
    })
    .strict(),
);

/**
 * Parses AB_EXPERIMENTS, a JSON object: `{"<experiment>": {"variants": {"<variant>": <weight>, ...},
 * "control": "<variant>"}}`. Weights are positive integers (relative shares); `control` defaults to the first
 * variant listed. Throws an Error that says what to fix.
 */
export function parseExperiments(json: string): Experiments {
  const out = new Map<string, Experiment>();
  if (json.trim() === '') return out;
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new Error(
      'AB_EXPERIMENTS is not valid JSON; expected {"<experiment>": {"variants": {"<variant>": <weight>}}}',
    );
  }
  const parsed = Definitions.safeParse(raw);
  if (!parsed.success)
    throw new Error(
      'AB_EXPERIMENTS: ' +
        parsed.error.issues
          .map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`)
          .join('; '),
    );
  for (const [name, def] of Object.entries(parsed.data)) {
    if (!new RegExp(EXPERIMENT_PATTERN).test(name))
      throw new Error(
        `AB_EXPERIMENTS: experiment names must match ${EXPERIMENT_PATTERN}; '${name}' does not`,
      );
    for (const v of Object.keys(def.variants))
      if (!new RegExp(VARIANT_PATTERN).test(v))
        throw new Error(
          `AB_EXPERIMENTS: variant names must match ${VARIANT_PATTERN}; '${name}.${v}' does not`,
        );
    const variants = Object.entries(def.variants).map(([v, weight]) => ({ name: v, weight }));
    if (variants.length < 2)
      throw new Error(`AB_EXPERIMENTS: experiment '${name}' needs at least 2 variants`);
    const control = def.control ?? variants[0]!.name;
    if (!variants.some((v) => v.name === control))
      throw new Error(
        `AB_EXPERIMENTS: control '${control}' of experiment '${name}' is not one of its variants`,
      );
    out.set(name, { name, control, variants, totalWeight: variants.reduce((s, v) => s + v.weight, 0) });
  }
  return out;
}

/**
 * The visitor's variant: the first 48 bits of SHA-256("<experiment>:<visitor>") as a fraction u in [0, 1),
 * then the variant whose cumulative weight share contains u. Same inputs, same variant, on any machine; a
 * visitor's variants in different experiments are independent. Changing weights moves some visitors.
 */
export function assignVariant(experiment: Experiment, visitor: string): string {
  const digest = createHash('sha256').update(`${experiment.name}:${visitor}`, 'utf8').digest();
  const u = digest.readUIntBE(0, 6) / 2 ** 48;
  let point = u * experiment.totalWeight;
  for (const v of experiment.variants) {
    if (point < v.weight) return v.name;
    point -= v.weight;
  }
  return experiment.variants[experiment.variants.length - 1]!.name;
}

export interface AbRef {
  experiment: string;
  variant: string;
  visitor?: string;
}

const REF = new RegExp(
  `^ab:(${EXPERIMENT_PATTERN.slice(1, -1)}):(${VARIANT_PATTERN.slice(1, -1)})(?::(${VISITOR_PATTERN.slice(1, -1)}))?$`,
);

/** `ab:<experiment>:<variant>[:<visitor>]` (at most 3 + 32 + 1 + 16 + 1 + 64 = 117 characters) or undefined. */
export function parseAbRef(ref: string | null | undefined): AbRef | undefined {
  if (!ref) return undefined;
  const m = REF.exec(ref.trim());
  if (!m) return undefined;
  return { experiment: m[1]!, variant: m[2]!, ...(m[3] ? { visitor: m[3] } : {}) };
}

export function formatAbRef(ref: AbRef): string {
  return `ab:${ref.experiment}:${ref.variant}${ref.visitor ? `:${ref.visitor}` : ''}`;
}
