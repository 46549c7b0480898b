import { destination, pino, stdTimeFunctions, type DestinationStream, type Logger } from 'pino';

/**
 * JSON logs on stderr, so stdout stays clean for `--json` command output: one object a line, with an
 * ISO 8601 `time` and the level by name (`"level":"warn"`), as log shippers and people read them.
 */
export function createLogger(level: string, stream: DestinationStream = destination(2)): Logger {
  return pino(
    {
      level,
      base: { service: 'topup' },
      timestamp: stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    stream,
  );
}
