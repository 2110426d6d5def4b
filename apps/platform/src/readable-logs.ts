import { REQUEST_LINE_FIELDS } from '@platform/kit';
import pretty from 'pino-pretty';

/**
 * `npm start`'s log: a short line per event, e.g. `12:00:01.234 INFO (accounting): GET
 * /v1/accounts 200 3.2ms`. The request line's message already says its fields, so they are left
 * out; anything else a line carries stays on that line. Writes are synchronous, so log lines and
 * the banner come out in the order they were written. A service started alone logs JSON.
 */
export const readableLogs = () =>
  pretty({
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: ['pid', 'hostname', 'reqId', ...REQUEST_LINE_FIELDS].join(','),
    singleLine: true,
    sync: true,
  });
