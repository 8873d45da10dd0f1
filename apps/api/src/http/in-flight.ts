/**
 * Request handlers still running. `server.close()` waits for open connections, not for handlers: a
 * handler whose client has gone (the end of a load, a proxy that timed out) keeps running after its
 * socket closed, and would meet a closed database pool. Shutdown waits for `settled()` before it
 * closes the database. The three handlers that reach the database (REST, tRPC, SimpleFIN) track
 * their work here.
 */
export interface InFlight {
  /** Counts `work` until it settles; returns it unchanged. */
  track<T>(work: Promise<T>): Promise<T>;
  /** Resolves once nothing tracked is running. */
  settled(): Promise<void>;
}

export function inFlightRequests(): InFlight {
  let running = 0;
  let waiting: (() => void)[] = [];
  const done = () => {
    running--;
    if (running > 0) return;
    for (const resolve of waiting) resolve();
    waiting = [];
  };
  return {
    track(work) {
      running++;
      work.then(done, done);
      return work;
    },
    settled() {
      return running === 0 ? Promise.resolve() : new Promise((resolve) => waiting.push(resolve));
    },
  };
}
