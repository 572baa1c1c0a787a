import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * The connections that have not sent a request yet (a browser's preconnect, a client that opened a spare
 * connection, a slow client). Node's closeIdleConnections leaves them open, so a closing server would wait for
 * them until its headersTimeout (60 s): long past the shutdown's grace, which then ends the process by force.
 * Measured: after fetch aborted a streamed reply, undici opened such a connection and app.close() waited over 30 s.
 */
export function trackSilentSockets(server: Server): { destroyAll(): void } {
  const silent = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    silent.add(socket);
    socket.once('close', () => silent.delete(socket));
  });
  server.on('request', (request) => silent.delete(request.socket));
  return {
    destroyAll() {
      // Not one whose request is still arriving (some bytes read, no complete head yet): it gets the grace too.
      for (const socket of silent) {
        if (socket.bytesRead > 0) continue;
        socket.destroy();
        silent.delete(socket);
      }
    },
  };
}
