/**
 * The one way a test waits for something that happens elsewhere (a worker's delivery, a row, a
 * process): poll `check` until it returns a truthy value, which is returned, or fail at the deadline
 * naming what was awaited. No test sleeps for a fixed time and hopes.
 */
export interface WaitOptions {
  /** How long to wait before failing (default 15 s). */
  timeoutMs?: number;
  /** Between two checks (default 25 ms). */
  intervalMs?: number;
  /** What is awaited, for the failure's message. */
  what?: string;
}

export async function waitUntil<T>(
  check: () => T | Promise<T>,
  { timeoutMs = 15_000, intervalMs = 25, what = 'condition' }: WaitOptions = {},
): Promise<NonNullable<T>> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (performance.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * A fixed wait, for the few tests whose subject is time passing or something *not* happening (a TTL
 * running out, a refusal window closing, a message that must not arrive). `why` says which, so a
 * reader never meets a bare sleep; anything that can be awaited is awaited with `waitUntil`.
 */
export async function pause(ms: number, why: string): Promise<void> {
  if (!why.trim()) throw new Error('pause() needs a reason');
  await new Promise((resolve) => setTimeout(resolve, ms));
}
