import type { Clock } from '../app/ports.js';

export const systemClock: Clock = Object.freeze({ now: () => Date.now() });
