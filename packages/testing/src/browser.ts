/**
 * Debian's Chromium driven by playwright-core, for the browser tests of the API (/docs) and the
 * console: one executable path and one set of flags. Never a downloaded browser; a missing
 * Chromium fails the test (scripts/ensure-chromium.sh installs it), it never skips.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install it with \`apt-get install -y chromium\` (scripts/ensure-chromium.sh does)`);
  }
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
