/** Plain JavaScript, so that loading it does not start Node's TypeScript stripping in a bundled process.
 *
 * Loaded into the API or worker with `--import` by `memory.ts` only (never in production): keeps
 * the peak of `process.memoryUsage()` and of each V8 heap space's committed size, sampled every
 * 100 ms, and on SIGUSR2 writes them (and the current values) to MEMORY_PROBE_OUT. With
 * MEMORY_PROBE_SNAPSHOT set it writes a heap snapshot beside it too.
 */
import fs from 'node:fs';
import v8 from 'node:v8';

const out = process.env.MEMORY_PROBE_OUT;
const peak = {};
const keep = (key, value) => {
  if (value > (peak[key] ?? 0)) peak[key] = value;
};
const sample = () => {
  for (const [key, value] of Object.entries(process.memoryUsage())) keep(key, value);
  for (const space of v8.getHeapSpaceStatistics()) keep(`space.${space.space_name}`, space.physical_space_size);
};
const timer = setInterval(sample, 100);
timer.unref();

if (out) {
  process.on('SIGUSR2', () => {
    sample();
    const now = { ...process.memoryUsage() };
    for (const space of v8.getHeapSpaceStatistics()) {
      now[`space.${space.space_name}`] = space.physical_space_size;
      now[`used.${space.space_name}`] = space.space_used_size;
    }
    const code = v8.getHeapCodeStatistics();
    now.codeAndMetadata = code.code_and_metadata_size;
    now.bytecodeAndMetadata = code.bytecode_and_metadata_size;
    now.externalScriptSource = code.external_script_source_size;
    const heap = v8.getHeapStatistics();
    now.mallocedMemory = heap.malloced_memory;
    now.peakMallocedMemory = heap.peak_malloced_memory;
    now.nativeContexts = heap.number_of_native_contexts;
    fs.writeFileSync(out, JSON.stringify({ peak, now }));
    if (process.env.MEMORY_PROBE_SNAPSHOT) v8.writeHeapSnapshot(out.replace(/\.json$/, '.heapsnapshot'));
  });
}
