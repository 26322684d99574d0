/**
 * The product's loggers (docs/decisions/050-configuration.md "LOG_FORMAT"): JSON lines for machines — pino's own
 * format on a synchronous stream (log-destination.ts) — or, where a person reads them, one human line per event
 * through pino-pretty (`singleLine`: an access line stays one line per request). LOG_FORMAT=json or pretty decides;
 * unset, standard output being a terminal does. Redaction happens before either format (the request serializer of
 * log-redact.ts, the access line's redacted URL), so neither shows a token, code or signed URL.
 */
import type { Writable } from 'node:stream';
import { pino, type DestinationStream, type Logger } from 'pino';
import { PinoPretty } from 'pino-pretty';
import type { LogFormat, LogLevel } from './config-shared.ts';
import { logDestination } from './log-destination.ts';

/** LOG_FORMAT, or — unset — `pretty` when `stdout` is a terminal, else `json`. */
export function resolveLogFormat(
  configured: LogFormat | undefined,
  stdout: { isTTY?: boolean } = process.stdout,
): LogFormat {
  return configured ?? (stdout.isTTY ? 'pretty' : 'json');
}

/**
 * Where log lines go in `format`: standard output (file descriptor 1, synchronous writes) or `destination` (tests).
 * Pretty lines: `[HH:MM:ss.l] LEVEL: [part] message {fields}`, coloured on a terminal.
 */
export function logStream(format: LogFormat, destination?: Writable): DestinationStream {
  if (format === 'json') return destination ?? logDestination();
  return PinoPretty({
    destination: destination ?? 1,
    sync: true,
    singleLine: true,
    colorize: !destination && process.stdout.isTTY === true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,part',
    messageFormat: '{if part}[{part}] {end}{msg}',
  });
}

/** A root logger at `level` writing `format` (resolved: see {@link resolveLogFormat}) to standard output. */
export function createLogger(
  opts: { level: LogLevel | string; format: LogFormat | undefined; name?: string },
  destination?: Writable,
): Logger {
  const format = resolveLogFormat(opts.format);
  return pino(
    { level: opts.level, ...(opts.name ? { name: opts.name } : {}) },
    logStream(format, destination),
  );
}
