// Launch Debian's Chromium through playwright-core with the flags this
// machine needs (no sandbox as root, no background networking).
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The variable `npm test` sets to the endpoint of the one Chromium its test files share. */
export const SHARED_ENV = 'NORMLAB_CHROMIUM_WS';

const flags = (extraArgs) => [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  ...extraArgs,
];

export function launch({ extraArgs = [], ...options } = {}) {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: flags(extraArgs), ...options });
}

/**
 * A Chromium that test processes connect to (one per `npm test` instead of one
 * per test file: a launch costs a few seconds on a loaded machine). Its
 * wsEndpoint() goes to the test files in SHARED_ENV.
 */
export function launchServer({ extraArgs = [], ...options } = {}) {
  return chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: flags(extraArgs), ...options });
}

/**
 * A browser for one test file: the shared Chromium when SHARED_ENV names one
 * and the file asks for no flags of its own, else a Chromium of its own (so a
 * file still runs alone). close() on a shared one closes only this file's
 * contexts and disconnects.
 */
export function browserFor(options = {}) {
  const endpoint = process.env[SHARED_ENV];
  const own = (options.extraArgs ?? []).length > 0 || Object.keys(options).some((k) => k !== 'extraArgs');
  return endpoint && !own ? chromium.connect(endpoint) : launch(options);
}
