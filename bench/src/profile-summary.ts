/**
 * Summarises a `.cpuprofile`: self time by function and by package, top first. Frames in a bundle
 * (`apps/*\/dist`, built with linked source maps) are traced back through its `.map` to the source
 * file and package they came from, so a profile of `pnpm start` reads like one of `pnpm dev`.
 */
import fs from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
}

const file = process.argv[2];
if (!file) throw new Error('usage: node src/profile-summary.ts <file.cpuprofile>');
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as { nodes: ProfileNode[] };
const total = profile.nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0);

const maps = new Map<string, SourceMap | null>();
function sourceMapOf(url: string): SourceMap | null {
  if (!maps.has(url)) {
    const mapFile = url.startsWith('file://') ? `${fileURLToPath(url)}.map` : '';
    maps.set(url, mapFile && fs.existsSync(mapFile) ? new SourceMap(JSON.parse(fs.readFileSync(mapFile, 'utf8'))) : null);
  }
  return maps.get(url) ?? null;
}

/** Where a frame's code was written: its source file and line, through the bundle's map when there is one. */
function origin({ url, lineNumber, columnNumber }: ProfileNode['callFrame']): { url: string; line: number } {
  const entry = sourceMapOf(url)?.findEntry(lineNumber, columnNumber);
  if (entry && 'originalSource' in entry) return { url: entry.originalSource, line: entry.originalLine };
  return { url, line: lineNumber };
}

const byFunction = new Map<string, number>();
const byPackage = new Map<string, number>();
for (const node of profile.nodes) {
  const hits = node.hitCount ?? 0;
  if (hits === 0) continue;
  const { functionName } = node.callFrame;
  const { url, line } = origin(node.callFrame);
  const where = url.replace(/^.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, '').replace(/^.*\/work\/[^/]+\//, '');
  const key = `${functionName || '(anonymous)'} ${where}:${line}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + hits);
  const pkg = url.includes('node_modules')
    ? (/node_modules\/((@[^/]+\/)?[^/]+)\/(?!.*node_modules)/.exec(url)?.[1] ?? 'node_modules')
    : url.startsWith('node:') || url === ''
      ? functionName.startsWith('(')
        ? functionName
        : 'node internals'
      : 'sandbank';
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + hits);
}
const top = (map: Map<string, number>, count: number) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, hits]) => `${((hits / total) * 100).toFixed(1).padStart(5)}%  ${key}`)
    .join('\n');
console.log(`self time by package:\n${top(byPackage, 15)}\n\nself time by function:\n${top(byFunction, 25)}`);
