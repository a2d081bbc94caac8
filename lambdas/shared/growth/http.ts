// Request pieces shared by the A/B routes: the experiment and visitor fields (validated with the contract's 422
// shape) and the 404 for an experiment that is not configured.
import { z } from 'zod';
import { NotFound } from '../errors';
import {
  EXPERIMENT_PATTERN,
  VARIANT_PATTERN,
  VISITOR_PATTERN,
  type Experiment,
  type Experiments,
} from './experiments';

/** A string that must match `pattern`, reported as pydantic does: string_pattern_mismatch naming the pattern. */
export function patterned(pattern: string) {
  const re = new RegExp(pattern);
  return z
    .string()
    .superRefine((s, ctx) => {
      if (!re.test(s))
        ctx.addIssue({
          code: 'invalid_format',
          format: 'regex',
          pattern,
          input: s,
          message: '',
        } as Parameters<typeof ctx.addIssue>[0]);
    })
    .meta({ pattern });
}

export const experimentField = patterned(EXPERIMENT_PATTERN);
export const variantField = patterned(VARIANT_PATTERN);
export const visitorField = patterned(VISITOR_PATTERN);

export function findExperiment(experiments: Experiments, name: string): Experiment {
  const experiment = experiments.get(name);
  if (experiment) return experiment;
  const running = [...experiments.keys()];
  throw new NotFound(
    `Unknown experiment '${name}'. ` +
      (running.length
        ? `Configured experiments: ${running.join(', ')}.`
        : 'No experiments are configured (AB_EXPERIMENTS is empty).'),
  );
}
