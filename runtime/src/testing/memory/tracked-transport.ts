import type { Readable } from 'node:stream';
import type { Clock } from '../../time/clock.js';
import type { Transport } from '../../rest/transport.js';

/**
 * `transport` reporting to `clock` (see {@link Clock.track}) while a request is unanswered or
 * a watch stream holds events its reader has not taken yet: what `runUntilIdle` must wait
 * for besides the manager's queues. Returns the transport and the probe's removal.
 */
export function trackedTransport(transport: Transport, clock: Clock): { transport: Transport; untrack: () => void } {
  let inFlight = 0;
  const streams = new Set<Readable>();
  const untrack =
    clock.track?.('memory cluster requests and watch events', () => {
      if (inFlight > 0) return true;
      for (const stream of streams) if (stream.readableLength > 0) return true;
      return false;
    }) ?? (() => {});
  return {
    untrack,
    transport: {
      async request(request) {
        inFlight++;
        try {
          return await transport.request(request);
        } finally {
          inFlight--;
        }
      },
      async stream(request) {
        inFlight++;
        try {
          const stream = await transport.stream(request);
          streams.add(stream);
          stream.once('close', () => streams.delete(stream));
          return stream;
        } finally {
          inFlight--;
        }
      },
      recovered: (signal) => transport.recovered(signal),
    },
  };
}
