import { connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

/** How long after its slow start the server closed a connection, in ms; Infinity if not within `giveUpMs`. */
export type Closed = Promise<number>;

function closedWithin(socket: Socket, since: () => number, giveUpMs: number, drip: () => void): Closed {
  return new Promise((resolve) => {
    const dripper = setInterval(() => {
      if (!socket.destroyed) drip();
    }, 1_000);
    const giveUp = setTimeout(() => {
      socket.destroy();
      resolve(Infinity);
    }, giveUpMs);
    socket.on('error', () => {});
    // Read what the server sends (a 408), or the socket never sees the server's end.
    socket.resume();
    socket.once('close', () => {
      clearInterval(dripper);
      clearTimeout(giveUp);
      resolve(performance.now() - since());
    });
  });
}

/** Starts a TLS handshake and sends one more byte of a ClientHello record each second. */
export function slowHandshake(port: number, giveUpMs: number): Closed {
  const began = performance.now();
  const socket = tcpConnect(port, '127.0.0.1');
  // A TLS record header that announces a 512-byte ClientHello that never comes, byte by byte.
  const bytes = [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03];
  let sent = 0;
  return closedWithin(socket, () => began, giveUpMs, () => socket.write(Buffer.from([bytes[sent++ % bytes.length]!])));
}

/** Completes TLS, then sends a request line and one more header line each second, never the end. */
export function slowHeaders(port: number, path: string, giveUpMs: number): Closed {
  let began = Infinity;
  const socket = tlsConnect({ port, host: '127.0.0.1', rejectUnauthorized: false }, () => {
    began = performance.now();
    socket.write(`POST ${path} HTTP/1.1\r\nHost: webhook\r\n`);
  });
  let n = 0;
  return closedWithin(socket, () => began, giveUpMs, () => socket.write(`X-Slow-${n++}: 1\r\n`));
}

/** Sends complete headers announcing 1000 bytes of JSON, then one byte each second. */
export function slowBody(port: number, path: string, giveUpMs: number): Closed {
  let began = Infinity;
  const socket = tlsConnect({ port, host: '127.0.0.1', rejectUnauthorized: false }, () => {
    socket.write(`POST ${path} HTTP/1.1\r\nHost: webhook\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`);
    began = performance.now();
  });
  return closedWithin(socket, () => began, giveUpMs, () => socket.write(' '));
}
