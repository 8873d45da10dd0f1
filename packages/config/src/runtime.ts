/**
 * How the API and the worker processes are started in production: by `pnpm start`, `pnpm bench`
 * and the Docker image (docker/Dockerfile and each app's `start` script repeat these; a test keeps
 * them equal). What each flag buys, measured against the same set-up without it, is in
 * bench/README.md ("Memory") and bench/CHANGELOG.md ("The worker's young generation", "The API's
 * old generation", "Pretenuring"):
 * - `--max-semi-space-size`: the worker's young generation 2 × 2 MiB; the API keeps V8's 16 (reads);
 * - `--heap-growing-percent`: how far the old generation grows after a full GC (worker 20, API 50);
 * - `--no-allocation-site-pretenuring` (the API): request objects stay in the young generation after
 *   a few slow requests;
 * - glibc's allocator: two arenas, and freed memory above 128 KiB handed back to the system.
 */
export const SERVER_NODE_FLAGS = {
  api: ['--max-semi-space-size=16', '--heap-growing-percent=50', '--no-allocation-site-pretenuring'],
  worker: ['--max-semi-space-size=2', '--heap-growing-percent=20'],
} as const;

export const SERVER_ENV: Record<string, string> = {
  GLIBC_TUNABLES: 'glibc.malloc.arena_max=2:glibc.malloc.trim_threshold=131072:glibc.malloc.mmap_threshold=131072',
};
