import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's Chromium, headless, with the flags this closed network needs: without the background
 * networking ones it keeps trying to reach Google's hosts and stalls.
 */
export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
