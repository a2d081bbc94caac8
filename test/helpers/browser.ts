// The browser helpers live in lib/local/browser.ts (scripts/screenshots.ts uses them too, and production-side
// code may not import test/); re-exported here for the tests.
export { launchChromium, loopbackPage } from '../../lib/local/browser';
