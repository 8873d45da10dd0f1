/** Summarises a `.cpuprofile`: self time by function and by package, top first. */
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

const file = process.argv[2];
if (!file) throw new Error('usage: node src/profile-summary.ts <file.cpuprofile>');
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as { nodes: ProfileNode[] };
const total = profile.nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0);
const byFunction = new Map<string, number>();
const byPackage = new Map<string, number>();
for (const node of profile.nodes) {
  const hits = node.hitCount ?? 0;
  if (hits === 0) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url.replace(/^.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, '').replace(/^file:\/\/.*\/work\/[^/]+\//, '');
  const key = `${functionName || '(anonymous)'} ${where}:${lineNumber}`;
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
