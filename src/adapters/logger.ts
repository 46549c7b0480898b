import { destination, pino, type Logger } from 'pino';

/** JSON logs on stderr, so stdout stays clean for `--json` command output. */
export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'topup' } }, destination(2));
}
