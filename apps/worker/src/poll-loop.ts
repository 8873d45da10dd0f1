/**
 * A worker's periodic pass (due items, the world sweep): `pass` runs, then again after `pollMs` —
 * or at once when it says there is more — until `stop`, which wakes a waiting loop and resolves
 * when the pass under way has finished. `pass` handles (logs) its own failures.
 */
import { setTimeout as delay } from 'node:timers/promises';

export function startPollLoop(pollMs: number, pass: () => Promise<boolean>): { stop(): Promise<void> } {
  const controller = new AbortController();
  const loop = (async () => {
    while (!controller.signal.aborted) {
      const again = await pass();
      if (!again) await delay(pollMs, undefined, { signal: controller.signal }).catch(() => undefined);
    }
  })();
  return {
    async stop() {
      controller.abort();
      await loop;
    },
  };
}
