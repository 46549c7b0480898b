import { EventEmitter } from 'node:events';

/**
 * Wakes idle workers in this process the moment work is written, instead of waiting for their next
 * poll. (Across processes on PostgreSQL the same signal travels by LISTEN/NOTIFY.)
 */
export class WorkSignal {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  notify(topic: 'orders' | 'events'): void {
    this.emitter.emit(topic);
  }

  /** Resolves on the next signal or after `ms`, whichever comes first. */
  wait(topic: 'orders' | 'events', ms: number, abort?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.emitter.off(topic, done);
        abort?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.emitter.once(topic, done);
      abort?.addEventListener('abort', done, { once: true });
    });
  }
}
