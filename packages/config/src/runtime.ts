/**
 * How the API and the worker processes are started in production: by `pnpm start`, `pnpm bench`
 * and the Docker image (docker/Dockerfile repeats these; keep them equal). Each one was measured
 * under the 32-connection simulation load against the same set-up without it (bench/README.md,
 * "Memory"):
 * - `--max-semi-space-size`: the worker's young generation is 2 × 2 MiB instead of up to 2 × 16 MiB
 *   (4 until session 18; 2 took its peak RSS under the simulation load from 145–146 to 137–143 MiB
 *   at the same CPU per request, in `memory` runs taken in turns). The API keeps V8's 16: a history page allocates a few hundred objects, and with 4 MiB the
 *   scavenges took 14 % of the API's time on reads. Measured in one sitting (bench/README.md,
 *   "Reads"): history 0.6 → 0.4 ms of API CPU per request, and the API's peak RSS under the
 *   simulation load 127 → 153 MiB (target 200);
 * - `--heap-growing-percent`: after each full GC the old generation may grow by this much before the
 *   next one, instead of up to 4× on a machine with plenty of memory, which let the API's heap triple
 *   under load with only a third of it live. The worker keeps 20. The API takes 50: with 20, a
 *   long-running API (the whole of `pnpm bench`) spent at least 0.4 s of every 10 s of history reads
 *   in mark-compacts (prom-client's GC metric, which counts one GC per batch of them: a floor) and
 *   670–690 µs of CPU a page; with 50, 0.22 s and 540–580 µs, the pull's p99 under 50 ms, and the peak RSS under the simulation load
 *   179 MiB against 176 (V8's default: 237, over the 200 target; bench/README.md, "Memory");
 * - `--no-allocation-site-pretenuring` (the API): V8 allocates the objects of an allocation site
 *   straight into the old generation once it has seen most of them survive. An API that has served
 *   a few dozen slow requests (registrations, account openings) learnt that of its request and row
 *   objects, and kept allocating every later history page's objects there: 3–4× the scavenge time,
 *   mark-compacts under load, ~500 µs of CPU a history page against ~370 for a fresh process.
 *   Without it, the same process stays at ~370 µs; under the simulation load, CPU per request
 *   0.34 against 0.35–0.38 ms and the same peak RSS (bench/README.md, "Pretenuring");
 * - glibc's allocator: two arenas instead of one per thread (V8's compiler threads each kept their
 *   own, mostly free), and freed memory above 128 KiB handed back to the system.
 */
export const SERVER_NODE_FLAGS = {
  api: ['--max-semi-space-size=16', '--heap-growing-percent=50', '--no-allocation-site-pretenuring'],
  worker: ['--max-semi-space-size=2', '--heap-growing-percent=20'],
} as const;

export const SERVER_ENV: Record<string, string> = {
  GLIBC_TUNABLES: 'glibc.malloc.arena_max=2:glibc.malloc.trim_threshold=131072:glibc.malloc.mmap_threshold=131072',
};
