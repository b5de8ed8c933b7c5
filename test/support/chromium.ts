// Headless Chromium for the browser tests (Debian's, driven by playwright-core). CI installs it
// and sets REQUIRE_CHROMIUM, so a missing browser fails there; a developer machine without it
// skips those tests with the reason.
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** A describe's `skip`: false where Chromium is (or must be) there, else the reason. */
export const chromiumSkip: string | false =
  !existsSync(CHROMIUM) && !process.env.REQUIRE_CHROMIUM
    ? `needs Chromium at ${CHROMIUM} (apt-get install chromium; CI installs it)`
    : false;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}
