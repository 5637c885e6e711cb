import { existsSync } from 'node:fs';
import { type Browser, chromium, type LaunchOptions } from 'playwright-core';

/**
 * Debian's Chromium driven by playwright-core (no downloaded browsers), for
 * the browser tests and the bench: its headless shell (`apt-get install -y
 * chromium-headless-shell`, the same engine without the browser around it,
 * as Playwright's own headless runs use) where installed, else the full
 * `chromium`; CHROMIUM_PATH overrides both. The browser suite took 369 s
 * (362 s of CPU) with the shell against 619 s (554 s) with the full browser
 * on the 2-core CI machine, every test passing on both.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const CHROMIUM_EXECUTABLE =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

/** No sandbox (containers run as root); nothing that phones home or needs a GPU. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-background-networking', '--disable-gpu', '--no-first-run'];

export async function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM_EXECUTABLE)) {
    throw new Error(
      `No Chromium at ${CHROMIUM_EXECUTABLE}: apt-get install -y chromium-headless-shell (or chromium), or set CHROMIUM_PATH`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_EXECUTABLE,
    headless: true,
    ...options,
    args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
  });
}
