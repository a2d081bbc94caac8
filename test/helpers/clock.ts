// A clock the test moves, for the leased-job stores (lambdas/shared/jobs own their clock): a test advances it past a
// lease instead of waiting for a real lease to run out at the right moment.
import { awsDeps, type NarrationDeps } from '../../lambdas/narration/deps';
import { config, required } from '../../lambdas/narration/config';
import { DynamoAudioRepository } from '../../lambdas/narration/adapters/audio-repository';
import { dynamo } from '../../lambdas/shared/aws/clients';

export interface TestClock {
  now(): Date;
  /** Moves the clock forward by `ms` (it keeps running with real time from there). */
  advance(ms: number): void;
}

export function testClock(): TestClock {
  let offsetMs = 0;
  return {
    now: () => new Date(Date.now() + offsetMs),
    advance: (ms) => {
      offsetMs += ms;
    },
  };
}

/** Narration's awsDeps() whose job store (claims and leases) and now() read `clock`, plus `overrides`. */
export function narrationDepsOn(clock: TestClock, overrides: Partial<NarrationDeps> = {}): NarrationDeps {
  const deps = Object.create(awsDeps(), {
    audio: {
      get: () =>
        new DynamoAudioRepository(dynamo(), required('AUDIO_TABLE'), clock.now, config().JOB_LEASE_S),
    },
    now: { value: clock.now },
  }) as NarrationDeps;
  return Object.assign(deps, overrides);
}
