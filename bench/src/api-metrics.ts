/**
 * The API's own view of its heap and garbage collection, from its Prometheus endpoint (prom-client's
 * default metrics): read before and after a load, the difference says how much of the load's time
 * went to GC and how big the heap it worked in was.
 */
export interface ApiHeap {
  heapUsedMiB: number;
  /** Seconds spent in GC since start, by kind (minor = scavenges, major = mark-compact). */
  gcSeconds: Record<string, number>;
}

export async function readApiHeap(baseUrl: string): Promise<ApiHeap> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
  const gcSeconds: Record<string, number> = {};
  for (const match of text.matchAll(/^nodejs_gc_duration_seconds_sum\{kind="(\w+)"\} ([\d.e+-]+)$/gm)) {
    gcSeconds[match[1] ?? ''] = Number(match[2]);
  }
  return { heapUsedMiB: Math.round(value(/^nodejs_heap_size_used_bytes ([\d.e+]+)$/m) / 2 ** 20), gcSeconds };
}

/** GC seconds per kind between two readings, and the heap at the second. */
export function heapBetween(before: ApiHeap, after: ApiHeap) {
  const gcSeconds = Object.fromEntries(
    Object.entries(after.gcSeconds).map(([kind, seconds]) => [
      kind,
      Number((seconds - (before.gcSeconds[kind] ?? 0)).toFixed(3)),
    ]),
  );
  return { heapUsedMiB: after.heapUsedMiB, gcSeconds };
}
