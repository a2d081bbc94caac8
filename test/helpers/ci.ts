/** Set by CI (`.ci/run` sets CI=1): there a missing engine or checker fails its tests instead of skipping them. */
export const IN_CI = !!process.env.CI && !/^(0|false)$/i.test(process.env.CI);
