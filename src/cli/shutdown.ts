import type { Logger } from 'pino';

/**
 * On SIGTERM or SIGINT: run `close` once (stop accepting, finish or hand back in-flight work), then
 * exit 0. Shutdown has a deadline: if `close` has not finished within `timeoutMs` (a stalled client, an
 * operator call that hangs), the process exits 1 anyway. Nothing is lost by that: every change of money
 * or state is committed or not, and an order still at the operator is taken over once its lease runs
 * out, by a worker that asks the operator first.
 */
export function onShutdown(log: Logger, close: () => Promise<void>, timeoutMs: number): void {
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal, deadlineMs: timeoutMs }, 'shutting down');
    const deadline = setTimeout(() => {
      log.warn({ deadlineMs: timeoutMs }, 'shutdown deadline passed with work still open; exiting');
      process.exit(1);
    }, timeoutMs);
    deadline.unref();
    close().then(
      () => {
        log.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
