import { AppError } from './errors.js';

export const MAX_PASSTHROUGH_BYTES = 4096;
export const MAX_PASSTHROUGH_DEPTH = 8;

const utf8 = new TextEncoder();

/** Depth of nested objects and arrays, measured without recursion (a hostile body may nest 50,000 deep). */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_PASSTHROUGH_DEPTH) return deepest;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * The caller's passthrough object as the JSON text stored with every order, or null without one. At
 * most 4 KiB and 8 levels deep: it is copied into every order and every webhook of the request.
 */
export function passthroughText(passthrough: Record<string, unknown> | undefined): string | null {
  if (passthrough === undefined) return null;
  if (depthOf(passthrough) > MAX_PASSTHROUGH_DEPTH) {
    throw new AppError('validation_failed', `passthrough may nest at most ${MAX_PASSTHROUGH_DEPTH} levels deep.`, [
      { field: 'passthrough', code: 'too_deep', message: `passthrough may nest at most ${MAX_PASSTHROUGH_DEPTH} levels deep` },
    ]);
  }
  const text = JSON.stringify(passthrough);
  if (utf8.encode(text).length > MAX_PASSTHROUGH_BYTES) {
    throw new AppError('validation_failed', 'passthrough must be at most 4 KiB of JSON.', [
      { field: 'passthrough', code: 'too_large', message: 'passthrough must be at most 4 KiB of JSON' },
    ]);
  }
  return text;
}
