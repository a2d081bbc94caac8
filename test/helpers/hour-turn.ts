// Reproduces a turn of the UTC hour between two chosen requests of a test, for the tests whose charges must hold
// across it (quota-window.ts). Not part of any run: a jest setup file for one test file, under libfaketime reading
// its offset from a file that this rewrites. Only this process (the runtime's handlers, emulators and worker run in
// it) takes the jumping clock: the child processes it starts keep real time (Chromium stalls on a jump).
//
//   f=$(mktemp) && echo +0 > $f && LD_PRELOAD=/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1 \
//     FAKETIME_TIMESTAMP_FILE=$f FAKETIME_NO_CACHE=1 FAKETIME_DONT_FAKE_MONOTONIC=1 TURN_BEFORE=3 TURN_PATH=/ab/event \
//     npx jest test/e2e/ab.test.ts -t 'rate limit' --setupFilesAfterEnv ./test/helpers/hour-turn.ts
//
// At load the clock is set TURN_LEAD_S (60) seconds before a turn of the UTC hour (or of TURN_PERIOD: day, month).
// It jumps to the turn itself just before the TURN_BEFORE-th request (1-based) sent with fetch() whose URL path
// matches TURN_PATH (a regular expression) in the test whose name contains TURN_TEST (any test if unset), or right
// after the answer to the TURN_AFTER-th (with TURN_TEST alone: as that test starts): the requests before are
// counted in one window, the later ones in the next.
// Timers keep real time (the monotonic clock is not faked).
import { writeFileSync } from 'node:fs';
import { windowBounds, type Period } from '../../lambdas/shared/quota/windows';

const file = process.env.FAKETIME_TIMESTAMP_FILE;
const before = Number(process.env.TURN_BEFORE ?? 0);
const after = Number(process.env.TURN_AFTER ?? 0);
const testName = process.env.TURN_TEST;
if (!file || !process.env.LD_PRELOAD?.includes('faketime') || !(before >= 1 || after >= 1 || testName))
  throw new Error(
    'hour-turn.ts: run under libfaketime with FAKETIME_TIMESTAMP_FILE, and TURN_BEFORE or TURN_AFTER=<n ≥ 1> or TURN_TEST',
  );
delete process.env.LD_PRELOAD;
const path = new RegExp(process.env.TURN_PATH ?? '.');
const period = (process.env.TURN_PERIOD ?? 'hour') as Period;

/** The fake clock's offset from the real one, in ms (what the file says). */
let offsetMs = 0;
const setClock = (fakeMs: number) => {
  offsetMs += fakeMs - Date.now();
  writeFileSync(file, `${offsetMs >= 0 ? '+' : ''}${(offsetMs / 1000).toFixed(3)}\n`);
};

/** A turn of the period (UTC) a while ahead: the clock jumps forward to it, never back. */
const turn = windowBounds(period, new Date(Date.now() + 64 * 86_400_000)).start.getTime();
setClock(turn - Number(process.env.TURN_LEAD_S ?? 60) * 1000);

let seen = 0;
const realFetch = globalThis.fetch;
globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const inTest = !testName || (expect.getState().currentTestName ?? '').includes(testName);
  const nth = inTest && path.test(new URL(url).pathname) ? ++seen : 0;
  if (nth && nth === before) jump();
  const res = await realFetch(input, init);
  if (nth && nth === after) jump();
  return res;
};

// TURN_TEST alone: the turn comes as that test starts (what the tests before it did, in the window before).
if (testName && !before && !after)
  beforeEach(() => {
    if ((expect.getState().currentTestName ?? '').includes(testName)) jump();
  });

function jump() {
  if (Date.now() >= turn)
    throw new Error('hour-turn.ts: the hour turned before the request: raise TURN_LEAD_S');
  setClock(turn);
}
