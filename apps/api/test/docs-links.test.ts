/**
 * Every relative link in the docs resolves: README.md, CONTRIBUTING.md, bench/README.md and
 * docs/**\/*.md, to a file or folder that exists and, for `#anchor`s, to a heading of the target
 * (GitHub's slugs). Plain fs, no network: http(s) and mailto links are skipped. Links inside code
 * (fenced blocks, inline `code`) are not links.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Targets written by other branches of the same session (disposable worlds, the webhook lab):
 * allowed while the file is missing, so this branch passes before they are merged. Remove this
 * allowance once docs/guides/webhooks.md is on main.
 */
const PENDING_TARGETS = new Set(['docs/guides/webhooks.md']);

function markdownFiles(): string[] {
  const files = ['README.md', 'CONTRIBUTING.md', 'bench/README.md'];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.md')) files.push(rel);
    }
  };
  walk('docs');
  return files.filter((file) => existsSync(path.join(root, file)));
}

/** The text outside fenced code blocks and inline code, line by line (line numbers kept). */
function proseLines(text: string): string[] {
  let fence: string | null = null;
  return text.split('\n').map((line) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) {
      fence = fence === null ? marker : null;
      return '';
    }
    if (fence !== null) return '';
    return line.replace(/(`+)[^`]*?\1/g, '');
  });
}

/** GitHub's heading slug: lowercase, punctuation dropped, each space a hyphen; repeats get -1, -2… */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | null = null;
  for (const line of text.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) {
      fence = fence === null ? marker : null;
      continue;
    }
    if (fence !== null) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const plain = heading
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
      .replace(/<[^>]+>/g, '') // inline HTML
      .toLowerCase();
    const base = plain.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  for (const match of text.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(match[1] as string);
  return anchors;
}

interface Link {
  file: string;
  line: number;
  target: string;
}

function linksOf(file: string): Link[] {
  const links: Link[] = [];
  proseLines(readFileSync(path.join(root, file), 'utf8')).forEach((line, index) => {
    // [text](target) and ![alt](target), the target up to a space (a title) or the closing parenthesis.
    for (const match of line.matchAll(/!?\[(?:[^\]]|\\\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ file, line: index + 1, target: match[1] as string });
    }
    // Reference definitions: [label]: target
    const reference = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line);
    if (reference) links.push({ file, line: index + 1, target: reference[1] as string });
  });
  return links;
}

function problemOf(link: Link): string | null {
  const { target } = link;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // http:, https:, mailto:
  const [rawPath = '', anchor] = target.split('#', 2);
  const filePath = decodeURIComponent(rawPath);
  const resolved = filePath === '' ? link.file : path.posix.normalize(path.posix.join(path.posix.dirname(link.file), filePath));
  if (resolved.startsWith('..')) return `${target}: leaves the repository`;
  const absolute = path.join(root, resolved);
  if (!existsSync(absolute)) {
    return PENDING_TARGETS.has(resolved) ? null : `${target}: no file ${resolved}`;
  }
  if (anchor === undefined || anchor === '') return null;
  if (statSync(absolute).isDirectory() || !resolved.endsWith('.md')) return `${target}: an anchor into a non-Markdown target`;
  const anchors = anchorsOf(readFileSync(absolute, 'utf8'));
  return anchors.has(decodeURIComponent(anchor)) ? null : `${target}: no heading #${anchor} in ${resolved}`;
}

describe('links in the docs', () => {
  const files = markdownFiles();

  it('finds the docs', () => {
    expect(files).toContain('README.md');
    expect(files).toContain('docs/README.md');
    expect(files.length).toBeGreaterThan(20);
  });

  it('resolves every relative link and anchor', () => {
    const links = files.flatMap(linksOf);
    expect(links.length).toBeGreaterThan(100);
    const broken = links.flatMap((link) => {
      const problem = problemOf(link);
      return problem ? [`${link.file}:${link.line}: ${problem}`] : [];
    });
    expect(broken).toEqual([]);
  });

  it('computes GitHub slugs', () => {
    expect([...anchorsOf('# The `POST /v1/x` route: a, b & c\n## Repeat\n## Repeat\n```\n# not\n```')]).toEqual([
      'the-post-v1x-route-a-b--c',
      'repeat',
      'repeat-1',
    ]);
  });

  it('sees a broken link and a broken anchor', () => {
    expect(problemOf({ file: 'README.md', line: 1, target: 'docs/nowhere.md' })).toMatch(/no file/);
    expect(problemOf({ file: 'README.md', line: 1, target: 'docs/README.md#nowhere' })).toMatch(/no heading/);
    expect(problemOf({ file: 'docs/README.md', line: 1, target: '../README.md' })).toBeNull();
  });
});
