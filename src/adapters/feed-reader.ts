import type { FeedReader } from '../app/ports.js';

/** GETs a feed with a 10 s deadline; anything but a 2xx is a failure. */
export const httpFeedReader: FeedReader = async (url) => {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000), redirect: 'follow' });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.text();
};
