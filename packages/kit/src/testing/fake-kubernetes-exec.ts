import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * The exec subresource of the fake Kubernetes API server: an RFC 6455 WebSocket speaking
 * `v4.channel.k8s.io` (every binary message starts with its channel: 0 stdin, 1 stdout, 2 stderr,
 * 3 the closing Status as JSON, 4 terminal resizes), and a small shell behind it so a client sees
 * what a container would answer. Written against the RFC rather than a WebSocket package so the
 * kit needs no dependency for a test fake.
 */

export const EXEC_PROTOCOL = 'v4.channel.k8s.io';
const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

export const CHANNEL = { stdin: 0, stdout: 1, stderr: 2, status: 3, resize: 4 } as const;

export interface FakeExecSession {
  namespace: string;
  pod: string;
  container: string;
  command: string[];
  tty: boolean;
  protocol: string;
  /** Everything the client wrote to stdin, as text. */
  stdin: string;
  /** Terminal sizes the client sent on channel 4. */
  resizes: { Width: number; Height: number }[];
  /** The exit code the session ended with; undefined while open or when the client hung up first. */
  exitCode?: number;
  closed: boolean;
}

/** Answers the WebSocket handshake; false (nothing written) when the request is not one. */
export function acceptWebSocket(req: IncomingMessage, socket: Duplex, protocol: string): boolean {
  const key = req.headers['sec-websocket-key'];
  if (typeof key !== 'string' || (req.headers.upgrade ?? '').toLowerCase() !== 'websocket') return false;
  const accept = createHash('sha1')
    .update(key + GUID)
    .digest('base64');
  socket.write(
    [
      'HTTP/1.1 101 Switching Protocols',
      'Upgrade: websocket',
      'Connection: Upgrade',
      `Sec-WebSocket-Accept: ${accept}`,
      `Sec-WebSocket-Protocol: ${protocol}`,
      '',
      '',
    ].join('\r\n'),
  );
  return true;
}

/** The protocols a client offered (Sec-WebSocket-Protocol). */
export function offeredProtocols(req: IncomingMessage): string[] {
  return String(req.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/** A server-side WebSocket over an upgraded socket: unmasked frames out, masked frames in. */
export class ServerWebSocket {
  private buffer = Buffer.alloc(0);
  private fragments: Buffer[] = [];
  private fragmentOpcode = 0;
  private closed = false;

  constructor(
    private readonly socket: Duplex,
    private readonly onMessage: (data: Buffer, binary: boolean) => void,
    private readonly onClose: () => void,
  ) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.drain();
    });
    socket.on('close', () => this.finish());
    socket.on('error', () => this.finish());
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  send(data: Buffer, opcode = 0x2): void {
    if (this.closed) return;
    const length = data.length;
    const header =
      length < 126
        ? Buffer.from([0x80 | opcode, length])
        : length < 65536
          ? Buffer.from([0x80 | opcode, 126, length >> 8, length & 0xff])
          : (() => {
              const h = Buffer.alloc(10);
              h[0] = 0x80 | opcode;
              h[1] = 127;
              h.writeBigUInt64BE(BigInt(length), 2);
              return h;
            })();
    this.socket.write(Buffer.concat([header, data]));
  }

  /** Sends a close frame (1000, normal) and ends the socket. */
  close(code = 1000): void {
    if (this.closed) return;
    const payload = Buffer.alloc(2);
    payload.writeUInt16BE(code, 0);
    this.send(payload, 0x8);
    this.socket.end();
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.onClose();
  }

  private drain(): void {
    for (;;) {
      if (this.buffer.length < 2) return;
      const first = this.buffer[0];
      const second = this.buffer[1];
      let length = second & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (this.buffer.length < 4) return;
        length = this.buffer.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (this.buffer.length < 10) return;
        length = Number(this.buffer.readBigUInt64BE(2));
        offset = 10;
      }
      const masked = (second & 0x80) !== 0;
      const mask = masked ? this.buffer.subarray(offset, offset + 4) : undefined;
      if (masked) offset += 4;
      if (this.buffer.length < offset + length) return;
      const payload = Buffer.from(this.buffer.subarray(offset, offset + length));
      if (mask) for (let i = 0; i < payload.length; i++) payload[i] ^= mask[i % 4];
      this.buffer = this.buffer.subarray(offset + length);
      const opcode = first & 0x0f;
      const fin = (first & 0x80) !== 0;
      if (opcode === 0x8) {
        this.close();
        return;
      }
      if (opcode === 0x9) {
        this.send(payload, 0xa);
        continue;
      }
      if (opcode === 0xa) continue;
      if (opcode !== 0x0) this.fragmentOpcode = opcode;
      this.fragments.push(payload);
      if (!fin) continue;
      const message = Buffer.concat(this.fragments);
      this.fragments = [];
      this.onMessage(message, this.fragmentOpcode === 0x2);
    }
  }
}

const STATUS_SUCCESS = { metadata: {}, status: 'Success' };

function exitStatus(command: string[], code: number) {
  if (code === 0) return STATUS_SUCCESS;
  return {
    metadata: {},
    status: 'Failure',
    message: `command terminated with non-zero exit code: error executing command [${command.join(' ')}], exit code ${code}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(code) }] },
  };
}

/** The Status a container runtime reports when the executable is not in the image. */
export function notFoundStatus(executable: string) {
  return {
    metadata: {},
    status: 'Failure',
    message: `Internal error occurred: error executing command in container: failed to exec in container: failed to start exec: OCI runtime exec failed: exec failed: unable to start container process: exec: "${executable}": executable file not found in $PATH: unknown`,
    reason: 'InternalError',
    details: { causes: [{ message: `exec: "${executable}": executable file not found in $PATH` }] },
    code: 500,
  };
}

const SHELLS = new Set(['sh', 'bash', 'ash', 'dash', 'zsh']);

/**
 * Runs one exec session over `ws`: the container's executables decide whether the command starts;
 * a shell reads lines from stdin (echoing them back and prompting with `$ ` under a TTY, as a
 * terminal's line discipline would) and understands `echo`, `exit` and `pwd`; `echo` alone prints
 * its arguments and exits.
 */
export function runExecSession(
  ws: ServerWebSocket,
  session: FakeExecSession,
  executables: string[],
): (data: Buffer) => void {
  const [executable = '', ...args] = session.command;
  const name = executable.split('/').pop() ?? executable;
  const frame = (channel: number, text: string) => ws.send(Buffer.concat([Buffer.from([channel]), Buffer.from(text)]));
  const newline = session.tty ? '\r\n' : '\n';
  const out = (text: string) => frame(CHANNEL.stdout, text.replaceAll('\n', newline));
  const err = (text: string) => frame(session.tty ? CHANNEL.stdout : CHANNEL.stderr, text.replaceAll('\n', newline));
  const end = (status: object, code?: number) => {
    session.exitCode = code;
    frame(CHANNEL.status, JSON.stringify(status));
    ws.close();
  };

  // The API server opens each output channel with an empty message before any data.
  frame(CHANNEL.stdout, '');
  if (!executables.includes(name)) {
    end(notFoundStatus(executable));
    return () => {};
  }

  let line = '';
  let afterCarriageReturn = false;
  const run = (text: string): boolean => {
    const words = text
      .trim()
      .split(/\s+/)
      .filter((w) => w !== '');
    if (words.length === 0) return true;
    const [cmd, ...rest] = words;
    if (cmd === 'exit') {
      const code = Number(rest[0] ?? 0);
      end(exitStatus(session.command, code), code);
      return false;
    }
    if (cmd === 'echo') out(`${rest.join(' ')}\n`);
    else if (cmd === 'pwd') out('/\n');
    else err(`${name}: ${cmd}: command not found\n`);
    return true;
  };

  if (!SHELLS.has(name)) {
    if (name === 'echo') out(`${args.join(' ')}\n`);
    end(STATUS_SUCCESS, 0);
    return () => {};
  }
  if (args[0] === '-c') {
    for (const part of (args[1] ?? '').split(/[;\n]/)) if (!run(part)) return () => {};
    end(STATUS_SUCCESS, 0);
    return () => {};
  }
  const prompt = () => {
    if (session.tty) out('$ ');
  };
  prompt();
  return (data: Buffer) => {
    if (data.length === 0) return;
    const channel = data[0];
    const body = data.subarray(1);
    if (channel === CHANNEL.resize) {
      session.resizes.push(JSON.parse(body.toString('utf8')));
      return;
    }
    if (channel !== CHANNEL.stdin) return;
    const text = body.toString('utf8');
    session.stdin += text;
    for (const ch of text) {
      // A terminal sends \r for Enter, a pipe \n; \r\n is one line end.
      const skip = ch === '\n' && afterCarriageReturn;
      afterCarriageReturn = ch === '\r';
      if (skip) continue;
      if (ch === '\r' || ch === '\n') {
        if (session.tty) out('\n');
        const current = line;
        line = '';
        if (!run(current)) return;
        prompt();
      } else if (ch === '\x7f') {
        if (line.length > 0) {
          line = line.slice(0, -1);
          if (session.tty) out('\b \b');
        }
      } else {
        line += ch;
        if (session.tty) out(ch);
      }
    }
  };
}
